// Package bash is the sandboxes' own bash interpreter over the parser and
// syntax tree of mvdan.cc/sh/v3/syntax: word expansion, execution, the
// builtins that must live in the shell (cd, read, declare, printf, ...) and
// its process model (pipeline stages, subshells, background jobs and
// command substitutions as goroutines over pipes).
//
// It imports no command package: a name that is not a function or one of
// its builtins goes to Options.Exec, the embedding shell's lookup chain
// (the registry of package shell/command, handlers, scripts, a fallback).
//
// # Contracts
//
//   - Nothing of the host is reached: every path is a path of Options.FS,
//     the environment is Options.Env and nothing else.
//   - A script's failure is a result: Run returns its exit status; an
//     error only for bad Options and when ctx ends.
//   - Every goroutine that runs script work recovers a panic into a
//     failed command with a message on stderr.
//   - Background jobs end when Run returns.
package bash

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/glob"
	"github.com/agentenkit/agentenkit/shell/bash/jobs"
	"github.com/agentenkit/agentenkit/shell/bash/lookup"
	"github.com/agentenkit/agentenkit/shell/bash/parse"
	"github.com/agentenkit/agentenkit/shell/bash/pipe"
	"github.com/agentenkit/agentenkit/shell/bash/redir"
	"github.com/agentenkit/agentenkit/shell/bash/shopt"
	"github.com/agentenkit/agentenkit/shell/bash/ulimit"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// Options configures one Run.
type Options struct {
	// FS is the filesystem; required. Paths are absolute.
	FS afero.Fs
	// Dir is the absolute folder the script starts in ("/" when empty).
	Dir string
	// Env is the environment, exported as it is.
	Env map[string]string
	// Stdin, Stdout and Stderr are the script's streams; nil reads
	// nothing or discards.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Name is $0 and the prefix of the shell's messages ("bash: line 1:
	// ..."); default "bash".
	Name string
	// SyntaxPrefix prefixes syntax errors: "bash: -c" for a -c string
	// (the default), the script's name for a file.
	SyntaxPrefix string
	// Args are $1, $2, ...
	Args []string
	// Flags are set options as for the set builtin: "-e", "-o", "pipefail".
	Flags []string
	// Exec runs a command that is not a function or a builtin of this
	// package (args[0] is its name) with c's streams, folder and
	// environment. It returns like a command.Func. An error with a method
	// NotRun() string could not start the command: the shell prints
	// "NAME: line N: " and the error and uses command.ExitCode's status.
	// Nil makes every such name "command not found".
	Exec func(ctx context.Context, c *command.Call, args []string) error
	// Lookup reports what runs name when it is not a function or builtin:
	// "file" with its path, or "" when nothing does. Used by type,
	// command -v and hash.
	Lookup func(name, pathList, dir string) (kind, where string)
	// Umask, when set, keeps the umask where file creation sees it (FS
	// applies it to every file it creates, and redirections create
	// theirs 0666): it returns the mask, after setting it to mask when
	// set is true. Nil: the mask is a number this package only prints,
	// and redirections create files 0644.
	Umask func(set bool, mask uint32) uint32
	// FinalDir, when set, receives the folder the script ended in.
	FinalDir *string
	// Go, when set, runs f on a goroutine of its own, as the go statement
	// does (the stages of a pipeline); it may be a goroutine that ran
	// an earlier f, whose stack has grown already. Nil: a new goroutine.
	Go func(f func())
}

// Run runs script, bash's language, and returns its exit status.
func Run(ctx context.Context, script string, opts Options) (int, error) {
	if opts.FS == nil {
		return 1, errors.New("bash: Options.FS is required")
	}
	dir := opts.Dir
	if dir == "" {
		dir = "/"
	}
	if !path.IsAbs(dir) {
		return 1, fmt.Errorf("bash: Options.Dir %q is not absolute", opts.Dir)
	}
	r := newRunner(ctx, &opts, path.Clean(dir))
	defer r.shared.detachProcs()
	if r.cMode() {
		r.vars.Global().Vars["BASH_EXECUTION_STRING"] = &vars.Var{Set: true, Str: script}
	}
	defer r.shared.cancel()
	defer func() {
		r.shared.mu.Lock()
		defer r.shared.mu.Unlock()
		for _, t := range r.shared.temps {
			_ = r.fs.Remove(t)
		}
	}()
	code := r.runSub(func(r *Runner) { r.runScriptBody(script) })
	r.graceJobs()
	// What jobs cut short still hold: a file the shell opened is not
	// left open once Run returns.
	defer r.shared.files.CloseAll()
	if opts.FinalDir != nil {
		*opts.FinalDir = r.dir
	}
	if err := ctx.Err(); err != nil {
		return 124, err
	}
	return code, nil
}

// bgGrace is how long background jobs still running when the script ends
// may go on: bash leaves them running, and whoever reads the script's
// output gets theirs until they end; here they end with Run, so a short
// job's output (echo x &) is still had.
const bgGrace = 50 * time.Millisecond

// graceJobs waits for the background jobs still running, bgGrace at most.
func (r *Runner) graceJobs() {
	var timer *time.Timer
	for _, j := range r.jobs {
		if j.Finished() {
			continue
		}
		if timer == nil {
			timer = time.NewTimer(bgGrace)
			defer timer.Stop()
		}
		select {
		case <-j.Done:
		case <-timer.C:
			return
		case <-r.shared.ctx.Done():
			return
		}
	}
}

