package wasm

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// poolProvider makes a provider with opts, warmed (images compiled,
// templates made), closed at the end of the test.
func poolProvider(t *testing.T, opts Options) *Provider {
	t.Helper()
	p := New(opts)
	t.Cleanup(func() { _ = p.Close() })
	if err := p.Warm(context.Background()); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "the wasm images are not fetched and built: run `make images`")
	} else if err != nil {
		t.Fatal(err)
	}
	return p
}

// engineClones reports whether p's shells are clones here (Linux).
func engineClones(t *testing.T, p *Provider) bool {
	t.Helper()
	bb, err := p.image(context.Background(), "busybox")
	require.NoError(t, err)
	return bb.ClonesShells()
}

// waitSpares waits until p's pool holds shells and pythons spares.
func waitSpares(t *testing.T, p *Provider, shells, pythons int) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		s, py := p.pool.spares()
		if s == shells && py == pythons {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pool holds %d shells and %d Pythons, want %d and %d", s, py, shells, pythons)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPoolServesFirstCommands: a new sandbox's first shell and first
// python3 come from the pool, each bound to that sandbox's files only, and
// the pool is filled again after.
func TestPoolServesFirstCommands(t *testing.T) {
	p := poolProvider(t, Options{Prewarm: true, PooledClones: 2})
	if !engineClones(t, p) {
		t.Skip("no clones here (memory cannot be mapped)")
	}
	waitSpares(t, p, 2, 2)
	ctx := context.Background()
	var sbs []sandbox.Sandbox
	for i, name := range []string{"a", "b"} {
		sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
		require.NoError(t, err)
		t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
		require.NoError(t, sb.FileSystem().WriteFile(ctx, name+".txt", []byte(name)))
		sbs = append(sbs, sb)
		assert.Equal(t, int64(i+1), p.pool.shellsTaken.Load(), "Create took a spare shell")
	}
	for i, sb := range sbs {
		shells, pythons := p.pool.shellsTaken.Load(), p.pool.pythonsTaken.Load()
		res := poolRun(t, sb, "ls *.txt; python3 -c 'import os; print(sorted(f for f in os.listdir() if f.endswith(\".txt\")))'", sandbox.RunCommandOptions{})
		want := []string{"a", "b"}[i]
		assert.Equal(t, want+".txt\n['"+want+".txt']\n", res.Stdout, "stderr %q", res.Stderr)
		assert.Equal(t, shells, p.pool.shellsTaken.Load(), "the first command ran in the shell Create took")
		assert.Equal(t, pythons+1, p.pool.pythonsTaken.Load(), "the first python3 was a spare")
	}
	// A spare serves once: the next python3 runs in another instance.
	for i := range 3 {
		res := poolRun(t, sbs[0], fmt.Sprintf("python3 -c 'print(%d)'", i), sandbox.RunCommandOptions{})
		assert.Equal(t, fmt.Sprintf("%d\n", i), res.Stdout, res.Stderr)
	}
	waitSpares(t, p, 2, 2)
}

// TestPoolRandom: the first $RANDOM and random.random() of sandboxes
// served from the pool differ.
func TestPoolRandom(t *testing.T) {
	p := poolProvider(t, Options{Prewarm: true, PooledClones: 2})
	if !engineClones(t, p) {
		t.Skip("no clones here (memory cannot be mapped)")
	}
	ctx := context.Background()
	seen := map[string]bool{}
	for range 4 {
		waitSpares(t, p, 2, 2)
		sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
		require.NoError(t, err)
		res := poolRun(t, sb, "echo $RANDOM; python3 -c 'import random; print(random.random())'", sandbox.RunCommandOptions{})
		_ = sb.Destroy(ctx)
		require.Equal(t, 0, res.ExitCode, res.Stderr)
		assert.False(t, seen[res.Stdout], "two sandboxes drew %q", res.Stdout)
		seen[res.Stdout] = true
	}
	assert.GreaterOrEqual(t, p.pool.pythonsTaken.Load(), int64(4))
}

// TestPoolNotServing: no spare where the pool is off, for a sandbox with a
// memory cap of its own, or for a python3 with another startup
// environment; those commands run as before.
func TestPoolNotServing(t *testing.T) {
	ctx := context.Background()
	off := poolProvider(t, Options{Prewarm: true, PooledClones: -1})
	sb, err := off.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	res := poolRun(t, sb, "python3 -c 'print(1)'", sandbox.RunCommandOptions{})
	assert.Equal(t, "1\n", res.Stdout)
	assert.Zero(t, off.pool.shellsTaken.Load()+off.pool.pythonsTaken.Load())
	s, py := off.pool.spares()
	assert.Zero(t, s+py)

	if !engineClones(t, off) {
		return
	}
	p := poolProvider(t, Options{Prewarm: true, PooledClones: 1})
	waitSpares(t, p, 1, 1)
	own, err := p.Create(ctx, sandbox.CreateSandboxOptions{Resources: sandbox.Resources{MemoryMB: 64}})
	require.NoError(t, err)
	defer own.Destroy(ctx)
	res = poolRun(t, own, "python3 -c 'print(1)'", sandbox.RunCommandOptions{})
	assert.Equal(t, "1\n", res.Stdout, res.Stderr)
	assert.Zero(t, p.pool.shellsTaken.Load()+p.pool.pythonsTaken.Load(), "a sandbox with its own memory cap took a spare")

	other, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer other.Destroy(ctx)
	res = poolRun(t, other, "LANG=C python3 -c 'import os; print(os.environ[\"LANG\"])'", sandbox.RunCommandOptions{})
	assert.Equal(t, "C\n", res.Stdout, res.Stderr)
	assert.Equal(t, int64(1), p.pool.shellsTaken.Load())
	assert.Zero(t, p.pool.pythonsTaken.Load(), "a python3 with another LANG ran in a spare started with C.UTF-8")
}

// TestPoolClose: Close ends the pool's filler and every spare (their
// instances and goroutines are gone), frees the provider's sandboxes'
// shells, and Create and Connect then fail with ErrClosed.
func TestPoolClose(t *testing.T) {
	ctx := context.Background()
	p := New(Options{Prewarm: true, PooledClones: 3})
	require.NoError(t, p.Warm(ctx))
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	res := poolRun(t, sb, "python3 -c 'print(1)'", sandbox.RunCommandOptions{})
	require.Equal(t, "1\n", res.Stdout, res.Stderr)
	if engineClones(t, p) {
		waitSpares(t, p, 3, 3)
	}
	p.pool.mu.Lock()
	spares := append(slices.Clone(p.pool.shells), p.pool.pythons...)
	p.pool.mu.Unlock()
	for _, w := range spares {
		require.True(t, w.Reusable(), "a spare ended before Close")
	}
	p.mu.Lock()
	st := p.cache[sb.ID()]
	p.mu.Unlock()
	require.NotNil(t, st)
	assert.Contains(t, goroutines(), "clonePool).fill", "no filler running")

	require.NoError(t, p.Close())
	s, py := p.pool.spares()
	assert.Zero(t, s+py, "spares left after Close")
	for _, w := range spares {
		assert.False(t, w.Reusable(), "a spare still runs after Close")
	}
	select {
	case <-p.pool.done:
	default:
		t.Error("the filler still runs after Close")
	}
	assert.NotContains(t, goroutines(), "clonePool).fill")
	st.mu.Lock()
	assert.True(t, st.gone, "the sandbox's copy is still in use")
	assert.Empty(t, st.shells.idle, "the sandbox's idle shells were kept")
	st.mu.Unlock()

	_, err = p.Create(ctx, sandbox.CreateSandboxOptions{})
	assert.ErrorIs(t, err, ErrClosed)
	_, err = p.Connect(ctx, sb.ID())
	assert.ErrorIs(t, err, ErrClosed)
	assert.NoError(t, p.Close(), "a second Close")
}

// goroutines is every goroutine's stack.
func goroutines() string {
	buf := make([]byte, 1<<22)
	return string(buf[:runtime.Stack(buf, true)])
}

// poolRun runs cmd in sb and fails the test on an error.
func poolRun(t *testing.T, sb sandbox.Sandbox, cmd string, opts sandbox.RunCommandOptions) sandbox.CommandResult {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = time.Minute
	}
	res, err := sb.RunCommand(context.Background(), cmd, opts)
	require.NoError(t, err, "RunCommand(%q)", cmd)
	return res
}

