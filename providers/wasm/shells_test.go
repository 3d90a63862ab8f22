package wasm

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// idle is how many warm shells st keeps idle now.
func (p *Provider) idle(id string) int {
	p.mu.Lock()
	st := p.cache[id]
	p.mu.Unlock()
	if st == nil {
		return -1
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.shells.idle)
}

// TestWarmShells: a warm shell runs the next command with nothing of the
// last one but the files; one where something of a command still runs, or
// that a time limit ended, is dropped and the next command gets a new one.
func TestWarmShells(t *testing.T) {
	p := New(Options{})
	ctx := context.Background()
	if err := p.Warm(ctx); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "the wasm images are not fetched and built: run `make images`")
	}
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	id := sb.ID()
	runIt := func(cmd string, timeout time.Duration) sandbox.CommandResult {
		t.Helper()
		r, err := sb.RunCommand(ctx, cmd, sandbox.RunCommandOptions{Timeout: timeout})
		require.NoError(t, err, cmd)
		return r
	}

	runIt("true", time.Minute)
	for _, c := range []struct {
		name, first, then, want string
		started                 int64 // shells started for the two commands
	}{
		{"variables, folder, functions and traps do not carry over",
			"x=1; export Y=2; cd /tmp; f() { echo f; }; trap 'echo bye' EXIT", "echo \"[$x][$Y]\"; pwd; type f 2>/dev/null || echo no f", "[][]\n/home/user\nno f\n", 0},
		{"files do", "echo kept > f.txt", "cat f.txt", "kept\n", 0},
		{"a background job drops the shell", "sleep 30 &", "jobs; echo next", "next\n", 1},
		{"pipeline stages come back warm", "seq 1 100 | grep 7 | wc -l", "seq 1 100 | grep 7 | wc -l", "19\n", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := p.shellsStarted.Load()
			runIt(c.first, time.Minute)
			r := runIt(c.then, time.Minute)
			assert.Equal(t, c.want, r.Stdout, "stderr %q", r.Stderr)
			assert.Equal(t, 0, r.ExitCode)
			assert.Equal(t, c.started, p.shellsStarted.Load()-before, "shells started")
		})
	}

	t.Run("a time limit ends the shell, the next command gets a new one", func(t *testing.T) {
		r := runIt("echo started; sleep 20", 300*time.Millisecond)
		assert.True(t, r.TimedOut)
		assert.Equal(t, 124, r.ExitCode)
		assert.Equal(t, "started\n", r.Stdout)
		r = runIt("echo ok", time.Minute)
		assert.Equal(t, "ok\n", r.Stdout)
	})

	t.Run("destroy closes the idle shells", func(t *testing.T) {
		runIt("true", time.Minute)
		require.Positive(t, p.idleShells.Load())
		before := p.idleShells.Load() - int64(p.idle(id))
		require.NoError(t, sb.Destroy(ctx))
		assert.Equal(t, before, p.idleShells.Load())
	})
}

// TestWarmShellsOff: with WarmShells negative nothing is kept.
func TestWarmShellsOff(t *testing.T) {
	p := New(Options{WarmShells: -1})
	ctx := context.Background()
	if err := p.Warm(ctx); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "the wasm images are not fetched and built: run `make images`")
	}
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	r, err := sb.RunCommand(ctx, "echo a | tr a b", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "b\n", strings.TrimSpace(r.Stdout)+"\n")
	assert.Zero(t, p.idle(sb.ID()))
	assert.Zero(t, p.idleShells.Load())
	assert.EqualValues(t, 3, p.shellsStarted.Load(), "one per instance: the command's and its two stages")
}