// shared is what every subshell of one Run shares.
type shared struct {
	opts    *Options
	fs      afero.Fs
	name    string
	ctx     context.Context
	cancel  context.CancelFunc
	mu      sync.Mutex
	temps   []string    // files of process substitutions, removed at the end
	files   redir.Files // the files redirections opened that are open: closed at the end
	rootPID int         // $$
	procs   *procs      // the process ids, shared with the shells this one starts (procs.go)
	sigState
	// jobs counts the background jobs and pipeline stages running now:
	// at maxJobs more are refused as a failed fork is, so a fork bomb
	// (f() { f & f; }; f, or f() { echo | f; }; f) ends instead of taking
	// the host's memory.
	jobs atomic.Int64
	// kshSubst holds the source text of ${ cmd;} and ${|cmd;} (mksh's,
	// not bash 5.2's) that the reader replaced to parse the line.
	kshSubst map[*syntax.CmdSubst]string
	// appendElems are the array literal elements written [k]+=v.
	appendElems map[*syntax.ArrayElem]bool
}

// maxJobs is how many background jobs and pipeline stages one Run may
// have running at once.
const maxJobs = 512

// Runner is one shell: the main one or a subshell.
type Runner struct {
	*shared
	ctx     context.Context // the shell's: a background job's own, which kill ends
	vars    *vars.Scope
	funcs   map[string]*syntax.Stmt
	aliases map[string]string
	dir     string
	params  []string
	arg0    string
	fds     redir.Table
	opt     map[string]bool // set -o names
	shopt   map[string]bool
	traps   map[string]string

	status      int
	lastBg      int
	jobs        []*jobs.Job
	shownJobs   []*jobs.Job // a pipeline stage's or command substitution's: the parent's jobs, which jobs lists
	line        int
	funcDepth   int
	funcNames   []string
	sourceDepth int
	loopDepth   int
	noErrExit   int         // >0 while errexit is suspended (if, &&, !, ...)
	subshell    int         // BASH_SUBSHELL
	pid         int         // $BASHPID
	rnd         randomState // $RANDOM's generator (random.go)
	dyn         dynState    // the dynamic variables' state (clock.go)

	// control flow
	brk, cont     int
	returning     bool
	exiting       bool
	exitCode      int
	inTrap        bool
	inDebugTrap   bool              // the DEBUG trap runs: no DEBUG trap inside it (other traps run)
	inErrTrap     bool              // the ERR trap runs: no ERR trap inside it
	inStage       bool              // a pipeline stage's subshell: its DEBUG trap ran in the parent
	shownTraps    map[string]string // in a subshell that set no trap yet: the parent's, which trap lists
	trapName      string            // the next trap's name in syntax errors: "exit trap"
	dirStack      []string          // pushd/popd, below the current folder
	dirSlash      bool              // cd kept a leading // (POSIX leaves its meaning open): $PWD and pwd show dir with it
	stderrToOut   bool              // |&: the next statement's stderr joins its stdout after its redirections
	nest          int               // eval and source nesting
	nestCmd       string            // "eval", "source" or "." running the current text, else ""
	lineFrozen    int               // >0 in traps: $LINENO stays the caller's
	lineOff       int               // added to a position's line: eval'd text counts from the eval's line
	callEnd       int               // the line the running simple command ends on, where eval's text starts
	funcLineOff   map[string]int    // each function's lineOff where it was defined
	funcSrc       map[string]string // the file a function was defined in, when sourced
	srcFile       string            // the file source is running; "" for the main script
	limits        ulimit.Limits     // ulimit's limits that were set, by option letter
	hash          lookup.Table      // remembered command paths (hash)
	aborting      bool              // an expansion error skips the rest of the top-level command
	pipestatus    []int
	lastSubStatus int
	callRedirs    []*syntax.Redirect // the next simple command's redirections (stmtSync to cmd)
	src           string             // the source text positions refer to
	procOut       []func()           // >(cmd) of the running statements: run when theirs ends
	jobAsync      bool               // with jobExec: a background job's (cmdContext)
	echoed        int                // set -v: the end of the lines of the script read so far (echoLines)
	execArgv0     string             // exec -a's name for the command it runs (cmdContext)
	jobExec       int                // a background job's subshell running its one simple command: the parent's pid (cmdContext)
	cmdCtx        context.Context    // cmdContext's, for cmdCtxOf and cmdCtxPID
	cmdCtxOf      context.Context
	cmdCtxPID     int
}

