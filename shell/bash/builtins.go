package bash

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
	"github.com/agentenkit/agentenkit/shell/bash/expand"
	"github.com/agentenkit/agentenkit/shell/bash/glob"
	"github.com/agentenkit/agentenkit/shell/bash/parse"
	"github.com/agentenkit/agentenkit/shell/bash/printf"
	"github.com/agentenkit/agentenkit/shell/bash/redir"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

// builtinFunc is a builtin of the shell: it returns its exit status.
type builtinFunc func(r *Runner, args []string) int

var builtins map[string]builtinFunc

// IsBuiltin tells whether name is a builtin of the shell (echo, cd, read,
// test, ...), which Options.Exec is never asked to run.
func IsBuiltin(name string) bool {
	_, ok := builtins[name]
	return ok
}

// specialBuiltins keep their temporary assignments (POSIX).
var specialBuiltins = map[string]bool{
	":": true, ".": true, "break": true, "continue": true, "eval": true, "exec": true,
	"exit": true, "export": true, "readonly": true, "return": true, "set": true,
	"shift": true, "times": true, "trap": true, "unset": true, "source": false,
}

func init() {
	builtins = map[string]builtinFunc{
		":":         func(r *Runner, a []string) int { return 0 },
		"true":      func(r *Runner, a []string) int { return 0 },
		"false":     func(r *Runner, a []string) int { return 1 },
		"echo":      echoBuiltin,
		"printf":    printfBuiltin,
		"cd":        cdBuiltin,
		"pwd":       pwdBuiltin,
		"exit":      exitBuiltin,
		"return":    returnBuiltin,
		"break":     loopCtl,
		"continue":  loopCtl,
		"set":       setBuiltin,
		"shift":     shiftBuiltin,
		"unset":     unsetBuiltin,
		"export":    declBuiltin,
		"readonly":  declBuiltin,
		"local":     declBuiltin,
		"declare":   declBuiltin,
		"typeset":   declBuiltin,
		"read":      readBuiltin,
		"eval":      evalBuiltin,
		"source":    sourceBuiltin,
		".":         sourceBuiltin,
		"test":      testBuiltin,
		"[":         testBuiltin,
		"type":      typeBuiltin,
		"command":   commandBuiltin,
		"builtin":   builtinBuiltin,
		"trap":      trapBuiltin,
		"shopt":     shoptBuiltin,
		"alias":     aliasBuiltin,
		"unalias":   unaliasBuiltin,
		"getopts":   getoptsBuiltin,
		"let":       letBuiltin,
		"mapfile":   mapfileBuiltin,
		"readarray": mapfileBuiltin,
		"umask":     umaskBuiltin,
		"times": func(r *Runner, a []string) int {
			fmt.Fprint(r.stdout(), "0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n")
			return 0
		},
		"exec":   execBuiltin,
		"kill":   killBuiltin,
		"jobs":   jobsBuiltin,
		"disown": disownBuiltin,
		"fg":     noJobControl,
		"bg":     noJobControl,
		"wait":   waitBuiltin,
		"hash":   hashBuiltin,
		"caller": callerBuiltin,
		"ulimit": ulimitBuiltin,
		"pushd":  pushdBuiltin,
		"popd":   popdBuiltin,
		"dirs":   dirsBuiltin,
		"help":   helpBuiltin,
	}
}

// lockedWriter serialises writes of concurrent jobs.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (r *Runner) writeOut(s string) int {
	if _, err := io.WriteString(r.stdout(), s); err != nil {
		return 1
	}
	return 0
}

// echoBuiltin is echo: its text written at once; a failed write is
// reported.
func echoBuiltin(r *Runner, args []string) int {
	if _, err := io.WriteString(r.stdout(), printf.Echo(args[1:], r.shopt["xpg_echo"])); err != nil {
		return r.writeErr("echo", err)
	}
	return 0
}

// writeErr reports a builtin's failed write: a closed pipe is SIGPIPE
// (status 141, silent), as for a process.
func (r *Runner) writeErr(name string, err error) int {
	if errors.Is(err, io.ErrClosedPipe) {
		return 141
	}
	r.errf("%s: write error: %s", name, redir.ErrText(err))
	return 1
}

// skipDashDash drops a leading "--" from a builtin's arguments (args[0]
// is the builtin's name).
func skipDashDash(args []string) []string {
	if len(args) > 1 && args[1] == "--" {
		return append([]string{args[0]}, args[2:]...)
	}
	return args
}

