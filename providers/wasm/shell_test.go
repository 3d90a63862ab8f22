package wasm_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/sandbox"
)

// The shell in the guest: package shell/bash, whose pipeline stages,
// subshells and background jobs are goroutines of the busybox instance;
// python3 runs as an instance of its own through the host. Each case is
// what bash prints.

func TestPython(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	v := pythonMinor(t)
	other := map[bool]string{true: "3.11", false: "3.12"}[v == "3.12"] // the other image's: not there
	for _, c := range []struct{ cmd, out string }{
		{"echo 'print(2+2)' | python3", "4\n"},
		{"python3 -c 'print(1)'", "1\n"},
		{"python -c 'import sys; print(sys.version_info[:2])'", "(" + strings.Replace(v, ".", ", ", 1) + ")\n"},
		{"python" + v + " -c 'print(3)'", "3\n"},
		{"python" + other + " -c 'print(3)' 2>&1; echo $?", "bash: line 1: python" + other + ": command not found\n127\n"},
		{"pip" + v + " --version | cut -d' ' -f1,2,5-; pip" + other + " -V 2>&1; echo $?", "pip 24.0 (python " + v + ")\nbash: line 1: pip" + other + ": command not found\n127\n"},
		{"printf 'print(6*7)\\n' > x.py; python3 x.py > out.txt; cat out.txt", "42\n"},
		{"python3 -c 'import sys; sys.exit(3)'; echo $?", "3\n"},
		{"python3 -c 'raise SystemExit(\"bye\")' 2>/dev/null; echo $?", "1\n"},
		{"python3 -c 'while True: print(1)' | head -1", "1\n"},
		{"python3 -c 'while True: print(1)' | head -3 | wc -l", "3\n"},
		{"set -o pipefail; python3 -c 'while True: print(1)' | head -1 > /dev/null; echo $?", "141\n"},
		{"x=$(python3 -c 'print(\"sub\")'); echo \"[$x]\"", "[sub]\n"},
		{"seq 1 5 | python3 -c 'import sys; print(sum(int(l) for l in sys.stdin))'", "15\n"},
		{"python3 -c 'import os; print(os.getcwd())'", "/home/user\n"},
		{"mkdir -p sub && cd sub && python3 -c 'import os; print(os.getcwd())'", "/home/user/sub\n"},
		{"FOO=bar python3 -c 'import os; print(os.environ[\"FOO\"])'", "bar\n"},
		{"python3 -c 'import sys; print(\"err\", file=sys.stderr)' 2>&1", "err\n"},
		{"python3 -c 'print(input())' <<< 'from a here-string'", "from a here-string\n"},
		{"cat <<EOF | python3\nprint('heredoc', 1 + 1)\nEOF", "heredoc 2\n"},
		{"python3 -c 'import json; print(json.dumps({\"a\": [1, 2]}))' | jq -c .a", "[1,2]\n"},
		{"printf 'import m\\nprint(m.X)\\n' > main.py; echo 'X = 5' > m.py; python3 main.py", "5\n"},
		{"python3 -c 'open(\"made-by-py.txt\", \"w\").write(\"py\")'; cat made-by-py.txt", "py"},
		{"python3 -c 'import time; time.sleep(0.2); print(\"slept\")'", "slept\n"},
		{"sleep 2 | python3 -c 'print(\"not waiting for stdin\")'", "not waiting for stdin\n"},
		{"which python3; command -v python", "/usr/bin/python3\n/usr/bin/python\n"},
		{"ls /usr/bin | grep '^python'; python3 -c 'import os; print(sorted(n for n in os.listdir(\"/usr/bin\") if n.startswith(\"py\")))'",
			"python\npython3\npython" + v + "\n['python', 'python3', 'python" + v + "']\n"},
	} {
		res := run(t, sb, c.cmd, sandbox.RunCommandOptions{})
		assert.Equal(t, c.out, res.Stdout, "%q (stderr %q)", c.cmd, res.Stderr)
	}
	// Output streams while Python runs.
	var live strings.Builder
	res := run(t, sb, "python3 -c 'import time\nfor i in range(3): print(i); time.sleep(0.3)'", sandbox.RunCommandOptions{Stdout: &live})
	assert.Equal(t, "0\n1\n2\n", res.Stdout)
	assert.Equal(t, "0\n1\n2\n", live.String())
}