func newRunner(ctx context.Context, opts *Options, dir string) *Runner {
	sh := &shared{opts: opts, fs: opts.FS, name: opts.Name}
	if sh.name == "" {
		sh.name = "bash"
	}
	sh.ctx, sh.cancel = context.WithCancel(ctx)
	ppid := sh.attachProcs(ctx)
	r := &Runner{
		shared:  sh,
		vars:    vars.NewScope(),
		funcs:   map[string]*syntax.Stmt{},
		aliases: map[string]string{},
		dir:     dir,
		params:  append([]string(nil), opts.Args...),
		arg0:    sh.name,
		opt:     maps.Clone(defaultOpts),
		shopt:   maps.Clone(defaultShopts),
		traps:   map[string]string{},
		pid:     sh.rootPID,
		ctx:     sh.ctx,
		dyn:     dynState{secFrom: time.Now().Unix()},
	}
	r.fds = redir.Table{
		0: {R: cancelable(sh.ctx, opts.Stdin), Name: "stdin"},
		1: {W: orDiscard(opts.Stdout), Name: "stdout"},
		2: {W: orDiscard(opts.Stderr), Name: "stderr"},
	}
	// One map sized for the environment and the shell's own variables,
	// and their Vars in one block: a run starts with no rehashing and few
	// allocations.
	g := make(map[string]*vars.Var, len(opts.Env)+len(defaultVars)+12)
	r.vars.Global().Vars = g
	block := make([]vars.Var, 0, len(opts.Env)+len(defaultVars))
	newVar := func(v vars.Var) *vars.Var {
		block = append(block, v)
		return &block[len(block)-1]
	}
	for k, v := range opts.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			continue
		}
		g[k] = newVar(vars.Var{Set: true, Str: v, Exported: true})
	}
	if _, ok := opts.Env["PWD"]; !ok {
		// Without $PWD bash starts in the folder's real path (getcwd).
		if real, err := posixfs.Realpath(sh.fs, dir, true); err == nil {
			r.dir = real
		}
	}
	g["PWD"] = &vars.Var{Set: true, Str: r.dir, Exported: true}
	if _, ok := g["HOME"]; !ok {
		g["HOME"] = &vars.Var{Set: true, Str: dir}
	}
	if _, ok := g["PATH"]; !ok {
		g["PATH"] = &vars.Var{Set: true, Str: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", Exported: true}
	}
	if _, ok := g["_"]; !ok {
		g["_"] = &vars.Var{Set: true, Str: r.arg0} // bash's argv[0] without _ in its environment
	}
	if _, ok := g["IFS"]; !ok {
		g["IFS"] = &vars.Var{Set: true, Str: " \t\n"}
	}
	for _, d := range defaultVars {
		if _, ok := g[d.name]; !ok {
			g[d.name] = newVar(vars.Var{Set: true, Str: d.value})
		}
	}
	g["PPID"] = newVar(vars.Var{Set: true, Str: strconv.Itoa(ppid)})
	delete(g, "PS1")
	// Their values are the options' (Runner.special); assigning is an error.
	g["SHELLOPTS"] = &vars.Var{Set: true, ReadOnly: true}
	g["BASHOPTS"] = &vars.Var{Set: true, ReadOnly: true}
	g["BASH_VERSINFO"] = &vars.Var{Set: true, Kind: vars.Indexed, ReadOnly: true, Idx: map[int]string{0: "5", 1: "2", 2: "15", 3: "1", 4: "release", 5: "x86_64-pc-linux-gnu"}}
	// bash -c lists these empty arrays in set's output; no caller stack
	// fills them here.
	for _, n := range []string{"BASH_ARGC", "BASH_ARGV", "BASH_LINENO", "BASH_SOURCE"} {
		if _, ok := g[n]; !ok {
			g[n] = &vars.Var{Set: true, Kind: vars.Indexed, Idx: map[int]string{}}
		}
	}
	g["FUNCNAME"] = &vars.Var{Kind: vars.Indexed} // a value inside functions only (setFuncname)
	if so, ok := opts.Env["SHELLOPTS"]; ok {
		// bash starts with the options an exported SHELLOPTS names, and
		// exports it on.
		for _, name := range strings.Split(so, ":") {
			r.setOpt(name, true)
		}
		g["SHELLOPTS"].Exported = true
	}
	shopt.Flags(host{r}, opts.Flags)
	return r
}

// defaultOpts and defaultShopts are the options a Runner starts with.
var (
	defaultOpts   = map[string]bool{"hashall": true, "braceexpand": true, "interactive-comments": true}
	defaultShopts = map[string]bool{"extquote": true, "sourcepath": true, "checkwinsize": true, "cmdhist": true, "complete_fullquote": true, "interactive_comments": true, "globskipdots": true, "progcomp": true, "promptvars": true, "hostcomplete": true, "force_fignore": true}
)

// defaultVars are the shell's variables a Runner sets where the
// environment does not.
var defaultVars = []struct{ name, value string }{
	{"PS4", "+ "}, {"OPTIND", "1"}, {"PS1", ""}, {"PS2", "> "}, {"SHLVL", "1"}, {"BASH", "/bin/bash"},
	{"BASH_VERSION", "5.2.15(1)-release"}, {"HOSTTYPE", "x86_64"}, {"OSTYPE", "linux-gnu"},
	{"MACHTYPE", "x86_64-pc-linux-gnu"}, {"OPTERR", "1"}, {"UID", "1000"}, {"EUID", "1000"},
	{"HOSTNAME", "sandbox"}, {"SHELL", "/bin/bash"},
}

