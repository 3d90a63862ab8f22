// Package anthropic is the model.Model adapter of Anthropic's Messages API,
// over net/http (no SDK): POST /v1/messages with "stream": true, read as
// server-sent events.
//
//	client := anthropic.New(apiKey, anthropic.Options{})
//	m := client.Model("claude-sonnet-4-5")
//
// The key is given at setup and sent as x-api-key with anthropic-version;
// it is never read from the environment. Tool calls arrive as tool_use
// blocks whose input JSON streams in pieces (input_json_delta); the adapter
// assembles each and yields it whole at its content_block_stop. Requests
// refused for load (429 rate_limit_error, 529 overloaded_error, 5xx) are
// retried with backoff, honouring retry-after; other errors are
// *model.APIError with the status code and the API's error type and
// message.
//
// A tool whose ToolSpec has a NativeType goes out as Anthropic's built-in
// tool definition, {"type": NativeType, "name": Name}, with no description
// or schema (Claude knows them); the model then calls it by that name with
// the input it was trained on. Other tools go out with their JSON schema.
package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strings"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/internal/httpx"
	"github.com/agentenkit/agentenkit/runtime/model/internal/sse"
)

// Defaults of Options.
const (
	DefaultBaseURL   = "https://api.anthropic.com"
	DefaultVersion   = "2023-06-01"
	DefaultMaxTokens = 8192
)

// Name is the adapter's name, in its errors.
const Name = "anthropic"

// Retry says how requests refused for load are retried.
type Retry = httpx.Retry

// Options tune a Client. The zero value is ready to use.
type Options struct {
	// BaseURL is the API's root, without /v1; default DefaultBaseURL.
	BaseURL string
	// Version is the anthropic-version header; default DefaultVersion.
	Version string
	// Beta lists anthropic-beta features to send.
	Beta []string
	// MaxTokens is each reply's cap when a request gives none; default
	// DefaultMaxTokens (the API requires one).
	MaxTokens int
	// HTTPClient sends the requests; default http.DefaultClient. Its
	// Timeout, if any, must allow for a whole streamed reply.
	HTTPClient *http.Client
	Retry      Retry
}

// Client talks to the Messages API with one key. It is safe for concurrent
// use.
type Client struct {
	key  string
	opts Options
}

// New returns a Client that sends apiKey.
func New(apiKey string, opts Options) *Client {
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	opts.BaseURL = strings.TrimSuffix(opts.BaseURL, "/")
	if opts.Version == "" {
		opts.Version = DefaultVersion
	}
	if opts.MaxTokens <= 0 {
		opts.MaxTokens = DefaultMaxTokens
	}
	return &Client{key: apiKey, opts: opts}
}

// Model returns the model of that id ("claude-sonnet-4-5").
func (c *Client) Model(id string) model.Model { return &Model{c: c, id: id} }

// Model is one Anthropic model.
type Model struct {
	c  *Client
	id string
}

var _ model.Model = (*Model)(nil)

// The request body, as the API takes it.
type (
	request struct {
		Model     string    `json:"model"`
		MaxTokens int       `json:"max_tokens"`
		System    string    `json:"system,omitempty"`
		Messages  []message `json:"messages"`
		Tools     []tool    `json:"tools,omitempty"`
		Stream    bool      `json:"stream"`
	}
	message struct {
		Role    string  `json:"role"`
		Content []block `json:"content"`
	}
	block struct {
		Type      string          `json:"type"`
		Text      string          `json:"text,omitempty"`
		ID        string          `json:"id,omitempty"`
		Name      string          `json:"name,omitempty"`
		Input     json.RawMessage `json:"input,omitempty"`
		ToolUseID string          `json:"tool_use_id,omitempty"`
		Content   string          `json:"content,omitempty"`
		IsError   bool            `json:"is_error,omitempty"`
	}
	// tool is a tool definition: a custom one (name, description,
	// input_schema) or a built-in one (type and name only).
	tool struct {
		Type        string          `json:"type,omitempty"`
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		InputSchema json.RawMessage `json:"input_schema,omitempty"`
	}
)

