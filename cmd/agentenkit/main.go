// Command agentenkit runs commands in sandboxes from the terminal.
//
//	agentenkit run [--provider P] [--thread T] -- COMMAND
//	agentenkit images pull
//
// Run `agentenkit help COMMAND` for the flags of each.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
)

// command is one subcommand.
type command struct {
	name, usage, summary string
	run                  func(ctx context.Context, env *env, args []string) int
}

// env is the process's stdio, so tests can drive commands in-process too.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

var commands = []command{
	{"run", "run [--provider P] [--thread T] [--timeout D] -- COMMAND", "run a command in a sandbox and exit with its exit code", cmdRun},
	{"images", "images pull", "fetch and verify the WASI images of the wasm sandbox", cmdImages},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := dispatch(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(code)
}

func dispatch(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1 {
		usage(e.stdout)
		return 0
	}
	if args[0] == "help" {
		args = []string{args[1], "--help"}
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(ctx, e, args[1:])
		}
	}
	fmt.Fprintf(e.stderr, "agentenkit: unknown command %q\n\n", args[0])
	usage(e.stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "agentenkit gives AI agents a sandbox: a place apart from the app where commands run and files live.")
	fmt.Fprintln(w, "\nUsage:")
	for _, c := range commands {
		fmt.Fprintf(w, "  agentenkit %-50s %s\n", c.usage, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'agentenkit help COMMAND' for a command's flags.")
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
