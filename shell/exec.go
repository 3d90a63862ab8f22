package shell

// Running commands: the lookup chain behind the interpreter's
// Options.Exec and behind Call.Exec, scripts of the filesystem, and the
// bash and sh builtins.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// ErrNotFound matches the error Call.Exec returns for a command found
// nowhere (and for a script path that does not exist). That error stands
// for exit status 127 (ExitCode) and is not printed: the caller reports
// it in its own words ("xargs: nosuch: No such file or directory").
var ErrNotFound = command.ErrNotFound

// shExecError is a command that could not be started: not found (127), or
// a file that cannot run (126).
type shExecError struct {
	name   string
	status int
	msg    string // "command not found", "Permission denied", ...
}

func (e *shExecError) Error() string { return e.name + ": " + e.msg }

// Is makes a 127 match ErrNotFound.
func (e *shExecError) Is(target error) bool { return target == ErrNotFound && e.status == 127 }

// As gives the status to ExitCode and the interpreter.
func (e *shExecError) As(target any) bool {
	if p, ok := target.(*command.ExitStatus); ok {
		*p = command.ExitStatus(e.status)
		return true
	}
	return false
}

func shNotFound(name string) error {
	return &shExecError{name: name, status: 127, msg: "command not found"}
}

// shSetEnv gives c the environment env (which it keeps).
func shSetEnv(c *Call, env map[string]string) { c.SetEnv(env) }

// dispatch runs args[0] through the lookup chain: handlers, coreutils,
// the shell's builtins (only reached from Call.Exec: the interpreter runs
// its own), a file (a path with a slash, or found in $PATH of the FS), the
// fallback. A name found nowhere is an error matching ErrNotFound.
func (s *session) dispatch(ctx context.Context, c *Call, args []string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	name := args[0]
	pathList, _ := c.Env("PATH")
	// The interpreter's search of $PATH for this very name, folder and
	// $PATH (made as it hashed the name), if it made one: not repeated.
	found, searched := c.TakeFound()
	searched = searched && found.Name == name && found.Dir == c.Dir && found.PathList == pathList
	if b, ok := s.handlers[name]; ok {
		return s.invoke(ctx, b, c, args)
	}
	if b, ok := lookupBuiltin(name); ok {
		p := ""
		if searched {
			p = s.shadowOf(c.Dir, found.Path)
		} else {
			p = s.pathShadow(c, name)
		}
		if p != "" {
			return s.dispatch(ctx, c, append([]string{p}, args[1:]...))
		}
		return s.invoke(ctx, b, c, args)
	}
	if bash.IsBuiltin(name) {
		return s.runShellBuiltin(ctx, c, args)
	}
	if strings.Contains(name, "/") {
		abs := c.Abs(name)
		if base, ok := s.binPath(c.FS, abs); ok {
			c.Path = outsideBin(abs)
			return s.runNamed(ctx, c, append([]string{base}, args[1:]...))
		}
		return s.runFile(ctx, c, abs, args)
	}
	if name != "" && !(searched && found.Path == "") {
		// (a search that found no file, executable or not, leaves only
		// the fallback)
		if p := s.lookPathAfter(c, pathList, name, found, searched); p != "" {
			if base, ok := posixfs.SystemCommand(c.FS, c.Abs(p)); ok {
				// /usr/bin's file of a fallback name (python3): the
				// fallback runs it, not the file's script.
				c.Path = outsideBin(c.Abs(p))
				return s.runNamed(ctx, c, append([]string{base}, args[1:]...))
			}
			if data, ok := fsScriptText(c.FS, c.Abs(p)); ok {
				// $0 is the path found, as bash passes it.
				return s.runFileText(ctx, c, data, append([]string{p}, args[1:]...))
			}
		} else if p := fsLookPathNoExec(c.FS, c.Dir, pathList, name); p != "" && !s.fbNames[name] {
			return &shExecError{name: p, status: 126, msg: "Permission denied"}
		}
	}
	if s.fallback != nil {
		return s.invoke(ctx, s.fallback, c, args)
	}
	return shNotFound(name)
}

// runNamed runs args[0], a command's name found in a folder where Linux
// keeps it (/usr/bin/ls, /bin/echo): the handler, command, shell builtin
// or fallback of that name, whatever $PATH holds.
func (s *session) runNamed(ctx context.Context, c *Call, args []string) error {
	name := args[0]
	if b, ok := s.handlers[name]; ok {
		return s.invoke(ctx, b, c, args)
	}
	if b, ok := lookupBuiltin(name); ok {
		return s.invoke(ctx, b, c, args)
	}
	if bash.IsBuiltin(name) {
		return s.runShellBuiltin(ctx, c, args)
	}
	if s.fallback != nil {
		return s.invoke(ctx, s.fallback, c, args)
	}
	return shNotFound(name)
}

