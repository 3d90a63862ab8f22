package bash

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/dirs"
	"github.com/agentenkit/agentenkit/shell/bash/pipe"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
	"github.com/agentenkit/agentenkit/shell/command"
)

// fdesc is an open file descriptor of the shell.
type fdesc struct {
	r    io.Reader
	w    io.Writer
	f    afero.File // the file behind r/w, when one
	name string
}

type badWriter struct{}

func (badWriter) Write([]byte) (int, error) { return 0, syscall.EBADF }

type badReader struct{}

func (badReader) Read([]byte) (int, error) { return 0, syscall.EBADF }

// pipeline runs a | b | c: every stage in a subshell of its own,
// concurrently, over pipes; with lastpipe the last stage in this shell.
func (r *Runner) pipeline(c *syntax.BinaryCmd) {
	var stages []*syntax.Stmt
	var all []bool // stage i's stderr goes into the pipe too (|&)
	var flatten func(c *syntax.BinaryCmd)
	flatten = func(c *syntax.BinaryCmd) {
		if x, ok := c.X.Cmd.(*syntax.BinaryCmd); ok && (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && !c.X.Negated && len(c.X.Redirs) == 0 && !c.X.Background {
			flatten(x)
		} else {
			stages = append(stages, c.X)
			all = append(all, false)
		}
		all[len(all)-1] = c.Op == syntax.PipeAll
		stages = append(stages, c.Y)
		all = append(all, false)
	}
	flatten(c)
	n := len(stages)
	statuses := make([]int, n)
	done := make([]chan struct{}, n)
	var prevR *pipe.Reader
	lastInShell := r.shopt["lastpipe"] && !r.opt["monitor"]
	forks := int64(n)
	if lastInShell {
		forks--
	}
	if r.shared.jobs.Add(forks) > maxJobs {
		r.shared.jobs.Add(-forks)
		r.errf("fork: Resource temporarily unavailable")
		r.status = 254
		r.setPipestatus([]int{254})
		return
	}
	defer r.shared.jobs.Add(-forks)
	for i, st := range stages {
		var pr *pipe.Reader
		var pw *pipe.Writer
		if i < n-1 {
			pr, pw = pipe.New()
		}
		in := prevR
		if i == n-1 && lastInShell {
			saved := r.fds[0]
			if in != nil {
				r.fds = cloneMap(r.fds)
				r.fds[0] = &fdesc{r: in, name: "pipe"}
			}
			r.stmt(st)
			statuses[i] = r.status
			if in != nil {
				in.Close()
				r.fds[0] = saved
			}
			done[i] = nil
			break
		}
		if _, simple := st.Cmd.(*syntax.CallExpr); simple {
			// bash runs the DEBUG trap of a simple command's stage in
			// the shell, before it forks the stage
			r.setLine(st.Pos())
			r.debugTrap()
		}
		s := r.subshellCopy()
		s.inStage = true
		s.shownJobs = r.visibleJobs()
		s.fds = cloneMap(r.fds)
		if in != nil {
			s.fds[0] = &fdesc{r: in, name: "pipe"}
		}
		if pw != nil {
			s.fds[1] = &fdesc{w: pw, name: "pipe"}
			// |& is 2>&1 after the stage's own redirections.
			s.stderrToOut = all[i]
		}
		ch := make(chan struct{})
		done[i] = ch
		go func(i int, st *syntax.Stmt, in *pipe.Reader, out *pipe.Writer) {
			defer close(ch)
			statuses[i] = s.runSub(func(s *Runner) { s.stmt(st) })
			if out != nil {
				out.Close()
			}
			if in != nil {
				in.CloseWithError(io.ErrClosedPipe)
			}
		}(i, st, in, pw)
		prevR = pr
	}
	for _, ch := range done {
		if ch != nil {
			<-ch
		}
	}
	r.pipestatus = statuses
	st := statuses[n-1]
	if r.opt["pipefail"] {
		for _, s := range statuses {
			if s != 0 {
				st = s
			}
		}
	}
	r.status = st
	r.setPipestatus(statuses)
}

// debugTrap runs the DEBUG trap before a command, keeping $?, and reports
// whether control flow leaves the command.
func (r *Runner) debugTrap() bool {
	t, ok := r.traps["DEBUG"]
	if !ok || r.inDebugTrap {
		return false
	}
	st := r.status
	r.inDebugTrap = true
	r.runTrap(t)
	r.inDebugTrap = false
	r.status = st
	return r.stopped()
}

func (r *Runner) setPipestatus(st []int) {
	g := r.vars.Global().Vars
	if old := g["PIPESTATUS"]; old != nil && pipestatusIs(old, st) {
		return // as it was: a loop's commands allocate nothing here
	}
	v := &vars.Var{Set: true, Kind: vars.Indexed, Idx: make(map[int]string, len(st))}
	for i, s := range st {
		v.Idx[i] = strconv.Itoa(s)
	}
	g["PIPESTATUS"] = v
}

// pipestatusIs tells whether v is exactly the PIPESTATUS setPipestatus
// would make of st.
func pipestatusIs(v *vars.Var, st []int) bool {
	if !v.Set || v.Kind != vars.Indexed || len(v.Idx) != len(st) || v.Str != "" || v.Assoc != nil || v.Keys != nil ||
		v.Exported || v.ReadOnly || v.Integer || v.Lower || v.Upper || v.NameRef {
		return false
	}
	for i, s := range st {
		if x, ok := v.Idx[i]; !ok || x != strconv.Itoa(s) {
			return false
		}
	}
	return true
}

// call runs a simple command.
//
// rds are the statement's redirections: as in bash, they apply after the
// words and assignments are expanded (and traced).
func (r *Runner) call(c *syntax.CallExpr, rds []*syntax.Redirect) {
	r.setLine(c.Pos())
	r.callEnd = int(c.End().Line()) + r.lineOff
	if !r.inStage && r.debugTrap() {
		return
	}
	if len(c.Args) == 0 {
		// Assignments alone: $? in them is the previous command's.
		r.lastSubStatus = -1
		for _, as := range c.Assigns {
			trace := r.opt["xtrace"]
			ps4 := ""
			if trace {
				ps4 = r.ps4() // before the assignment, as bash expands it
			}
			if err := r.assign(as, false); err != nil {
				r.report(err)
				var se *shError
				if r.opt["posix"] && errors.As(err, &se) && strings.HasSuffix(se.msg, ": readonly variable") {
					// POSIX mode: assigning a readonly variable ends the
					// shell, with bash's status 127
					r.exit(127)
				}
				return
			}
			if trace {
				r.xtraceAssign(ps4, as)
			}
		}
		r.status = 0
		if r.lastSubStatus >= 0 {
			r.status = r.lastSubStatus
		}
		if restore, ok := r.applyRedirs(rds); ok {
			restore()
		}
		r.setPipestatus([]int{r.status})
		r.setLastArg("")
		return
	}
	r.lastSubStatus = -1
	args, err := r.fields(c.Args...)
	if err != nil {
		r.report(err)
		return
	}
	if len(args) == 0 {
		// Only empty expansions: the assignments still happen; the
		// status is the last command substitution's, as bash's.
		r.status = 0
		for _, as := range c.Assigns {
			if err := r.assign(as, false); err != nil {
				r.report(err)
				return
			}
		}
		if r.lastSubStatus >= 0 {
			r.status = r.lastSubStatus
		}
		if restore, ok := r.applyRedirs(rds); ok {
			restore()
		}
		r.setLastArg("")
		return
	}
	// Temporary assignments: "x=1 cmd".
	var tmp []tmpVar
	if len(c.Assigns) > 0 {
		tmp, err = r.tempAssigns(c.Assigns)
		if err != nil {
			r.report(err)
			return
		}
	}
	if r.opt["xtrace"] {
		r.xtraceAssigns(c.Assigns)
		r.xtrace(args)
	}
	restore, ok := r.applyRedirs(rds)
	if !ok {
		return
	}
	defer restore()
	r.runArgs(args, tmp)
	r.setPipestatus([]int{r.status})
	r.setLastArg(args[len(args)-1])
}

// applyRedirs applies a simple command's redirections once its words
// are expanded; ok is false when one failed (reported, status 1).
func (r *Runner) applyRedirs(rds []*syntax.Redirect) (restore func(), ok bool) {
	if len(rds) == 0 {
		return func() {}, true
	}
	restore, err := r.redirect(rds, false)
	if err != nil {
		if restore != nil {
			restore()
		}
		r.redirErr(err)
		return nil, false
	}
	return restore, true
}

// setLastArg sets $_, the last word of the simple command that ran last,
// after it ran (a function sees its caller's previous one).
func (r *Runner) setLastArg(s string) {
	g := r.vars.Global().Vars
	if v, ok := g["_"]; ok && v.Kind == vars.String && !v.ReadOnly && !v.NameRef && !v.Integer {
		v.Str, v.Set = s, true
		return
	}
	g["_"] = &vars.Var{Set: true, Str: s}
}

func printNode(n syntax.Node) string {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, n)
	return b.String()
}

