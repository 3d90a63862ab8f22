package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/internal/wiretest"
	"github.com/agentenkit/agentenkit/runtime/model/openai"
)

// chunks builds a stream of chat.completion.chunk data lines.
func chunks(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		fmt.Fprintf(&b, "data: %s\n\n", p)
	}
	return b.String()
}

func delta(d string, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `{"id":"chatcmpl-9x","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_44709d6fcb","choices":[{"index":0,"delta":` + d + `,"logprobs":null,"finish_reason":` + f + `}],"usage":null}`
}

const usageChunk = `{"id":"chatcmpl-9x","object":"chat.completion.chunk","created":1694268190,"model":"gpt-4o-2024-08-06","system_fingerprint":"fp_44709d6fcb","choices":[],"usage":{"prompt_tokens":82,"completion_tokens":27,"total_tokens":109,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":0}}}`

var toolCallStream = chunks(
	delta(`{"role":"assistant","content":"","refusal":null}`, ""),
	delta(`{"content":"Let me"}`, ""),
	delta(`{"content":" check."}`, ""),
	delta(`{"tool_calls":[{"index":0,"id":"call_DdmO9pD3xa9XTPNJ32zg2hcA","type":"function","function":{"name":"get_weather","arguments":""}}]}`, ""),
	delta(`{"tool_calls":[{"index":0,"function":{"arguments":"{\""}}]}`, ""),
	delta(`{"tool_calls":[{"index":0,"function":{"arguments":"location"}}]}`, ""),
	delta(`{"tool_calls":[{"index":0,"function":{"arguments":"\":\""}}]}`, ""),
	delta(`{"tool_calls":[{"index":0,"function":{"arguments":"Paris, France"}}]}`, ""),
	delta(`{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}`, ""),
	delta(`{"tool_calls":[{"index":1,"id":"call_2","type":"function","function":{"name":"get_time","arguments":""}}]}`, ""),
	delta(`{"tool_calls":[{"index":1,"function":{"arguments":"{\"tz\": \"CET\"}"}}]}`, ""),
	delta(`{}`, "tool_calls"),
	usageChunk,
	"[DONE]",
)

var textStream = chunks(
	delta(`{"role":"assistant","content":""}`, ""),
	delta(`{"content":"Hello"}`, ""),
	delta(`{"content":" there."}`, ""),
	delta(`{}`, "stop"),
	usageChunk,
	"[DONE]",
)

func errorJSON(msg, typ, code string) string {
	c := "null"
	if code != "" {
		c = `"` + code + `"`
	}
	return `{"error":{"message":"` + msg + `","type":"` + typ + `","param":null,"code":` + c + `}}`
}

var conversation = model.Request{
	System: "You are a weather bot.",
	Messages: []model.Message{
		model.UserText("Weather in Paris?"),
		{Role: model.RoleAssistant, Parts: []model.Part{
			{ToolCall: &model.ToolCall{ID: "call_1", Name: "get_weather", Input: json.RawMessage(`{"location":"Paris"}`)}},
			{ToolCall: &model.ToolCall{ID: "call_2", Name: "get_time", Input: json.RawMessage(`{}`)}},
		}},
		{Role: model.RoleTool, Parts: []model.Part{
			{ToolResult: &model.ToolResult{ToolCallID: "call_1", Name: "get_weather", Content: "18°C"}},
			{ToolResult: &model.ToolResult{ToolCallID: "call_2", Name: "get_time", Content: "denied", IsError: true}},
		}},
		{Role: model.RoleAssistant, Parts: []model.Part{{Text: "18°C."}}},
		model.UserText("Thanks"),
	},
	Tools: []model.ToolSpec{{Name: "get_weather", Description: "Weather by city.", InputSchema: json.RawMessage(`{"type":"object"}`)}},
}

