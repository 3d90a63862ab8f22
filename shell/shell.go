// Package shell is the sandboxes' POSIX shell: bash's language, run by the
// project's own interpreter (package shell/bash, on mvdan.cc/sh/v3's
// parser), over an afero.Fs, with coreutils written in Go. The memory
// adapter runs it natively; the wasm adapter compiles it into its busybox
// image, where pipeline stages, subshells, background jobs and command
// substitutions are goroutines of the one instance.
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
//     (cmd &) still running when the script ends get 50 ms to finish
//     (their output is kept), then end with Run; later output is dropped.
//   - Device files work in redirections and builtins alike: /dev/null,
//     /dev/zero, /dev/urandom, /dev/stdin, /dev/stdout, /dev/stderr.
//   - /usr/bin lists the commands the shell runs (the built-in ones,
//     Options.Handlers, Options.FallbackNames, and echo, test, [ ...), each a
//     read-only, root-owned file of mode 0755; /bin and /sbin are links to
//     usr/bin and usr/sbin, as on Debian (posixfs.WithSystem). They are the
//     shell's view: nothing of them is written to Options.FS.
//   - The filesystem keeps POSIX rules even over afero.MemMapFs: no implicit
//     parent folders, ENOTEMPTY, EISDIR (see fsPOSIX); new files get the
//     umask 022.
//
// # Builtins
//
// A command is looked up in this order: shell functions and the shell's
// own builtins (cd, echo, printf, test, read, export, ...; see
// bash.IsBuiltin), Options.Handlers, the coreutils of this package
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
	// Background jobs (cmd &) end with the run: runCtx is cancelled when
	// Run returns.
	runCtx, cancelRun := context.WithCancel(ctx)
	defer cancelRun()
	type result struct {
		code int
		dir  string
	}
	done := make(chan result, 1)
	goReuse(func() {
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
	})
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