type tmpVar struct {
	name string
	val  string
}

func (r *Runner) tempAssigns(as []*syntax.Assign) ([]tmpVar, error) {
	var out []tmpVar
	// Each value sees the bindings before it ("A=1 B=$A cmd").
	f := &vars.Frame{Vars: map[string]*vars.Var{}, Temp: true}
	r.vars.Frames = append(r.vars.Frames, f)
	n := len(r.vars.Frames)
	defer func() {
		if len(r.vars.Frames) >= n && r.vars.Frames[n-1] == f {
			r.vars.Frames = slices.Delete(r.vars.Frames, n-1, n)
		}
	}()
	for _, a := range as {
		if a.Index != nil {
			// a[i]=v cmd: bash reports it and runs the command
			if w, ok := a.Index.(*syntax.Word); ok && a.Array == nil {
				r.errf("`%s[%s]': not a valid identifier", a.Name.Value, w.Lit())
			}
			continue
		}
		if a.Array != nil {
			continue
		}
		val := ""
		if a.Value != nil {
			v, err := r.assignValue(a.Value)
			if err != nil {
				return nil, err
			}
			val = v
		}
		if a.Append {
			old, _ := r.getVar(a.Name.Value)
			val = old + val
		}
		out = append(out, tmpVar{a.Name.Value, val})
		f.Vars[a.Name.Value] = &vars.Var{Set: true, Str: val, Exported: true}
	}
	return out, nil
}