// body translates req: tool results become a user message of tool_result
// blocks, consecutive messages of one role merge (the API wants roles to
// alternate), and a tool with a NativeType is sent as the built-in tool.
func (m *Model) body(req model.Request) ([]byte, error) {
	r := request{Model: m.id, MaxTokens: req.MaxTokens, System: req.System, Stream: true, Messages: []message{}}
	if r.MaxTokens <= 0 {
		r.MaxTokens = m.c.opts.MaxTokens
	}
	for _, msg := range req.Messages {
		role := "user"
		if msg.Role == model.RoleAssistant {
			role = "assistant"
		}
		var blocks []block
		for _, p := range msg.Parts {
			switch {
			case p.ToolCall != nil:
				input := p.ToolCall.Input
				if len(input) == 0 {
					input = json.RawMessage(`{}`)
				}
				blocks = append(blocks, block{Type: "tool_use", ID: p.ToolCall.ID, Name: p.ToolCall.Name, Input: input})
			case p.ToolResult != nil:
				blocks = append(blocks, block{Type: "tool_result", ToolUseID: p.ToolResult.ToolCallID, Content: p.ToolResult.Content, IsError: p.ToolResult.IsError})
			case p.Text != "":
				blocks = append(blocks, block{Type: "text", Text: p.Text})
			}
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(r.Messages); n > 0 && r.Messages[n-1].Role == role {
			// A step's tool results and the next user text: one user
			// message, results first, as the API asks.
			prev := &r.Messages[n-1]
			prev.Content = append(prev.Content, blocks...)
			continue
		}
		r.Messages = append(r.Messages, message{Role: role, Content: blocks})
	}
	for _, t := range req.Tools {
		if t.NativeType != "" {
			r.Tools = append(r.Tools, tool{Type: t.NativeType, Name: t.Name})
			continue
		}
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		r.Tools = append(r.Tools, tool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	return json.Marshal(r)
}

// errorBody is the API's error JSON, of a response or an error event.
type errorBody struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

func decodeError(resp *http.Response, body []byte) *model.APIError {
	e := &model.APIError{Provider: Name, RequestID: resp.Header.Get("request-id")}
	var b errorBody
	if json.Unmarshal(body, &b) == nil && b.Error.Type != "" {
		e.Type, e.Message = b.Error.Type, b.Error.Message
		if e.RequestID == "" {
			e.RequestID = b.RequestID
		}
	} else {
		e.Message = strings.TrimSpace(string(body))
	}
	return e
}

// statusOf is the HTTP status an error type stands for, for error events
// in a stream.
func statusOf(errType string) int {
	switch errType {
	case "invalid_request_error":
		return 400
	case "authentication_error":
		return 401
	case "permission_error":
		return 403
	case "not_found_error":
		return 404
	case "request_too_large":
		return 413
	case "rate_limit_error":
		return 429
	case "overloaded_error":
		return 529
	}
	return 500
}

// Stream implements model.Model.
func (m *Model) Stream(ctx context.Context, req model.Request) iter.Seq2[model.Event, error] {
	return func(yield func(model.Event, error) bool) {
		body, err := m.body(req)
		if err != nil {
			yield(model.Event{}, fmt.Errorf("anthropic: encode the request: %w", err))
			return
		}
		o := m.c.opts
		resp, err := httpx.Do(ctx, o.HTTPClient, o.Retry, func(ctx context.Context) (*http.Request, error) {
			r, err := http.NewRequestWithContext(ctx, http.MethodPost, o.BaseURL+"/v1/messages", bytes.NewReader(body))
			if err != nil {
				return nil, err
			}
			r.Header.Set("content-type", "application/json")
			r.Header.Set("accept", "text/event-stream")
			r.Header.Set("x-api-key", m.c.key)
			r.Header.Set("anthropic-version", o.Version)
			if len(o.Beta) > 0 {
				r.Header.Set("anthropic-beta", strings.Join(o.Beta, ","))
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

// Stream events, the fields the adapter reads.
type (
	streamEvent struct {
		Type         string          `json:"type"`
		Index        int             `json:"index"`
		Message      *streamMessage  `json:"message"`
		ContentBlock *block          `json:"content_block"`
		Delta        json.RawMessage `json:"delta"`
		Usage        *usage          `json:"usage"`
		Error        *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
		} `json:"error"`
	}
	streamMessage struct {
		ID    string `json:"id"`
		Model string `json:"model"`
		Usage usage  `json:"usage"`
	}
	usage struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	}
	delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	}
)

// read yields the stream's events. Usage counts every input token
// (uncached, written to and read from the cache) as input.
func (m *Model) read(ctx context.Context, resp *http.Response, yield func(model.Event, error) bool) {
	var (
		r         = sse.NewReader(resp.Body)
		requestID = resp.Header.Get("request-id")
		blocks    = map[int]*block{}
		inputs    = map[int]*strings.Builder{}
		usageOut  model.Usage
		stop      string
	)
	fail := func(err error) { yield(model.Event{}, err) }
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			fail(fmt.Errorf("anthropic: the stream ended before message_stop: %w", model.ErrIncomplete))
			return
		}
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				err = cerr
			}
			fail(fmt.Errorf("anthropic: read the stream: %w", err))
			return
		}
		var se streamEvent
		if err := json.Unmarshal([]byte(ev.Data), &se); err != nil {
			fail(fmt.Errorf("anthropic: a %s event that is not JSON: %w", ev.Name, err))
			return
		}
		switch se.Type {
		case "message_start":
			if se.Message != nil {
				usageOut.Model = se.Message.Model
				u := se.Message.Usage
				usageOut.InputTokens = u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
				usageOut.OutputTokens = u.OutputTokens
			}
		case "content_block_start":
			if se.ContentBlock != nil {
				b := *se.ContentBlock
				blocks[se.Index] = &b
				if b.Type == "tool_use" {
					inputs[se.Index] = &strings.Builder{}
				}
				if b.Type == "text" && b.Text != "" && !yield(model.Event{Type: model.EventTextDelta, Text: b.Text}, nil) {
					return
				}
			}
		case "content_block_delta":
			var d delta
			_ = json.Unmarshal(se.Delta, &d)
			switch d.Type {
			case "text_delta":
				if d.Text != "" && !yield(model.Event{Type: model.EventTextDelta, Text: d.Text}, nil) {
					return
				}
			case "input_json_delta":
				if in := inputs[se.Index]; in != nil {
					in.WriteString(d.PartialJSON)
				}
			}
		case "content_block_stop":
			b := blocks[se.Index]
			if b == nil || b.Type != "tool_use" {
				continue
			}
			input := json.RawMessage(strings.TrimSpace(inputs[se.Index].String()))
			if len(input) == 0 {
				input = b.Input // the whole input in the start block
			}
			if len(input) == 0 {
				input = json.RawMessage(`{}`)
			}
			if !json.Valid(input) {
				input, _ = json.Marshal(string(input))
			}
			if !yield(model.Event{Type: model.EventToolCall, ToolCall: model.ToolCall{ID: b.ID, Name: b.Name, Input: input}}, nil) {
				return
			}
		case "message_delta":
			var d delta
			_ = json.Unmarshal(se.Delta, &d)
			if d.StopReason != "" {
				stop = d.StopReason
			}
			if se.Usage != nil {
				if se.Usage.OutputTokens > 0 {
					usageOut.OutputTokens = se.Usage.OutputTokens
				}
				if in := se.Usage.InputTokens + se.Usage.CacheCreationInputTokens + se.Usage.CacheReadInputTokens; in > 0 {
					usageOut.InputTokens = in
				}
			}
		case "message_stop":
			yield(model.Event{Type: model.EventDone, StopReason: stopReason(stop), Usage: usageOut}, nil)
			return
		case "error":
			e := &model.APIError{Provider: Name, RequestID: requestID, StatusCode: 500}
			if se.Error != nil {
				e.Type, e.Message, e.StatusCode = se.Error.Type, se.Error.Message, statusOf(se.Error.Type)
			}
			fail(e)
			return
		}
		// ping and unknown events: nothing to do.
	}
}

func stopReason(s string) string {
	switch s {
	case "", "end_turn", "stop_sequence":
		return model.StopEnd
	case "tool_use":
		return model.StopToolUse
	case "max_tokens":
		return model.StopMaxTokens
	}
	return s // pause_turn, refusal: as the API says
}
