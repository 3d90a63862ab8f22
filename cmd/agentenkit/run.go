package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

func cmdRun(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "run", "run [--provider P] [--thread T] [--timeout D] -- COMMAND", `
Runs COMMAND with bash -c (sh where there is none) in a sandbox, streams its
output as it comes and exits with its exit code (124 when it timed out).
One argument is a command line ('echo hi > f'); several are one command and
its arguments, each quoted for the shell (python3 -c 'print(6*7)').

Without --thread the sandbox is made for this command and ended after it.
With --thread T the sandbox is the thread's: the next run (or shell) with
the same thread finds the same files, from any process on this machine.

  agentenkit run -- python3 -c 'print(6*7)'
  agentenkit run --thread demo -- 'echo hi > f'
  agentenkit run --thread demo -- cat f`)
	provider := providerFlag(fs)
	thread := fs.String("thread", "", "keep the sandbox for this thread: the next command with it finds the same files")
	timeout := fs.Duration("timeout", sandbox.DefaultCommandTimeout, "kill the command after this long (exit 124)")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() == 0 {
		return usageError(e, fs, "no command given (agentenkit run -- 'echo hi')")
	}
	command := commandLine(fs.Args())

	var sb sandbox.Sandbox
	if *thread == "" {
		p, err := newProvider(ctx, e, *provider, nil)
		if err != nil {
			return fail(e, err)
		}
		created, err := p.Create(ctx, sandbox.CreateSandboxOptions{Timeout: *timeout + time.Minute})
		if err != nil {
			return fail(e, err)
		}
		defer created.Destroy(context.WithoutCancel(ctx))
		sb = created
	} else {
		st, err := openState(ctx, e, *provider)
		if err != nil {
			return fail(e, err)
		}
		defer st.Close()
		h, err := st.rt.SandboxFor(lifecycle.WithThread(ctx, *thread))
		if err != nil {
			return fail(e, threadHint(err, *thread))
		}
		if note := h.Note; note != "" {
			fmt.Fprintln(e.stderr, "agentenkit: "+note)
		}
		sb = h.Sandbox
	}
	res, err := sb.RunCommand(ctx, command, sandbox.RunCommandOptions{Timeout: *timeout, Stdout: e.stdout, Stderr: e.stderr})
	if ctx.Err() != nil {
		fmt.Fprintln(e.stderr, "agentenkit: interrupted")
		return 130
	}
	if err != nil {
		return fail(e, err)
	}
	if res.TimedOut {
		fmt.Fprintf(e.stderr, "agentenkit: the command timed out after %s and was killed (--timeout sets the limit)\n", *timeout)
	}
	if res.Truncated {
		fmt.Fprintln(e.stderr, "agentenkit: output past 4 MiB per stream was not kept in the result")
	}
	return res.ExitCode
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
