// Package model is the port the runtime talks to language models through:
// a request (system prompt, messages, tools) in, a stream of events (text
// deltas, complete tool calls, and a final event with the stop reason and
// the token usage) out.
//
// Adapters: scripted (a list of turns, for tests and demos), anthropic (the
// Messages API) and openai (any OpenAI-compatible chat completions API).
// The runtime finds a model by name through Options.ResolveModel.
//
// # Messages
//
// A conversation is a list of Messages. A user message holds text; an
// assistant message holds text and tool calls; a tool message holds the
// results of the previous assistant message's tool calls, one per call, in
// the calls' order. Adapters translate these to their wire formats (tool
// results become a user message of tool_result blocks for Anthropic, one
// "tool" message per result for OpenAI).
package model

import (
	"context"
	"encoding/json"
	"iter"
	"strings"
)

// Role says who wrote a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	// RoleTool: the results of the previous assistant message's tool calls.
	RoleTool Role = "tool"
)

// Message is one message of a conversation.
type Message struct {
	Role  Role   `json:"role"`
	Parts []Part `json:"parts"`
}

// Part is one piece of a message: exactly one of its fields is set.
type Part struct {
	Text       string      `json:"text,omitempty"`
	ToolCall   *ToolCall   `json:"toolCall,omitempty"`
	ToolResult *ToolResult `json:"toolResult,omitempty"`
}

// ToolCall is the model asking for a tool to run.
type ToolCall struct {
	// ID names the call; its result carries the same id.
	ID   string `json:"id"`
	Name string `json:"name"`
	// Input is the call's input, always valid JSON (an object, unless the
	// model sent arguments that were not JSON: then a JSON string of what
	// it sent).
	Input json.RawMessage `json:"input"`
}

// ToolResult is what a tool call gave back.
type ToolResult struct {
	ToolCallID string `json:"toolCallId"`
	Name       string `json:"name"`
	Content    string `json:"content"`
	IsError    bool   `json:"isError,omitempty"`
}

// UserText returns a user message of text.
func UserText(text string) Message {
	return Message{Role: RoleUser, Parts: []Part{{Text: text}}}
}

// Text returns the message's text parts, joined.
func (m Message) Text() string {
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// ToolCalls returns the message's tool calls, in order.
func (m Message) ToolCalls() []ToolCall {
	var calls []ToolCall
	for _, p := range m.Parts {
		if p.ToolCall != nil {
			calls = append(calls, *p.ToolCall)
		}
	}
	return calls
}

// ToolResults returns the message's tool results, in order.
func (m Message) ToolResults() []ToolResult {
	var rs []ToolResult
	for _, p := range m.Parts {
		if p.ToolResult != nil {
			rs = append(rs, *p.ToolResult)
		}
	}
	return rs
}

// ToolSpec is a tool as the model sees it.
type ToolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// InputSchema is the JSON schema of the input, an object schema.
	InputSchema json.RawMessage `json:"inputSchema"`
	// NativeType, when set, is the type of the Anthropic built-in
	// (schema-less) tool this one is, such as "bash_20250124". The
	// Anthropic adapter then sends only {"type": NativeType, "name": Name}:
	// the model knows the input schema and the description already. Other
	// adapters ignore it and send InputSchema. The type fixes the name,
	// so Name must be the one the type requires ("bash" for
	// bash_20250124).
	NativeType string `json:"nativeType,omitempty"`
}

// Request is one model call.
type Request struct {
	System   string
	Messages []Message
	Tools    []ToolSpec
	// MaxTokens caps the reply; 0 means the adapter's default.
	MaxTokens int
}

// Usage is the tokens one model call consumed.
type Usage struct {
	InputTokens  int64 `json:"inputTokens"`
	OutputTokens int64 `json:"outputTokens"`
	// Model is the model id the provider reported, if it did.
	Model string `json:"model,omitempty"`
}

// EventType says what an Event carries.
type EventType string

const (
	// EventTextDelta: Text is the next piece of the reply's text.
	EventTextDelta EventType = "text.delta"
	// EventToolCall: ToolCall is a complete tool call, input assembled.
	EventToolCall EventType = "tool.call"
	// EventDone: the reply is complete; StopReason and Usage are set. It
	// is always the last event of a successful stream.
	EventDone EventType = "done"
)

// Stop reasons of EventDone, normalised across providers.
const (
	StopEnd       = "end_turn"
	StopToolUse   = "tool_use"
	StopMaxTokens = "max_tokens"
)

// Event is one event of a model's streamed reply.
type Event struct {
	Type       EventType
	Text       string
	ToolCall   ToolCall
	StopReason string
	Usage      Usage
}

// Model is a language model.
//
// Stream makes one call and yields its reply as it arrives: text deltas and
// tool calls in the order the model produced them, then one EventDone. A
// failure is yielded as a non-nil error, after which the sequence ends; a
// sequence that ends without EventDone or an error is a broken adapter.
// Stream must honour ctx, and a consumer may stop iterating early (the
// adapter then releases the call's resources). Implementations are safe for
// concurrent use.
type Model interface {
	Stream(ctx context.Context, req Request) iter.Seq2[Event, error]
}

// Response is a whole reply, as Collect assembles it.
type Response struct {
	// Message is the assistant message: its text as one part (if any),
	// then its tool calls.
	Message    Message
	StopReason string
	Usage      Usage
}

// Collect runs stream to its end, calling each (if not nil) with every
// event as it arrives, and returns the assembled reply.
func Collect(stream iter.Seq2[Event, error], each func(Event)) (Response, error) {
	var (
		text  strings.Builder
		calls []Part
		resp  Response
		done  bool
	)
	for ev, err := range stream {
		if err != nil {
			return Response{}, err
		}
		if each != nil {
			each(ev)
		}
		switch ev.Type {
		case EventTextDelta:
			text.WriteString(ev.Text)
		case EventToolCall:
			call := ev.ToolCall
			calls = append(calls, Part{ToolCall: &call})
		case EventDone:
			resp.StopReason, resp.Usage, done = ev.StopReason, ev.Usage, true
		}
	}
	if !done {
		return Response{}, ErrIncomplete
	}
	resp.Message.Role = RoleAssistant
	if text.Len() > 0 {
		resp.Message.Parts = append(resp.Message.Parts, Part{Text: text.String()})
	}
	resp.Message.Parts = append(resp.Message.Parts, calls...)
	return resp, nil
}
