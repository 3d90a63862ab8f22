package lifecycle_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

// With the wasm adapter, a WorkdirRestorer, a thread whose sandbox ended
// idle gets a fresh one with its work folder back and the restored note.
func TestWasmThreadSandboxIsRestored(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	p := wasm.New(wasm.Options{Kv: store})
	if err := p.Warm(ctx); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "run `make images`: "+err.Error())
	} else {
		require.NoError(t, err)
	}
	rt, err := lifecycle.New(lifecycle.Options{Kv: store, Tools: lifecycle.Ports{Sandbox: p}, Config: lifecycle.Config{SandboxIdleTTL: time.Hour}})
	require.NoError(t, err)
	tctx := lifecycle.WithThread(ctx, "t-wasm")

	first, err := rt.SandboxFor(tctx)
	require.NoError(t, err)
	res, err := first.Sandbox.RunCommand(ctx, "mkdir -p src && echo 'print(6*7)' > src/main.py && cd src && python3 main.py", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	require.Equal(t, "42\n", res.Stdout, "stderr: %s", res.Stderr)

	// The sandbox ends by itself (its idle end comes early).
	require.NoError(t, first.Sandbox.SetTimeout(ctx, time.Second))
	require.Eventually(t, func() bool {
		_, err := p.Connect(ctx, first.Sandbox.ID())
		return errors.Is(err, sandbox.ErrGone)
	}, 10*time.Second, 100*time.Millisecond)

	again, err := rt.SandboxFor(tctx)
	require.NoError(t, err)
	assert.NotEqual(t, first.Sandbox.ID(), again.Sandbox.ID())
	assert.True(t, again.Restored)
	assert.Equal(t, lifecycle.RestoredNote, again.Note)
	res, err = again.Sandbox.RunCommand(ctx, "python3 src/main.py", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "42\n", res.Stdout, "the work folder came back")
}
