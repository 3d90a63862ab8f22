package openai_test

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
	"github.com/agentenkit/agentenkit/runtime/model/internal/wiretest"
	"github.com/agentenkit/agentenkit/runtime/model/openai"
)

// An agent runs over a chat completions API: the streamed tool calls run,
// their results go back as tool messages, and usage is booked.
func TestAgentRunsOverTheWire(t *testing.T) {
	srv := wiretest.New(t, wiretest.Reply{Body: toolCallStream}, wiretest.Reply{Body: textStream})
	client := openai.New("sk-test", openai.Options{BaseURL: srv.URL})
	rt, err := runtime.New(t.Context(), runtime.Options{
		Kv:           memkv.New(memkv.Options{}),
		Tools:        lifecycle.Ports{Sandbox: memory.New(memory.Options{})},
		ResolveModel: func(name string) (model.Model, error) { return client.Model(name), nil },
	})
	require.NoError(t, err)
	weather := lifecycle.AgentTool("get_weather", "Weather by city.", func(ctx context.Context, in map[string]any, _ lifecycle.ToolContext) (string, error) {
		return in["location"].(string) + ": 18°C", nil
	})
	clock := lifecycle.AgentTool("get_time", "The time.", func(context.Context, map[string]any, lifecycle.ToolContext) (string, error) { return "noon", nil })
	agent, err := rt.CreateStreamTextAgent(runtime.AgentOptions{Name: "weather", Model: "gpt-4o", Tools: []lifecycle.Tool{weather, clock}})
	require.NoError(t, err)
	h, err := agent.Send(t.Context(), "t1", "Weather in Paris?")
	require.NoError(t, err)
	res, err := h.Wait(t.Context())
	require.NoError(t, err)
	assert.Equal(t, "Hello there.", res.Text)

	var body struct {
		Messages []map[string]any `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(srv.Requests()[1].Raw, &body))
	require.Len(t, body.Messages, 4)
	assert.Equal(t, map[string]any{"role": "tool", "tool_call_id": "call_DdmO9pD3xa9XTPNJ32zg2hcA", "content": "Paris, France: 18°C"}, body.Messages[2])
	assert.Equal(t, map[string]any{"role": "tool", "tool_call_id": "call_2", "content": "noon"}, body.Messages[3])

	rows, err := rt.Usage(t.Context(), h.RunID)
	require.NoError(t, err)
	require.Len(t, rows, 4)
	assert.Equal(t, "gpt-4o-2024-08-06", rows[0].ModelID)
	assert.EqualValues(t, 82, rows[0].InputTokens)
}
