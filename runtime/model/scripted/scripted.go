// Package scripted is a model.Model that plays back a script: a list of
// turns (text and tool calls), one per call, for tests and demos. It
// records every request, so a test can check what the model was shown.
//
//	m := scripted.New(
//		scripted.Turn{ToolCalls: []model.ToolCall{{Name: "bash", Input: json.RawMessage(`{"command":"ls"}`)}}},
//		scripted.Turn{Text: "There are two files."},
//	)
package scripted

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"sync"

	"github.com/agentenkit/agentenkit/runtime/model"
)

// Name is the model id a scripted model reports in its usage.
const Name = "scripted"

// Turn is one scripted reply.
type Turn struct {
	// Text is streamed word by word.
	Text string
	// ToolCalls follow the text. An empty ID becomes "call_<n>_<i>", n
	// the call's number from 1 and i the tool call's index; an empty Input
	// becomes {}.
	ToolCalls []model.ToolCall
	// Usage is reported as is; zero means an estimate of one token per
	// word in (system, messages, tools) and out.
	Usage model.Usage
	// StopReason defaults to tool_use with tool calls, else end_turn.
	StopReason string
	// Err fails the call with Err (after Text, if any, was streamed).
	Err error
}

// Model plays back turns. It is safe for concurrent use: runtimes that
// share one Model (workers in one process) play one script between them.
type Model struct {
	mu      sync.Mutex
	turns   []Turn
	respond func(req model.Request) (Turn, error)
	reqs    []model.Request
}

var _ model.Model = (*Model)(nil)

// New returns a model that replies with turns in order; a call past the
// last turn fails.
func New(turns ...Turn) *Model { return &Model{turns: turns} }

// Func returns a model that replies with what fn makes of each request.
func Func(fn func(req model.Request) (Turn, error)) *Model { return &Model{respond: fn} }

// Requests returns the requests so far, in order.
func (m *Model) Requests() []model.Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]model.Request(nil), m.reqs...)
}

// Calls returns how many calls were made.
func (m *Model) Calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.reqs)
}

func (m *Model) next(req model.Request) (Turn, int, error) {
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	n := len(m.reqs)
	respond, turns := m.respond, m.turns
	m.mu.Unlock()
	if respond != nil {
		t, err := respond(req)
		return t, n, err
	}
	if n > len(turns) {
		return Turn{}, n, fmt.Errorf("scripted: call %d, but only %d turns are scripted", n, len(turns))
	}
	return turns[n-1], n, nil
}

// Stream implements model.Model.
func (m *Model) Stream(ctx context.Context, req model.Request) iter.Seq2[model.Event, error] {
	return func(yield func(model.Event, error) bool) {
		if err := ctx.Err(); err != nil {
			yield(model.Event{}, err)
			return
		}
		turn, n, err := m.next(req)
		if err != nil {
			yield(model.Event{}, err)
			return
		}
		for _, piece := range words(turn.Text) {
			if err := ctx.Err(); err != nil {
				yield(model.Event{}, err)
				return
			}
			if !yield(model.Event{Type: model.EventTextDelta, Text: piece}, nil) {
				return
			}
		}
		if turn.Err != nil {
			yield(model.Event{}, turn.Err)
			return
		}
		for i, c := range turn.ToolCalls {
			if c.ID == "" {
				c.ID = fmt.Sprintf("call_%d_%d", n, i)
			}
			if len(c.Input) == 0 {
				c.Input = json.RawMessage(`{}`)
			}
			if !yield(model.Event{Type: model.EventToolCall, ToolCall: c}, nil) {
				return
			}
		}
		stop := turn.StopReason
		if stop == "" {
			stop = model.StopEnd
			if len(turn.ToolCalls) > 0 {
				stop = model.StopToolUse
			}
		}
		usage := turn.Usage
		if usage == (model.Usage{}) {
			usage = estimate(req, turn)
		}
		if usage.Model == "" {
			usage.Model = Name
		}
		yield(model.Event{Type: model.EventDone, StopReason: stop, Usage: usage}, nil)
	}
}

// words splits text into pieces that join back to it: each word with the
// space before it.
func words(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' && text[i-1] != ' ' {
			out = append(out, text[start:i])
			start = i
		}
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

func count(s string) int64 { return int64(len(strings.Fields(s))) }

func estimate(req model.Request, turn Turn) model.Usage {
	in := count(req.System)
	for _, msg := range req.Messages {
		for _, p := range msg.Parts {
			in += count(p.Text)
			if p.ToolCall != nil {
				in += count(string(p.ToolCall.Input))
			}
			if p.ToolResult != nil {
				in += count(p.ToolResult.Content)
			}
		}
	}
	for _, t := range req.Tools {
		in += count(t.Description)
	}
	out := count(turn.Text)
	for _, c := range turn.ToolCalls {
		out += 1 + count(string(c.Input))
	}
	return model.Usage{InputTokens: in, OutputTokens: out}
}
