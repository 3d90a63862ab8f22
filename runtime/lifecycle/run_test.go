package lifecycle_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

func TestRunScopeEndsWithTheRun(t *testing.T) {
	for _, c := range []struct {
		state      lifecycle.RunState
		keepOnPark bool
		ended      bool
	}{
		{lifecycle.RunFinished, false, true},
		{lifecycle.RunFailed, false, true},
		{lifecycle.RunStopped, false, true},
		{lifecycle.RunParked, false, true},
		{lifecycle.RunParked, true, false},
		{lifecycle.RunFinished, true, true},
	} {
		name := string(c.state)
		if c.keepOnPark {
			name += "/keep-on-park"
		}
		t.Run(name, func(t *testing.T) {
			w := newWorld()
			rt := w.worker(t, lifecycle.Config{SandboxScope: lifecycle.ScopeRun, SandboxKeepOnPark: c.keepOnPark})
			run, ctx, err := rt.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{})
			require.NoError(t, err)
			h := sandboxOf(t, rt, ctx)
			require.NoError(t, run.End(ctx, c.state))
			_, err = w.provider().Connect(context.Background(), h.Sandbox.ID())
			if c.ended {
				assert.ErrorIs(t, err, sandbox.ErrGone, "the run's sandbox ends at %s", c.state)
			} else {
				assert.NoError(t, err, "kept while parked")
			}
		})
	}
}

func TestRunScopeResumeAfterPark(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{SandboxScope: lifecycle.ScopeRun, SandboxKeepOnPark: true})
	run, ctx, err := rt.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{RunID: "run-1"})
	require.NoError(t, err)
	before := sandboxOf(t, rt, ctx)
	require.NoError(t, run.End(ctx, lifecycle.RunParked))
	run, ctx, err = rt.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{RunID: "run-1"})
	require.NoError(t, err)
	after := sandboxOf(t, rt, ctx)
	assert.Equal(t, before.Sandbox.ID(), after.Sandbox.ID(), "the resumed run finds its kept sandbox")
	require.NoError(t, run.End(ctx, lifecycle.RunFinished))
}

func TestRunScopeResumeAfterParkWithoutKeepSaysLost(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{SandboxScope: lifecycle.ScopeRun})
	run, ctx, err := rt.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{RunID: "run-1"})
	require.NoError(t, err)
	before := sandboxOf(t, rt, ctx)
	require.NoError(t, run.End(ctx, lifecycle.RunParked)) // ends the sandbox
	run, ctx, err = rt.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{RunID: "run-1"})
	require.NoError(t, err)
	after := sandboxOf(t, rt, ctx)
	assert.NotEqual(t, before.Sandbox.ID(), after.Sandbox.ID())
	assert.True(t, after.Lost, "the resumed run is told its sandbox's files are gone")
	assert.Equal(t, lifecycle.LostNote, after.Note)
	require.NoError(t, run.End(ctx, lifecycle.RunFinished))
}

func TestNextRunEndsAnOldRunSandbox(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{SandboxScope: lifecycle.ScopeRun, SandboxKeepOnPark: true})
	run, ctx, err := rt.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{RunID: "run-1"})
	require.NoError(t, err)
	old := sandboxOf(t, rt, ctx)
	require.NoError(t, run.End(ctx, lifecycle.RunParked)) // kept, then never resumed

	run, ctx, err = rt.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{RunID: "run-2"})
	require.NoError(t, err)
	fresh := sandboxOf(t, rt, ctx)
	assert.NotEqual(t, old.Sandbox.ID(), fresh.Sandbox.ID())
	assert.False(t, fresh.Lost, "a new run's fresh sandbox has no note")
	assert.Empty(t, fresh.Note)
	_, err = w.provider().Connect(context.Background(), old.Sandbox.ID())
	assert.ErrorIs(t, err, sandbox.ErrGone, "the old run's sandbox was ended")
	require.NoError(t, run.End(ctx, lifecycle.RunFinished))
}

func TestConcurrentRunsAreSerialised(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{})
	first, ctx, err := rt.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{})
	require.NoError(t, err)

	_, _, err = w.worker(t, lifecycle.Config{}).BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{})
	assert.ErrorIs(t, err, lifecycle.ErrThreadBusy)

	var mu sync.Mutex
	var order []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		second, ctx2, err := w.worker(t, lifecycle.Config{}).BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{Wait: true})
		if !assert.NoError(t, err) {
			return
		}
		mu.Lock()
		order = append(order, "second")
		mu.Unlock()
		assert.NoError(t, second.End(ctx2, lifecycle.RunFinished))
	}()
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	order = append(order, "first ends")
	mu.Unlock()
	require.NoError(t, first.End(ctx, lifecycle.RunFinished))
	<-done
	assert.Equal(t, []string{"first ends", "second"}, order)
}

func TestCrashedRunIsTakenOver(t *testing.T) {
	w := newWorld()
	cfg := lifecycle.Config{RunLockTTL: 30 * time.Second}
	crashed := w.worker(t, cfg)
	_, ctx, err := crashed.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{})
	require.NoError(t, err)
	h := sandboxOf(t, crashed, ctx)
	crashed.Abandon() // the worker dies: no renewals, no release

	other := w.worker(t, cfg)
	_, _, err = other.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{})
	require.ErrorIs(t, err, lifecycle.ErrThreadBusy, "the lock holds until it expires")
	w.clock.Advance(31 * time.Second)
	run, ctx, err := other.BeginRun(context.Background(), "t1", lifecycle.BeginRunOptions{})
	require.NoError(t, err, "taken over once the crashed run's lock expired")
	assert.Equal(t, h.Sandbox.ID(), sandboxOf(t, other, ctx).Sandbox.ID(), "and the thread's sandbox is still there")
	require.NoError(t, run.End(ctx, lifecycle.RunFinished))
}
