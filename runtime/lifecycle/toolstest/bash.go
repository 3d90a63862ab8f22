package toolstest

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/tools"
)

func testBash(t *testing.T, h Harness) {
	w := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{})

	t.Run("cd carries over to the next call", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		wd := w.workdir(t, ctx)
		r := w.sh(t, ctx, "mkdir -p sub/deeper && cd sub")
		require.Equal(t, 0, r.ExitCode, r.Stderr)
		assert.Equal(t, wd+"/sub\n", w.sh(t, ctx, "pwd").Stdout)
		assert.Equal(t, "x\n", w.sh(t, ctx, "echo x > here.txt && cat "+wd+"/sub/here.txt").Stdout, "relative paths resolve in the carried folder")
	})

	t.Run("cd carries over when the command exits early", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		wd := w.workdir(t, ctx)
		w.sh(t, ctx, "mkdir -p a/b")
		r := w.sh(t, ctx, "cd a; exit 3")
		assert.Equal(t, 3, r.ExitCode)
		assert.Equal(t, wd+"/a\n", w.sh(t, ctx, "pwd").Stdout)
	})

	t.Run("cd carries over when the command fails under set -e", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		wd := w.workdir(t, ctx)
		w.sh(t, ctx, "mkdir -p a/b")
		r := w.sh(t, ctx, "set -e; cd a/b; false; echo not reached")
		assert.Equal(t, 1, r.ExitCode)
		assert.Empty(t, r.Stdout)
		assert.Equal(t, wd+"/a/b\n", w.sh(t, ctx, "pwd").Stdout)
	})

	t.Run("variables functions and options do not carry over", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		w.sh(t, ctx, "export X=1; Y=2; f() { echo f; }; set -e")
		r := w.sh(t, ctx, `echo "[$X][$Y]"; f 2>/dev/null || echo no-f; false; echo still-running`)
		assert.Equal(t, "[][]\nno-f\nstill-running\n", r.Stdout)
	})

	t.Run("a command keeps its line numbers", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		script := "echo $LINENO\necho $LINENO\necho $LINENO"
		direct, err := w.sandbox(t, ctx).RunCommand(ctx, script, sandbox.RunCommandOptions{})
		require.NoError(t, err)
		r := w.sh(t, ctx, script)
		assert.Equal(t, direct.Stdout, r.Stdout, "the prefix stays on the first line")
		r = w.sh(t, ctx, "true\nfalse_command_that_does_not_exist\n")
		assert.NotEqual(t, 0, r.ExitCode)
	})

	t.Run("stdout stderr and the exit code come back apart", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		r := w.sh(t, ctx, "echo out; echo err >&2; exit 7")
		assert.Equal(t, tools.BashResult{Stdout: "out\n", Stderr: "err\n", ExitCode: 7}, r)
	})

	t.Run("restart goes back to the start folder", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		wd := w.workdir(t, ctx)
		w.sh(t, ctx, "mkdir -p sub && cd sub")
		r := w.bash(t, ctx, `{"restart": true}`)
		assert.Equal(t, tools.BashResult{Note: "tool has been restarted."}, r)
		assert.Equal(t, wd+"\n", w.sh(t, ctx, "pwd").Stdout)
		w.sh(t, ctx, "cd sub")
		r = w.bash(t, ctx, `{"restart": true, "command": "pwd"}`)
		assert.Equal(t, wd+"\n", r.Stdout, "a command given with restart runs in the start folder")
		assert.Equal(t, "tool has been restarted.", r.Note)
	})

	t.Run("no command", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		for _, in := range []string{`{}`, `{"command": ""}`, `{"command": "  \n"}`, `{"restart": false}`} {
			_, err := w.call(t, ctx, lifecycle.ToolBash, in)
			assert.Equal(t, "no command provided.", modelError(t, err), in)
		}
	})

	t.Run("a command past the time limit is stopped", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{Bash: lifecycle.BashOptions{Timeout: 2 * time.Second}})
		ctx := w.thread(t)
		start := time.Now()
		r := w.sh(t, ctx, "echo started; sleep 30; echo never")
		assert.Less(t, time.Since(start), 20*time.Second)
		assert.True(t, r.TimedOut)
		assert.Equal(t, 124, r.ExitCode)
		assert.Equal(t, "started\n", r.Stdout, "the output so far is kept")
		assert.Equal(t, "timed out: bash has not returned in 2 seconds and was stopped", r.Note)
		assert.Equal(t, "after\n", w.sh(t, ctx, "echo after").Stdout, "the next command runs")
	})

	t.Run("output streams live while the command runs", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		sb := w.sandbox(t, ctx)
		var (
			mu     sync.Mutex
			pieces []string
			first  time.Time
		)
		env := tools.Env{Sandbox: sb, Emit: func(stream, text string) {
			mu.Lock()
			defer mu.Unlock()
			if first.IsZero() {
				first = time.Now()
			}
			pieces = append(pieces, stream+":"+text)
		}}
		r, err := tools.Bash{}.Run(ctx, env, tools.BashInput{Command: "echo one; echo oops >&2; sleep 2; echo two"})
		end := time.Now()
		require.NoError(t, err)
		assert.Equal(t, "one\ntwo\n", r.Stdout)
		mu.Lock()
		defer mu.Unlock()
		var out, errOut strings.Builder
		for _, p := range pieces {
			stream, text, _ := strings.Cut(p, ":")
			map[string]*strings.Builder{"stdout": &out, "stderr": &errOut}[stream].WriteString(text)
		}
		assert.Equal(t, "one\ntwo\n", out.String())
		assert.Equal(t, "oops\n", errOut.String())
		assert.Less(t, first, end.Add(-time.Second), "the first piece came while the command ran")
	})

	t.Run("a long result keeps its start and end", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{ResultCapChars: 1000})
		ctx := w.thread(t)
		r := w.sh(t, ctx, `i=0; while [ $i -lt 2000 ]; do echo "line $i"; i=$((i+1)); done`)
		assert.True(t, strings.HasPrefix(r.Stdout, "line 0\nline 1\n"), r.Stdout[:40])
		assert.True(t, strings.HasSuffix(r.Stdout, "line 1998\nline 1999\n"))
		assert.Contains(t, r.Stdout, " characters cut] ...\n")
		assert.Less(t, len(r.Stdout), 1100)
	})

	t.Run("the start folder is the work folder", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		assert.Equal(t, w.workdir(t, ctx)+"\n", w.sh(t, ctx, "pwd").Stdout)
	})

	t.Run("a folder removed since is left for the start folder", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		wd := w.workdir(t, ctx)
		w.sh(t, ctx, "mkdir -p gone && cd gone")
		w.sh(t, ctx, "rm -rf "+wd+"/gone")
		r := w.sh(t, ctx, "pwd")
		assert.Equal(t, wd+"\n", r.Stdout)
		assert.Equal(t, 0, r.ExitCode)
	})

	t.Run("input with loose types", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		r := w.bash(t, ctx, `{"command": "echo hi", "restart": "false", "unknown": 1}`)
		assert.Equal(t, "hi\n", r.Stdout)
		_, err := w.call(t, ctx, lifecycle.ToolBash, `["not an object"]`)
		assert.Contains(t, modelError(t, err), "The input is not a JSON object")
	})

	t.Run("the result is JSON as models get it", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		b, err := json.Marshal(w.sh(t, ctx, "echo hi; exit 2"))
		require.NoError(t, err)
		assert.JSONEq(t, `{"stdout":"hi\n","stderr":"","exitCode":2}`, string(b))
	})
}
