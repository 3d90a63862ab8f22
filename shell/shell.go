// Package shell is the sandboxes' POSIX shell: bash's language, run by
// mvdan.cc/sh/v3's interpreter, over an afero.Fs, with coreutils written in
// Go. The memory adapter runs it natively; the wasm adapter compiles it into
// its busybox image.
//
// # Contracts
//
//   - Nothing of the host is reached: every path a script names, in a
//     redirection, a glob, cd, test, source or a builtin, is a path of
//     Options.FS; the environment is Options.Env and nothing else; no host
//     program is started. Names no builtin, handler or script answers are
//     "command not found" (127), or go to Options.Fallback.
//   - A script's failure is a result: Run returns its exit status, also for
//     a syntax error (2, with bash's message on stderr) and for a builtin
//     that panicked (2, with the panic on stderr). Run returns an error
//     only for bad Options and when ctx ends.
//   - ctx is the time limit: when it ends, the running command is stopped
//     and Run returns ctx.Err() promptly, with status 124. Background jobs
//     (cmd &) end when Run returns, and their later output is dropped.
//   - Device files work in redirections and builtins alike: /dev/null,
//     /dev/zero, /dev/urandom, /dev/stdin, /dev/stdout, /dev/stderr.
//   - The filesystem keeps POSIX rules even over afero.MemMapFs: no implicit
//     parent folders, ENOTEMPTY, EISDIR (see fsPOSIX); new files get the
//     umask 022.
//
// # Builtins
//
// A command is looked up in this order: shell functions and the shell's
// own builtins (cd, echo, printf, test, read, export, ...; see
// interp.IsBuiltin), Options.Handlers, the coreutils of this package
// (Builtins), an executable script named with a slash or found through
// $PATH in the filesystem, Options.Fallback. Builtins get a Call; Call.Exec
// runs another command through the same lookup (without functions).
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Options configures one Run.
type Options struct {
	// FS is the filesystem every path names; required. Paths are absolute.
	FS afero.Fs
	// Dir is the folder the script starts in: absolute, an existing folder
	// of FS. Empty means "/".
	Dir string
	// Env is the whole environment: nothing comes from the host. PWD is
	// always set to Dir; HOME defaults to Dir and PATH to
	// DefaultPath when they are missing.
	Env map[string]string
	// Stdin is the script's standard input; nil reads nothing.
	Stdin io.Reader
	// Stdout and Stderr receive the script's output; nil discards it.
	// Writes to them are serialised by one lock, so the same writer may be
	// given for both.
	Stdout, Stderr io.Writer
	// Handlers are extra commands by name, looked up before this package's
	// coreutils (not before functions or shell builtins such as echo or cd).
	Handlers map[string]Builtin
	// Fallback runs names nothing else knows (the wasm adapter's python3,
	// node); nil makes them "command not found".
	Fallback Builtin
	// FallbackNames are the names Fallback answers, so that which,
	// command -v and type report them ("/usr/bin/NAME"). Optional.
	FallbackNames []string
	// Name is $0 and the prefix of the shell's own messages ("bash: line
	// 1: x: command not found"); default "bash".
	Name string
	// Args are the positional parameters $1, $2, ...
	Args []string
	// Interpreter chooses the interpreter: "" (or "new") runs the
	// project's own, package shell/bash; "mvdan" the former one on
	// mvdan.cc/sh's interp, kept only until it is deleted. Any other value
	// is an error.
	Interpreter string
	// FinalDir, when set, receives the folder the script ended in: after
	// cd, also when it stopped early through exit, set -e, an error or the
	// end of ctx.
	FinalDir *string
}

// DefaultPath is $PATH when Options.Env has none.
const DefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// TimeoutExitCode is the status Run returns when ctx ends, as timeout(1)
// does.
const TimeoutExitCode = 124

// runGrace is how long Run waits, after ctx ended, for a command that does
// not stop before it returns anyway (and drops the command's later output).
const runGrace = time.Second

