package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/kv"
)

func errorsIsNotFound(err error) bool { return errors.Is(err, kv.ErrNotFound) }

func TestAfterSandboxCall(t *testing.T) {
	w := newWorld()
	var calls []runtime.SandboxCall
	hookErr := error(nil)
	cfg := runtime.Config{Now: w.clock.Now}
	rt, err := runtime.New(context.Background(), runtime.Options{Kv: w.kv, Config: cfg, Tools: runtime.Ports{
		Sandbox: w.provider(),
		AfterSandboxCall: func(ctx context.Context, c runtime.SandboxCall) error {
			calls = append(calls, c)
			return hookErr
		},
	}})
	require.NoError(t, err)
	ctx := runtime.WithRun(context.Background(), "t1", "run-1")

	usesSandbox := runtime.AgentTool("touch", "touches a file", func(ctx context.Context, in json.RawMessage) (any, error) {
		sb, err := rt.SandboxFor(ctx)
		if err != nil {
			return nil, err
		}
		return "ok", sb.FileSystem().WriteFile(ctx, "touched", nil)
	})
	viaContext := runtime.AgentTool("ctx", "finds the sandbox through ctx", func(ctx context.Context, in json.RawMessage) (any, error) {
		sb, err := runtime.SandboxFor(ctx)
		if err != nil {
			return nil, err
		}
		return sb.ID(), nil
	})
	noSandbox := runtime.AgentTool("clock", "tells the time", func(ctx context.Context, in json.RawMessage) (any, error) {
		return "noon", nil
	})
	failing := runtime.AgentTool("fails", "uses the sandbox then fails", func(ctx context.Context, in json.RawMessage) (any, error) {
		if _, err := rt.SandboxFor(ctx); err != nil {
			return nil, err
		}
		return nil, errors.New("tool failed")
	})

	out, err := rt.CallTool(ctx, usesSandbox, nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", out)
	require.Len(t, calls, 1)
	assert.Equal(t, "touch", calls[0].Tool)
	assert.Equal(t, "t1", calls[0].ThreadID)
	assert.Equal(t, "run-1", calls[0].RunID)
	assert.NotNil(t, calls[0].Sandbox)

	id, err := rt.CallTool(ctx, viaContext, nil)
	require.NoError(t, err)
	assert.Equal(t, calls[0].Sandbox.ID(), id, "package-level SandboxFor finds the call's runtime")
	require.Len(t, calls, 2)
	calls = calls[:1]
	_, err = runtime.SandboxFor(context.Background())
	assert.Error(t, err, "outside a tool call there is no runtime")

	_, err = rt.CallTool(ctx, noSandbox, nil)
	require.NoError(t, err)
	assert.Len(t, calls, 1, "not run after a call that did not use the sandbox")

	hookErr = errors.New("hook says no")
	_, err = rt.CallTool(ctx, usesSandbox, nil)
	assert.ErrorIs(t, err, hookErr, "the hook's error becomes the call's error")

	_, err = rt.CallTool(ctx, failing, nil)
	assert.EqualError(t, err, "tool failed", "unless the call already failed")
	require.Len(t, calls, 3)
	assert.EqualError(t, calls[2].Err, "tool failed", "the hook sees the call's error")

	_, err = rt.CallTool(ctx, runtime.Tool{Name: "empty"}, nil)
	assert.Error(t, err)
}
