package lifecycle_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/internal/testenv"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/rediskv"
	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Two workers, each with its own kv connection and provider value, share
// one sandbox per thread through the kv: the local adapter's real sandboxes.
func testTwoWorkers(t *testing.T, open func(t *testing.T) kv.Store) {
	ctx := context.Background()
	root := t.TempDir()
	worker := func() *lifecycle.Manager {
		rt, err := lifecycle.New(lifecycle.Options{
			Kv:    open(t),
			Tools: lifecycle.Ports{Sandbox: localsandbox.New(localsandbox.Options{Root: root})},
		})
		require.NoError(t, err)
		return rt
	}
	a, b := worker(), worker()
	thread := "thread-" + filepath.Base(root)

	run, rctx, err := a.BeginRun(ctx, thread, lifecycle.BeginRunOptions{})
	require.NoError(t, err)
	ha, err := a.SandboxFor(rctx)
	require.NoError(t, err)
	_, err = ha.Sandbox.RunCommand(rctx, "echo from-a > note.txt", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	_, _, err = b.BeginRun(ctx, thread, lifecycle.BeginRunOptions{})
	assert.ErrorIs(t, err, lifecycle.ErrThreadBusy, "worker b waits for a's run")
	require.NoError(t, run.End(rctx, lifecycle.RunParked))

	run, rctx, err = b.BeginRun(ctx, thread, lifecycle.BeginRunOptions{RunID: run.RunID})
	require.NoError(t, err)
	hb, err := b.SandboxFor(rctx)
	require.NoError(t, err)
	assert.Equal(t, ha.Sandbox.ID(), hb.Sandbox.ID())
	res, err := hb.Sandbox.RunCommand(rctx, "cat note.txt", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "from-a\n", res.Stdout)
	require.NoError(t, run.End(rctx, lifecycle.RunFinished))

	require.NoError(t, b.EndThread(ctx, thread))
	_, err = localsandbox.New(localsandbox.Options{Root: root}).Connect(ctx, ha.Sandbox.ID())
	assert.ErrorIs(t, err, sandbox.ErrGone)
}

func TestTwoWorkersSQLite(t *testing.T) {
	file := filepath.Join(t.TempDir(), "kv.sqlite")
	testTwoWorkers(t, func(t *testing.T) kv.Store {
		s, err := sqlitekv.Open(file)
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func TestTwoWorkersRedis(t *testing.T) {
	url := testenv.RedisURL(t)
	testTwoWorkers(t, func(t *testing.T) kv.Store {
		s, err := rediskv.Open(url)
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	})
}