func TestStreamsTextAndToolCallsInPieces(t *testing.T) {
	for _, piece := range []int{1, 7, 4096} {
		srv := wiretest.New(t, wiretest.Reply{Body: toolCallStream, Piece: piece})
		m := openai.New("sk-test", openai.Options{BaseURL: srv.URL + "/v1"}).Model("gpt-4o")
		var evs []model.Event
		resp, err := model.Collect(m.Stream(t.Context(), conversation), func(ev model.Event) { evs = append(evs, ev) })
		require.NoError(t, err)
		assert.Equal(t, "Let me check.", resp.Message.Text())
		calls := resp.Message.ToolCalls()
		require.Len(t, calls, 2)
		assert.Equal(t, model.ToolCall{ID: "call_DdmO9pD3xa9XTPNJ32zg2hcA", Name: "get_weather", Input: json.RawMessage(`{"location":"Paris, France"}`)}, calls[0])
		assert.Equal(t, "call_2", calls[1].ID)
		assert.JSONEq(t, `{"tz":"CET"}`, string(calls[1].Input))
		assert.Equal(t, model.StopToolUse, resp.StopReason)
		assert.Equal(t, model.Usage{InputTokens: 82, OutputTokens: 27, Model: "gpt-4o-2024-08-06"}, resp.Usage)
		require.Len(t, evs, 5)
		assert.Equal(t, "Let me", evs[0].Text)
	}
}

func TestRequestOnTheWire(t *testing.T) {
	srv := wiretest.New(t, wiretest.Reply{Body: textStream})
	m := openai.New("sk-test", openai.Options{BaseURL: srv.URL + "/v1/", MaxTokens: 1000, Headers: map[string]string{"OpenAI-Organization": "org-1"}}).Model("gpt-4o")
	resp, err := model.Collect(m.Stream(t.Context(), conversation), nil)
	require.NoError(t, err)
	assert.Equal(t, model.StopEnd, resp.StopReason)
	req := srv.Requests()[0]
	assert.Equal(t, "POST", req.Method)
	assert.Equal(t, "/v1/chat/completions", req.Path)
	assert.Equal(t, "Bearer sk-test", req.Header.Get("authorization"))
	assert.Equal(t, "org-1", req.Header.Get("openai-organization"))
	assert.JSONEq(t, `{
		"model": "gpt-4o",
		"stream": true,
		"stream_options": {"include_usage": true},
		"max_tokens": 1000,
		"messages": [
			{"role": "system", "content": "You are a weather bot."},
			{"role": "user", "content": "Weather in Paris?"},
			{"role": "assistant", "content": null, "tool_calls": [
				{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"location\":\"Paris\"}"}},
				{"id": "call_2", "type": "function", "function": {"name": "get_time", "arguments": "{}"}}
			]},
			{"role": "tool", "tool_call_id": "call_1", "content": "18°C"},
			{"role": "tool", "tool_call_id": "call_2", "content": "Error: denied"},
			{"role": "assistant", "content": "18°C."},
			{"role": "user", "content": "Thanks"}
		],
		"tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather by city.", "parameters": {"type":"object"}}}]
	}`, string(req.Raw))
}

