// Package openai is the model.Model adapter of an OpenAI-compatible chat
// completions API (OpenAI's own, or a local server: llama.cpp, vLLM,
// Ollama, LM Studio), over net/http (no SDK): POST {BaseURL}/chat/completions
// with "stream": true and stream_options.include_usage, read as
// server-sent `data:` chunks up to `data: [DONE]`.
//
//	client := openai.New(apiKey, openai.Options{})                                 // api.openai.com
//	local := openai.New("", openai.Options{BaseURL: "http://localhost:8080/v1"})   // no key
//	m := client.Model("gpt-4o")
//
// The key is given at setup and sent as a bearer token (none when empty);
// it is never read from the environment. Tool calls stream as
// choices[0].delta.tool_calls[i] whose function.arguments arrive in
// pieces; the adapter assembles each and yields them at the end of the
// reply, in index order. 429 and 5xx are retried with backoff, honouring
// retry-after(-ms); other errors are *model.APIError with the status code
// and the API's error type (or code) and message.
//
// Every tool is sent as a function with its JSON schema; a ToolSpec's
// NativeType (an Anthropic built-in type) is ignored.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"sort"
	"strings"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/internal/httpx"
	"github.com/agentenkit/agentenkit/runtime/model/internal/sse"
)

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com/v1"

// Name is the adapter's name, in its errors.
const Name = "openai"

// Retry says how requests refused for load are retried.
type Retry = httpx.Retry

// Options tune a Client. The zero value is ready to use.
type Options struct {
	// BaseURL is the API's root, up to and including /v1; default
	// DefaultBaseURL.
	BaseURL string
	// MaxTokens is each reply's cap when a request gives none; 0 sends
	// none (the server's default).
	MaxTokens int
	// MaxCompletionTokens sends the cap as max_completion_tokens (what
	// OpenAI's reasoning models take) instead of max_tokens (what every
	// compatible server takes).
	MaxCompletionTokens bool
	// Headers are sent with every request (OpenAI-Organization, or a
	// gateway's own).
	Headers map[string]string
	// HTTPClient sends the requests; default http.DefaultClient.
	HTTPClient *http.Client
	Retry      Retry
}

// Client talks to one chat completions API with one key. It is safe for
// concurrent use.
type Client struct {
	key  string
	opts Options
}

// New returns a Client that sends apiKey ("" for a server without keys).
func New(apiKey string, opts Options) *Client {
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	opts.BaseURL = strings.TrimSuffix(opts.BaseURL, "/")
	return &Client{key: apiKey, opts: opts}
}

// Model returns the model of that id ("gpt-4o", "qwen2.5-coder").
func (c *Client) Model(id string) model.Model { return &Model{c: c, id: id} }

// Model is one model of the API.
type Model struct {
	c  *Client
	id string
}

var _ model.Model = (*Model)(nil)