func TestGuestShell(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	for _, c := range []struct{ cmd, out string }{
		// The four shapes of the issue.
		{"mkdir -p src/a && printf 'x\\n// TODO one\\n' > src/a/f.go && printf 'TODO two\\n' > src/b.txt; cd src && grep -rn TODO . | head -5",
			"./a/f.go:2:// TODO one\n./b.txt:1:TODO two\n"},
		{"cat <<EOF > x.py\nprint('hello', 1 + 1)\nEOF\ncat x.py; python3 x.py", "print('hello', 1 + 1)\nhello 2\n"},
		{"printf 'a\\nb\\n' > 1.txt; printf 'c\\n' > 2.txt; for f in *.txt; do wc -l \"$f\"; done", "2 1.txt\n1 2.txt\n"},
		{"mkdir -p g; echo 'package a' > g/a.go; printf 'package b\\n\\n' > g/b.go; find g -name '*.go' | sort | xargs wc -l", " 1 g/a.go\n 2 g/b.go\n 3 total\n"},
		// Pipelines.
		{"echo hi | tr a-z A-Z", "HI\n"},
		{"seq 1 2000 | grep 7 | sort -r | head -n 50 | wc -l", "50\n"},
		{"echo out; echo err >&2 |& cat", "out\n"},
		{"{ echo to-stderr >&2; } |& tr a-z A-Z", "TO-STDERR\n"},
		{"ls /nonexistent |& grep -c 'No such'", "1\n"},
		{"false | true; echo $?", "0\n"},
		{"true | false; echo $?", "1\n"},
		{"set -o pipefail; false | true; echo $?", "1\n"},
		{"! false | false; echo $?", "0\n"},
		{"yes | head -2", "y\ny\n"},
		{"x=local; f() { echo \"f:$1:$x\"; }; echo arg | while read a; do f \"$a\"; done", "f:arg:local\n"},
		{"arr=(a 'b c'); declare -A m=([k]=v); echo | { echo \"${arr[1]} ${m[k]} ${#arr[@]}\"; }", "b c v 2\n"},
		{"set -- p1 p2; echo | { echo \"$1 $2 $#\"; }", "p1 p2 2\n"},
		{"export E=exported; echo | sh -c 'echo $E'", "exported\n"},
		{"n=0; echo x | { n=1; }; echo $n", "0\n"},
		{"for i in 1 2 3; do echo $i; done | tac", "3\n2\n1\n"},
		{"echo a | (cd /tmp && pwd)", "/tmp\n"},
		{"cd /tmp; echo | pwd", "/tmp\n"},
		{"shopt -s nullglob; echo | { echo none*; echo end; }", "\nend\n"},
		{"echo $(echo a | tr a b) $(echo c | tr c d)", "b d\n"},
		{"eval 'echo ev | tr e E'", "Ev\n"},
		{"printf 'echo sourced | tr s S\\n' > s.sh; . ./s.sh", "Sourced\n"},
		{"printf 'echo script | tr s S\\n' > t.sh; sh t.sh", "Script\n"},
		// Here-documents and here-strings.
		{"cat <<'EOF'\n$HOME \"q\" \\$x \\\\ `x` 'single'\nEOF", "$HOME \"q\" \\$x \\\\ `x` 'single'\n"},
		{"cat <<EOF\n$HOME \"q\" \\$x \\\\ \\\" $(echo sub) $((1 + 2))\nEOF", "/home/user \"q\" $x \\ \\\" sub 3\n"},
		{"cat <<-EOF\n\t\ttabbed $USER\n\tEOF", "tabbed user\n"},
		{"cat <<EOF\nEOF", ""},
		{"read a b <<< 'one two'; echo \"[$a][$b]\"", "[one][two]\n"},
		{"v='a  b *'; cat <<< $v", "a  b *\n"},
		{"while read l; do echo \"<$l>\"; done <<EOF\nx\ny\nEOF", "<x>\n<y>\n"},
		{"cat <<A; cat <<B\na\nA\nb\nB", "a\nb\n"},
		{"f() { cat <<EOF\nin $1\nEOF\n}; f one; f two", "in one\nin two\n"},
		{"cat <<EOF | tr a-z A-Z\nup $USER\nEOF", "UP USER\n"},
		{"! grep -q nope <<< hay; echo $?", "0\n"},
		{"cat <<EOF > /dev/null; echo $?\nx\nEOF", "0\n"},
		{"grep -c x <<EOF; echo $?\nnone\nEOF", "0\n1\n"},
		{"ls /tmp | wc -l", "0\n"},
		// Standard input that is not a pipe of the host.
		{"cat < /dev/null; echo $?", "0\n"},
		{"read x < /dev/null; echo $?", "1\n"},
		{"python3 -c 'import sys; print(repr(sys.stdin.read()))' < /dev/null", "''\n"},
		{"bash -c 'echo nested' < /dev/null", "nested\n"},
		{"echo a b | xargs sh -c 'echo args $0 $1'", "args a b\n"},
		{"printf 'echo from-stdin\n' | bash -s", "from-stdin\n"},
		{"mkdir -p fx && find fx -maxdepth 0 -exec sh -c 'echo found $0' {} \\;", "found fx\n"},
		{"echo in | cat < /dev/stdin", "in\n"},
		{"head -c 5 < /dev/zero | wc -c", "5\n"},
		{"head -c 16 < /dev/urandom | wc -c", "16\n"},
	} {
		res := run(t, sb, c.cmd, sandbox.RunCommandOptions{})
		assert.Equal(t, c.out, res.Stdout, "%q (stderr %q)", c.cmd, res.Stderr)
	}
	// The temporary files of here-documents are gone afterwards.
	res := run(t, sb, "cat <<EOF\nx\nEOF\nls -A /tmp", sandbox.RunCommandOptions{})
	assert.Equal(t, "x\n", res.Stdout)
}

