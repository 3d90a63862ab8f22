package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

// envDaemon set to 0 (or false, no, off) makes run work in its own process,
// as --no-daemon does.
const envDaemon = "AGENTENKIT_DAEMON"

func cmdRun(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "run", "run [--provider P] [--thread T] [--timeout D] [--no-daemon] -- COMMAND", `
Runs COMMAND with bash -c (sh where there is none) in a sandbox, streams its
output as it comes and exits with its exit code (124 when it timed out).
One argument is a command line ('echo hi > f'); several are one command and
its arguments, each quoted for the shell (python3 -c 'print(6*7)').

Without --thread the sandbox is made for this command and ended after it.
With --thread T the sandbox is the thread's: the next run (or shell) with
the same thread finds the same files, from any process on this machine.

On the wasm provider (the default) the command runs in the state folder's
daemon, which keeps the engine, the compiled images and the sandboxes warm
between runs: run starts it when none answers, and it ends by itself after
10 minutes unused (agentenkit help daemon). --no-daemon, or
$AGENTENKIT_DAEMON=0, runs the sandbox in this process instead. Ctrl-C or
SIGTERM stops the command either way.

  agentenkit run -- python3 -c 'print(6*7)'
  agentenkit run --thread demo -- 'echo hi > f'
  agentenkit run --thread demo -- cat f`)
	provider := providerFlag(fs)
	thread := fs.String("thread", "", "keep the sandbox for this thread: the next command with it finds the same files")
	timeout := fs.Duration("timeout", sandbox.DefaultCommandTimeout, "kill the command after this long (exit 124)")
	noDaemon := fs.Bool("no-daemon", false, "run the sandbox in this process, not in the state folder's daemon ($"+envDaemon+"=0 does the same)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return usageError(e, fs, "no command given (agentenkit run -- 'echo hi')")
	}
	spec := runSpec{Provider: *provider, Thread: *thread, Timeout: *timeout, Command: commandLine(fs.Args())}
	if spec.Provider == "wasm" && !*noDaemon && daemonWanted() {
		paths, err := ensureWasmImages(ctx, e.stderr)
		if err != nil {
			return fail(e, err)
		}
		if spec.ImagesDir, err = filepath.Abs(paths.Dir); err != nil {
			return fail(e, err)
		}
		if spec.PythonImage, err = pythonImage(paths); err != nil {
			return fail(e, err)
		}
		return runInDaemon(ctx, e, spec)
	}
	return runSandboxed(ctx, e, spec, inProcess{})
}

// pythonImage names the python image a wasm provider on paths runs now:
// images.PythonImageBuilt where it was built and $AGENTENKIT_PYTHON_IMAGE
// does not say npm, else images.PythonImageNPM. The daemon keeps a
// provider per name, so the first run after `make python-image` gets one
// with the built image, not the one that started without it.
func pythonImage(paths images.Paths) (string, error) {
	py, err := paths.PythonFor("")
	if err != nil {
		return "", err
	}
	if py == paths.BuiltPython {
		return images.PythonImageBuilt, nil
	}
	return images.PythonImageNPM, nil
}

// daemonWanted reports whether $AGENTENKIT_DAEMON lets run use the daemon.
func daemonWanted() bool {
	switch strings.ToLower(strings.TrimSpace(os.Getenv(envDaemon))) {
	case "0", "false", "no", "off":
		return false
	}
	return true
}

// runSpec is one run command, as parsed from its flags and arguments: what
// the daemon is sent.
type runSpec struct {
	Provider string        `json:"provider"`
	Thread   string        `json:"thread,omitempty"`
	Timeout  time.Duration `json:"timeout"`
	Command  string        `json:"command"`
	// ImagesDir and PythonImage are the wasm provider's images folder and
	// python image as the client resolved them (images.DefaultDir depends
	// on the working folder, the python image on the environment): set
	// only for the daemon.
	ImagesDir   string `json:"imagesDir,omitempty"`
	PythonImage string `json:"pythonImage,omitempty"`
}