// pathShadow returns the file that runs for name, one of this package's
// commands, when $PATH lists it in a folder before the one where Linux
// keeps the command (PATH=~/bin:$PATH with a script ~/bin/tr), as bash
// searches $PATH in order; "" when the command itself runs.
func (s *session) pathShadow(c *Call, name string) string {
	pathList, _ := c.Env("PATH")
	return s.shadowOf(c.Dir, s.pathLookup(c.Dir, pathList, name))
}

// shadowOf is pathShadow's answer from p, what pathLookup found.
func (s *session) shadowOf(dir, p string) string {
	if p == "" || shBinDirs[path.Dir(shAbs(dir, p))] {
		return ""
	}
	return p
}

// lookPathAfter is fsLookPath's answer for name, taken from the search
// pathLookup made (found) when there is one and it found an executable
// file by an absolute path: pathLookup stops at the first executable
// file too (or earlier, at a system folder for a command of the
// session's own, which is not then a file: searched again).
func (s *session) lookPathAfter(c *Call, pathList, name string, found command.Found, searched bool) string {
	if searched && path.IsAbs(found.Path) && fsExecutable(c.FS, found.Path) {
		return found.Path
	}
	return fsLookPath(c.FS, c.Dir, pathList, name)
}

// shBinDirs are the folders where a Linux box keeps the commands this
// package has built in.
var shBinDirs = map[string]bool{"/bin": true, "/usr/bin": true, "/usr/local/bin": true, "/sbin": true, "/usr/sbin": true}

// outsideBin is abs, a system command's file reached through it, for
// Call.Path: "" when it is in a folder where the system keeps commands.
func outsideBin(abs string) string {
	if shBinDirs[path.Dir(abs)] {
		return ""
	}
	return abs
}

// binPath tells whether abs names one of the commands built in (or the
// fallback's) in a folder where Linux keeps it, and returns its name: a
// file of the system's /usr/bin ("/bin/echo", "/usr/bin/env",
// "/usr/bin/python3", as `which` reports them), or a path with no file in
// such a folder (/usr/local/bin/ls, /bin/cd).
func (s *session) binPath(fsys afero.Fs, abs string) (string, bool) {
	if name, ok := posixfs.SystemCommand(fsys, abs); ok {
		return name, true
	}
	dir, base := path.Split(abs)
	if !shBinDirs[path.Clean(dir)] || base == "" {
		return "", false
	}
	if _, err := fsys.Stat(abs); err == nil {
		return "", false
	}
	_, handled := s.handlers[base]
	_, builtin := lookupBuiltin(base)
	if handled || builtin || bash.IsBuiltin(base) || s.fbNames[base] {
		return base, true
	}
	return "", false
}

// invoke calls a Builtin, recovering a panic as status 2 with a message,
// and makes a blocked read of stdin return when ctx ends. Its stdout fails
// every write with ctx's error once ctx ended, so that a loop of output
// (yes, seq, cat /dev/zero) ends at its next write, however seldom it
// checks ctx itself.
func (s *session) invoke(ctx context.Context, b Builtin, c *Call, args []string) (err error) {
	// c is this invocation's own (built by the interpreter or Call.Exec): its Exec sees the
	// same stdout.
	if c.Stdout != nil {
		c.Stdout = command.CtxWriter{Ctx: ctx, W: c.Stdout}
	}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(c.Stderr, "%s: internal error: %v\n", args[0], p)
			err = Exit(2)
		}
	}()
	if f, ok := c.Stdin.(*os.File); ok {
		stop := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Now()) })
		defer func() {
			if !stop() {
				_ = f.SetReadDeadline(time.Time{})
			}
		}()
	}
	ctx = context.WithValue(ctx, sessionKey{}, s)
	return b(ctx, c, args)
}

// runShellBuiltin runs one of the interpreter's builtins (echo, printf,
// test, true, ...) for Call.Exec, in a nested shell over c whose script is
// args quoted as one simple command.
func (s *session) runShellBuiltin(ctx context.Context, c *Call, args []string) error {
	words := make([]string, len(args))
	for i, a := range args {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil { // a NUL byte: no shell word holds it
			fmt.Fprintf(c.Stderr, "%s: %s: %v\n", s.name, args[0], err)
			return Exit(1)
		}
		words[i] = q
	}
	return s.runNested(ctx, c, strings.Join(words, " "), s.name, s.name+": -c", nil, nil)
}