func TestPipelineTiming(t *testing.T) {
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	// A slow producer streams through a pipeline.
	var live signalBuffer
	start := time.Now()
	res := run(t, sb, "for i in 1 2 3; do echo $i; sleep 0.5; done | while read l; do echo $l; done", sandbox.RunCommandOptions{Stdout: &live})
	require.Equal(t, "1\n2\n3\n", res.Stdout)
	first := live.firstAt.Sub(start)
	assert.Less(t, first, time.Since(start)-700*time.Millisecond, "the first line arrived late (%v of %v): not streamed", first, time.Since(start))
}

// TestJobsShareTheInstance: background jobs and pipeline stages are
// goroutines of the one busybox instance, and none can starve the others
// (Go's wasip1 runtime never preempts: the interpreter yields); the
// command's time limit still ends all of them, Pythons included.
func TestJobsShareTheInstance(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	timed := func(cmd string, timeout time.Duration) (sandbox.CommandResult, time.Duration) {
		t.Helper()
		start := time.Now()
		res := run(t, sb, cmd, sandbox.RunCommandOptions{Timeout: timeout})
		return res, time.Since(start)
	}
	// Three sleeps of 2 s at once take 2 s, not 6 (with room for a slow
	// start on a loaded machine).
	res, took := timed("sleep 2 & sleep 2 & sleep 2 & wait; echo done", time.Minute)
	assert.Equal(t, "done\n", res.Stdout, res.Stderr)
	assert.Less(t, took, 5*time.Second, "the sleeps ran one after the other")
	// A CPU-bound background loop leaves the foreground running.
	res, took = timed("while :; do :; done & sleep 0.3; echo fg; kill %1; wait %1; echo $?", time.Minute)
	assert.Equal(t, "fg\n143\n", res.Stdout, res.Stderr)
	assert.Less(t, took, 10*time.Second)
	// So does a CPU-bound pipeline stage: the other stages go on.
	res, _ = timed("{ while :; do :; done | true; } & seq 3 | while read l; do echo $l; done; kill %1", time.Minute)
	assert.Equal(t, "1\n2\n3\n", res.Stdout, res.Stderr)
	// The time limit ends the loops and a background Python alike.
	res, took = timed("while :; do :; done & python3 -c 'while True: pass' & while :; do :; done", 2*time.Second)
	assert.True(t, res.TimedOut)
	assert.Equal(t, 124, res.ExitCode)
	assert.Less(t, took, 10*time.Second, "the time limit did not end the command promptly")
	stillWorks(t, sb)
}

type signalBuffer struct {
	strings.Builder
	firstAt time.Time
}

func (b *signalBuffer) Write(p []byte) (int, error) {
	if b.firstAt.IsZero() {
		b.firstAt = time.Now()
	}
	return b.Builder.Write(p)
}
