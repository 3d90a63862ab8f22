package scripted_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
)

func TestTurnsPlayInOrder(t *testing.T) {
	m := scripted.New(
		scripted.Turn{Text: "Looking  at it.", ToolCalls: []model.ToolCall{{Name: "ls"}, {ID: "mine", Name: "cat", Input: json.RawMessage(`{"path":"a"}`)}}},
		scripted.Turn{Text: "Done.", Usage: model.Usage{InputTokens: 9, OutputTokens: 1}},
	)
	req := model.Request{System: "be brief", Messages: []model.Message{model.UserText("look at the files")}}
	var deltas []string
	resp, err := model.Collect(m.Stream(context.Background(), req), func(ev model.Event) {
		if ev.Type == model.EventTextDelta {
			deltas = append(deltas, ev.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(deltas, "") != "Looking  at it." || len(deltas) != 3 {
		t.Errorf("deltas %q", deltas)
	}
	calls := resp.Message.ToolCalls()
	if len(calls) != 2 || calls[0].ID != "call_1_0" || string(calls[0].Input) != "{}" || calls[1].ID != "mine" {
		t.Errorf("calls %+v", calls)
	}
	if resp.StopReason != model.StopToolUse || resp.Usage != (model.Usage{InputTokens: 6, OutputTokens: 3 + 2 + 1, Model: scripted.Name}) {
		t.Errorf("stop %q usage %+v", resp.StopReason, resp.Usage)
	}
	resp, err = model.Collect(m.Stream(context.Background(), req), nil)
	if err != nil || resp.StopReason != model.StopEnd || resp.Usage.InputTokens != 9 {
		t.Errorf("second turn: %+v, %v", resp, err)
	}
	if _, err := model.Collect(m.Stream(context.Background(), req), nil); err == nil {
		t.Error("a call past the script: want an error")
	}
	if m.Calls() != 3 || len(m.Requests()) != 3 {
		t.Errorf("recorded %d calls", m.Calls())
	}
}

func TestFuncAndErrors(t *testing.T) {
	boom := errors.New("boom")
	m := scripted.Func(func(req model.Request) (scripted.Turn, error) {
		if req.System == "fail" {
			return scripted.Turn{}, boom
		}
		return scripted.Turn{Text: "partial", Err: boom}, nil
	})
	if _, err := model.Collect(m.Stream(context.Background(), model.Request{System: "fail"}), nil); !errors.Is(err, boom) {
		t.Errorf("err = %v", err)
	}
	var text string
	_, err := model.Collect(m.Stream(context.Background(), model.Request{}), func(ev model.Event) { text += ev.Text })
	if !errors.Is(err, boom) || text != "partial" {
		t.Errorf("err = %v, text %q", err, text)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := model.Collect(m.Stream(ctx, model.Request{}), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
}