// Run runs script, bash's language, and returns its exit status.
//
// The error is non-nil only for bad Options (no FS, a Dir that is not an
// absolute folder of FS) and when ctx ends, which returns ctx.Err() with
// status TimeoutExitCode. A syntax error is status 2 with bash's message on
// stderr; statements before the line in error run first, as in bash.
func Run(ctx context.Context, script string, opts Options) (int, error) {
	if opts.FS == nil {
		return 1, errors.New("shell: Options.FS is required")
	}
	switch opts.Interpreter {
	case "", InterpreterNew, InterpreterMvdan:
	default:
		return 1, fmt.Errorf("shell: Options.Interpreter %q is not known (use \"\")", opts.Interpreter)
	}
	dir := opts.Dir
	if dir == "" {
		dir = "/"
	}
	if !path.IsAbs(dir) {
		return 1, fmt.Errorf("shell: Options.Dir %q is not absolute", opts.Dir)
	}
	dir = path.Clean(dir)
	s := newSession(opts)
	if fi, err := s.base.Stat(dir); err != nil {
		return 1, fmt.Errorf("shell: Options.Dir %q: %w", dir, err)
	} else if !fi.IsDir() {
		return 1, fmt.Errorf("shell: Options.Dir %q is not a folder", dir)
	}
	if opts.FinalDir != nil {
		*opts.FinalDir = dir
	}
	if err := ctx.Err(); err != nil {
		return TimeoutExitCode, err
	}

	out := newShWriters(opts.Stdout, opts.Stderr)
	defer out.close()
	stdin, closeStdin := shStdin(opts.Stdin)
	defer closeStdin()

	env := shEnvList(opts.Env, dir)
	defer s.cleanup()
	// Background jobs (cmd &) end with the run: runCtx is cancelled when
	// Run returns.
	runCtx, cancelRun := context.WithCancel(ctx)
	defer cancelRun()
	type result struct {
		code int
		dir  string
	}
	done := make(chan result, 1)
	go func() {
		code, finalDir := s.runScript(runCtx, script, scriptSpec{
			name:   s.name,
			errPfx: s.name + ": -c",
			dir:    dir,
			env:    env,
			stdin:  stdin,
			stdout: out.stdout,
			stderr: out.stderr,
			params: opts.Args,
		})
		done <- result{code, finalDir}
	}()
	var res result
	select {
	case res = <-done:
	case <-ctx.Done():
		select {
		case res = <-done:
		case <-time.After(runGrace):
			// A command ignores ctx: leave it behind, silenced.
			out.close()
			return TimeoutExitCode, ctx.Err()
		}
	}
	if opts.FinalDir != nil && res.dir != "" {
		*opts.FinalDir = res.dir
	}
	if err := ctx.Err(); err != nil {
		return TimeoutExitCode, err
	}
	return res.code, nil
}

// scriptSpec is one script run by a Runner of a session: the main script,
// bash -c, a script file.
type scriptSpec struct {
	name   string // $0
	errPfx string // prefix of syntax errors: "bash: -c" or "./x.sh"
	dir    string
	env    []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	params []string
	flags  []string // set flags, such as "-e"
}

// runScript parses and runs src as a whole shell script and returns its
// status and the folder it ended in. A syntax error runs the statements on
// the lines before it, then prints the error and gives status 2. ctx's end
// gives status TimeoutExitCode; the caller checks ctx.
func (s *session) runScript(ctx context.Context, src string, sp scriptSpec) (code int, finalDir string) {
	finalDir = sp.dir
	if s.interp == InterpreterNew {
		return s.runScriptNew(ctx, src, sp)
	}
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(sp.stderr, "%s: internal error: %v\n", s.name, p)
			code = 2
		}
	}()
	file, perr := s.parse(src, sp.name)
	r, err := s.newRunner(sp)
	if err != nil {
		fmt.Fprintf(sp.stderr, "%s: %v\n", s.name, err)
		return 2, finalDir
	}
	err = r.Run(ctx, file)
	finalDir = r.Dir
	code = s.exitCode(ctx, sp.stderr, err)
	if perr != nil && !r.Exited() {
		fmt.Fprintln(sp.stderr, s.syntaxMessage(sp.errPfx, perr))
		code = 2
	}
	return code, finalDir
}