// runArgs runs an expanded command line.
func (r *Runner) runArgs(args []string, tmp []tmpVar) {
	name := args[0]
	posixSpecial := r.opt["posix"] && specialBuiltins[name]
	if body, ok := r.funcs[name]; ok && !posixSpecial {
		r.withTemp(tmp, func() { r.callFunc(name, body, args[1:]) })
		return
	}
	if b, ok := builtins[name]; ok {
		if posixSpecial {
			// POSIX mode: a special builtin's assignments stay, and
			// bash exports them; otherwise they are temporary as for
			// any builtin.
			// The builtin runs with them in a temporary scope, so that
			// unset removes one ("x=1 unset x" leaves x as it was).
			for _, t := range tmp {
				if v := r.lookupVar(t.name); v != nil && v.ReadOnly {
					r.report(&shError{msg: t.name + ": readonly variable", status: 1, abort: true})
					return
				}
			}
			r.withTempKeep(tmp, r.persistAssigns, func() { r.runBuiltin(b, args) })
			return
		}
		r.withTemp(tmp, func() { r.runBuiltin(b, args) })
		return
	}
	r.external(args, tmp)
}

// persistAssigns makes the assignments before a special builtin stay in
// POSIX mode (bash exports them too); false after an error it reported.
func (r *Runner) persistAssigns(tmp []tmpVar) bool {
	for _, t := range tmp {
		if err := r.setVar(t.name, t.val); err != nil {
			r.report(err)
			return false
		}
		if v, _ := r.vars.Lookup(t.name); v != nil {
			v.Exported = true
		}
	}
	return true
}

// withTemp runs fn with the temporary assignments in a scope of their
// own, exported.
func (r *Runner) withTemp(tmp []tmpVar, fn func()) { r.withTempKeep(tmp, nil, fn) }