// sandboxes is where a run gets its provider or its thread's runtime:
// made afresh for this process (inProcess), or kept warm by the daemon.
type sandboxes interface {
	// create returns a new, empty sandbox for one command, which lives at
	// least spec.Timeout and a minute more; the caller destroys it.
	create(ctx context.Context, e *env, spec runSpec) (sandbox.Sandbox, error)
	// state returns the kv, provider and runtime of a thread's sandbox,
	// and what to call when the run is done with them.
	state(ctx context.Context, e *env, spec runSpec) (*state, func(), error)
}

// inProcess makes the provider and state of one run in this process.
type inProcess struct{}

func (inProcess) create(ctx context.Context, e *env, spec runSpec) (sandbox.Sandbox, error) {
	p, err := newProvider(ctx, e, spec.Provider, nil)
	if err != nil {
		return nil, err
	}
	return p.Create(ctx, oneCommandSandbox(spec))
}

// oneCommandSandbox is how the sandbox of a thread-less run is made: it
// ends by itself a minute after the command's time limit at the latest.
func oneCommandSandbox(spec runSpec) sandbox.CreateSandboxOptions {
	return sandbox.CreateSandboxOptions{Timeout: spec.Timeout + time.Minute}
}

func (inProcess) state(ctx context.Context, e *env, spec runSpec) (*state, func(), error) {
	st, err := openState(ctx, e, spec.Provider)
	if err != nil {
		return nil, nil, err
	}
	return st, func() { st.Close() }, nil
}

// runSandboxed runs spec's command in a sandbox from sbs, streaming its
// output to e, and returns the run command's exit code: the command's, 124
// past its timeout, 128+N when signal N (130 when no signal: a lost
// client, a stopped daemon) interrupted it, 1 when it could not run.
func runSandboxed(ctx context.Context, e *env, spec runSpec, sbs sandboxes) int {
	var sb sandbox.Sandbox
	if spec.Thread == "" {
		created, err := sbs.create(ctx, e, spec)
		if err != nil {
			return fail(e, err)
		}
		defer created.Destroy(context.WithoutCancel(ctx))
		sb = created
	} else {
		st, release, err := sbs.state(ctx, e, spec)
		if err != nil {
			return fail(e, err)
		}
		defer release()
		h, err := st.rt.SandboxFor(lifecycle.WithThread(ctx, spec.Thread))
		if err != nil {
			return fail(e, threadHint(err, spec.Thread))
		}
		if note := h.Note; note != "" {
			fmt.Fprintln(e.stderr, "agentenkit: "+note)
		}
		sb = h.Sandbox
	}
	res, err := sb.RunCommand(ctx, spec.Command, sandbox.RunCommandOptions{Timeout: spec.Timeout, Stdout: e.stdout, Stderr: e.stderr})
	if ctx.Err() != nil {
		fmt.Fprintln(e.stderr, "agentenkit: interrupted")
		return interruptedCode(ctx)
	}
	if err != nil {
		return fail(e, err)
	}
	if res.TimedOut {
		fmt.Fprintf(e.stderr, "agentenkit: the command timed out after %s and was killed (--timeout sets the limit)\n", spec.Timeout)
	}
	if res.Truncated {
		fmt.Fprintln(e.stderr, "agentenkit: output past 4 MiB per stream was not kept in the result")
	}
	return res.ExitCode
}

// interrupted is the cause of a ctx cancelled by a signal.
type interrupted struct{ sig os.Signal }

func (i interrupted) Error() string { return "interrupted by " + i.sig.String() }

// interruptedCode is the exit status of a command whose ctx ended: 128+N
// for signal N (as a shell reports a process killed by it), else 130.
func interruptedCode(ctx context.Context) int {
	var in interrupted
	if errors.As(context.Cause(ctx), &in) {
		if s, ok := in.sig.(syscall.Signal); ok {
			return 128 + int(s)
		}
	}
	return 130
}

// threadHint adds what to do when a thread's sandbox cannot be had.
func threadHint(err error, thread string) error {
	return withHint(err, "`agentenkit sandboxes list` shows the threads' sandboxes; `agentenkit sandboxes kill ID` ends one so the thread %s starts afresh", thread)
}

// commandLine is the shell command of run's arguments: one argument is a
// command line as is; several are a command and its arguments, each quoted
// where the shell would otherwise read it differently.
func commandLine(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellQuote(a)
	}
	return strings.Join(quoted, " ")
}

// shellQuote quotes s for a POSIX shell unless it is plain.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