// runFile runs the file at abs (args[0] as the user named it): a script,
// through its #! interpreter.
func (s *session) runFile(ctx context.Context, c *Call, abs string, args []string) error {
	fi, err := c.FS.Stat(abs)
	switch {
	case err != nil:
		// bash: 127 when the file is not there, 126 when it cannot be
		// run (a name too long, a path through a file)
		status := 126
		if errors.Is(err, fs.ErrNotExist) {
			status = 127
		}
		return &shExecError{name: args[0], status: status, msg: posixfs.ErrText(err)}
	case fi.IsDir():
		return &shExecError{name: args[0], status: 126, msg: "Is a directory"}
	case fi.Mode().Perm()&0o111 == 0:
		return &shExecError{name: args[0], status: 126, msg: "Permission denied"}
	}
	data, ok := fsScriptText(c.FS, abs)
	if !ok {
		return &shExecError{name: args[0], status: 126, msg: "cannot execute binary file: Exec format error"}
	}
	return s.runFileText(ctx, c, data, args)
}

// fsScriptText reads a file that can run as a script: text before its
// first newline holds no NUL byte.
func fsScriptText(fsys afero.Fs, abs string) (string, bool) {
	data, err := afero.ReadFile(fsys, abs)
	if err != nil {
		return "", false
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if bytes.IndexByte(line, 0) >= 0 {
		return "", false
	}
	return string(data), true
}

// shShells are the #! interpreters this package runs itself.
var shShells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "ksh": true, "zsh": true}

// runFileText runs a script's text: without #! or with a shell's, in a
// nested shell; with another interpreter, as "INTERP [ARG] FILE ARGS..."
// through the lookup chain (python3 reaches the fallback). As Linux does,
// everything after the interpreter is one argument; /usr/bin/env takes it
// as the program's name (env -S splits it). A missing interpreter is
// bash 5.2's "cannot execute: required file not found" (127), a program
// env cannot find env's own "No such file or directory" (127).
func (s *session) runFileText(ctx context.Context, c *Call, text string, args []string) error {
	sb := shShebang(text)
	if sb == nil || (!sb.env && shShells[path.Base(sb.interp)]) {
		var flags []string
		if sb != nil {
			flags = strings.Fields(sb.arg)
		}
		return s.runNested(ctx, c, text, args[0], args[0], args[1:], flags)
	}
	var cmd []string
	switch {
	case !sb.env:
		cmd = []string{path.Base(sb.interp)}
		if sb.arg != "" {
			cmd = append(cmd, sb.arg)
		}
	case strings.HasPrefix(sb.arg, "-S"):
		cmd = strings.Fields(strings.TrimPrefix(sb.arg, "-S"))
	case sb.arg != "":
		cmd = []string{sb.arg}
	}
	if len(cmd) == 0 {
		return &shExecError{name: args[0], status: 127, msg: "cannot execute: required file not found"}
	}
	if sb.env && shShells[cmd[0]] {
		return s.runNested(ctx, c, text, args[0], args[0], args[1:], cmd[1:])
	}
	cmd = append(cmd, args...)
	err := c.Exec(ctx, cmd)
	if errors.Is(err, ErrNotFound) {
		if sb.env {
			fmt.Fprintf(c.Stderr, "/usr/bin/env: '%s': No such file or directory\n", cmd[0])
			if strings.ContainsAny(cmd[0], " \t") {
				fmt.Fprintln(c.Stderr, "/usr/bin/env: use -[v]S to pass options in shebang lines")
			}
			return Exit(127)
		}
		return &shExecError{name: args[0], status: 127, msg: "cannot execute: required file not found"}
	}
	return err
}

// shebang is a script's "#!" line as Linux reads it: the interpreter and
// the rest of the line as one argument ("" for none); env is set when the
// interpreter is /usr/bin/env (any path ending in env).
type shebang struct {
	interp, arg string
	env         bool
}

// shShebang parses a "#!" line; nil when there is none.
func shShebang(text string) *shebang {
	if !strings.HasPrefix(text, "#!") {
		return nil
	}
	line, _, _ := strings.Cut(text[2:], "\n")
	line = strings.Trim(strings.TrimSuffix(line, "\r"), " \t")
	if line == "" {
		return nil
	}
	interp, arg, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
	sb := &shebang{interp: interp, arg: strings.Trim(arg, " \t")}
	sb.env = path.Base(interp) == "env"
	return sb
}