// withTempKeep is withTemp; then keep, when set, is given the bindings
// still in the temporary scope after fn.
func (r *Runner) withTempKeep(tmp []tmpVar, keep func([]tmpVar) bool, fn func()) {
	if len(tmp) == 0 {
		fn()
		return
	}
	f := &vars.Frame{Vars: map[string]*vars.Var{}, Temp: true}
	for _, t := range tmp {
		f.Vars[t.name] = &vars.Var{Set: true, Str: t.val, Exported: true}
	}
	r.vars.Frames = append(r.vars.Frames, f)
	n := len(r.vars.Frames)
	fn()
	if len(r.vars.Frames) >= n && r.vars.Frames[n-1] == f {
		r.vars.Frames = slices.Delete(r.vars.Frames, n-1, n)
	}
	if keep != nil {
		var left []tmpVar
		for _, t := range tmp {
			if v, ok := f.Vars[t.name]; ok && v.Set && v.Kind == vars.String {
				left = append(left, tmpVar{t.name, v.Str})
			}
		}
		keep(left)
	}
}

func (r *Runner) runBuiltin(b builtinFunc, args []string) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(r.stderr(), "%s: %s: internal error: %v\n", r.name, args[0], p)
			r.status = 2
		}
	}()
	fw, _ := r.stdout().(*fullWriter)
	if fw != nil {
		fw.failed.Store(false)
	}
	r.status = b(r, args)
	if fw != nil && fw.failed.Load() && r.status == 0 {
		// bash checks a builtin's standard output after it ran
		r.errf("%s: write error: No space left on device", args[0])
		r.status = 1
	}
}

// callFunc runs a shell function.
func (r *Runner) callFunc(name string, body *syntax.Stmt, args []string) {
	if r.funcDepth >= 1000 {
		r.errf("%s: maximum function nesting level exceeded (1000)", name)
		r.status = 1
		r.exit(1)
		return
	}
	savedParams, savedCmd := r.params, r.nestCmd
	r.nestCmd = ""
	defer func() { r.nestCmd = savedCmd }()
	r.params = args
	r.funcDepth++
	r.funcNames = append(r.funcNames, name)
	r.setFuncname()
	r.vars.Frames = append(r.vars.Frames, &vars.Frame{Vars: map[string]*vars.Var{}})
	depth := len(r.vars.Frames)
	savedLine := r.line
	// A function's $LINENO is its own text's, also when a trap or eval
	// calls it.
	savedOff, savedFrozen := r.lineOff, r.lineFrozen
	r.lineOff, r.lineFrozen = r.funcLineOff[name], 0
	defer func() { r.lineOff, r.lineFrozen = savedOff, savedFrozen }()
	savedLoops := r.loopDepth
	r.loopDepth = 0 // break and continue do not reach the caller's loops
	// A function does not see the ERR trap without errtrace, nor DEBUG
	// and RETURN without functrace; one it sets holds after it.
	hidden := map[string]string{}
	for k, on := range map[string]bool{"ERR": r.opt["errtrace"], "DEBUG": r.opt["functrace"], "RETURN": r.opt["functrace"]} {
		if t, ok := r.traps[k]; ok && !on {
			hidden[k] = t
			delete(r.traps, k)
		}
	}
	r.stmt(body)
	r.loopDepth = savedLoops
	if t, ok := r.traps["RETURN"]; ok && !r.inTrap {
		r.runTrap(t)
	}
	for k, t := range hidden {
		if _, set := r.traps[k]; !set {
			r.traps[k] = t
		}
	}
	if len(r.vars.Frames) >= depth {
		r.vars.Frames = r.vars.Frames[:depth-1]
	}
	r.funcNames = r.funcNames[:len(r.funcNames)-1]
	r.setFuncname()
	r.funcDepth--
	r.params = savedParams
	r.line = savedLine
	r.returning = false
}

