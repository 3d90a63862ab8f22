package lifecycle_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/lifecycle"
)

func TestAfterSandboxCall(t *testing.T) {
	w := newWorld()
	var calls []lifecycle.SandboxCall
	hookErr := error(nil)
	cfg := lifecycle.Config{Now: w.clock.Now}
	rt, err := lifecycle.New(lifecycle.Options{Kv: w.kv, Config: cfg, Tools: lifecycle.Ports{
		Sandbox: w.provider(),
		AfterSandboxCall: func(ctx context.Context, c lifecycle.SandboxCall) error {
			calls = append(calls, c)
			return hookErr
		},
	}})
	require.NoError(t, err)
	ctx := lifecycle.WithRun(context.Background(), "t1", "run-1")

	var seen []lifecycle.ToolContext
	usesSandbox := lifecycle.AgentTool("touch", "touches a file", func(ctx context.Context, in map[string]any, tc lifecycle.ToolContext) (string, error) {
		seen = append(seen, tc)
		sb, err := rt.SandboxFor(ctx)
		if err != nil {
			return "", err
		}
		return "ok", sb.Sandbox.FileSystem().WriteFile(ctx, "touched", nil)
	})
	viaContext := lifecycle.AgentTool("ctx", "finds the sandbox through ctx", func(ctx context.Context, in map[string]any, _ lifecycle.ToolContext) (string, error) {
		return lifecycle.WithSandbox(ctx, func(ts lifecycle.ThreadSandbox) (string, error) { return ts.Sandbox.ID(), nil })
	})
	noSandbox := lifecycle.AgentTool("clock", "tells the time", func(context.Context, map[string]any, lifecycle.ToolContext) (string, error) {
		return "noon", nil
	})
	failing := lifecycle.AgentTool("fails", "uses the sandbox then fails", func(ctx context.Context, in map[string]any, _ lifecycle.ToolContext) (string, error) {
		if _, err := rt.SandboxFor(ctx); err != nil {
			return "", err
		}
		return "", errors.New("tool failed")
	})

	out, err := rt.CallTool(ctx, usesSandbox, nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", out)
	require.Len(t, calls, 1)
	assert.Equal(t, "touch", calls[0].Tool)
	assert.Equal(t, "t1", calls[0].ThreadID)
	assert.Equal(t, "run-1", calls[0].RunID)
	assert.NotNil(t, calls[0].Sandbox)
	require.Len(t, seen, 1)
	assert.Equal(t, "t1", seen[0].ThreadID)
	assert.Equal(t, "run-1", seen[0].RunID)
	require.NotNil(t, seen[0].Emit)
	assert.NotEmpty(t, calls[0].ToolCallID, "a direct call gets an id of its own")
	assert.Equal(t, seen[0].ToolCallID, calls[0].ToolCallID, "the hook gets the call's id")
	seen[0].Emit("stdout", "nowhere to go outside a run") // does nothing, never panics

	id, err := rt.CallTool(ctx, viaContext, nil)
	require.NoError(t, err)
	assert.Equal(t, calls[0].Sandbox.ID(), id, "package-level SandboxFor finds the call's runtime")
	require.Len(t, calls, 2)
	assert.NotEqual(t, calls[0].ToolCallID, calls[1].ToolCallID, "each call its own id")
	calls = calls[:1]
	_, err = lifecycle.SandboxFor(context.Background())
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

	_, err = rt.CallTool(ctx, lifecycle.Tool{Name: "empty"}, nil)
	assert.Error(t, err)
}

func TestAgentToolInput(t *testing.T) {
	w := newWorld()
	rt := w.worker(t, lifecycle.Config{})
	ctx := lifecycle.WithThread(context.Background(), "t1")
	var got []map[string]any
	echo := lifecycle.AgentTool("echo", "", func(_ context.Context, in map[string]any, _ lifecycle.ToolContext) (string, error) {
		got = append(got, in)
		return "done", nil
	})
	for _, raw := range []string{``, `null`, `{}`, `{"a":1,"b":["x"]}`} {
		out, err := rt.CallTool(ctx, echo, json.RawMessage(raw))
		require.NoError(t, err, raw)
		assert.Equal(t, "done", out)
	}
	assert.Equal(t, []map[string]any{{}, {}, {}, {"a": 1.0, "b": []any{"x"}}}, got)
	for _, bad := range []string{`[1]`, `"x"`, `{`} {
		_, err := rt.CallTool(ctx, echo, json.RawMessage(bad))
		assert.ErrorContains(t, err, "the input of echo is not a JSON object", bad)
	}
}