// tooMany reports a special builtin's extra arguments as bash does: a
// message, and the shell exits with status 1.
func (r *Runner) tooMany(name string) int {
	r.errf("%s: too many arguments", name)
	r.exit(1)
	return 1
}

// shellNumber parses a builtin's numeric argument as bash does: blanks
// around it are allowed, a sign, decimal digits.
func shellNumber(s string) (int64, bool) {
	t := strings.Trim(s, " \t\n")
	n, err := strconv.ParseInt(strings.TrimPrefix(t, "+"), 10, 64)
	return n, err == nil && t != "" && !strings.HasPrefix(t, "+-")
}

func exitBuiltin(r *Runner, args []string) int {
	args = skipDashDash(args)
	code := r.status
	if len(args) > 1 {
		n, ok := shellNumber(args[1])
		if !ok {
			r.errf("exit: %s: numeric argument required", args[1])
			code = 2
		} else {
			if len(args) > 2 {
				return r.tooMany("exit")
			}
			code = int(n & 0xff)
		}
	}
	r.exit(code)
	return code
}

func returnBuiltin(r *Runner, args []string) int {
	args = skipDashDash(args)
	code := r.status
	if len(args) > 1 {
		n, ok := shellNumber(args[1])
		if !ok {
			r.errf("return: %s: numeric argument required", args[1])
			code = 2
		} else {
			if len(args) > 2 {
				return r.tooMany("return")
			}
			code = int(n & 0xff)
		}
	}
	if r.funcDepth == 0 && r.sourceDepth == 0 {
		r.errf("return: can only `return' from a function or sourced script")
		return 2
	}
	r.returning = true
	return code
}

func loopCtl(r *Runner, args []string) int {
	args = skipDashDash(args)
	n := 1
	if len(args) > 1 {
		v, ok := shellNumber(args[1])
		if !ok {
			r.errf("%s: %s: numeric argument required", args[0], args[1])
			r.exit(128)
			return 128
		}
		if len(args) > 2 {
			return r.tooMany(args[0])
		}
		if v < 1 {
			r.errf("%s: %s: loop count out of range", args[0], args[1])
			return 1
		}
		n = int(min(v, 1<<30))
	}
	if r.loopDepth == 0 {
		r.errf("%s: only meaningful in a `for', `while', or `until' loop", args[0])
		return 0
	}
	n = min(n, r.loopDepth)
	if args[0] == "break" {
		r.brk = n
	} else {
		r.cont = n
	}
	return 0
}

func shiftBuiltin(r *Runner, args []string) int {
	args = skipDashDash(args)
	n := 1
	if len(args) > 1 {
		v, ok := shellNumber(args[1])
		if !ok {
			r.errf("shift: %s: numeric argument required", args[1])
			return 1
		}
		if len(args) > 2 {
			return r.tooMany("shift")
		}
		n = int(min(v, 1<<30))
	}
	if n < 0 {
		r.errf("shift: %s: shift count out of range", args[1])
		return 1
	}
	if n > len(r.params) {
		if r.opt["posix"] || r.shopt["shift_verbose"] {
			r.errf("shift: %s: shift count out of range", args[1])
		}
		return 1
	}
	r.params = r.params[n:]
	return 0
}

