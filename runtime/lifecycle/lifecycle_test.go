package lifecycle_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

// world is what several workers share: one kv, one sandbox store, one clock.
type world struct {
	clock *testenv.Clock
	kv    kv.Store
	store *memory.Store
}

func newWorld() *world {
	c := testenv.NewClock()
	return &world{clock: c, kv: memkv.New(memkv.Options{Now: c.Now}), store: memory.NewStore()}
}

func (w *world) provider() sandbox.Provider {
	return memory.New(memory.Options{Store: w.store, Now: w.clock.Now})
}

// worker returns a runtime of the world, as another worker process would be.
func (w *world) worker(t *testing.T, cfg lifecycle.Config) *lifecycle.Manager {
	return w.workerWith(t, cfg, w.provider())
}

func (w *world) workerWith(t *testing.T, cfg lifecycle.Config, p sandbox.Provider) *lifecycle.Manager {
	t.Helper()
	cfg.Now = w.clock.Now
	rt, err := lifecycle.New(lifecycle.Options{Kv: w.kv, Tools: lifecycle.Ports{Sandbox: p}, Config: cfg})
	require.NoError(t, err)
	return rt
}

func sandboxOf(t *testing.T, rt *lifecycle.Manager, ctx context.Context) lifecycle.ThreadSandbox {
	t.Helper()
	h, err := rt.SandboxFor(ctx)
	require.NoError(t, err)
	return h
}

func TestSameSandboxOnTheNextMessage(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{})
	first := sandboxOf(t, rt, lifecycle.WithRun(context.Background(), "t1", "run-1"))
	assert.True(t, first.Fresh)
	assert.False(t, first.Lost)
	assert.Empty(t, first.Note, "a thread's first sandbox has no note")
	require.NoError(t, first.Sandbox.FileSystem().WriteFile(context.Background(), "kept.txt", []byte("x")))

	w.clock.Advance(10 * time.Minute)
	next := sandboxOf(t, rt, lifecycle.WithRun(context.Background(), "t1", "run-2"))
	assert.Equal(t, first.Sandbox.ID(), next.Sandbox.ID())
	assert.False(t, next.Fresh)
	ok, err := next.Sandbox.FileSystem().Exists(context.Background(), "kept.txt")
	require.NoError(t, err)
	assert.True(t, ok)

	other := sandboxOf(t, rt, lifecycle.WithThread(context.Background(), "t2"))
	assert.NotEqual(t, first.Sandbox.ID(), other.Sandbox.ID(), "another thread has its own sandbox")
}

func TestAnotherWorkerFindsTheSandbox(t *testing.T) {
	w := newWorld()
	a := sandboxOf(t, w.worker(t, lifecycle.Config{}), lifecycle.WithThread(context.Background(), "t1"))
	b := sandboxOf(t, w.worker(t, lifecycle.Config{}), lifecycle.WithThread(context.Background(), "t1"))
	assert.Equal(t, a.Sandbox.ID(), b.Sandbox.ID())
	assert.False(t, b.Fresh)
}

func TestResumeAfterApprovalFindsTheSandbox(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{})
	run, ctx, err := rt.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{RunID: "run-1"})
	require.NoError(t, err)
	before := sandboxOf(t, rt, ctx)
	require.NoError(t, run.End(ctx, lifecycle.RunParked))

	// Another worker resumes the parked run.
	other := w.worker(t, lifecycle.Config{})
	run, ctx, err = other.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{RunID: "run-1"})
	require.NoError(t, err)
	after := sandboxOf(t, other, ctx)
	assert.Equal(t, before.Sandbox.ID(), after.Sandbox.ID())
	require.NoError(t, run.End(ctx, lifecycle.RunFinished))
}

