package model_test

import (
	"encoding/json"
	"errors"
	"iter"
	"testing"

	"github.com/agentenkit/agentenkit/runtime/model"
)

func seq(evs ...model.Event) iter.Seq2[model.Event, error] {
	return func(yield func(model.Event, error) bool) {
		for _, ev := range evs {
			if !yield(ev, nil) {
				return
			}
		}
	}
}

func TestCollect(t *testing.T) {
	call := model.ToolCall{ID: "c1", Name: "ls", Input: json.RawMessage(`{}`)}
	for _, c := range []struct {
		name  string
		in    iter.Seq2[model.Event, error]
		text  string
		calls int
		err   error
	}{
		{"text and a call", seq(
			model.Event{Type: model.EventTextDelta, Text: "a"},
			model.Event{Type: model.EventTextDelta, Text: "b"},
			model.Event{Type: model.EventToolCall, ToolCall: call},
			model.Event{Type: model.EventDone, StopReason: model.StopToolUse},
		), "ab", 1, nil},
		{"no done", seq(model.Event{Type: model.EventTextDelta, Text: "a"}), "", 0, model.ErrIncomplete},
		{"an error", func(yield func(model.Event, error) bool) { yield(model.Event{}, errBoom) }, "", 0, errBoom},
		{"empty reply", seq(model.Event{Type: model.EventDone}), "", 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := 0
			resp, err := model.Collect(c.in, func(model.Event) { n++ })
			if !errors.Is(err, c.err) {
				t.Fatalf("err = %v, want %v", err, c.err)
			}
			if err != nil {
				return
			}
			if resp.Message.Role != model.RoleAssistant || resp.Message.Text() != c.text || len(resp.Message.ToolCalls()) != c.calls {
				t.Errorf("got %+v", resp.Message)
			}
			if n == 0 {
				t.Error("each was not called")
			}
		})
	}
}

var errBoom = errors.New("boom")