// setFuncname sets FUNCNAME to the function call stack, innermost
// first ("main" at the bottom in a script file); outside functions it is
// an array without a value.
func (r *Runner) setFuncname() {
	v := &vars.Var{Kind: vars.Indexed, Idx: map[int]string{}}
	for i := len(r.funcNames) - 1; i >= 0; i-- {
		v.Idx[len(v.Idx)] = r.funcNames[i]
	}
	if len(v.Idx) > 0 {
		v.Set = true
		if !r.cMode() {
			v.Idx[len(v.Idx)] = "main"
		}
	}
	r.vars.Global().Vars["FUNCNAME"] = v
}

// notRunner is an error of Options.Exec for a command that could not
// start.
type notRunner interface{ NotRun() string }

// environ lists the exported variables as NAME=value.
func (r *Runner) environ() map[string]string {
	env := map[string]string{}
	for _, f := range r.vars.Frames {
		for k, v := range f.Vars {
			if v.Exported && v.Set && v.Kind == vars.String {
				env[k] = v.Str
				if k == "SHELLOPTS" || k == "BASHOPTS" {
					env[k], _, _ = r.special(k)
				}
			} else {
				delete(env, k)
			}
		}
	}
	return env
}

// newCall makes the command.Call of an external command.
func (r *Runner) newCall(env map[string]string) *command.Call {
	c := &command.Call{Stdin: r.stdin(), Stdout: r.stdout(), Stderr: r.stderr(), Dir: r.dir, FS: r.fs}
	c.SetEnv(env)
	c.Exec = func(ctx context.Context, args []string) error {
		if len(args) == 0 {
			return nil
		}
		if b, ok := builtins[args[0]]; ok {
			s := r.subshellCopy()
			s.fds = map[int]*fdesc{0: {r: c.Stdin}, 1: {w: c.Stdout}, 2: {w: c.Stderr}}
			s.dir = c.Dir
			return command.Exit(b(s, args))
		}
		if r.opts.Exec == nil {
			return &notFound{args[0]}
		}
		return r.opts.Exec(ctx, c, args)
	}
	return c
}

type notFound struct{ name string }

func (e *notFound) Error() string  { return e.name + ": command not found" }
func (e *notFound) NotRun() string { return e.Error() }
func (e *notFound) As(target any) bool {
	if p, ok := target.(*command.ExitStatus); ok {
		*p = 127
		return true
	}
	return false
}

// external runs a command through Options.Exec.
func (r *Runner) external(args []string, tmp []tmpVar) {
	args = r.hashed(args)
	env := r.environ()
	for _, t := range tmp {
		env[t.name] = t.val
	}
	c := r.newCall(env)
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("internal error: %v", p)
			}
		}()
		if r.opts.Exec == nil {
			err = &notFound{args[0]}
			return
		}
		err = r.opts.Exec(r.ctx, c, args)
		if r.ctx.Err() != nil && r.ctx != r.shared.ctx && r.shared.ctx.Err() == nil {
			err = nil // a killed job: its status is the signal's
		}
	}()
	r.status = r.execStatus(args[0], err)
}

func (r *Runner) execStatus(name string, err error) int {
	if err == nil {
		return 0
	}
	if r.ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		r.exit(124)
		return 124
	}
	if r.ctx.Err() != nil {
		r.exit(124)
	}
	var nr notRunner
	if errors.As(err, &nr) {
		r.errfLine(false, "%s", nr.NotRun())
		return command.ExitCode(err)
	}
	var st command.ExitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	fmt.Fprintf(r.stderr(), "%s: %v\n", name, err)
	return 1
}

// redirect applies redirections to r.fds; restore puts the previous
// table back (exec keeps them: perm).
func (r *Runner) redirect(rds []*syntax.Redirect, perm bool) (restore func(), err error) {
	saved := r.fds
	r.fds = cloneMap(saved)
	var opened []afero.File
	restore = func() {
		if perm {
			return
		}
		for _, f := range opened {
			f.Close()
		}
		r.fds = saved
	}
	for _, rd := range rds {
		f, err := r.redir1(rd, perm)
		if f != nil {
			opened = append(opened, f)
		}
		if err != nil {
			return restore, err
		}
	}
	return restore, nil
}