func TestIdleEndGivesAFreshSandboxWithTheLostNote(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{SandboxIdleTTL: 30 * time.Minute})
	ctx := lifecycle.WithThread(context.Background(), "t1")
	old := sandboxOf(t, rt, ctx)

	w.clock.Advance(29 * time.Minute)
	assert.Equal(t, old.Sandbox.ID(), sandboxOf(t, rt, ctx).Sandbox.ID(), "used within the idle TTL")
	w.clock.Advance(29 * time.Minute)
	assert.Equal(t, old.Sandbox.ID(), sandboxOf(t, rt, ctx).Sandbox.ID(), "each use pushed the end back")

	w.clock.Advance(31 * time.Minute)
	_, err := w.provider().Connect(context.Background(), old.Sandbox.ID())
	require.ErrorIs(t, err, sandbox.ErrGone, "the idle sandbox ended by itself")
	fresh := sandboxOf(t, rt, ctx)
	assert.NotEqual(t, old.Sandbox.ID(), fresh.Sandbox.ID())
	assert.True(t, fresh.Fresh)
	assert.True(t, fresh.Lost)
	assert.Equal(t, lifecycle.LostNote, fresh.Note)
	again := sandboxOf(t, rt, ctx)
	assert.False(t, again.Lost, "only the first call after the end carries the note")
}

func TestMaxLifetime(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{SandboxIdleTTL: 30 * time.Minute, SandboxMaxLifetime: time.Hour})
	ctx := lifecycle.WithThread(context.Background(), "t1")
	old := sandboxOf(t, rt, ctx)
	w.clock.Advance(25 * time.Minute)
	sandboxOf(t, rt, ctx)
	w.clock.Advance(20 * time.Minute)
	h := sandboxOf(t, rt, ctx)
	require.Equal(t, old.Sandbox.ID(), h.Sandbox.ID())
	info, err := h.Sandbox.GetInfo(context.Background())
	require.NoError(t, err)
	assert.Equal(t, w.clock.Now().Add(15*time.Minute), info.EndAt, "a use never pushes the end past the max lifetime")

	w.clock.Advance(20 * time.Minute) // busy all along, but past its max lifetime
	fresh := sandboxOf(t, rt, ctx)
	assert.NotEqual(t, old.Sandbox.ID(), fresh.Sandbox.ID())
	assert.True(t, fresh.Lost)
}

// restorer is a provider whose sandboxes come back with their work folder.
type restorer struct {
	sandbox.Provider
	restoredFrom []string
}

func (r *restorer) RestoresWorkdir() bool { return true }

func (r *restorer) Create(ctx context.Context, opts sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	if opts.RestoreFrom != "" {
		r.restoredFrom = append(r.restoredFrom, opts.RestoreFrom)
		opts.RestoreFrom = "" // the memory adapter itself does not restore
	}
	return r.Provider.Create(ctx, opts)
}

func TestRestoredNoteFromAWorkdirRestorer(t *testing.T) {
	w := newWorld()
	p := &restorer{Provider: w.provider()}
	rt := w.workerWith(t, lifecycle.Config{}, p)
	ctx := lifecycle.WithThread(context.Background(), "t1")
	old := sandboxOf(t, rt, ctx)
	require.NoError(t, old.Sandbox.Destroy(context.Background()))
	fresh := sandboxOf(t, rt, ctx)
	assert.True(t, fresh.Restored)
	assert.False(t, fresh.Lost)
	assert.Equal(t, lifecycle.RestoredNote, fresh.Note)
	assert.Equal(t, []string{old.Sandbox.ID()}, p.restoredFrom, "the provider is told which sandbox to restore")
}

func TestRetryWithAFreshSandbox(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{})
	ctx := lifecycle.WithThread(context.Background(), "t1")
	var calls []lifecycle.ThreadSandbox
	retried := lifecycle.AgentTool("retried", "", func(ctx context.Context, _ map[string]any, _ lifecycle.ToolContext) (string, error) {
		return lifecycle.WithSandbox(ctx, func(ts lifecycle.ThreadSandbox) (string, error) {
			calls = append(calls, ts)
			if len(calls) == 1 {
				require.NoError(t, ts.Sandbox.Destroy(ctx)) // it ends part way
				_, err := ts.Sandbox.RunCommand(ctx, "echo hi", sandbox.RunCommandOptions{})
				return "", err
			}
			return "second", nil
		})
	})
	out, err := rt.CallTool(ctx, retried, nil)
	require.NoError(t, err)
	assert.Equal(t, "second", out)
	require.Len(t, calls, 2)
	assert.NotEqual(t, calls[0].Sandbox.ID(), calls[1].Sandbox.ID())
	assert.True(t, calls[1].Lost)
	assert.Equal(t, lifecycle.LostNote, calls[1].Note)

	// An error that is not the sandbox's end is not retried.
	n := 0
	boom := errors.New("boom")
	fails := lifecycle.AgentTool("fails", "", func(ctx context.Context, _ map[string]any, _ lifecycle.ToolContext) (string, error) {
		return lifecycle.WithSandbox(ctx, func(lifecycle.ThreadSandbox) (string, error) { n++; return "", boom })
	})
	_, err = rt.CallTool(ctx, fails, nil)
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, 1, n)

	_, err = lifecycle.WithSandbox(ctx, func(lifecycle.ThreadSandbox) (int, error) { return 1, nil })
	assert.ErrorIs(t, err, lifecycle.ErrNoRuntime, "outside a tool call or run")
}

