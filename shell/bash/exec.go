package bash

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/dirs"
	"github.com/agentenkit/agentenkit/shell/bash/pipe"
	"github.com/agentenkit/agentenkit/shell/bash/redir"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
	"github.com/agentenkit/agentenkit/shell/command"
)

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
	// The stages share the shell's variables until they change them
	// (subshellFork) when the shell runs nothing while they run: not
	// with lastpipe (the last stage is the shell's) nor with a DEBUG
	// trap (run by the shell before each stage).
	_, debug := r.traps["DEBUG"]
	lazy := !lastInShell && !debug
	for i, st := range stages {
		var pr *pipe.Reader
		var pw *pipe.Writer
		if i < n-1 {
			pr, pw = pipe.New()
		}
		in := prevR
		if i == n-1 && lastInShell {
			var u redir.Undo
			if in != nil {
				u.Set(r.fds, 0, &redir.FD{R: in, Name: "pipe"})
			}
			r.stmt(st)
			statuses[i] = r.status
			if in != nil {
				in.Close()
				u.Restore(r.fds)
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
		var s *Runner
		if lazy {
			s = r.subshellFork()
		} else {
			s = r.subshellCopy()
		}
		s.inStage = true
		s.shownJobs = r.visibleJobs()
		if in != nil {
			s.fds.Set(0, &redir.FD{R: in, Name: "pipe"})
		}
		if pw != nil {
			s.fds.Set(1, &redir.FD{W: pw, Name: "pipe"})
			// |& is 2>&1 after the stage's own redirections.
			s.stderrToOut = all[i]
		}
		ch := make(chan struct{})
		done[i] = ch
		r.goStage(func() {
			defer close(ch)
			statuses[i] = s.runSub(func(s *Runner) { s.stmt(st) })
			if pw != nil {
				pw.Close()
			}
			if in != nil {
				in.CloseWithError(io.ErrClosedPipe)
			}
		})
		prevR = pr
		// bash forks the stages in order and a child runs first as a
		// rule: a stage starts before the next one is made (set -x
		// traces a | b as a, then b).
		runtime.Gosched()
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

// goStage runs f, a pipeline's stage, on a goroutine of its own
// (Options.Go's when set).
func (r *Runner) goStage(f func()) {
	if r.opts.Go != nil {
		r.opts.Go(f)
		return
	}
	go f()
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
	if v := r.vars.Own(r.vars.Global(), "_"); v != nil && v.Kind == vars.String && !v.ReadOnly && !v.NameRef && !v.Integer {
		v.Str, v.Set = s, true
		return
	}
	r.vars.Global().Vars["_"] = &vars.Var{Set: true, Str: s}
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
	fw, _ := r.stdout().(*redir.FullWriter)
	if fw != nil {
		fw.Failed.Store(false)
	}
	r.status = b(r, args)
	if fw != nil && fw.Failed.Load() && r.status == 0 {
		// bash checks a builtin's standard output after it ran
		r.errf("%s: write error: No space left on device", args[0])
		r.status = 1
	}
}

// callFunc runs a shell function.
func (r *Runner) callFunc(name string, body *syntax.Stmt, args []string) {
	r.jobExec, r.jobAsync = 0, false // a function's commands are not exec'd (execChild)
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
			s.fds.Release()
			s.fds = redir.Table{0: {R: c.Stdin}, 1: {W: c.Stdout}, 2: {W: c.Stderr}}
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
	args, found, searched := r.hashed(args)
	env := r.environ()
	for _, t := range tmp {
		env[t.name] = t.val
	}
	c := r.newCall(env)
	if searched {
		c.SetFound(found)
	}
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
		err = r.opts.Exec(r.cmdContext(), c, args)
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

// redirect applies redirections to r.fds; restore puts back the entries
// they changed (exec keeps them: perm), not others the command changed
// (exec inside a { } group or a function), as bash does. When one fails,
// restore puts back what the ones before it changed, also for exec.
func (r *Runner) redirect(rds []*syntax.Redirect, perm bool) (restore func(), err error) {
	u := &redir.Undo{}
	restore = func() { u.Restore(r.fds) }
	if err := r.redirectU(rds, u); err != nil {
		return restore, err
	}
	if perm {
		u.Keep()
	}
	return restore, nil
}

// redirectU applies redirections to r.fds, recording what they change
// in u.
func (r *Runner) redirectU(rds []*syntax.Redirect, u *redir.Undo) error {
	for _, rd := range rds {
		if err := r.redir1(rd, u); err != nil {
			return err
		}
	}
	return nil
}

// redir1 applies one redirection to r.fds once its word is expanded,
// recording what it changes in u.
func (r *Runner) redir1(rd *syntax.Redirect, u *redir.Undo) error {
	n := ""
	if rd.N != nil {
		n = rd.N.Value
	}
	var target string
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		text, err := redir.Hdoc(rd, r.hdocExpand)
		if err != nil {
			return err
		}
		target = text
	case syntax.WordHdoc:
		s, err := r.literal(rd.Word)
		if err != nil {
			return err
		}
		target = s
	default:
		targets, err := r.fields(rd.Word)
		if err != nil {
			return err
		}
		if len(targets) != 1 {
			text := strings.TrimSpace(r.srcText(rd.Word.Pos(), rd.Word.End()))
			if text == "" {
				text = printNode(rd.Word)
			}
			return &shError{msg: text + ": ambiguous redirect", status: 1, noExit: true}
		}
		target = targets[0]
	}
	perm := fs.FileMode(0o644)
	if r.opts.Umask != nil {
		perm = 0o666 // FS applies the umask
	}
	if name, ok := redir.VarName(n); ok && target == "-" && (rd.Op == syntax.DplIn || rd.Op == syntax.DplOut) {
		// {var}>&- closes the fd $var holds (a value that is not a
		// number closes nothing, as in bash).
		val, set := r.getVar(name)
		if !set {
			return &shError{msg: name + ": ambiguous redirect", status: 1, noExit: true}
		}
		if _, err := strconv.Atoi(val); err != nil {
			return nil
		}
		n = val
		u = nil // stays closed after the command, as {var}'s files stay open
	}
	o := &redir.Opener{FS: r.fs, Abs: r.abs, Noclobber: r.opt["noclobber"], Perm: perm, TooManyFiles: r.limits.TooManyFiles, Files: &r.shared.files}
	err := r.fds.Redirect(o, rd.Op, n, target, func(name string, fd int) error {
		return r.setVar(name, strconv.Itoa(fd))
	}, u)
	if re, ok := err.(*redir.Error); ok {
		err = &shError{msg: re.Msg, status: 1, noExit: true}
	}
	return err
}

func (r *Runner) abs(p string) string {
	if strings.HasPrefix(p, "/") {
		return dirs.Clean(p)
	}
	return dirs.Clean(r.dir + "/" + p)
}