func TestLocalServerWithoutAKey(t *testing.T) {
	// A llama.cpp-style stream: no usage chunk, finish "stop" after a tool
	// call, no ids.
	stream := chunks(
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"ls","arguments":"{\"path\":"}}]},"finish_reason":null}],"model":"qwen2.5"}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\".\"}"}}]},"finish_reason":null}],"model":"qwen2.5"}`,
		`{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"model":"qwen2.5"}`,
		"[DONE]",
	)
	srv := wiretest.New(t, wiretest.Reply{Body: stream}, wiretest.Reply{Body: textStream})
	m := openai.New("", openai.Options{BaseURL: srv.URL, MaxTokens: 64, MaxCompletionTokens: true}).Model("qwen2.5")
	resp, err := model.Collect(m.Stream(t.Context(), model.Request{Messages: []model.Message{model.UserText("ls")}}), nil)
	require.NoError(t, err)
	calls := resp.Message.ToolCalls()
	require.Len(t, calls, 1)
	assert.Equal(t, "call_0", calls[0].ID)
	assert.JSONEq(t, `{"path":"."}`, string(calls[0].Input))
	assert.Equal(t, model.StopToolUse, resp.StopReason)
	req := srv.Requests()[0]
	assert.Empty(t, req.Header.Get("authorization"), "no key, no bearer")
	assert.EqualValues(t, 64, req.Body["max_completion_tokens"])
	assert.NotContains(t, req.Body, "max_tokens")
}

func TestInvalidArgumentsStayAString(t *testing.T) {
	stream := chunks(
		delta(`{"tool_calls":[{"index":0,"id":"c","type":"function","function":{"name":"ls","arguments":"{not json"}}]}`, ""),
		delta(`{}`, "tool_calls"),
		"[DONE]",
	)
	srv := wiretest.New(t, wiretest.Reply{Body: stream})
	resp, err := model.Collect(openai.New("k", openai.Options{BaseURL: srv.URL}).Model("m").Stream(t.Context(), conversation), nil)
	require.NoError(t, err)
	assert.Equal(t, `"{not json"`, string(resp.Message.ToolCalls()[0].Input))
}

func TestErrorsCarryTheStatusAndTheAPIsError(t *testing.T) {
	for _, c := range []struct {
		status         int
		msg, typ, code string
		want           string
		attempts       int
	}{
		{401, "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "invalid_api_key", "invalid_api_key", 1},
		{400, "Invalid schema for function 'get_weather'.", "invalid_request_error", "", "invalid_request_error", 1},
		{404, "The model `gpt-9` does not exist or you do not have access to it.", "invalid_request_error", "model_not_found", "model_not_found", 1},
		{500, "The server had an error while processing your request.", "server_error", "", "server_error", 3},
		{503, "The engine is currently overloaded, please try again later.", "server_error", "", "server_error", 3},
	} {
		t.Run(c.want, func(t *testing.T) {
			reply := wiretest.Reply{Status: c.status, Body: errorJSON(c.msg, c.typ, c.code), Headers: map[string]string{"x-request-id": "req_abc"}}
			srv := wiretest.New(t, reply, reply, reply)
			m := openai.New("sk-test", openai.Options{BaseURL: srv.URL, Retry: openai.Retry{Sleep: noSleep}}).Model("gpt-4o")
			_, err := model.Collect(m.Stream(t.Context(), conversation), nil)
			var apiErr *model.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, "openai", apiErr.Provider)
			assert.Equal(t, c.status, apiErr.StatusCode)
			assert.Equal(t, c.want, apiErr.Type)
			assert.Equal(t, c.msg, apiErr.Message)
			assert.Equal(t, "req_abc", apiErr.RequestID)
			assert.Equal(t, c.attempts, apiErr.Attempts)
			assert.Len(t, srv.Requests(), c.attempts)
		})
	}
}

func noSleep(context.Context, time.Duration) error { return nil }

type recorder struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (r *recorder) sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	r.waits = append(r.waits, d)
	r.mu.Unlock()
	return ctx.Err()
}

func TestRateLimitRetryHonoursRetryAfter(t *testing.T) {
	limited := errorJSON("Rate limit reached for gpt-4o in organization org-1 on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000. Please try again in 2.5s.", "tokens", "rate_limit_exceeded")
	srv := wiretest.New(t,
		wiretest.Reply{Status: 429, Body: limited, Headers: map[string]string{"retry-after-ms": "2500", "retry-after": "3"}},
		wiretest.Reply{Status: 429, Body: limited, Headers: map[string]string{"retry-after": "2"}},
		wiretest.Reply{Status: 429, Body: limited},
		wiretest.Reply{Body: textStream},
	)
	rec := &recorder{}
	m := openai.New("k", openai.Options{BaseURL: srv.URL, Retry: openai.Retry{MaxRetries: 3, BaseDelay: 100 * time.Millisecond, Sleep: rec.sleep}}).Model("gpt-4o")
	resp, err := model.Collect(m.Stream(t.Context(), conversation), nil)
	require.NoError(t, err)
	assert.Equal(t, "Hello there.", resp.Message.Text())
	require.Len(t, rec.waits, 3)
	assert.Equal(t, 2500*time.Millisecond, rec.waits[0], "retry-after-ms first")
	assert.Equal(t, 2*time.Second, rec.waits[1], "then retry-after")
	assert.InDelta(t, 400*time.Millisecond, rec.waits[2], float64(100*time.Millisecond), "else the backoff")

	// Retries run out: the last error, with the attempts made.
	srv = wiretest.New(t, wiretest.Reply{Status: 429, Body: limited}, wiretest.Reply{Status: 429, Body: limited})
	m = openai.New("k", openai.Options{BaseURL: srv.URL, Retry: openai.Retry{MaxRetries: 1, Sleep: noSleep}}).Model("gpt-4o")
	_, err = model.Collect(m.Stream(t.Context(), conversation), nil)
	var apiErr *model.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.True(t, apiErr.RateLimited())
	assert.Equal(t, "rate_limit_exceeded", apiErr.Type)
	assert.Equal(t, 2, apiErr.Attempts)

	// No retries at all.
	srv = wiretest.New(t, wiretest.Reply{Status: 429, Body: limited})
	m = openai.New("k", openai.Options{BaseURL: srv.URL, Retry: openai.Retry{MaxRetries: -1}}).Model("gpt-4o")
	_, err = model.Collect(m.Stream(t.Context(), conversation), nil)
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 1, apiErr.Attempts)
}

func TestRateLimitRetryWaitsForReal(t *testing.T) {
	srv := wiretest.New(t,
		wiretest.Reply{Status: 429, Body: errorJSON("slow down", "requests", "rate_limit_exceeded"), Headers: map[string]string{"retry-after-ms": "300"}},
		wiretest.Reply{Body: textStream},
	)
	m := openai.New("k", openai.Options{BaseURL: srv.URL}).Model("gpt-4o")
	_, err := model.Collect(m.Stream(t.Context(), conversation), nil)
	require.NoError(t, err)
	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.GreaterOrEqual(t, reqs[1].At.Sub(reqs[0].At), 280*time.Millisecond)
}

func TestErrorChunkInTheStream(t *testing.T) {
	stream := chunks(delta(`{"content":"Hel"}`, ""), `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`)
	srv := wiretest.New(t, wiretest.Reply{Body: stream})
	_, err := model.Collect(openai.New("k", openai.Options{BaseURL: srv.URL}).Model("m").Stream(t.Context(), conversation), nil)
	var apiErr *model.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "server_error", apiErr.Type)
}

func TestTruncatedStream(t *testing.T) {
	srv := wiretest.New(t, wiretest.Reply{Body: chunks(delta(`{"content":"Hel"}`, ""))})
	_, err := model.Collect(openai.New("k", openai.Options{BaseURL: srv.URL}).Model("m").Stream(t.Context(), conversation), nil)
	assert.ErrorIs(t, err, model.ErrIncomplete)
}

func TestContextEndsTheStream(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	srv := wiretest.New(t, wiretest.Reply{Body: textStream, Hold: hold, Cut: strings.Index(textStream, `"stop"`) - 100})
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var err error
	for ev, e := range openai.New("k", openai.Options{BaseURL: srv.URL}).Model("m").Stream(ctx, conversation) {
		if e != nil {
			err = e
			break
		}
		if ev.Text == " there." {
			cancel()
		}
	}
	assert.ErrorIs(t, err, context.Canceled)
}

// builtinSpecs are tools as the runtime's built-ins describe themselves:
// two with an Anthropic built-in type, one without.
var builtinSpecs = []model.ToolSpec{
	{Name: "bash", Description: "Run a command.", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`), NativeType: "bash_20250124"},
	{Name: "str_replace_based_edit_tool", Description: "Edit files.", InputSchema: json.RawMessage(`{"type":"object"}`), NativeType: "text_editor_20250728"},
	{Name: "code_execution", Description: "Run code.", InputSchema: json.RawMessage(`{"type":"object","properties":{"code":{"type":"string"}}}`)},
}

func TestNativeToolTypesAreIgnored(t *testing.T) {
	srv := wiretest.New(t, wiretest.Reply{Body: textStream})
	m := openai.New("sk-test", openai.Options{BaseURL: srv.URL + "/v1"}).Model("gpt-4o")
	_, err := model.Collect(m.Stream(t.Context(), model.Request{Messages: []model.Message{model.UserText("List the files.")}, Tools: builtinSpecs}), nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"model": "gpt-4o",
		"stream": true,
		"stream_options": {"include_usage": true},
		"messages": [{"role": "user", "content": "List the files."}],
		"tools": [
			{"type": "function", "function": {"name": "bash", "description": "Run a command.", "parameters": {"type":"object","properties":{"command":{"type":"string"}}}}},
			{"type": "function", "function": {"name": "str_replace_based_edit_tool", "description": "Edit files.", "parameters": {"type":"object"}}},
			{"type": "function", "function": {"name": "code_execution", "description": "Run code.", "parameters": {"type":"object","properties":{"code":{"type":"string"}}}}}
		]
	}`, string(srv.Requests()[0].Raw), "every tool is a function with its schema")
}
