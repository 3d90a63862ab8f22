package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit"
	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/sandbox"
)

func cmdRun(ctx context.Context, e *env, args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	provider := fs.String("provider", defaultProvider, "sandbox adapter: "+strings.Join(providerNames, ", "))
	thread := fs.String("thread", "", "keep the sandbox for this thread: the next run with it finds the same files")
	timeout := fs.Duration("timeout", sandbox.DefaultCommandTimeout, "kill the command after this long (exit 124)")
	fs.Usage = func() {
		fmt.Fprintln(e.stderr, "usage: agentenkit run [--provider P] [--thread T] [--timeout D] -- COMMAND")
		fmt.Fprintln(e.stderr, "\nRuns COMMAND with sh -c in a sandbox, streams its output and exits with its exit code.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "agentenkit run: no command given (agentenkit run -- 'echo hi')")
		return 2
	}
	command := strings.Join(fs.Args(), " ")
	p, err := newProvider(*provider)
	if err != nil {
		return fail(e, err)
	}
	opts := sandbox.RunCommandOptions{Timeout: *timeout, Stdout: e.stdout, Stderr: e.stderr}

	var sb sandbox.Sandbox
	if *thread == "" {
		sb, err = p.Create(ctx, sandbox.CreateSandboxOptions{Timeout: *timeout + time.Minute})
		if err != nil {
			return fail(e, err)
		}
		defer sb.Destroy(context.WithoutCancel(ctx))
	} else {
		rt, err := agentenkit.SetupAgentCore(ctx, agentenkit.RuntimeOptions{Tools: agentenkit.BuiltinToolPorts{Sandbox: p}})
		if err != nil {
			return fail(e, err)
		}
		h, err := rt.SandboxFor(runtime.WithThread(ctx, *thread))
		if err != nil {
			return fail(e, err)
		}
		if note := h.Note(); note != "" {
			fmt.Fprintln(e.stderr, "agentenkit: "+note)
		}
		sb = h
	}
	res, err := sb.RunCommand(ctx, command, opts)
	if err != nil {
		return fail(e, err)
	}
	if res.TimedOut {
		fmt.Fprintf(e.stderr, "agentenkit: the command timed out after %s\n", *timeout)
	}
	if res.Truncated {
		fmt.Fprintln(e.stderr, "agentenkit: output past 4 MiB per stream was not kept in the result")
	}
	return res.ExitCode
}