// cancelable makes reads of rd return when ctx ends: rd is copied into a
// pipe that ctx's end closes.
func cancelable(ctx context.Context, rd io.Reader) io.Reader {
	if rd == nil {
		return strings.NewReader("")
	}
	if _, ok := rd.(*strings.Reader); ok {
		return rd
	}
	pr, pw := pipe.New()
	go func() {
		_, err := io.Copy(pw, rd)
		pw.CloseWithError(err)
	}()
	context.AfterFunc(ctx, func() { pr.CloseWithError(ctx.Err()) })
	return pr
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// setOpt sets a set -o option; false when set -o has no option name.
func (r *Runner) setOpt(name string, on bool) bool {
	if !shopt.Settable(name) {
		return false
	}
	r.opt[name] = on
	return true
}

// subshell returns a copy of r that runs apart: its own variables,
// functions, folder and fds.
func (r *Runner) subshellCopy() *Runner { return r.subshellOf(r.vars.Clone()) }

// subshellFork is subshellCopy for a subshell r waits for, doing nothing
// meanwhile ($(...), ( ), a pipeline's stages): its variables are copied
// on write (vars.Scope.Fork).
func (r *Runner) subshellFork() *Runner { return r.subshellOf(r.vars.Fork()) }

// subshellOf is subshellCopy with the variables vs.
func (r *Runner) subshellOf(vs *vars.Scope) *Runner {
	c := *r
	c.vars = vs
	c.funcs = cloneMap(r.funcs)
	c.funcLineOff = cloneMap(r.funcLineOff)
	c.funcSrc = cloneMap(r.funcSrc)
	c.limits = cloneMap(r.limits)
	c.hash = r.hash.Clone()
	c.aliases = cloneMap(r.aliases)
	c.opt = cloneMap(r.opt)
	c.shopt = cloneMap(r.shopt)
	// EXIT is not inherited; ERR only with errtrace, DEBUG and RETURN
	// only with functrace. trap with no arguments still lists the
	// parent's until the subshell sets one (bash's quirk).
	c.traps = map[string]string{}
	for k, v := range r.traps {
		switch {
		case k == "EXIT":
		case k == "ERR" && !r.opt["errtrace"]:
		case (k == "DEBUG" || k == "RETURN") && !r.opt["functrace"]:
		default:
			c.traps[k] = v
		}
	}
	if r.shownTraps == nil {
		c.shownTraps = r.traps
	}
	c.fds = r.fds.Clone()
	c.params = append([]string(nil), r.params...)
	c.funcNames = append([]string(nil), r.funcNames...)
	c.dirStack = append([]string(nil), r.dirStack...)
	c.jobs, c.shownJobs = nil, nil
	c.procOut = nil
	c.inStage = false
	c.subshell = r.subshell + 1
	c.pid = c.procs.alloc()
	c.brk, c.cont, c.returning, c.exiting = 0, 0, false, false
	return &c
}

// cloneMap copies m (an empty map for nil, which can be written to).
// maps.Clone copies the table as a whole, not entry by entry: a subshell
// (each stage of a pipeline) copies the options, functions and fds.
func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return map[K]V{}
	}
	return maps.Clone(m)
}

// runScriptBody parses and runs src. A syntax error runs the complete
// statements before it, then reports it with status 2.
func (r *Runner) runScriptBody(src string) {
	r.src = src
	rd := parse.NewReader(parseHost{r}, src)
	defer rd.Close()
	for {
		stmts, perr := rd.Next()
		r.src = rd.Text()
		if !r.opt["noexec"] {
			r.runTop(stmts)
		}
		if perr != nil && !r.exiting {
			r.exiting, r.exitCode = true, r.syntaxError(rd.Text(), perr)
		}
		if stmts == nil && perr == nil && r.opt["verbose"] && r.echoed < len(r.src) {
			// the lines after the last command: blank lines, comments
			fmt.Fprint(r.stderr(), r.src[r.echoed:])
		}
		if perr != nil || (stmts == nil && perr == nil) || (r.stopped() && !r.opt["noexec"]) {
			return
		}
	}
}

// echoLines is set -v: the script's lines as read, before st runs: from
// the last line echoed through the end of st's last line (its
// here-documents' included), blank lines and comments before it too; a
// line read before -v was set is not echoed.
func (r *Runner) echoLines(st *syntax.Stmt) {
	end := int(st.End().Offset())
	if r.opt["verbose"] {
		syntax.Walk(st, func(n syntax.Node) bool {
			if n != nil && n.End().IsValid() {
				end = max(end, int(n.End().Offset()))
			}
			return true
		})
	}
	if end > len(r.src) {
		end = len(r.src)
	}
	if i := strings.IndexByte(r.src[end:], '\n'); i >= 0 {
		end += i + 1
	} else {
		end = len(r.src)
	}
	if r.opt["verbose"] && end > r.echoed {
		fmt.Fprint(r.stderr(), r.src[r.echoed:end])
	}
	r.echoed = max(r.echoed, end)
}

// runSource reads and runs src (eval's and source's text) line by line;
// it returns the syntax error that ended it, after the lines before it
// ran, and the text as read (with its aliases expanded).
func (r *Runner) runSource(src string) (string, error) {
	rd := parse.NewReader(parseHost{r}, src)
	defer rd.Close()
	for {
		stmts, perr := rd.Next()
		r.runStmts(stmts)
		if perr != nil || stmts == nil || r.stopped() {
			return rd.Text(), perr
		}
	}
}

// finish runs the EXIT trap and returns the shell's final status.
func (r *Runner) finish() int {
	code := r.status
	if r.exiting {
		code = r.exitCode
	}
	if t, ok := r.traps["EXIT"]; ok {
		delete(r.traps, "EXIT")
		r.exiting, r.returning, r.brk, r.cont = false, false, 0, 0
		r.status = code
		r.trapName = "exit trap"
		r.runTrap(t)
		if r.exiting {
			code = r.exitCode
		}
	}
	return code & 0xff
}