func unsetBuiltin(r *Runner, args []string) int {
	opts, args, err := builtinopt.Parse("fnv", args[1:])
	if err != nil {
		return builtinopt.Usage(r.errf, r.stdout(), r.stderr(), "unset", "unset [-f] [-v] [-n] [name ...]", err)
	}
	mode := "" // f, n or v; n gives way to f
	switch {
	case opts.Has('f') && opts.Has('v'):
		r.errf("unset: cannot simultaneously unset a function and a variable")
		return 1
	case opts.Has('f'):
		mode = "f"
	case opts.Has('n'):
		mode = "n"
	case opts.Has('v'):
		mode = "v"
	}
	status := 0
	for _, a := range args {
		if mode == "f" {
			delete(r.funcs, a)
			continue
		}
		if name, idx, ok := strings.Cut(a, "["); ok && strings.HasSuffix(idx, "]") {
			v := r.lookupVar(name)
			if v == nil {
				continue
			}
			if v.ReadOnly {
				r.errf("unset: %s: cannot unset: readonly variable", name)
				status = 1
				continue
			}
			key := idx[:len(idx)-1]
			switch v.Kind {
			case vars.Assoc:
				pe, err := expand.ParseRef(a)
				if err == nil {
					k, _ := r.assocKey(pe.Index)
					v.UnsetAssoc(k)
				}
			case vars.Indexed:
				if key == "@" || key == "*" {
					v.Idx = map[int]string{}
					continue
				}
				n, err := r.subscriptIndex(key)
				if err != nil {
					r.report(err)
					return 1
				}
				i, ok := v.AbsIndex(n)
				if !ok {
					r.errf("unset: [%d]: bad array subscript", n)
					status = 1
					continue
				}
				delete(v.Idx, i)
			default:
				// A string is element 0; another index is an error.
				n, err := r.subscriptIndex(key)
				if err != nil {
					r.report(err)
					return 1
				}
				if n != 0 {
					r.errf("unset: %s: not an array variable", name)
					status = 1
					continue
				}
				status |= unsetBuiltin(r, []string{"unset", "-v", name})
			}
			continue
		}
		if !syntax.ValidName(a) {
			if mode == "" {
				continue // no variable by that name: bash tries a function
			}
			r.errf("unset: `%s': not a valid identifier", a)
			status = 1
			continue
		}
		if mode == "" {
			if _, ok := r.funcs[a]; ok {
				if v, _ := r.vars.Lookup(a); v == nil {
					delete(r.funcs, a)
					continue
				}
			}
		}
		name := a
		if mode != "n" {
			name = r.resolve(a)
		}
		r.undynamic(name) // clock.go: a plain variable from now on
		v, i := r.vars.Lookup(name)
		if v == nil {
			continue
		}
		if v.ReadOnly {
			r.errf("unset: %s: cannot unset: readonly variable", name)
			status = 1
			continue
		}
		if i > 0 && i == len(r.vars.Frames)-1 && !r.vars.Frames[i].Temp {
			// A local of the running function stays, unset, and still
			// hides the outer one.
			r.vars.Frames[i].Vars[name] = &vars.Var{}
		} else {
			// A global, or a local of a calling function: unset reveals
			// the outer one.
			delete(r.vars.Frames[i].Vars, name)
		}
	}
	return status
}

// maxNest bounds nested eval and source (and functions: 1000), so that a
// runaway recursion is an error, not the end of the host's stack.
const maxNest = 1000

func evalBuiltin(r *Runner, args []string) int {
	if r.nest >= maxNest {
		r.errf("eval: maximum eval nesting level exceeded (%d)", maxNest)
		r.exit(1)
		return 1
	}
	r.nest++
	savedCmd := r.nestCmd
	r.nestCmd = "eval"
	defer func() { r.nest--; r.nestCmd = savedCmd }()
	_, rest, err := builtinopt.Parse("", args[1:])
	if err != nil {
		return builtinopt.Usage(r.errf, r.stdout(), r.stderr(), "eval", "eval [arg ...]", err)
	}
	src := strings.Join(rest, " ")
	if strings.TrimSpace(src) == "" {
		return 0
	}
	line, off := r.line, r.lineOff
	if r.lineFrozen == 0 {
		// The eval'd text's first line is the one the eval command
		// ends on, as bash's parser has read that far.
		r.lineOff = max(r.callEnd, line) - 1
	}
	src, err = r.runSource(src)
	r.lineOff = off
	r.aborting = false // an error that skips the rest of a command ends the eval only
	r.line = line
	if err != nil && !r.stopped() {
		parse.PrintSyntaxError(r.stderr(), r.name+": eval", src, r.line, err)
		return 2
	}
	return r.status
}