func (r *Runner) redir1(rd *syntax.Redirect, perm bool) (afero.File, error) {
	fd := -1
	varName := ""
	if rd.N != nil {
		n := rd.N.Value
		if strings.HasPrefix(n, "{") && strings.HasSuffix(n, "}") {
			varName = n[1 : len(n)-1]
		} else if v, err := strconv.Atoi(n); err == nil {
			fd = v
		} else {
			varName = n
		}
	}
	def := func(d int) int {
		if fd < 0 && varName == "" {
			return d
		}
		return fd
	}
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		text, err := r.hdoc(rd)
		if err != nil {
			return nil, err
		}
		if rd.Op == syntax.DashHdoc {
			lines := strings.SplitAfter(text, "\n")
			for i, l := range lines {
				lines[i] = strings.TrimLeft(l, "\t")
			}
			text = strings.Join(lines, "")
		}
		r.fds[def(0)] = &fdesc{r: strings.NewReader(text), name: "heredoc"}
		return nil, nil
	case syntax.WordHdoc:
		s, err := r.literal(rd.Word)
		if err != nil {
			return nil, err
		}
		r.fds[def(0)] = &fdesc{r: strings.NewReader(s + "\n"), name: "herestring"}
		return nil, nil
	}
	targets, err := r.fields(rd.Word)
	if err != nil {
		return nil, err
	}
	if len(targets) != 1 {
		text := strings.TrimSpace(r.srcText(rd.Word.Pos(), rd.Word.End()))
		if text == "" {
			text = printNode(rd.Word)
		}
		return nil, &shError{msg: text + ": ambiguous redirect", status: 1, noExit: true}
	}
	target := targets[0]
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		to := def(1)
		if rd.Op == syntax.DplIn {
			to = def(0)
		}
		if target == "-" {
			delete(r.fds, to)
			return nil, nil
		}
		move := strings.HasSuffix(target, "-")
		src, convErr := strconv.Atoi(strings.TrimSuffix(target, "-"))
		if convErr != nil {
			if rd.Op == syntax.DplOut && rd.N == nil {
				// >&file: stdout and stderr to the file.
				f, err := r.openRedir(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, false)
				if err != nil {
					return f, err
				}
				r.fds[1] = r.fdOf(f, target)
				r.fds[2] = r.fds[1]
				return f, nil
			}
			return nil, &shError{msg: target + ": ambiguous redirect", status: 1, noExit: true}
		}
		d, ok := r.fds[src]
		if !ok {
			return nil, &shError{msg: strconv.Itoa(src) + ": Bad file descriptor", status: 1, noExit: true}
		}
		if varName != "" {
			to = r.allocFD()
			_ = r.setVar(varName, strconv.Itoa(to))
		}
		r.fds[to] = d
		if move {
			delete(r.fds, src)
		}
		return nil, nil
	}
	var flag int
	to := def(1)
	switch rd.Op {
	case syntax.RdrOut:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	case syntax.RdrClob:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC | 1<<30
	case syntax.AppOut:
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RdrIn:
		flag, to = os.O_RDONLY, def(0)
	case syntax.RdrInOut:
		flag, to = os.O_RDWR|os.O_CREATE, def(0)
	case syntax.RdrAll:
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	case syntax.AppAll:
		flag = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	default:
		return nil, &shError{msg: "unsupported redirection", status: 1, noExit: true}
	}
	clobber := flag&(1<<30) != 0
	flag &^= 1 << 30
	f, err := r.openRedir(target, flag, clobber)
	if err != nil {
		return f, err
	}
	d := r.fdOf(f, target)
	if varName != "" {
		to = r.allocFD()
		if err := r.setVar(varName, strconv.Itoa(to)); err != nil {
			return f, err
		}
		f = nil // {fd} stays open after the command
	}
	r.fds[to] = d
	if rd.Op == syntax.RdrAll || rd.Op == syntax.AppAll {
		r.fds[2] = d
	}
	return f, nil
}

func (r *Runner) allocFD() int {
	for n := 10; ; n++ {
		if _, ok := r.fds[n]; !ok {
			return n
		}
	}
}

func (r *Runner) fdOf(f afero.File, name string) *fdesc {
	if df, ok := f.(*devHandle); ok {
		return df.d
	}
	return &fdesc{r: f, w: f, f: f, name: name}
}

