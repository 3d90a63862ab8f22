package sandboxtest

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
)

var execCases = []Case{
	{
		Name: "run/echo",
		Rule: "A command's output comes back in Stdout, and exit status 0 with no error.",
		Check: func(e *Env) {
			res := e.Run("echo hello", sandbox.RunCommandOptions{})
			assert.Equal(e.T, "hello\n", res.Stdout)
			assert.Equal(e.T, "", res.Stderr)
			assert.Equal(e.T, 0, res.ExitCode)
			assert.False(e.T, res.TimedOut)
			assert.False(e.T, res.Truncated)
		},
	},
	{
		Name: "run/stdout-stderr-apart",
		Rule: "Stdout and Stderr are kept apart.",
		Check: func(e *Env) {
			res := e.Run("echo out; echo err >&2; echo out2", sandbox.RunCommandOptions{})
			assert.Equal(e.T, "out\nout2\n", res.Stdout)
			assert.Equal(e.T, "err\n", res.Stderr)
		},
	},
	{
		Name: "run/exit-codes",
		Rule: "A non-zero exit is a result, not an error: 0, 1, 3, and 127 for an unknown command.",
		Check: func(e *Env) {
			for cmd, want := range map[string]int{
				"true":                          0,
				"false":                         1,
				"exit 3":                        3,
				"no-such-command-agentenkit-xy": 127,
			} {
				res := e.Run(cmd, sandbox.RunCommandOptions{})
				assert.Equal(e.T, want, res.ExitCode, "exit code of %q", cmd)
			}
		},
	},
	{
		Name: "run/shell-syntax",
		Rule: "Commands run in a POSIX shell: pipes, redirections, functions, loops, $(...), arithmetic, && and ||.",
		Check: func(e *Env) {
			script := `f() { echo "fn $1"; }
f one
for i in 1 2 3; do printf '%s,' "$i"; done; echo
x=$(echo sub | tr a-z A-Z); echo "$x"
echo $((6 * 7))
false || echo or-ran
true && echo and-ran
echo piped | cat > out.txt; cat < out.txt
[ -f out.txt ] && echo is-file`
			res := e.Run(script, sandbox.RunCommandOptions{})
			assert.Equal(e.T, "fn one\n1,2,3,\nSUB\n42\nor-ran\nand-ran\npiped\nis-file\n", res.Stdout)
			assert.Equal(e.T, 0, res.ExitCode, "stderr: %s", res.Stderr)
		},
	},
	{
		Name: "run/timeout",
		Rule: "Past its Timeout a command is killed: TimedOut, exit 124, the output printed before the kill kept, returned within seconds.",
		Check: func(e *Env) {
			start := time.Now()
			res := e.Run("echo before; sleep 30; echo after", sandbox.RunCommandOptions{Timeout: time.Second})
			took := time.Since(start)
			assert.True(e.T, res.TimedOut, "TimedOut")
			assert.Equal(e.T, sandbox.TimeoutExitCode, res.ExitCode)
			assert.Equal(e.T, "before\n", res.Stdout)
			assert.Less(e.T, took, 10*time.Second, "a 1 s limit must return within a few seconds")
			// The sandbox still works afterwards.
			assert.Equal(e.T, "ok\n", e.Run("echo ok", sandbox.RunCommandOptions{}).Stdout)
		},
	},
	{
		Name:  "run/timeout-kills-tree",
		Rule:  "A timed-out command leaves no process behind: a background child started by it does not live on.",
		Needs: []Capability{CapBackgroundKill},
		Check: func(e *Env) {
			res := e.Run("(sleep 3; echo late > bg-marker) & sleep 30", sandbox.RunCommandOptions{Timeout: time.Second})
			require.True(e.T, res.TimedOut)
			time.Sleep(4 * time.Second)
			ok, err := e.Sandbox.FileSystem().Exists(e.Ctx, "bg-marker")
			require.NoError(e.T, err)
			assert.False(e.T, ok, "the background child ran on after the time limit")
		},
	},
	{
		Name:  "run/timeout-kills-escapees",
		Rule:  "A timed-out command leaves no process behind even where one left its process group: setsid's and a double fork's children do not live on.",
		Needs: []Capability{CapSessionKill},
		Check: func(e *Env) {
			if e.Run("command -v setsid", sandbox.RunCommandOptions{}).ExitCode != 0 {
				e.T.Skip("no setsid command in this sandbox")
			}
			res := e.Run("setsid sh -c 'sleep 3; echo late > escaped-setsid' >/dev/null 2>&1 & (sh -c 'sleep 3; echo late > escaped-fork' >/dev/null 2>&1 &); sleep 30", sandbox.RunCommandOptions{Timeout: time.Second})
			require.True(e.T, res.TimedOut)
			time.Sleep(4 * time.Second)
			for _, marker := range []string{"escaped-setsid", "escaped-fork"} {
				ok, err := e.Sandbox.FileSystem().Exists(e.Ctx, marker)
				require.NoError(e.T, err)
				assert.False(e.T, ok, "%s: a process ran on after the time limit", marker)
			}
		},
	},
	{
		Name: "run/default-timeout",
		Rule: "A command without a Timeout runs under the default limit, not without one: it finishes normally when quick.",
		Check: func(e *Env) {
			res := e.Run("sleep 1; echo done", sandbox.RunCommandOptions{})
			assert.Equal(e.T, "done\n", res.Stdout)
			assert.False(e.T, res.TimedOut)
			assert.Equal(e.T, sandbox.DefaultCommandTimeout, sandbox.RunCommandOptions{}.CommandTimeout())
		},
	},
	{
		Name: "run/streaming",
		Rule: "Output reaches the Stdout and Stderr writers while the command still runs.",
		Check: func(e *Env) {
			out := newSignalWriter("first")
			errw := newSignalWriter("warn")
			done := make(chan sandbox.CommandResult, 1)
			go func() {
				res, err := e.Sandbox.RunCommand(e.Ctx, "echo first; echo warn >&2; sleep 3; echo second", sandbox.RunCommandOptions{Stdout: out, Stderr: errw})
				if err != nil {
					e.T.Errorf("RunCommand: %v", err)
				}
				done <- res
			}()
			for name, w := range map[string]*signalWriter{"stdout": out, "stderr": errw} {
				select {
				case <-w.seen:
				case res := <-done:
					e.T.Fatalf("the command ended (%+v) before any %s reached the writer", res, name)
				case <-time.After(20 * time.Second):
					e.T.Fatalf("no %s reached the writer", name)
				}
			}
			select {
			case <-done:
				e.T.Fatal("the command ended before the live output was checked: it was not streamed")
			default:
			}
			res := <-done
			assert.Equal(e.T, "first\nsecond\n", res.Stdout)
			assert.Equal(e.T, "first\nsecond\n", out.String(), "the writer gets all output")
			assert.Equal(e.T, "warn\n", errw.String())
		},
	},
	{
		Name: "run/output-cap",
		Rule: "Each output stream keeps at most 4 MiB and sets Truncated past that, without blocking the command.",
		Check: func(e *Env) {
			for _, cmd := range []string{"seq 1 1000000", "seq 1 1000000 >&2"} {
				live := &countWriter{}
				opts := sandbox.RunCommandOptions{Stdout: live, Stderr: live, Timeout: time.Minute}
				res := e.Run(cmd+"; echo exit-ok >&2", opts)
				assert.True(e.T, res.Truncated, "%s: Truncated", cmd)
				assert.False(e.T, res.TimedOut, "%s: the command was blocked", cmd)
				kept := res.Stdout
				if strings.Contains(cmd, ">&2") {
					kept = res.Stderr
				}
				assert.Equal(e.T, sandbox.MaxOutputBytes, len(kept), "%s: bytes kept", cmd)
				assert.True(e.T, strings.HasPrefix(kept, "1\n2\n3\n"), "%s: the start is kept", cmd)
				assert.GreaterOrEqual(e.T, live.n(), 6888896, "%s: the live writer gets all output", cmd)
			}
			assert.False(e.T, e.Run("seq 1 1000", sandbox.RunCommandOptions{}).Truncated)
		},
	},
	{
		Name: "run/default-workdir",
		Rule: "A command starts in the work folder that GetInfo names.",
		Check: func(e *Env) {
			res := e.Run("pwd", sandbox.RunCommandOptions{})
			assert.Equal(e.T, e.Workdir+"\n", res.Stdout)
			assert.True(e.T, strings.HasPrefix(e.Workdir, "/"), "Workdir %q is absolute", e.Workdir)
		},
	},
	{
		Name: "run/cwd-option",
		Rule: "Cwd runs the command in that folder, relative to the work folder or absolute.",
		Check: func(e *Env) {
			require.NoError(e.T, e.Sandbox.FileSystem().Mkdir(e.Ctx, "sub/deeper"))
			res := e.Run("pwd", sandbox.RunCommandOptions{Cwd: "sub"})
			assert.Equal(e.T, e.Workdir+"/sub\n", res.Stdout)
			res = e.Run("pwd", sandbox.RunCommandOptions{Cwd: e.Workdir + "/sub/deeper"})
			assert.Equal(e.T, e.Workdir+"/sub/deeper\n", res.Stdout)
		},
	},
	{
		Name: "run/env",
		Rule: "Env reaches the command it is given to (only that one), and Envs given at creation reach every command.",
		Check: func(e *Env) {
			opts := e.Harness.Create
			opts.Envs = map[string]string{"SBX_CREATED": "at-create"}
			sb := e.Create(opts)
			res, err := sb.RunCommand(e.Ctx, `echo "$SBX_CREATED|$SBX_CALL"`, sandbox.RunCommandOptions{Env: map[string]string{"SBX_CALL": "per call"}})
			require.NoError(e.T, err)
			assert.Equal(e.T, "at-create|per call\n", res.Stdout)
			res, err = sb.RunCommand(e.Ctx, `echo "$SBX_CREATED|$SBX_CALL"`, sandbox.RunCommandOptions{})
			require.NoError(e.T, err)
			assert.Equal(e.T, "at-create|\n", res.Stdout)
		},
	},
	{
		Name: "run/fresh-shell",
		Rule: "Each command runs in a new shell: its variables, exports, functions and folder do not reach the next command; its files do.",
		Check: func(e *Env) {
			e.Run(`echo kept > fresh.txt; x=1; export SBX_Y=2; f() { :; }; mkdir -p sub && cd sub`, sandbox.RunCommandOptions{})
			res := e.Run(`echo "[$x][$SBX_Y]"; type f >/dev/null 2>&1 && echo f || echo no-f; pwd; cat fresh.txt`, sandbox.RunCommandOptions{})
			assert.Equal(e.T, "[][]\nno-f\n"+e.Workdir+"\nkept\n", res.Stdout, "stderr %q", res.Stderr)
		},
	},
	{
		Name: "run/no-host-env",
		Rule: "No variable of the app's environment reaches a command.",
		Check: func(e *Env) {
			secret := hostEnvSecret()
			require.NotEmpty(e.T, secret)
			res := e.Run("env; echo \"[$"+secretEnv+"]\"", sandbox.RunCommandOptions{})
			assert.NotContains(e.T, res.Stdout, secret)
			assert.Contains(e.T, res.Stdout, "[]\n")
		},
	},
	{
		Name: "run/concurrent",
		Rule: "Several commands may run at once on one sandbox.",
		Check: func(e *Env) {
			var wg sync.WaitGroup
			results := make([]sandbox.CommandResult, 8)
			errs := make([]error, 8)
			for i := range results {
				wg.Go(func() {
					cmd := fmt.Sprintf("echo start-%d > c%d.txt; sleep 1; cat c%d.txt", i, i, i)
					results[i], errs[i] = e.Sandbox.RunCommand(e.Ctx, cmd, sandbox.RunCommandOptions{})
				})
			}
			wg.Wait()
			for i, res := range results {
				require.NoError(e.T, errs[i])
				assert.Equal(e.T, fmt.Sprintf("start-%d\n", i), res.Stdout)
			}
		},
	},
}

// signalWriter records what it is given and closes seen once it holds want.
type signalWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func newSignalWriter(want string) *signalWriter {
	return &signalWriter{want: want, seen: make(chan struct{})}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// countWriter counts bytes.
type countWriter struct {
	mu    sync.Mutex
	total int
}

func (w *countWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.total += len(p)
	w.mu.Unlock()
	return len(p), nil
}

func (w *countWriter) n() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.total
}