func sourceBuiltin(r *Runner, args []string) int {
	_, rest, err := builtinopt.Parse("", args[1:])
	if err != nil {
		return builtinopt.Usage(r.errf, r.stdout(), r.stderr(), args[0], args[0]+" filename [arguments]", err)
	}
	args = append([]string{args[0]}, rest...)
	if len(args) < 2 {
		r.errf("%s: filename argument required", args[0])
		fmt.Fprintf(r.stderr(), "%s: usage: %s filename [arguments]\n", args[0], args[0])
		return 2
	}
	if r.nest >= maxNest {
		r.errf("%s: maximum source nesting level exceeded (%d)", args[0], maxNest)
		r.exit(1)
		return 1
	}
	r.nest++
	savedCmd := r.nestCmd
	r.nestCmd = args[0]
	defer func() { r.nest--; r.nestCmd = savedCmd }()
	name := args[1]
	p := name
	if !strings.Contains(name, "/") {
		found := ""
		pathList, _ := r.getVar("PATH")
		for _, d := range strings.Split(pathList, ":") {
			c := glob.Join(glob.OrDot(d), name)
			if fi, err := r.fs.Stat(r.abs(c)); err == nil && fi.Mode().IsRegular() {
				found = c
				break
			}
		}
		if found != "" {
			p = found
		}
	}
	data, err := readFile(r, r.abs(p))
	var se *shError
	if errors.As(err, &se) {
		r.errf("%s: %s: %s", args[0], name, se.msg)
		return 1
	}
	if err != nil {
		r.errf("%s: %s", name, redir.ErrText(err))
		return 1
	}
	saved := r.params
	if len(args) > 2 {
		r.params = slices.Clone(args[2:])
	}
	r.sourceDepth++
	line, off, file := r.line, r.lineOff, r.srcFile
	r.lineOff, r.srcFile = 0, p
	data, perr := r.runSource(data)
	r.line, r.lineOff, r.srcFile = line, off, file
	r.sourceDepth--
	if t, ok := r.traps["RETURN"]; ok && !r.inTrap {
		r.returning = false
		r.runTrap(t)
	}
	if len(args) > 2 {
		r.params = saved
	}
	if r.returning {
		r.returning = false
	}
	if perr != nil && !r.exiting {
		parse.PrintSyntaxError(r.stderr(), name, data, 1, perr)
		return 2
	}
	return r.status
}

func readFile(r *Runner, p string) (string, error) {
	f, err := r.fs.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err == nil && fi.IsDir() {
		return "", &shError{msg: "is a directory"}
	}
	b, err := io.ReadAll(f)
	return string(b), err
}

func builtinBuiltin(r *Runner, args []string) int {
	args = skipDashDash(args)
	if len(args) < 2 {
		return 0
	}
	b, ok := builtins[args[1]]
	if !ok {
		r.errf("builtin: %s: not a shell builtin", args[1])
		return 1
	}
	return b(r, args[1:])
}

func letBuiltin(r *Runner, args []string) int {
	if len(args) < 2 {
		r.errf("let: expression expected")
		return 1
	}
	var n int64
	for _, a := range args[1:] {
		var err error
		n, err = r.arithString(a)
		if err != nil {
			var se *shError
			if e, ok := err.(*shError); ok {
				se = e
				r.errf("let: %s", se.msg)
			}
			return 1
		}
	}
	return b2i(n == 0)
}

// umask returns the mask, after setting it when set is true: Options.Umask
// or the shell's own number.
func (r *Runner) umask(set bool, mask uint32) uint32 {
	if r.opts.Umask != nil {
		return r.opts.Umask(set, mask)
	}
	g := r.vars.Global().Vars
	if set {
		g["__UMASK"] = &vars.Var{Set: true, Str: fmt.Sprintf("%04o", mask)}
	}
	if v, ok := g["__UMASK"]; ok {
		n, _ := strconv.ParseUint(v.Str, 8, 32)
		return uint32(n)
	}
	return 0o022
}

func execBuiltin(r *Runner, args []string) int {
	opts, args, err := builtinopt.Parse("cla:", args[1:])
	if err != nil {
		return builtinopt.Usage(r.errf, r.stdout(), r.stderr(), "exec", "exec [-cl] [-a name] [command [argument ...]] [redirection ...]", err)
	}
	argv0, _ := opts.Value('a')
	if len(args) == 0 {
		return 0
	}
	if b, ok := builtins[args[0]]; ok {
		st := b(r, args)
		r.exit(st)
		return st
	}
	if body, ok := r.funcs[args[0]]; ok {
		r.callFunc(args[0], body, args[1:])
	} else {
		r.execArgv0 = argv0 // a nested shell's $0 (Argv0)
		r.external(args, nil)
		r.execArgv0 = ""
	}
	r.exit(r.status)
	return r.status
}

func callerBuiltin(r *Runner, args []string) int {
	if r.funcDepth == 0 {
		return 1
	}
	fmt.Fprintf(r.stdout(), "%d main\n", r.line)
	return 0
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// subscriptIndex evaluates an indexed array's subscript as unset does:
// expanded, its double quotes dropped, then as arithmetic.
func (r *Runner) subscriptIndex(key string) (int64, error) {
	key, err := r.expandSub(key)
	if err != nil {
		return 0, err
	}
	return r.arithString(strings.ReplaceAll(key, `"`, ""))
}