// devHandle wraps an fdesc returned by openRedir for /dev files.
type devHandle struct {
	afero.File
	d *fdesc
}

func (d *devHandle) Close() error { return nil }

func (r *Runner) openRedir(name string, flag int, clobber bool) (afero.File, error) {
	switch name {
	case "/dev/null":
		return &devHandle{d: &fdesc{r: strings.NewReader(""), w: io.Discard, name: name}}, nil
	case "/dev/urandom", "/dev/random":
		return &devHandle{d: &fdesc{r: rand.Reader, w: io.Discard, name: name}}, nil
	case "/dev/zero":
		return &devHandle{d: &fdesc{r: zeroReader{}, w: io.Discard, name: name}}, nil
	case "/dev/full":
		return &devHandle{d: &fdesc{r: zeroReader{}, w: &fullWriter{}, name: name}}, nil
	case "/dev/stdin", "/dev/fd/0":
		return &devHandle{d: r.fds[0]}, nil
	case "/dev/stdout", "/dev/fd/1":
		return &devHandle{d: r.fds[1]}, nil
	case "/dev/stderr", "/dev/fd/2":
		return &devHandle{d: r.fds[2]}, nil
	}
	if n, ok := strings.CutPrefix(name, "/dev/fd/"); ok {
		if i, err := strconv.Atoi(n); err == nil {
			if d, ok := r.fds[i]; ok {
				return &devHandle{d: d}, nil
			}
			return nil, &shError{msg: name + ": Bad file descriptor", status: 1, noExit: true}
		}
	}
	if name == "" {
		return nil, &shError{msg: ": No such file or directory", status: 1, noExit: true}
	}
	if r.limits.TooManyFiles() {
		return nil, &shError{msg: name + ": Too many open files", status: 1, noExit: true}
	}
	abs := r.abs(name)
	if r.opt["noclobber"] && !clobber && flag&os.O_TRUNC != 0 {
		if fi, err := r.fs.Stat(abs); err == nil && fi.Mode().IsRegular() {
			return nil, &shError{msg: name + ": cannot overwrite existing file", status: 1, noExit: true}
		}
	}
	if fi, err := r.fs.Stat(abs); err == nil && fi.IsDir() && flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		return nil, &shError{msg: name + ": Is a directory", status: 1, noExit: true}
	}
	perm := fs.FileMode(0o644)
	if r.opts.Umask != nil {
		perm = 0o666 // FS applies the umask
	}
	f, err := r.fs.OpenFile(abs, flag, perm)
	if err != nil {
		return nil, &shError{msg: name + ": " + errText(err), status: 1, noExit: true}
	}
	return f, nil
}

// fullWriter is /dev/full: every write fails with ENOSPC. failed tells
// a builtin that ignored the error that its output was lost.
type fullWriter struct{ failed atomic.Bool }

func (w *fullWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	w.failed.Store(true)
	return 0, &fs.PathError{Op: "write", Path: "/dev/full", Err: syscall.ENOSPC}
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// errText is the C library's wording of a file error.
func errText(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, syscall.EISDIR):
		return "Is a directory"
	case errors.Is(err, syscall.ENOTDIR):
		return "Not a directory"
	case errors.Is(err, syscall.ENOSPC):
		return "No space left on device"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func (r *Runner) abs(p string) string {
	if strings.HasPrefix(p, "/") {
		return dirs.Clean(p)
	}
	return dirs.Clean(r.dir + "/" + p)
}

// hdoc expands a here-document's body.
func (r *Runner) hdoc(rd *syntax.Redirect) (string, error) {
	if rd.Hdoc == nil {
		return "", nil
	}
	quoted := false
	for _, p := range rd.Word.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quoted = true
		case *syntax.Lit:
			if strings.Contains(p.Value, "\\") {
				quoted = true
			}
		}
	}
	if quoted {
		var b strings.Builder
		for _, p := range rd.Hdoc.Parts {
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(l.Value)
			} else {
				b.WriteString(printNode(p))
			}
		}
		return b.String(), nil
	}
	return r.hdocExpand(rd.Hdoc)
}