// TestPoolRecycles: sandboxes made and ended one after another are served
// by the pool's spares recycled (no new spare started meanwhile), each
// seeing only its own files and drawing random numbers of its own.
func TestPoolRecycles(t *testing.T) {
	p := poolProvider(t, Options{Prewarm: true, PooledClones: 2})
	if !engineClones(t, p) {
		t.Skip("no clones here (memory cannot be mapped)")
	}
	waitSpares(t, p, 2, 2)
	// No quiet moment between the sandboxes, however slow the machine:
	// the filler starts a shell only when the pool has none.
	p.pool.mu.Lock()
	p.pool.quiet, p.pool.wait = time.Hour, time.Minute
	p.pool.mu.Unlock()
	ctx := context.Background()
	made, recycled, refused := p.pool.shellsMade.Load(), p.pool.recycled.Load(), p.pool.recycleRefused.Load()
	seen := map[string]bool{}
	const n = 6
	for i := range n {
		sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
		require.NoError(t, err)
		name := fmt.Sprintf("f%d.txt", i)
		require.NoError(t, sb.FileSystem().WriteFile(ctx, name, []byte("x")))
		res := poolRun(t, sb, "ls; echo $RANDOM $RANDOM", sandbox.RunCommandOptions{})
		require.NoError(t, sb.Destroy(ctx))
		files, rnd, _ := strings.Cut(res.Stdout, "\n")
		assert.Equal(t, name, files, "sandbox %d sees other files (stderr %q)", i, res.Stderr)
		assert.False(t, seen[rnd], "two sandboxes drew $RANDOM %q", rnd)
		seen[rnd] = true
		waitSpares(t, p, 2, 2)
	}
	// each shell put back, unless the engine refused its recycle (below)
	assert.Equal(t, int64(n), p.pool.recycled.Load()-recycled+p.pool.recycleRefused.Load()-refused, "the sandboxes' shells were not put back")

	// Both spares taken and given back at once: the next sandbox's shell
	// (started in the background by Create, waited for by its first
	// command) is one of them once recycled, not a shell started anew.
	emptied, refusedAt := p.pool.shellsMade.Load(), p.pool.recycleRefused.Load()
	var two []sandbox.Sandbox
	for range 2 {
		sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
		require.NoError(t, err)
		two = append(two, sb)
	}
	for _, sb := range two {
		require.NoError(t, sb.Destroy(ctx))
	}
	taken := p.pool.shellsTaken.Load()
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	res := poolRun(t, sb, "echo hi", sandbox.RunCommandOptions{})
	assert.Equal(t, "hi\n", res.Stdout, res.Stderr)
	assert.Equal(t, taken+1, p.pool.shellsTaken.Load(), "a sandbox made while the spares were being recycled did not get one")
	// a recycle the engine refused (under load a spare's guest GC can
	// grow its memory) is made up for by the filler, as it should be
	assert.Equal(t, made+refusedAt-refused, emptied, "the filler started spares while recycled ones served")
	// Taking both spares empties the pool, and the filler refills an empty
	// pool at once (by design, see above): it may have started one shell
	// before the two were given back, never more.
	assert.LessOrEqual(t, p.pool.shellsMade.Load(), emptied+1+p.pool.recycleRefused.Load()-refusedAt, "the filler started spares while recycled ones served")
}