func TestSubagentsShareTheRunSandbox(t *testing.T) {
	for _, scope := range []lifecycle.Scope{lifecycle.ScopeThread, lifecycle.ScopeRun} {
		t.Run(string(scope), func(t *testing.T) {
			w := newWorld()
			rt := w.worker(t, lifecycle.Config{SandboxScope: scope})
			ctx := lifecycle.WithRun(context.Background(), "t1", "run-1")
			ids := make([]string, 10)
			var wg sync.WaitGroup
			for i := range ids {
				wg.Go(func() { ids[i] = sandboxOf(t, rt, ctx).Sandbox.ID() })
			}
			wg.Wait()
			for _, id := range ids {
				assert.Equal(t, ids[0], id)
			}
		})
	}
}

func TestDeletedThreadEndsItsSandbox(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{})
	ctx := lifecycle.WithThread(context.Background(), "t1")
	h := sandboxOf(t, rt, ctx)
	require.NoError(t, rt.EndThread(context.Background(), "t1"))
	_, err := w.provider().Connect(context.Background(), h.Sandbox.ID())
	assert.ErrorIs(t, err, sandbox.ErrGone)
	fresh := sandboxOf(t, rt, ctx)
	assert.False(t, fresh.Lost, "a deleted thread's new sandbox is not a lost one")
}

func TestSandboxDefaultsAndMetadata(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{
		SandboxIdleTTL:  10 * time.Minute,
		SandboxDefaults: sandbox.CreateSandboxOptions{Envs: map[string]string{"FROM_DEFAULTS": "yes"}, Metadata: map[string]string{"app": "demo"}, Timeout: 99 * time.Hour},
	})
	h := sandboxOf(t, rt, lifecycle.WithThread(context.Background(), "t1"))
	res, err := h.Sandbox.RunCommand(context.Background(), "echo $FROM_DEFAULTS", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "yes\n", res.Stdout)
	info, err := h.Sandbox.GetInfo(context.Background())
	require.NoError(t, err)
	assert.Equal(t, "demo", info.Metadata["app"])
	assert.Equal(t, "t1", info.Metadata["agentenkit.thread"])
	assert.Equal(t, w.clock.Now().Add(10*time.Minute), info.EndAt, "the runtime sets the timeout, not the defaults")
}

func TestStateDir(t *testing.T) {
	w := newWorld()
	ctx := lifecycle.WithThread(context.Background(), "t1")
	rt := w.worker(t, lifecycle.Config{})
	h := sandboxOf(t, rt, ctx)
	dir, err := rt.StateDir(ctx, h.Sandbox)
	require.NoError(t, err)
	assert.Equal(t, memory.DefaultWorkdir+"/.agentenkit", dir)

	rt = w.worker(t, lifecycle.Config{SandboxStateDir: "/var/agentenkit"})
	dir, err = rt.StateDir(ctx, h.Sandbox)
	require.NoError(t, err)
	assert.Equal(t, "/var/agentenkit/"+h.Sandbox.ID(), dir)
}

func TestNoThreadInContext(t *testing.T) {
	rt := newWorld().worker(t, lifecycle.Config{})
	_, err := rt.SandboxFor(context.Background())
	assert.ErrorIs(t, err, lifecycle.ErrNoThread)
}
