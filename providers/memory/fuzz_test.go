package memory_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
)

// fuzzShapes put the fuzzer's script where the shell runs it on goroutines
// of its own: as it is, a background job, a pipeline's either side, a
// subshell, a command substitution, eval and a nested bash.
var fuzzShapes = []func(string) string{
	func(s string) string { return s },
	func(s string) string { return "{ " + s + "\n} & wait" },
	func(s string) string { return "{ " + s + "\n} | cat" },
	func(s string) string { return "echo x | { " + s + "\n}" },
	func(s string) string { return "( " + s + "\n) & ( " + s + "\n) | cat; wait" },
	func(s string) string { return "x=$( " + s + "\n) & wait" },
	func(s string) string { return "eval " + sandboxQuote(s) + " & wait" },
	func(s string) string { return "bash -c " + sandboxQuote(s) + " | cat & wait" },
}

func sandboxQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// FuzzRunCommand runs random shell input on the memory adapter, in the
// shapes that start background jobs, pipelines and subshells: no input may
// end the process (a panic anywhere fails the fuzzer), RunCommand returns
// a result or a context error soon after its time limit, and the sandbox
// still runs commands afterwards. `make fuzz` runs it, and CI for 60 s.
func FuzzRunCommand(f *testing.F) {
	for _, s := range []string{
		"shift -1", "((a[k]=1))", "echo hi", "yes | head -3", "seq 3 | sort -r", "sleep 0.01 & wait",
		"f() { f | f; }; f", "cat /dev/zero | head -c 5", "exec >&-; echo x", "set -e; false | true",
		"trap 'echo t' EXIT; exit 3", "a=(1 2 3); echo ${a[@]:1} | tr 1 x", "read x <<< hi; echo $x",
		"wait -n", "kill %1", "jobs", "disown", "echo $! $$ $PPID", "cd / && ls | wc -l",
		"for i in 1 2 3; do echo $i & done; wait", "x=$(echo a | cat) && echo $x >f && cat f | rev",
		"shopt -s lastpipe; echo a | read v; echo $v", "printf '%*d' 99999999 1 | wc -c", "case x in x) shift -2 & esac",
	} {
		for i := range fuzzShapes {
			f.Add(s, uint8(i))
		}
	}
	p := memory.New(memory.Options{})
	f.Fuzz(func(t *testing.T, script string, shape uint8) {
		// A sandbox per input, with a small disk: `yes > f` cannot fill
		// the fuzzer's memory.
		sb, err := p.Create(context.Background(), sandbox.CreateSandboxOptions{Resources: sandbox.Resources{DiskMB: 8, MaxFiles: 2000}})
		if err != nil {
			t.Fatal(err)
		}
		defer sb.Destroy(context.Background())
		src := fuzzShapes[int(shape)%len(fuzzShapes)](script)
		start := time.Now()
		res, err := sb.RunCommand(context.Background(), src, sandbox.RunCommandOptions{Timeout: 200 * time.Millisecond})
		if err != nil {
			t.Fatalf("RunCommand(%q): %v", src, err)
		}
		// 200 ms limit plus the shell's grace for a command that ignores
		// it (1 s), with room for a loaded machine.
		if took := time.Since(start); took > 3*time.Second {
			t.Fatalf("RunCommand(%q) took %v with a 200ms limit", src, took)
		}
		if res.ExitCode < 0 || res.ExitCode > 255 {
			t.Fatalf("RunCommand(%q): exit code %d", src, res.ExitCode)
		}
		// The sandbox outlives whatever ran: the next command works.
		res, err = sb.RunCommand(context.Background(), "cd ~ && echo ok", sandbox.RunCommandOptions{Timeout: 5 * time.Second})
		if err != nil || res.Stdout != "ok\n" {
			if errors.Is(err, sandbox.ErrGone) {
				t.Fatalf("after %q the sandbox is gone: %v", src, err)
			}
			t.Fatalf("after %q: echo ok gave %q, %v", src, res.Stdout, err)
		}
	})
}