// syntaxError reports err, an error of parsing src, as bash does, with
// the prefix of the script ("bash: -c" for a -c string).
func (r *Runner) syntaxError(src string, err error) (status int) {
	pfx := r.opts.SyntaxPrefix
	if pfx == "" {
		pfx = r.name + ": -c"
	}
	if ce, ok := parse.CondSyntaxError(src, err); ok {
		// bash leaves with the last command's status after an error in
		// [[ ]]'s grammar.
		if ce.Msg != "" {
			fmt.Fprintf(r.stderr(), "%s: line %d: %s\n", pfx, ce.Line, ce.Msg)
		}
		return r.status
	}
	parse.PrintSyntaxError(r.stderr(), pfx, src, 1, err)
	return 2
}

func (r *Runner) stderr() io.Writer { return r.fds.Stderr() }

func (r *Runner) stdout() io.Writer { return r.fds.Stdout() }

func (r *Runner) stdin() io.Reader { return r.fds.Stdin() }

// errf prints a shell message: "bash: line N: text".
//
// As bash 5.2 does, inside a function of a -c string the name is
// "environment".
func (r *Runner) errf(format string, a ...any) {
	r.errfLine(false, format, a...)
}

func (r *Runner) errfLine(noLine bool, format string, a ...any) {
	name := r.name
	if r.funcDepth > 0 && r.cMode() {
		name = "environment"
	}
	if noLine {
		fmt.Fprintf(r.stderr(), "%s: %s\n", name, fmt.Sprintf(format, a...))
		return
	}
	fmt.Fprintf(r.stderr(), "%s: line %d: %s\n", name, r.line, fmt.Sprintf(format, a...))
}

// cMode reports a -c string (not a script file).
func (r *Runner) cMode() bool {
	p := r.opts.SyntaxPrefix
	return p == "" || strings.HasSuffix(p, ": -c")
}

// stopped reports whether control flow leaves the current statement list.
func (r *Runner) stopped() bool {
	return r.exiting || r.aborting || r.returning || r.brk > 0 || r.cont > 0 || r.opt["noexec"] || r.ctx.Err() != nil
}

// runTop runs a script's top-level statements: after an expansion error
// (aborting), the statements left on the same line are skipped, as bash
// reads and runs a script line by line.
func (r *Runner) runTop(stmts []*syntax.Stmt) {
	skipLine := uint(0)
	for _, st := range stmts {
		if r.sigPending.Load() {
			r.runPending()
		}
		if r.stopped() {
			return
		}
		if st.Pos().Line() == skipLine {
			continue
		}
		r.echoLines(st)
		r.stmt(st)
		if r.aborting {
			r.aborting = false
			skipLine = st.End().Line()
		}
	}
	if r.sigPending.Load() {
		r.runPending()
	}
}

func (r *Runner) runStmts(stmts []*syntax.Stmt) {
	for _, st := range stmts {
		if r.sigPending.Load() {
			r.runPending()
		}
		if r.stopped() {
			return
		}
		r.stmt(st)
	}
}

// exit makes the shell leave with status code.
func (r *Runner) exit(code int) {
	r.exiting, r.exitCode = true, code
}

// fatal reports an expansion error: the message, then the shell exits
// (status st), as a non-interactive bash does.
type shError struct {
	msg    string
	status int
	noExit bool // the command fails, the shell goes on
	abort  bool // the rest of the top-level command is skipped
}

func (e *shError) Error() string { return e.msg }

// reportSoft reports err of a builtin or loop: the command fails, the
// shell goes on.
func (r *Runner) reportSoft(err error) {
	var se *shError
	if errors.As(err, &se) {
		c := *se
		c.abort, c.noExit = false, true
		err = &c
	}
	r.report(err)
}

func (r *Runner) report(err error) {
	var se *shError
	if errors.As(err, &se) {
		if se.msg != "" {
			r.errf("%s", se.msg)
		}
		r.status = se.status
		switch {
		case se.abort:
			r.aborting = true
			if r.opt["errexit"] && r.noErrExit == 0 {
				r.exit(se.status)
			}
		case !se.noExit:
			code := se.status
			if code == 127 && (r.subshell > 0 || r.opt["errexit"]) {
				// bash -c leaves with 127 on an unset parameter; a
				// subshell of it, or with set -e too, with 1.
				code = 1
			}
			r.status = code
			r.exit(code)
		}
		return
	}
	r.errf("%v", err)
	r.status = 1
}

func (r *Runner) stmt(st *syntax.Stmt) {
	r.yield()
	r.setLine(st.Pos())
	if st.Background {
		r.background(st)
		return
	}
	if st.Negated {
		r.noErrExit++
	}
	n := len(r.procOut)
	r.stmtSync(st)
	r.runProcOut(n)
	if st.Negated {
		r.noErrExit--
		if r.status == 0 {
			r.status = 1
		} else {
			r.status = 0
		}
		return
	}
	r.checkErr(st)
}

