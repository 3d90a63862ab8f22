// Command agentenkit gives AI agents sandboxes, from the terminal.
//
//	agentenkit run [--provider P] [--thread T] -- COMMAND   run a command in a sandbox
//	agentenkit shell [--provider P] [--thread T]            a prompt in a sandbox
//	agentenkit mcp [--provider P] [--http ADDR]             an MCP server (stdio, or Streamable HTTP) with bash, code_execution, text_editor
//	agentenkit sandboxes list | kill ID                     the live sandboxes of threads
//	agentenkit images pull                                  fetch the wasm sandbox's images
//	agentenkit daemon status | stop                         the state folder's daemon, which serves run
//
// The providers are wasm (the default: in-process, no container engine or
// service), local, docker, e2b and memory; --provider or
// $AGENTENKIT_PROVIDER picks one. A thread's sandbox is found again by the
// next process through the SQLite kv in $AGENTENKIT_STATE_DIR (default
// ~/.local/state/agentenkit).
//
// run on the wasm provider is a client of a daemon per state folder (the
// same binary, `agentenkit daemon serve`), started by the first run and
// ended after 10 minutes unused: it keeps the engine, the compiled images
// and the sandboxes warm, so a run costs a few milliseconds of the
// client's own. --no-daemon or $AGENTENKIT_DAEMON=0 runs in-process.
//
// Run `agentenkit help COMMAND` (or COMMAND --help) for the flags of each.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// command is one subcommand.
type command struct {
	name, usage, summary string
	run                  func(ctx context.Context, env *env, args []string) int
	// ownSignals: the command handles interrupts itself (the shell ends the
	// running line, not the session); its ctx is not cancelled by them.
	ownSignals bool
	// terminates: SIGTERM cancels its ctx as SIGINT does, so the command
	// ends its sandbox's command and cleans up before the process exits.
	terminates bool
}

// env is the process's stdio, so tests can drive commands in-process too.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// interrupts delivers SIGINT to commands with ownSignals; nil in tests.
	interrupts <-chan os.Signal
}

var commands = []command{
	{name: "run", usage: "run [--provider P] [--thread T] [--timeout D] [--no-daemon] -- COMMAND", summary: "run a command in a sandbox; exits with its exit code", run: cmdRun, terminates: true},
	{name: "shell", usage: "shell [--provider P] [--thread T]", summary: "an interactive prompt in a sandbox (cd carries over)", run: cmdShell, ownSignals: true},
	{name: "mcp", usage: "mcp [--provider P] [--thread T] [--http ADDR]", summary: "an MCP server (stdio, or HTTP): bash, code_execution, text_editor", run: cmdMCP},
	{name: "sandboxes", usage: "sandboxes list | kill ID", summary: "list the threads' live sandboxes, or end one", run: cmdSandboxes},
	{name: "images", usage: "images pull", summary: "fetch and check the wasm sandbox's images", run: cmdImages},
	{name: "daemon", usage: "daemon status | stop | serve", summary: "the state folder's daemon, which serves run on the wasm sandbox", run: cmdDaemon, terminates: true},
}

func main() {
	e := &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}
	ctx := context.Background()
	stop := func() {}
	switch c := lookup(os.Args[1:]); {
	case c != nil && c.ownSignals:
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, os.Interrupt)
		e.interrupts = ch
	case c != nil && c.terminates:
		ctx, stop = signalContext(ctx, os.Interrupt, syscall.SIGTERM)
	default:
		ctx, stop = signalContext(ctx, os.Interrupt)
	}
	code := dispatch(ctx, e, os.Args[1:])
	stop()
	os.Exit(code)
}

// signalContext returns ctx cancelled by the first of sigs, with the
// cause interrupted{sig}; later ones are ignored until stop is called.
func signalContext(ctx context.Context, sigs ...os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			cancel(interrupted{s})
		case <-done:
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
		signal.Stop(ch)
	}
}

// lookup returns the command args name, or nil.
func lookup(args []string) *command {
	if len(args) == 0 {
		return nil
	}
	for i := range commands {
		if commands[i].name == args[0] {
			return &commands[i]
		}
	}
	return nil
}

func dispatch(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" && len(args) == 1 {
		usage(e.stdout)
		return 0
	}
	if args[0] == "help" {
		args = []string{args[1], "--help"}
	}
	if c := lookup(args); c != nil {
		return c.run(ctx, e, args[1:])
	}
	if strings.HasPrefix(args[0], "-") {
		fmt.Fprintf(e.stderr, "agentenkit: flags go after the command: agentenkit COMMAND %s ...\n\n", args[0])
	} else {
		fmt.Fprintf(e.stderr, "agentenkit: unknown command %q\n\n", args[0])
	}
	usage(e.stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "agentenkit gives AI agents a sandbox: a place apart from the app where commands run and files live.")
	fmt.Fprintln(w, "\nUsage:")
	width := 0
	for _, c := range commands {
		width = max(width, len(c.usage))
	}
	for _, c := range commands {
		fmt.Fprintf(w, "  agentenkit %-*s  %s\n", width, c.usage, c.summary)
	}
	fmt.Fprintf(w, "\nProviders (--provider, or $%s): %s. The default is %s.\n", envProvider, strings.Join(providerNames, ", "), defaultProvider)
	fmt.Fprintln(w, "Try:  agentenkit run -- python3 -c 'print(6*7)'")
	fmt.Fprintln(w, "\nRun 'agentenkit help COMMAND' for a command's flags.")
}

// newFlags returns a command's flag set, printing usage (a synopsis, what
// the command does, its flags) on stderr.
func newFlags(e *env, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: agentenkit "+synopsis)
		fmt.Fprintln(e.stderr, "\n"+strings.TrimSpace(about))
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(e.stderr, "\nFlags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

// parse parses args; ok is false when the command should return code
// (0 for --help, 2 for a bad flag — the flag package has printed usage).
func parse(fs *flag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	return 0, true
}

// usageError prints msg and the command's usage, and returns 2.
func usageError(e *env, fs *flag.FlagSet, msg string) int {
	fmt.Fprintf(e.stderr, "agentenkit %s: %s\n\n", fs.Name(), msg)
	fs.Usage()
	return 2
}

// hinted is an error with what to do about it.
type hinted struct {
	err  error
	hint string
}

// Error is the error's own text; the hint is printed apart.
func (h *hinted) Error() string { return h.err.Error() }

// Unwrap returns the error the hint is about.
func (h *hinted) Unwrap() error { return h.err }

// Hint says what to do about the error.
func (h *hinted) Hint() string { return h.hint }

// withHint returns err with a hint on what to do next (nil stays nil).
func withHint(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &hinted{err: err, hint: fmt.Sprintf(format, args...)}
}

// fail prints err the way every command does and returns exit status 1.
func fail(e *env, err error) int {
	fmt.Fprintf(e.stderr, "agentenkit: %v\n", err)
	var hint interface{ Hint() string }
	if errors.As(err, &hint) {
		fmt.Fprintf(e.stderr, "hint: %s\n", hint.Hint())
	}
	return 1
}