// The request body, as the API takes it.
type (
	request struct {
		Model               string         `json:"model"`
		Messages            []message      `json:"messages"`
		Tools               []tool         `json:"tools,omitempty"`
		Stream              bool           `json:"stream"`
		StreamOptions       *streamOptions `json:"stream_options,omitempty"`
		MaxTokens           int            `json:"max_tokens,omitempty"`
		MaxCompletionTokens int            `json:"max_completion_tokens,omitempty"`
	}
	streamOptions struct {
		IncludeUsage bool `json:"include_usage"`
	}
	message struct {
		Role       string     `json:"role"`
		Content    *string    `json:"content"`
		ToolCalls  []toolCall `json:"tool_calls,omitempty"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
	}
	toolCall struct {
		Index    *int     `json:"index,omitempty"`
		ID       string   `json:"id,omitempty"`
		Type     string   `json:"type,omitempty"`
		Function function `json:"function"`
	}
	function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	tool struct {
		Type     string  `json:"type"`
		Function toolDef `json:"function"`
	}
	toolDef struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	}
)

func str(s string) *string { return &s }

// body translates req: the system prompt is the first message, each tool
// result a "tool" message (a failed one's content starts "Error: ").
func (m *Model) body(req model.Request) ([]byte, error) {
	o := m.c.opts
	r := request{Model: m.id, Stream: true, StreamOptions: &streamOptions{IncludeUsage: true}}
	if n := cmp(req.MaxTokens, o.MaxTokens); n > 0 {
		if o.MaxCompletionTokens {
			r.MaxCompletionTokens = n
		} else {
			r.MaxTokens = n
		}
	}
	if req.System != "" {
		r.Messages = append(r.Messages, message{Role: "system", Content: str(req.System)})
	}
	for _, msg := range req.Messages {
		switch msg.Role {
		case model.RoleTool:
			for _, res := range msg.ToolResults() {
				content := res.Content
				if res.IsError && !strings.HasPrefix(content, "Error") {
					content = "Error: " + content
				}
				r.Messages = append(r.Messages, message{Role: "tool", ToolCallID: res.ToolCallID, Content: str(content)})
			}
		case model.RoleAssistant:
			out := message{Role: "assistant"}
			if text := msg.Text(); text != "" {
				out.Content = str(text)
			}
			for _, c := range msg.ToolCalls() {
				args := string(c.Input)
				if args == "" {
					args = "{}"
				}
				out.ToolCalls = append(out.ToolCalls, toolCall{ID: c.ID, Type: "function", Function: function{Name: c.Name, Arguments: args}})
			}
			if out.Content == nil && len(out.ToolCalls) == 0 {
				continue
			}
			r.Messages = append(r.Messages, out)
		default:
			r.Messages = append(r.Messages, message{Role: "user", Content: str(msg.Text())})
		}
	}
	for _, t := range req.Tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		r.Tools = append(r.Tools, tool{Type: "function", Function: toolDef{Name: t.Name, Description: t.Description, Parameters: schema}})
	}
	return json.Marshal(r)
}

func cmp(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// errorBody is the API's error JSON.
type errorBody struct {
	Error *struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	} `json:"error"`
}

// kind is the error's code when it is a string, else its type.
func (b errorBody) kind() string {
	var code string
	if json.Unmarshal(b.Error.Code, &code) == nil && code != "" {
		return code
	}
	return b.Error.Type
}

func decodeError(resp *http.Response, body []byte) *model.APIError {
	e := &model.APIError{Provider: Name, RequestID: resp.Header.Get("x-request-id")}
	var b errorBody
	if json.Unmarshal(body, &b) == nil && b.Error != nil {
		e.Type, e.Message = b.kind(), b.Error.Message
	} else {
		e.Message = strings.TrimSpace(string(body))
	}
	return e
}

// Stream implements model.Model.
func (m *Model) Stream(ctx context.Context, req model.Request) iter.Seq2[model.Event, error] {
	return func(yield func(model.Event, error) bool) {
		body, err := m.body(req)
		if err != nil {
			yield(model.Event{}, fmt.Errorf("openai: encode the request: %w", err))
			return
		}
		o := m.c.opts
		resp, err := httpx.Do(ctx, o.HTTPClient, o.Retry, func(ctx context.Context) (*http.Request, error) {
			r, err := http.NewRequestWithContext(ctx, http.MethodPost, o.BaseURL+"/chat/completions", bytes.NewReader(body))
			if err != nil {
				return nil, err
			}
			r.Header.Set("content-type", "application/json")
			r.Header.Set("accept", "text/event-stream")
			if m.c.key != "" {
				r.Header.Set("authorization", "Bearer "+m.c.key)
			}
			for k, v := range o.Headers {
				r.Header.Set(k, v)
			}
			return r, nil
		}, decodeError)
		if err != nil {
			yield(model.Event{}, err)
			return
		}
		defer resp.Body.Close()
		m.read(ctx, resp, yield)
	}
}

// chunk is a chat.completion.chunk, the fields the adapter reads.
type chunk struct {
	Model   string `json:"model"`
	Choices []struct {
		Index int `json:"index"`
		Delta struct {
			Content   *string    `json:"content"`
			ToolCalls []toolCall `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int64 `json:"prompt_tokens"`
		CompletionTokens int64 `json:"completion_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	} `json:"error"`
}

// pending is a tool call being assembled.
type pending struct {
	id, name string
	args     strings.Builder
}

func (m *Model) read(ctx context.Context, resp *http.Response, yield func(model.Event, error) bool) {
	var (
		r       = sse.NewReader(resp.Body)
		calls   = map[int]*pending{}
		usage   model.Usage
		finish  string
		gotDone bool
	)
	fail := func(err error) { yield(model.Event{}, err) }
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				err = cerr
			}
			fail(fmt.Errorf("openai: read the stream: %w", err))
			return
		}
		data := strings.TrimSpace(ev.Data)
		if data == "[DONE]" {
			gotDone = true
			break
		}
		var c chunk
		if err := json.Unmarshal([]byte(data), &c); err != nil {
			fail(fmt.Errorf("openai: a chunk that is not JSON: %w", err))
			return
		}
		if c.Error != nil {
			e := &model.APIError{Provider: Name, StatusCode: 500, Message: c.Error.Message, RequestID: resp.Header.Get("x-request-id")}
			e.Type = errorBody{Error: c.Error}.kind()
			fail(e)
			return
		}
		if c.Model != "" {
			usage.Model = c.Model
		}
		if c.Usage != nil {
			usage.InputTokens, usage.OutputTokens = c.Usage.PromptTokens, c.Usage.CompletionTokens
		}
		for _, ch := range c.Choices {
			if ch.Index != 0 {
				continue
			}
			if ch.Delta.Content != nil && *ch.Delta.Content != "" {
				if !yield(model.Event{Type: model.EventTextDelta, Text: *ch.Delta.Content}, nil) {
					return
				}
			}
			for i, tc := range ch.Delta.ToolCalls {
				idx := i
				if tc.Index != nil {
					idx = *tc.Index
				}
				p := calls[idx]
				if p == nil {
					p = &pending{}
					calls[idx] = p
				}
				if tc.ID != "" {
					p.id = tc.ID
				}
				if tc.Function.Name != "" {
					p.name = tc.Function.Name
				}
				p.args.WriteString(tc.Function.Arguments)
			}
			if ch.FinishReason != nil && *ch.FinishReason != "" {
				finish = *ch.FinishReason
			}
		}
	}
	if !gotDone && finish == "" {
		fail(fmt.Errorf("openai: the stream ended before [DONE]: %w", model.ErrIncomplete))
		return
	}
	idxs := make([]int, 0, len(calls))
	for i := range calls {
		idxs = append(idxs, i)
	}
	sort.Ints(idxs)
	for _, i := range idxs {
		p := calls[i]
		input := json.RawMessage(strings.TrimSpace(p.args.String()))
		if len(input) == 0 {
			input = json.RawMessage(`{}`)
		}
		if !json.Valid(input) {
			input, _ = json.Marshal(string(input))
		}
		id := p.id
		if id == "" {
			id = fmt.Sprintf("call_%d", i)
		}
		if !yield(model.Event{Type: model.EventToolCall, ToolCall: model.ToolCall{ID: id, Name: p.name, Input: input}}, nil) {
			return
		}
	}
	yield(model.Event{Type: model.EventDone, StopReason: stopReason(finish, len(calls) > 0), Usage: usage}, nil)
}

func stopReason(finish string, calls bool) string {
	switch finish {
	case "tool_calls", "function_call":
		return model.StopToolUse
	case "length":
		return model.StopMaxTokens
	case "stop", "":
		if calls {
			return model.StopToolUse // some local servers say stop after tool calls
		}
		return model.StopEnd
	}
	return finish
}