// exitCode turns what Runner.Run returned into a status.
func (s *session) exitCode(ctx context.Context, stderr io.Writer, err error) int {
	es, isStatus := asInterpStatus(err)
	switch {
	case err == nil:
		return 0
	case isStatus:
		return int(es)
	case ctx.Err() != nil:
		return TimeoutExitCode
	}
	fmt.Fprintf(stderr, "%s: %v\n", s.name, err)
	return 1
}

// parse parses src in bash's language and prepares it to run (see
// rewrite). On a syntax error it returns the statements of the lines before
// the error, and the error.
func (s *session) parse(src, name string) (*syntax.File, error) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	var stmts []*syntax.Stmt
	var err error
	for st, serr := range p.StmtsSeq(strings.NewReader(src)) {
		if serr != nil {
			err = serr
			break
		}
		stmts = append(stmts, st)
	}
	if err != nil {
		line := shErrLine(err)
		keep := stmts[:0]
		for _, st := range stmts {
			if st.End().Line() < line {
				keep = append(keep, st)
			}
		}
		stmts = keep
	}
	file := &syntax.File{Name: name, Stmts: stmts}
	s.rewrite(file)
	return file, err
}

// shErrLine is the line a parse error is on (1 when unknown).
func shErrLine(err error) uint {
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		return pe.Pos.Line()
	case errors.As(err, &le):
		return le.Pos.Line()
	}
	return 1
}

// syntaxMessage is bash's wording of a parse error:
// "bash: -c: line 2: syntax error: ...".
func (s *session) syntaxMessage(prefix string, err error) string {
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		text := pe.Text
		if pe.Incomplete {
			text = "unexpected end of file (" + text + ")"
		}
		return fmt.Sprintf("%s: line %d: syntax error: %s", prefix, max(pe.Pos.Line(), 1), text)
	case errors.As(err, &le):
		return fmt.Sprintf("%s: line %d: syntax error: %s is not supported", prefix, max(le.Pos.Line(), 1), le.Feature)
	}
	return fmt.Sprintf("%s: syntax error: %v", prefix, err)
}

// rewrite prepares a parsed program for a sandbox, in place:
//
//   - process substitution <(cmd) becomes a command substitution that runs
//     cmd with its output in a temporary file of the FS and expands to that
//     file's name (the interpreter would make a FIFO on the host);
//     >(cmd) is reported as unsupported;
//   - the tests -O and -G (owned by the user, by the group) become -e:
//     the sandbox's user owns every file, and the interpreter would look
//     the user up on the host;
//   - the names of declared functions are noted, for command -v and type;
//   - a background job and a pipeline's left side run under a guard that
//     turns a panic into a failed command (guard.go).
//
// It reports whether it changed anything.
func (s *session) rewrite(node syntax.Node) bool {
	changed := platformRewrite != nil && platformRewrite(s, node)
	syntax.Walk(node, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil {
				s.addFunc(n.Name.Value)
			}
		case *syntax.UnaryTest:
			if n.Op == syntax.TsUsrOwn || n.Op == syntax.TsGrpOwn {
				n.Op = syntax.TsExists
				changed = true
			}
		case *syntax.Word:
			for i, part := range n.Parts {
				ps, ok := part.(*syntax.ProcSubst)
				if !ok {
					continue
				}
				// Rewrite what is inside first: the walk does not revisit
				// the replacement.
				for _, st := range ps.Stmts {
					if s.rewrite(st) {
						changed = true
					}
				}
				n.Parts[i] = s.procSubst(ps)
				changed = true
			}
		}
		return true
	})
	if guardGoroutines(node) {
		changed = true
	}
	return changed
}

// platformRewrite, when set, rewrites a program first: the busybox image
// (GOOS=wasip1, wasip1_rewrite.go) turns pipelines and here-documents into
// calls its interpreter can run without os.Pipe.
var platformRewrite func(s *session, node syntax.Node) bool

// platformStdin and platformOpen, when set, adapt a Runner's stdin and a
// redirection's file: on wasip1 the interpreter needs an *os.File for
// standard input (wasip1_stdin.go).
var (
	platformStdin func(s *session, r io.Reader) io.Reader
	platformOpen  func(s *session, hc interp.HandlerContext, name string, flag int, f afero.File) (io.ReadWriteCloser, error)
)

