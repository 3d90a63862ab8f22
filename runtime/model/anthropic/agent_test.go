package anthropic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/anthropic"
	"github.com/agentenkit/agentenkit/runtime/model/internal/wiretest"
)

// An agent runs over the Messages API: the streamed tool calls run, their
// results go back as tool_result blocks, and usage is booked.
func TestAgentRunsOverTheWire(t *testing.T) {
	srv := wiretest.New(t, wiretest.Reply{Body: toolUseStream}, wiretest.Reply{Body: textStream})
	client := anthropic.New("sk-ant-test", anthropic.Options{BaseURL: srv.URL})
	rt, err := runtime.New(t.Context(), runtime.Options{
		Kv:           memkv.New(memkv.Options{}),
		Tools:        lifecycle.Ports{Sandbox: memory.New(memory.Options{})},
		ResolveModel: func(name string) (model.Model, error) { return client.Model(name), nil },
	})
	require.NoError(t, err)
	weather := lifecycle.AgentTool("get_weather", "Weather by city.", func(ctx context.Context, in map[string]any, _ lifecycle.ToolContext) (string, error) {
		return in["location"].(string) + ": 64°F", nil
	})
	clock := lifecycle.AgentTool("get_time", "The time.", func(context.Context, map[string]any, lifecycle.ToolContext) (string, error) { return "noon", nil })
	agent, err := rt.CreateStreamTextAgent(runtime.AgentOptions{Name: "weather", Model: "claude-sonnet-4-5", System: "Be brief.", Tools: []lifecycle.Tool{weather, clock}})
	require.NoError(t, err)
	h, err := agent.Send(t.Context(), "t1", "Weather in SF?")
	require.NoError(t, err)
	res, err := h.Wait(t.Context())
	require.NoError(t, err)
	assert.Equal(t, "Hello there.", res.Text)

	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	var body struct {
		Messages []struct {
			Role    string            `json:"role"`
			Content []json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(reqs[1].Raw, &body))
	require.Len(t, body.Messages, 3)
	assert.Equal(t, "user", body.Messages[2].Role)
	assert.JSONEq(t, `{"type":"tool_result","tool_use_id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","content":"San Francisco, CA: 64°F"}`, string(body.Messages[2].Content[0]))
	assert.JSONEq(t, `{"type":"tool_result","tool_use_id":"toolu_02","content":"noon"}`, string(body.Messages[2].Content[1]))

	rows, err := rt.Usage(t.Context(), h.RunID)
	require.NoError(t, err)
	require.Len(t, rows, 4)
	assert.Equal(t, "claude-sonnet-4-5", rows[0].Model)
	assert.Equal(t, "claude-sonnet-4-5-20250929", rows[0].ModelID)
	assert.EqualValues(t, 500, rows[0].InputTokens)
	assert.EqualValues(t, 89, rows[0].OutputTokens)
	assert.EqualValues(t, 3, rows[3].OutputTokens)
}