// checkErr runs the ERR trap and errexit after a failed command.
func (r *Runner) checkErr(st *syntax.Stmt) {
	if r.status == 0 || r.noErrExit > 0 || r.stopped() {
		return
	}
	if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && (bc.Op == syntax.AndStmt || bc.Op == syntax.OrStmt) {
		return // checked on the last command of the list
	}
	if t, ok := r.traps["ERR"]; ok && !r.inErrTrap && errTrapFor(st) {
		st := r.status
		r.inErrTrap = true
		r.runTrap(t)
		r.inErrTrap = false
		r.status = st
	}
	if r.opt["errexit"] {
		r.exit(r.status)
	}
}

// errTrapFor reports whether the ERR trap runs for st's failure: for a
// simple command, a pipeline, a subshell, (( )), [[ ]] and declarations,
// not for a compound command (the failing command inside ran it).
func errTrapFor(st *syntax.Stmt) bool {
	switch st.Cmd.(type) {
	case *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause, *syntax.FuncDecl:
		return false
	}
	return true
}

// setLine makes p's line the current $LINENO, unless a trap froze it.
func (r *Runner) setLine(p syntax.Pos) {
	if r.lineFrozen == 0 {
		r.line = int(p.Line()) + r.lineOff
	}
}

// runTrap runs a trap's text. $LINENO stays the line of the command that
// ran it, except in the EXIT trap, whose text counts its own lines from 1
// as bash does.
func (r *Runner) runTrap(text string) {
	saved := r.status
	r.inTrap = true
	savedOff, savedFrozen := r.lineOff, r.lineFrozen
	if r.trapName == "exit trap" || r.trapName == "signal trap" {
		r.lineOff, r.lineFrozen = 0, 0
	} else {
		r.lineFrozen++
	}
	defer func() { r.inTrap = false; r.lineOff, r.lineFrozen = savedOff, savedFrozen }()
	name := r.trapName
	r.trapName = ""
	file, err := parse.Script(text)
	if err != nil {
		if name == "" || name == "signal trap" {
			name = "trap"
		}
		parse.PrintSyntaxError(r.stderr(), r.name+": "+name, text, 1, err)
		return
	}
	r.runStmts(file.Stmts)
	if !r.exiting {
		r.status = saved
	}
}

// stmtSync runs a statement with its redirections.
func (r *Runner) stmtSync(st *syntax.Stmt) {
	if r.stderrToOut {
		r.stderrToOut = false
		u := &redir.Undo{}
		if err := r.redirectU(st.Redirs, u); err != nil {
			u.Restore(r.fds)
			r.redirErr(err)
			return
		}
		u.Set(r.fds, 2, r.fds[1])
		r.cmd(st.Cmd)
		u.Restore(r.fds)
		return
	}
	if len(st.Redirs) == 0 {
		r.cmd(st.Cmd)
		return
	}
	if st.Cmd == nil {
		restore, err := r.redirect(st.Redirs, false)
		if restore != nil {
			restore()
		}
		if err != nil {
			r.redirErr(err)
			return
		}
		r.status = 0
		return
	}
	if ce, ok := st.Cmd.(*syntax.CallExpr); ok && execOnly(ce) {
		// exec with redirections only: they stay. Its assignments are
		// temporary, except in POSIX mode.
		if len(ce.Assigns) > 0 {
			tmp, err := r.tempAssigns(ce.Assigns)
			if err != nil {
				r.report(err)
				return
			}
			if r.opt["posix"] && !r.persistAssigns(tmp) {
				return
			}
		}
		if restore, err := r.redirect(st.Redirs, true); err != nil {
			restore() // bash keeps none of a failed exec's redirections
			r.redirErr(err)
			return
		}
		r.status = 0
		return
	}
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.DeclClause:
		// redirections after the words are expanded (Runner.call)
		r.callRedirs = st.Redirs
		r.cmd(st.Cmd)
		r.callRedirs = nil
		return
	}
	restore, err := r.redirect(st.Redirs, false)
	if err != nil {
		if restore != nil {
			restore()
		}
		r.redirErr(err)
		return
	}
	r.cmd(st.Cmd)
	restore()
}

// execOnly reports whether c is exec without a command: "exec" or
// "exec --", with assignments or not.
func execOnly(c *syntax.CallExpr) bool {
	switch len(c.Args) {
	case 1:
		return c.Args[0].Lit() == "exec"
	case 2:
		return c.Args[0].Lit() == "exec" && c.Args[1].Lit() == "--"
	}
	return false
}

func (r *Runner) redirErr(err error) {
	var se *shError
	if errors.As(err, &se) {
		r.report(err)
		return
	}
	r.errf("%v", err)
	r.status = 1
}