// procSubst is the replacement of one process substitution.
func (s *session) procSubst(ps *syntax.ProcSubst) syntax.WordPart {
	lit := func(v string) *syntax.Word {
		return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: v}}}
	}
	call := func(args ...string) *syntax.Stmt {
		words := make([]*syntax.Word, len(args))
		for i, a := range args {
			words[i] = lit(a)
		}
		return &syntax.Stmt{Cmd: &syntax.CallExpr{Args: words}}
	}
	if ps.Op != syntax.CmdIn {
		return &syntax.CmdSubst{Stmts: []*syntax.Stmt{
			call(shInternal+"fail", "process substitution >(...) is not supported; write to a file and run the command on it"),
		}}
	}
	tmp := s.procSubstPath()
	body := &syntax.Stmt{
		Cmd:    &syntax.Block{Stmts: ps.Stmts},
		Redirs: []*syntax.Redirect{{Op: syntax.RdrOut, Word: lit(tmp)}},
	}
	return &syntax.DblQuoted{Parts: []syntax.WordPart{&syntax.CmdSubst{
		Stmts: []*syntax.Stmt{body, call(shInternal+"echo", tmp)},
	}}}
}

// procSubstPath names a new temporary file for a process substitution, in
// the FS's /tmp (made when missing).
func (s *session) procSubstPath() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.base.Stat("/tmp"); err != nil {
		if s.base.Mkdir("/tmp", 0o777) == nil {
			_ = s.base.Chmod("/tmp", fs.ModeDir|fs.ModeSticky|0o777)
		}
	}
	s.procN++
	name := fmt.Sprintf("/tmp/.sh-procsubst-%s-%d", s.runID, s.procN)
	s.procFiles = append(s.procFiles, name)
	return name
}

// cleanup removes the temporary files of the session's process
// substitutions.
func (s *session) cleanup() {
	s.mu.Lock()
	files := slices.Clone(s.procFiles)
	s.procFiles = nil
	s.mu.Unlock()
	for _, f := range files {
		_ = s.base.Remove(f)
	}
}

// shEnvList makes the environment list of Options.Env, with PWD, and
// HOME and PATH defaults.
func shEnvList(env map[string]string, dir string) []string {
	m := maps.Clone(env)
	if m == nil {
		m = map[string]string{}
	}
	m["PWD"] = dir
	if _, ok := m["HOME"]; !ok {
		m["HOME"] = dir
	}
	if _, ok := m["PATH"]; !ok {
		m["PATH"] = DefaultPath
	}
	list := make([]string, 0, len(m))
	for k, v := range m {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			continue
		}
		list = append(list, k+"="+v)
	}
	slices.Sort(list)
	return list
}

// shStdin gives the Runner an *os.File for stdin (a pipe fed from r), so
// that reads can be cancelled, and a func closing it after the run.
func shStdin(r io.Reader) (io.Reader, func()) {
	if r == nil {
		return nil, func() {}
	}
	if f, ok := r.(*os.File); ok {
		return f, func() {}
	}
	pr, pw, err := os.Pipe()
	if err != nil { // wasip1: no pipes; the interpreter copes with a reader
		return r, func() {}
	}
	go func() {
		_, _ = io.Copy(pw, r)
		pw.Close()
	}()
	return pr, func() { pr.Close() }
}

// shWriters serialises the writes of a run to the caller's stdout and
// stderr and cuts them off once closed.
type shWriters struct {
	mu     sync.Mutex
	closed bool
	stdout *shWriter
	stderr *shWriter
}

type shWriter struct {
	ws *shWriters
	w  io.Writer
}

func newShWriters(stdout, stderr io.Writer) *shWriters {
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	ws := &shWriters{}
	ws.stdout = &shWriter{ws, stdout}
	ws.stderr = &shWriter{ws, stderr}
	return ws
}

func (ws *shWriters) close() {
	ws.mu.Lock()
	ws.closed = true
	ws.mu.Unlock()
}

func (w *shWriter) Write(p []byte) (int, error) {
	w.ws.mu.Lock()
	defer w.ws.mu.Unlock()
	if w.ws.closed {
		return 0, fs.ErrClosed
	}
	return w.w.Write(p)
}
