package wasm

import (
	"context"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
)

// clonesMapped counts the process's mappings of template memory images
// (the unlinked files of engine's data images), one per clone alive; -1
// where /proc/self/maps cannot be read.
func clonesMapped() int {
	b, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return -1
	}
	return strings.Count(string(b), "agentenkit-wasm-data-")
}

// TestDestroyReleases: Destroy gives back what the sandbox held in this
// process: its idle shells and its prestarted Python are closed, their
// memory unmapped (the clones' mappings of the templates gone), the
// provider's counts back where they were, its control tokens gone and its
// copy dropped from the cache.
func TestDestroyReleases(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts mappings in /proc/self/maps")
	}
	p, _ := newWarmSandbox(t, Options{Prewarm: true})
	ctx := context.Background()
	settle := func(cond func() bool) bool {
		deadline := time.Now().Add(30 * time.Second)
		for !cond() && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		return cond()
	}
	// The first sandbox's shell and the provider's start settle first, and
	// the pool's spares (pool.go) are all made, as they are again after
	// the sandbox took some.
	poolFull := func() bool {
		shells, pythons := p.pool.spares()
		return shells == p.pool.size && pythons == p.pool.size
	}
	require.True(t, settle(func() bool { return p.warmingShells.Load() == 0 && poolFull() }))
	idle0, before := p.idleShells.Load(), clonesMapped()
	require.GreaterOrEqual(t, before, 0)

	other, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	for _, cmd := range []string{"echo hi | cat", "python3 -c 'print(1)'", "python3 -c 'print(2)'"} {
		r, err := other.RunCommand(ctx, cmd, sandbox.RunCommandOptions{Timeout: time.Minute})
		require.NoError(t, err, cmd)
		require.Zero(t, r.ExitCode, "%s: %s", cmd, r.Stderr)
	}
	p.readyPython(t, other.ID())
	assert.Greater(t, p.idleShells.Load(), idle0, "an idle shell kept for the sandbox")
	assert.EqualValues(t, 1, p.idlePythons.Load(), "a prestarted Python kept for the sandbox")
	assert.Greater(t, clonesMapped(), before, "its shells and Python are clones mapping the templates")
	p.mu.Lock()
	st := p.cache[other.ID()]
	p.mu.Unlock()
	require.NotNil(t, st)

	require.NoError(t, other.Destroy(ctx))
	assert.Equal(t, idle0, p.idleShells.Load(), "idle shells after Destroy")
	assert.Zero(t, p.idlePythons.Load(), "prestarted Pythons after Destroy")
	p.mu.Lock()
	_, cached := p.cache[other.ID()]
	p.mu.Unlock()
	assert.False(t, cached, "the destroyed sandbox is still in the provider's cache")
	ctlTokens.Range(func(_, v any) bool {
		assert.NotSame(t, st, v.(*ctlEntry).st, "a control token of the destroyed sandbox")
		return true
	})
	assert.True(t, settle(func() bool { return poolFull() && clonesMapped() <= before }),
		"the destroyed sandbox's clones are still mapped: %d mappings of templates, %d before it", clonesMapped(), before)
}