func (r *Runner) cmd(c syntax.Command) {
	if r.ctx.Err() != nil {
		r.exit(124)
		return
	}
	rds := r.callRedirs // a simple command's, applied after its expansions
	r.callRedirs = nil
	switch c.(type) {
	case *syntax.ArithmCmd, *syntax.TestClause, *syntax.DeclClause, *syntax.LetClause, *syntax.CaseClause:
		if r.debugTrap() {
			return
		}
	}
	switch c := c.(type) {
	case nil:
	case *syntax.CallExpr:
		r.call(c, rds)
	case *syntax.Block:
		r.runStmts(c.Stmts)
	case *syntax.Subshell:
		r.subshellRun(func(s *Runner) { s.runStmts(c.Stmts) })
	case *syntax.BinaryCmd:
		r.binary(c)
	case *syntax.IfClause:
		r.ifClause(c)
	case *syntax.WhileClause:
		r.whileClause(c)
	case *syntax.ForClause:
		r.forClause(c)
	case *syntax.CaseClause:
		r.caseClause(c)
	case *syntax.FuncDecl:
		if r.opt["posix"] && specialBuiltins[c.Name.Value] {
			// POSIX mode: a fatal error, as bash's, at the line the
			// definition ends on
			r.setLine(c.End())
			r.errf("`%s': is a special builtin", c.Name.Value)
			r.exit(2)
			return
		}
		r.funcs[c.Name.Value] = c.Body
		if r.lineOff != 0 {
			if r.funcLineOff == nil {
				r.funcLineOff = map[string]int{}
			}
			r.funcLineOff[c.Name.Value] = r.lineOff
		} else {
			delete(r.funcLineOff, c.Name.Value)
		}
		if r.srcFile != "" {
			if r.funcSrc == nil {
				r.funcSrc = map[string]string{}
			}
			r.funcSrc[c.Name.Value] = r.srcFile
		} else {
			delete(r.funcSrc, c.Name.Value)
		}
		r.status = 0
	case *syntax.ArithmCmd:
		// bash's line of ((...)) is the one it ends on (read whole)
		r.setLine(c.Right)
		r.xtraceArith(c)
		n, err := r.arith(c.X)
		if err != nil {
			r.report(r.arithContext(err, "((: ", false))
			return
		}
		r.status = b2i(n == 0)
	case *syntax.TestClause:
		ok, err := r.test(c.X)
		if err != nil {
			r.report(err)
			if r.status == 0 {
				r.status = 2
			}
			return
		}
		r.status = b2i(!ok)
	case *syntax.DeclClause:
		r.declClause(c, rds)
	case *syntax.LetClause:
		var n int64
		for _, x := range c.Exprs {
			var err error
			n, err = r.arith(x)
			if err != nil {
				r.report(r.arithContext(err, "let: ", false))
				return
			}
		}
		r.status = b2i(n == 0)
	case *syntax.TimeClause:
		r.timeClause(c) // clock.go
	case *syntax.CoprocClause:
		r.errf("coproc: not supported in the sandbox")
		r.status = 1
	default:
		r.errf("%T: not supported", c)
		r.status = 2
	}
}

// arithFail reports an arithmetic error: bash prints it and the command
// fails; outside a function the shell goes on with status 1.
func (r *Runner) arithFail(err error) {
	r.report(r.arithContext(err, "((: ", false))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (r *Runner) binary(c *syntax.BinaryCmd) {
	switch c.Op {
	case syntax.AndStmt, syntax.OrStmt:
		r.noErrExit++
		r.stmt(c.X)
		r.noErrExit--
		if r.stopped() {
			return
		}
		if (r.status == 0) == (c.Op == syntax.AndStmt) {
			r.stmt(c.Y)
		}
	case syntax.Pipe, syntax.PipeAll:
		r.pipeline(c)
	}
}

func (r *Runner) ifClause(c *syntax.IfClause) {
	r.noErrExit++
	r.runStmts(c.Cond)
	r.noErrExit--
	if r.stopped() {
		return
	}
	if r.status == 0 {
		r.runStmts(c.Then)
		return
	}
	r.status = 0
	for e := c.Else; e != nil; e = e.Else {
		if len(e.Cond) == 0 {
			r.runStmts(e.Then)
			return
		}
		r.noErrExit++
		r.runStmts(e.Cond)
		r.noErrExit--
		if r.stopped() {
			return
		}
		if r.status == 0 {
			r.runStmts(e.Then)
			return
		}
		r.status = 0
	}
}

// loopBody runs one iteration's body and reports whether the loop goes on.
func (r *Runner) loopBody(stmts []*syntax.Stmt) bool {
	r.runStmts(stmts)
	if r.brk > 0 {
		r.brk--
		return false
	}
	if r.cont > 0 {
		r.cont--
		if r.cont > 0 {
			return false
		}
	}
	return !r.exiting && !r.returning && r.ctx.Err() == nil
}

func (r *Runner) whileClause(c *syntax.WhileClause) {
	r.loopDepth++
	defer func() { r.loopDepth-- }()
	status := 0
	for {
		r.noErrExit++
		r.runStmts(c.Cond)
		r.noErrExit--
		if r.stopped() {
			if r.brk > 0 {
				r.brk--
				r.status = 0
			} else if r.cont > 0 {
				r.cont--
				if r.cont == 0 {
					continue
				}
			}
			return
		}
		if (r.status == 0) == c.Until {
			break
		}
		r.status = 0
		ok := r.loopBody(c.Do)
		status = r.status
		if !ok {
			return
		}
	}
	r.status = status
}

func (r *Runner) forClause(c *syntax.ForClause) {
	r.loopDepth++
	defer func() { r.loopDepth-- }()
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		var items []string
		if l.InPos.IsValid() {
			var err error
			items, err = r.fields(l.Items...)
			if err != nil {
				r.report(err)
				return
			}
		} else {
			items = append([]string(nil), r.params...)
		}
		r.status = 0
		for _, it := range items {
			r.setLine(c.Pos())
			if r.debugTrap() {
				return
			}
			if err := r.setVar(l.Name.Value, it); err != nil {
				r.reportSoft(err)
				return
			}
			if !r.loopBody(c.Do) {
				return
			}
		}
	case *syntax.CStyleLoop:
		// The DEBUG trap runs before each of the three expressions, even
		// an empty one, as bash runs it.
		r.setLine(c.Pos())
		if r.debugTrap() {
			return
		}
		if l.Init != nil {
			if _, err := r.arith(l.Init); err != nil {
				r.arithFail(err)
				return
			}
		}
		r.status = 0
		for {
			r.setLine(c.Pos()) // $LINENO in the condition is the loop's line
			if r.debugTrap() {
				return
			}
			if l.Cond != nil {
				n, err := r.arith(l.Cond)
				if err != nil {
					r.arithFail(err)
					return
				}
				if n == 0 {
					break
				}
			}
			if !r.loopBody(c.Do) {
				return
			}
			r.setLine(c.Pos())
			if r.debugTrap() {
				return
			}
			if l.Post != nil {
				if _, err := r.arith(l.Post); err != nil {
					r.arithFail(err)
					return
				}
			}
		}
	}
}