// runNested runs text as a script in a nested shell over c: its own
// functions and variables, c's folder, environment and streams.
func (s *session) runNested(ctx context.Context, c *Call, text, name, errPfx string, params, flags []string) error {
	cs := s.child()
	code, _ := cs.runScript(ctx, text, scriptSpec{
		name: name, errPfx: errPfx, dir: c.Dir, env: c.Environ(),
		stdin: c.Stdin, stdout: c.Stdout, stderr: c.Stderr,
		params: params, flags: flags,
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	return Exit(code)
}

func init() { register(shBash, "bash", "sh") }

// shBash is bash and sh: -c STRING [NAME [ARGS...]], FILE [ARGS...], or a
// script on stdin (-s, or no operand), with the set options -e -u -x -v
// -f -a -n and -o NAME, and --norc, --noprofile, -l, -i accepted.
func shBash(ctx context.Context, c *Call, args []string) error {
	s, ok := sessionFrom(ctx)
	if !ok {
		s = newSession(Options{FS: c.FS})
	}
	me := args[0]
	if a, ok := bash.Argv0(ctx); ok {
		me = a // exec -a NAME
	}
	var flags []string
	cmd, fromStdin, haveCmd := "", false, false
	i := 1
loop:
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "-":
			i++
			break loop
		case a == "--norc", a == "--noprofile", a == "--login", a == "--posix", a == "--noediting":
		case a == "--version":
			fmt.Fprintln(c.Stdout, "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)")
			return nil
		case len(a) > 1 && (a[0] == '-' || a[0] == '+') && !strings.HasPrefix(a, "--"):
			for _, ch := range a[1:] {
				switch ch {
				case 'c':
					haveCmd = true
				case 's':
					fromStdin = true
				case 'l', 'i', 'r', 'p':
				case 'o':
					if i+1 >= len(args) {
						fmt.Fprintf(c.Stderr, "%s: -o: option requires an argument\n", me)
						return Exit(2)
					}
					i++
					flags = append(flags, a[:1]+"o", args[i])
				case 'O':
					// -O/+O NAME: a shopt option, set or unset
					if i+1 >= len(args) {
						fmt.Fprintf(c.Stderr, "%s: -O: option requires an argument\n", me)
						return Exit(2)
					}
					i++
					flags = append(flags, a[:1]+"O", args[i])
				case 'e', 'u', 'x', 'v', 'f', 'a', 'n':
					flags = append(flags, a[:1]+string(ch))
				default:
					fmt.Fprintf(c.Stderr, "%s: %s: invalid option\n", me, a)
					return Exit(2)
				}
			}
		default:
			break loop
		}
	}
	rest := args[i:]
	// The interpreter does not know -v; drop it.
	flags = slices.DeleteFunc(flags, func(f string) bool { return f == "-v" || f == "+v" })
	switch {
	case haveCmd:
		if len(rest) == 0 {
			fmt.Fprintf(c.Stderr, "%s: -c: option requires an argument\n", me)
			return Exit(2)
		}
		cmd = rest[0]
		name := me
		var params []string
		if len(rest) > 1 {
			name, params = rest[1], rest[2:]
		}
		return s.runNested(ctx, c, cmd, name, name+": -c", params, flags)
	case fromStdin || len(rest) == 0:
		var b strings.Builder
		if _, err := posixfs.CopyCtx(ctx, &b, c.Stdin); err != nil {
			return err
		}
		c2 := *c
		c2.Stdin = strings.NewReader("")
		return s.runNested(ctx, &c2, b.String(), me, me, rest, flags)
	}
	file := rest[0]
	abs := c.Abs(file)
	fi, err := c.FS.Stat(abs)
	if err == nil && fi.IsDir() {
		fmt.Fprintf(c.Stderr, "%s: %s: Is a directory\n", me, file)
		return Exit(126)
	}
	var data []byte
	if err == nil {
		data, err = afero.ReadFile(c.FS, abs)
	}
	if err != nil {
		fmt.Fprintf(c.Stderr, "%s: %s: %s\n", me, file, posixfs.ErrText(err))
		return Exit(127)
	}
	if binaryScript(data) {
		// bash's check: its name is then $0, the script's
		fmt.Fprintf(c.Stderr, "%s: %s: cannot execute binary file\n", file, file)
		return Exit(126)
	}
	return s.runNested(ctx, c, string(data), file, file, rest[1:], flags)
}

// binaryScript reports whether bash refuses data as a script file: a NUL
// byte among its first 80 before a newline.
func binaryScript(data []byte) bool {
	for _, c := range data[:min(len(data), 80)] {
		switch c {
		case '\n':
			return false
		case 0:
			return true
		}
	}
	return false
}
