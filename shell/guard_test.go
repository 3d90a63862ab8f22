package shell

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// guardCases are background jobs and pipelines whose meaning the guard
// must keep: checked here and against the host's bash.
var guardCases = []shCase{
	{name: "bg-status", script: "(exit 3) & wait $!; echo $?", stdout: "3\n", host: true},
	{name: "bg-exit", script: "exit 4 & wait $!; echo $?", stdout: "4\n", host: true},
	{name: "bg-function", script: "f() { echo \"f $1\"; return 5; }; f x & wait $!; echo $?", stdout: "f x\n5\n", host: true},
	{name: "bg-vars-copied", script: "x=1; { x=2; echo in $x; } & wait; echo out $x", stdout: "in 2\nout 1\n", host: true},
	{name: "bg-redirect", script: "echo hi > o.txt & wait; cat o.txt", stdout: "hi\n", host: true},
	{name: "bg-quotes", script: "echo 'it'\"'\"'s' \"$HOME\" & wait", stdout: "it's /home/user\n", host: true},
	{name: "bg-negated", script: "! true & wait $!; echo $?", stdout: "0\n", host: true},
	{name: "bg-heredoc", script: "x=a; cat <<EOF | tr a b &\naaa $x\nEOF\nwait", stdout: "bbb b\n", host: true},
	{name: "pipe-left-subshell", script: "x=1; { echo $x; x=2; } | cat; echo $x", stdout: "1\n1\n", host: true},
	{name: "pipe-three", script: "echo abc | tr a b | tr b c", stdout: "ccc\n", host: true},
	{name: "pipe-stderr", script: "{ echo out; echo err >&2; } |& sort", stdout: "err\nout\n", host: true},
	{name: "pipe-pipefail", script: "set -o pipefail; (exit 6) | cat; echo $?", stdout: "6\n", host: true},
	{name: "pipe-in-bg", script: "{ echo a | tr a b; } & wait", stdout: "b\n", host: true},
	{name: "pipe-break", script: "for i in 1 2; do break | cat; echo $i; done", stdout: "1\n2\n", host: true},
	{name: "bg-eval", script: "eval 'echo e | cat & wait'", stdout: "e\n", host: true},
	{name: "bg-bash-c", script: "bash -c 'echo c | cat & wait'", stdout: "c\n", host: true},
	{name: "shift-negative", script: "set -- a b; shift -1; echo $? $#", stdout: "1 2\n", host: true},
	{name: "shift-negative-bg", script: "shift -1 & wait $!; echo $?", stdout: "1\n", host: true},
}

// The guard wraps mvdan.cc/sh's interpreter (the one busybox.wasm runs):
// its cases run there.
func TestGuardCases(t *testing.T)        { runShCasesWith(t, guardCases, InterpreterMvdan) }
func TestGuardCasesConfirm(t *testing.T) { confirmShCases(t, guardCases) }

// TestGuardPanics runs statements that panic inside the interpreter on the
// goroutines it starts (a background job, a pipeline's left side, nested):
// each is a failed command with a message, and the script goes on.
func TestGuardPanics(t *testing.T) {
	// ((a[k]=1)) panics in mvdan.cc/sh's arithmetic; on the interpreter's
	// own goroutine that used to end the process.
	const boom = "((a[k]=1))"
	for _, tc := range []struct{ name, script, stdout string }{
		{"background", boom + " & wait $!; echo after $?", "after 2\n"},
		{"pipeline-left", boom + " | cat; echo after", "after\n"},
		{"pipeline-pipefail", "set -o pipefail; " + boom + " | cat; echo after $?", "after 2\n"},
		{"nested", "{ { " + boom + "; } | cat; echo in; } & wait; echo after", "in\nafter\n"},
		{"in-function", "f() { " + boom + "; }; f & f | cat; wait; echo after", "after\n"},
		{"eval", "eval '" + boom + " & wait'; echo after", "after\n"},
		{"many", strings.Repeat(boom+" & ", 20) + "wait; echo after", "after\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runShWith(t, newShTestFS(t, shTestFiles), tc.script, InterpreterMvdan)
			if out != tc.stdout || code != 0 {
				t.Errorf("script %q: stdout %q, want %q; exit %d; stderr %q", tc.script, out, tc.stdout, code, errOut)
			}
			if !strings.Contains(errOut, "bash: internal error: ") {
				t.Errorf("script %q: stderr %q says nothing of the internal error", tc.script, errOut)
			}
		})
	}
}

// TestGuardRewrite checks the rewrite: every background job and pipeline
// left side becomes a guard call, once, and the guarded text parses back to
// the statement.
func TestGuardRewrite(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"a &", "__agentenkit_sh_guard a &"},
		{"a >f &", "__agentenkit_sh_guard 'a >f' &"},
		{"a | b", "__agentenkit_sh_guard a | b"},
		{"a | b | c", "__agentenkit_sh_guard '__agentenkit_sh_guard a | b' | c"},
		{"echo \"it's\" &", `__agentenkit_sh_guard "echo \"it's\"" &`},
		{"x", "x"},
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader(tc.src), "")
		if err != nil {
			t.Fatal(err)
		}
		guardGoroutines(f)
		once := printNode(t, f)
		if once != tc.want+"\n" {
			t.Errorf("%q became %q, want %q", tc.src, once, tc.want)
		}
		// Idempotent: a program rewritten again (eval, source) keeps it.
		f2, err := syntax.NewParser().Parse(strings.NewReader(once), "")
		if err != nil {
			t.Fatalf("%q does not parse: %v", once, err)
		}
		if guardGoroutines(f2) {
			t.Errorf("%q was guarded twice", tc.src)
		}
	}
}

func printNode(t *testing.T, n syntax.Node) string {
	t.Helper()
	var b strings.Builder
	if err := syntax.NewPrinter().Print(&b, n); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