func (r *Runner) caseClause(c *syntax.CaseClause) {
	if r.opt["xtrace"] {
		// bash 5.2 traces the word as written, before expanding it
		fmt.Fprint(r.stderr(), r.ps4()+"case "+printNode(c.Word)+" in\n")
	}
	word, err := r.literal(c.Word)
	if err != nil {
		r.report(err)
		return
	}
	r.status = 0
	fall := false
	for _, ci := range c.Items {
		matched := fall
		if !matched {
			for _, p := range ci.Patterns {
				pat, err := r.pattern(p)
				if err != nil {
					r.report(err)
					return
				}
				if glob.Match(pat, word, r.shopt["nocasematch"]) {
					matched = true
					break
				}
			}
		}
		if !matched {
			continue
		}
		r.runStmts(ci.Stmts)
		switch ci.Op {
		case syntax.Break:
			return
		case syntax.Fallthrough: // ;&
			fall = true
		case syntax.Resume: // ;;&
			fall = false
		}
	}
}

// subshellRun runs fn in a copy of r and takes its status.
func (r *Runner) subshellRun(fn func(s *Runner)) {
	s := r.subshellFork()
	code := s.runSub(fn)
	r.status = code
}

// runSub runs fn as a subshell's whole program and returns its status,
// recovering a panic into status 2.
//
// Its file descriptors are let go of when it ends (the files no other
// shell holds are closed), as a process's are when it exits.
func (s *Runner) runSub(fn func(s *Runner)) (code int) {
	defer s.fds.Release()
	// A subshell's umask is its own, as a forked process's is: the mask
	// lives in the filesystem the shells share, so the parent's comes
	// back when the subshell ends.
	mask := s.umask(false, 0)
	defer func() {
		if s.umask(false, 0) != mask {
			s.umask(true, mask)
		}
	}()
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(s.stderr(), "%s: internal error: %v\n", s.name, p)
			code = 2
		}
	}()
	fn(s)
	s.returning = false
	s.aborting = false
	return s.finish()
}

func (r *Runner) background(st *syntax.Stmt) {
	if r.shared.jobs.Add(1) > maxJobs {
		r.shared.jobs.Add(-1)
		r.errf("fork: Resource temporarily unavailable")
		r.status = 254
		return
	}
	s := r.subshellCopy()
	st2 := *st
	st2.Background = false
	ctx, cancel := context.WithCancel(r.ctx)
	s.ctx = ctx
	r.execChild(s, &st2)
	s.jobAsync = s.jobExec != 0
	j := jobs.New(jobs.NextID(r.jobs), s.pid, stmtText(&st2), cancel)
	go func() {
		defer cancel()
		defer r.shared.jobs.Add(-1)
		j.Run(func() int {
			return s.runSub(func(s *Runner) {
				if asyncNoErrTrap(&st2) {
					// bash runs no ERR trap for the failure of an async
					// simple command or pipeline itself, even with errtrace.
					s.setLine(st2.Pos())
					s.stmtSync(&st2)
					return
				}
				s.stmt(&st2)
			})
		})
	}()
	// A forked child runs first as a rule: `echo a & echo b &` prints a,
	// then b, in bash. A new goroutine is only next in line.
	runtime.Gosched()
	r.jobs = append(r.jobs, j)
	r.lastBg = s.pid
	r.status = 0
}

// execChild marks s, a subshell of r about to run st alone (a background
// job, a command substitution), as bash's forked child that execs st's
// command: a shell that command starts has s's pid as its $$ and r's as
// its $PPID. Only a simple command is exec'd, and not a function's body.
func (r *Runner) execChild(s *Runner, st *syntax.Stmt) {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || st.Negated {
		return
	}
	if name := ce.Args[0].Lit(); name == "" || r.funcs[name] == nil {
		s.jobExec = r.pid // callFunc clears it
	}
}

// asyncNoErrTrap reports whether st, run with &, is a simple command or
// a pipeline, whose own failure runs no ERR trap.
func asyncNoErrTrap(st *syntax.Stmt) bool {
	if st.Negated {
		return false
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		return true
	case *syntax.BinaryCmd:
		return c.Op == syntax.Pipe || c.Op == syntax.PipeAll
	}
	return false
}

func stmtText(st *syntax.Stmt) string {
	var b strings.Builder
	_ = syntax.NewPrinter(syntax.Minify(false)).Print(&b, st)
	return strings.TrimSpace(b.String())
}
