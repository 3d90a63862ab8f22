package anthropic_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/anthropic"
	"github.com/agentenkit/agentenkit/runtime/model/internal/wiretest"
)

// toolUseStream is a streamed reply with text then a tool_use block whose
// input arrives in pieces, as the Messages API sends it.
const toolUseStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_014p7gG3wDgGV9EUtLvnow3U","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","stop_sequence":null,"usage":{"input_tokens":472,"output_tokens":2,"cache_read_input_tokens":28},"content":[],"stop_reason":null}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: ping
data: {"type": "ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Okay"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":", let's check the weather for San Francisco, CA:"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01T1x1fJ34qAmk2tNTrN7Up6","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"location\":"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" \"San"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" Francisc"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"o,"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":" CA\""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":", "}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"\"unit\": \"fah"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"renheit\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: content_block_start
data: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_02","name":"get_time","input":{}}}

event: content_block_stop
data: {"type":"content_block_stop","index":2}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":89}}

event: message_stop
data: {"type":"message_stop"}

`

const textStream = `event: message_start
data: {"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":10,"output_tokens":1},"content":[],"stop_reason":null}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":3}}

event: message_stop
data: {"type":"message_stop"}

`

func errorJSON(typ, msg string) string {
	return `{"type":"error","error":{"type":"` + typ + `","message":"` + msg + `"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}`
}

// conversation is a request with every kind of part.
var conversation = model.Request{
	System: "You are a weather bot.",
	Messages: []model.Message{
		model.UserText("Weather in SF?"),
		{Role: model.RoleAssistant, Parts: []model.Part{
			{Text: "Checking."},
			{ToolCall: &model.ToolCall{ID: "toolu_1", Name: "get_weather", Input: json.RawMessage(`{"location":"SF"}`)}},
		}},
		{Role: model.RoleTool, Parts: []model.Part{
			{ToolResult: &model.ToolResult{ToolCallID: "toolu_1", Name: "get_weather", Content: "denied", IsError: true}},
		}},
		model.UserText("Try again."),
	},
	Tools: []model.ToolSpec{{Name: "get_weather", Description: "Weather by city.", InputSchema: json.RawMessage(`{"type":"object","properties":{"location":{"type":"string"}}}`)}},
}

func TestStreamsTextAndToolCallsInPieces(t *testing.T) {
	for _, piece := range []int{1, 7, 4096} {
		srv := wiretest.New(t, wiretest.Reply{Body: toolUseStream, Piece: piece})
		m := anthropic.New("sk-ant-test", anthropic.Options{BaseURL: srv.URL}).Model("claude-sonnet-4-5")
		var evs []model.Event
		resp, err := model.Collect(m.Stream(t.Context(), conversation), func(ev model.Event) { evs = append(evs, ev) })
		require.NoError(t, err)

		assert.Equal(t, "Okay, let's check the weather for San Francisco, CA:", resp.Message.Text())
		calls := resp.Message.ToolCalls()
		require.Len(t, calls, 2)
		assert.Equal(t, "toolu_01T1x1fJ34qAmk2tNTrN7Up6", calls[0].ID)
		assert.Equal(t, "get_weather", calls[0].Name)
		assert.JSONEq(t, `{"location": "San Francisco, CA", "unit": "fahrenheit"}`, string(calls[0].Input))
		assert.JSONEq(t, `{}`, string(calls[1].Input), "a tool_use without input deltas")
		assert.Equal(t, model.StopToolUse, resp.StopReason)
		assert.Equal(t, model.Usage{InputTokens: 500, OutputTokens: 89, Model: "claude-sonnet-4-5-20250929"}, resp.Usage)
		require.Len(t, evs, 5)
		assert.Equal(t, model.EventTextDelta, evs[0].Type)
		assert.Equal(t, "Okay", evs[0].Text, "text streams as it arrives")
		assert.Equal(t, model.EventDone, evs[4].Type)
	}
}

func TestRequestOnTheWire(t *testing.T) {
	srv := wiretest.New(t, wiretest.Reply{Body: textStream})
	m := anthropic.New("sk-ant-test", anthropic.Options{BaseURL: srv.URL + "/", Beta: []string{"a", "b"}}).Model("claude-sonnet-4-5")
	_, err := model.Collect(m.Stream(t.Context(), conversation), nil)
	require.NoError(t, err)
	req := srv.Requests()[0]
	assert.Equal(t, "POST", req.Method)
	assert.Equal(t, "/v1/messages", req.Path)
	assert.Equal(t, "sk-ant-test", req.Header.Get("x-api-key"))
	assert.Equal(t, "2023-06-01", req.Header.Get("anthropic-version"))
	assert.Equal(t, "a,b", req.Header.Get("anthropic-beta"))
	assert.Equal(t, "application/json", req.Header.Get("content-type"))
	assert.Empty(t, req.Header.Get("authorization"))
	assert.JSONEq(t, `{
		"model": "claude-sonnet-4-5",
		"max_tokens": 8192,
		"system": "You are a weather bot.",
		"stream": true,
		"messages": [
			{"role": "user", "content": [{"type": "text", "text": "Weather in SF?"}]},
			{"role": "assistant", "content": [
				{"type": "text", "text": "Checking."},
				{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"location": "SF"}}
			]},
			{"role": "user", "content": [
				{"type": "tool_result", "tool_use_id": "toolu_1", "content": "denied", "is_error": true},
				{"type": "text", "text": "Try again."}
			]}
		],
		"tools": [{"name": "get_weather", "description": "Weather by city.", "input_schema": {"type":"object","properties":{"location":{"type":"string"}}}}]
	}`, string(req.Raw))
}

func TestErrorsCarryTheStatusAndTheAPIsError(t *testing.T) {
	for _, c := range []struct {
		status   int
		typ, msg string
		attempts int
	}{
		{400, "invalid_request_error", "messages: roles must alternate", 1},
		{401, "authentication_error", "invalid x-api-key", 1},
		{403, "permission_error", "Your API key does not have permission", 1},
		{404, "not_found_error", "model: claude-nope", 1},
		{413, "request_too_large", "Request exceeds the maximum allowed number of bytes.", 1},
		{500, "api_error", "Internal server error", 3},
		{529, "overloaded_error", "Overloaded", 3},
	} {
		t.Run(c.typ, func(t *testing.T) {
			reply := wiretest.Reply{Status: c.status, Body: errorJSON(c.typ, c.msg), Headers: map[string]string{"request-id": "req_hdr"}}
			srv := wiretest.New(t, reply, reply, reply)
			m := anthropic.New("k", anthropic.Options{BaseURL: srv.URL, Retry: anthropic.Retry{Sleep: noSleep}}).Model("claude")
			_, err := model.Collect(m.Stream(t.Context(), conversation), nil)
			var apiErr *model.APIError
			require.ErrorAs(t, err, &apiErr)
			assert.Equal(t, "anthropic", apiErr.Provider)
			assert.Equal(t, c.status, apiErr.StatusCode)
			assert.Equal(t, c.typ, apiErr.Type)
			assert.Equal(t, c.msg, apiErr.Message)
			assert.Equal(t, "req_hdr", apiErr.RequestID)
			assert.Equal(t, c.attempts, apiErr.Attempts)
			assert.Len(t, srv.Requests(), c.attempts, "only load and server errors are retried")
			assert.Contains(t, err.Error(), c.typ)
		})
	}
}

func noSleep(context.Context, time.Duration) error { return nil }

// recorder is a Retry.Sleep that records its waits.
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
	srv := wiretest.New(t,
		wiretest.Reply{Status: 429, Body: errorJSON("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit"), Headers: map[string]string{"retry-after": "7"}},
		wiretest.Reply{Status: 529, Body: errorJSON("overloaded_error", "Overloaded")},
		wiretest.Reply{Status: 429, Body: errorJSON("rate_limit_error", "slow down"), Headers: map[string]string{"retry-after": "3600"}},
		wiretest.Reply{Body: textStream},
	)
	rec := &recorder{}
	m := anthropic.New("k", anthropic.Options{BaseURL: srv.URL, Retry: anthropic.Retry{MaxRetries: 3, BaseDelay: 100 * time.Millisecond, Sleep: rec.sleep}}).Model("claude")
	resp, err := model.Collect(m.Stream(t.Context(), conversation), nil)
	require.NoError(t, err)
	assert.Equal(t, "Hello there.", resp.Message.Text())
	require.Len(t, rec.waits, 3)
	assert.Equal(t, 7*time.Second, rec.waits[0], "retry-after is honoured")
	assert.InDelta(t, 200*time.Millisecond, rec.waits[1], float64(50*time.Millisecond), "no retry-after: exponential backoff (base × 2, less jitter)")
	assert.InDelta(t, 400*time.Millisecond, rec.waits[2], float64(100*time.Millisecond), "a retry-after past the cap: the backoff instead")
	assert.Len(t, srv.Requests(), 4)
	for _, r := range srv.Requests() {
		assert.JSONEq(t, string(srv.Requests()[0].Raw), string(r.Raw), "each attempt sends the same body")
	}
}

func TestRateLimitRetryWaitsForReal(t *testing.T) {
	srv := wiretest.New(t,
		wiretest.Reply{Status: 429, Body: errorJSON("rate_limit_error", "slow down"), Headers: map[string]string{"retry-after": "1"}},
		wiretest.Reply{Body: textStream},
	)
	m := anthropic.New("k", anthropic.Options{BaseURL: srv.URL}).Model("claude")
	_, err := model.Collect(m.Stream(t.Context(), conversation), nil)
	require.NoError(t, err)
	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	assert.GreaterOrEqual(t, reqs[1].At.Sub(reqs[0].At), 950*time.Millisecond)
}

func TestShouldRetryHeader(t *testing.T) {
	srv := wiretest.New(t,
		wiretest.Reply{Status: 500, Body: errorJSON("api_error", "no"), Headers: map[string]string{"x-should-retry": "false"}},
	)
	m := anthropic.New("k", anthropic.Options{BaseURL: srv.URL, Retry: anthropic.Retry{Sleep: noSleep}}).Model("claude")
	_, err := model.Collect(m.Stream(t.Context(), conversation), nil)
	var apiErr *model.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 1, apiErr.Attempts)
}

func TestErrorEventInTheStream(t *testing.T) {
	stream := textStream[:strings.Index(textStream, "event: content_block_stop")] +
		"event: error\ndata: " + errorJSON("overloaded_error", "Overloaded") + "\n\n"
	srv := wiretest.New(t, wiretest.Reply{Body: stream})
	m := anthropic.New("k", anthropic.Options{BaseURL: srv.URL}).Model("claude")
	var text string
	_, err := model.Collect(m.Stream(t.Context(), conversation), func(ev model.Event) { text += ev.Text })
	var apiErr *model.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 529, apiErr.StatusCode)
	assert.Equal(t, "overloaded_error", apiErr.Type)
	assert.True(t, apiErr.RateLimited())
	assert.Equal(t, "Hello there.", text, "what streamed before the error")
}

func TestTruncatedStream(t *testing.T) {
	srv := wiretest.New(t, wiretest.Reply{Body: textStream[:strings.Index(textStream, "event: message_delta")]})
	m := anthropic.New("k", anthropic.Options{BaseURL: srv.URL}).Model("claude")
	_, err := model.Collect(m.Stream(t.Context(), conversation), nil)
	assert.ErrorIs(t, err, model.ErrIncomplete)
}

func TestContextEndsTheStream(t *testing.T) {
	hold := make(chan struct{})
	defer close(hold)
	srv := wiretest.New(t, wiretest.Reply{Body: textStream, Hold: hold, Cut: strings.Index(textStream, "event: content_block_stop")})
	m := anthropic.New("k", anthropic.Options{BaseURL: srv.URL}).Model("claude")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var got []model.Event
	var err error
	for ev, e := range m.Stream(ctx, conversation) {
		if e != nil {
			err = e
			break
		}
		got = append(got, ev)
		if ev.Text == " there." {
			cancel()
		}
	}
	assert.ErrorIs(t, err, context.Canceled)
	assert.Len(t, got, 2)
}

func TestStoppingEarlyReleasesTheCall(t *testing.T) {
	srv := wiretest.New(t, wiretest.Reply{Body: toolUseStream})
	m := anthropic.New("k", anthropic.Options{BaseURL: srv.URL}).Model("claude")
	for ev, err := range m.Stream(t.Context(), conversation) {
		require.NoError(t, err)
		if ev.Type == model.EventTextDelta {
			break
		}
	}
}

func TestNetworkErrorsAreRetried(t *testing.T) {
	srv := wiretest.New(t)
	url := srv.URL
	srv.Close()
	rec := &recorder{}
	m := anthropic.New("k", anthropic.Options{BaseURL: url, Retry: anthropic.Retry{MaxRetries: 2, Sleep: rec.sleep}}).Model("claude")
	_, err := model.Collect(m.Stream(t.Context(), conversation), nil)
	require.Error(t, err)
	var apiErr *model.APIError
	assert.False(t, errors.As(err, &apiErr))
	assert.Len(t, rec.waits, 2)
}

// builtinSpecs are tools as the runtime's built-ins describe themselves:
// two with an Anthropic built-in type, one without.
var builtinSpecs = []model.ToolSpec{
	{Name: "bash", Description: "Run a command.", InputSchema: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}}}`), NativeType: "bash_20250124"},
	{Name: "str_replace_based_edit_tool", Description: "Edit files.", InputSchema: json.RawMessage(`{"type":"object"}`), NativeType: "text_editor_20250728"},
	{Name: "code_execution", Description: "Run code.", InputSchema: json.RawMessage(`{"type":"object","properties":{"code":{"type":"string"}}}`)},
}

func TestNativeToolTypesOnTheWire(t *testing.T) {
	srv := wiretest.New(t, wiretest.Reply{Body: textStream})
	m := anthropic.New("sk-ant-test", anthropic.Options{BaseURL: srv.URL}).Model("claude-sonnet-4-5")
	_, err := model.Collect(m.Stream(t.Context(), model.Request{Messages: []model.Message{model.UserText("List the files.")}, Tools: builtinSpecs}), nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{
		"model": "claude-sonnet-4-5",
		"max_tokens": 8192,
		"stream": true,
		"messages": [{"role": "user", "content": [{"type": "text", "text": "List the files."}]}],
		"tools": [
			{"type": "bash_20250124", "name": "bash"},
			{"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"},
			{"name": "code_execution", "description": "Run code.", "input_schema": {"type":"object","properties":{"code":{"type":"string"}}}}
		]
	}`, string(srv.Requests()[0].Raw), "a built-in type goes out alone, with no description or schema")
}
