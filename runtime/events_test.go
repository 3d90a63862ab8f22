package runtime_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
)

// tool.output events reach a subscriber on another runtime (through Redis,
// where the backend is Redis) and never reach the stored thread.
func TestToolOutputReachesAnotherRuntime(t *testing.T) {
	for _, b := range []backend{backends[0], backends[2]} {
		t.Run(b.name, func(t *testing.T) {
			release := make(chan struct{})
			build := rawTool("build", "Builds.", func(ctx context.Context, in json.RawMessage) (any, error) {
				<-release
				lifecycle.EmitToolOutput(ctx, "stdout", "compiling main.go\n")
				lifecycle.EmitToolOutput(ctx, "stderr", "warning: unused x\n")
				lifecycle.EmitToolOutput(ctx, "stdout", "") // nothing to say: no event
				return "build ok (call " + lifecycle.ToolCallID(ctx) + ")", nil
			})
			llm := scripted.New(
				scripted.Turn{ToolCalls: []model.ToolCall{{ID: "call_build", Name: "build", Input: json.RawMessage(`{}`)}}},
				scripted.Turn{Text: "Built."},
			)
			w := newAgentWorld(t, b, func(t *testing.T, rt *runtime.Runtime) {
				mustAgent(t, rt, runtime.AgentOptions{Name: "builder", Model: "m", Tools: []lifecycle.Tool{build}})
			}, map[string]model.Model{"m": llm})
			runner, watcher := w.worker(t), w.worker(t)

			h, err := agentNamed(t, runner, "builder").Send(tctx(t), "t1", "build it")
			require.NoError(t, err)
			events, err := watcher.Subscribe(tctx(t), h.RunID)
			require.NoError(t, err)
			close(release)
			evs := collect(t, events)

			var outputs []runtime.Event
			for _, ev := range evs {
				if ev.Type == runtime.EventToolOutput {
					outputs = append(outputs, ev)
				}
			}
			require.Len(t, outputs, 2)
			assert.Equal(t, runtime.Event{Type: runtime.EventToolOutput, RunID: h.RunID, ThreadID: "t1", Agent: "builder",
				ToolCallID: "call_build", Tool: "build", Stream: "stdout", Text: "compiling main.go\n"}, outputs[0])
			assert.Equal(t, "stderr", outputs[1].Stream)
			assert.Equal(t, "warning: unused x\n", outputs[1].Text)
			got := types(evs)
			if got[0] == runtime.EventToolCall {
				got = got[1:] // the watcher subscribed before the model's reply had streamed
			}
			assert.Equal(t, []runtime.EventType{
				runtime.EventToolOutput, runtime.EventToolOutput, runtime.EventToolResult, runtime.EventTextDelta, runtime.EventFinished,
			}, got)

			raw, err := json.Marshal(outputs[0])
			require.NoError(t, err)
			assert.JSONEq(t, `{"type":"tool.output","runId":"`+h.RunID+`","threadId":"t1","agent":"builder","toolCallId":"call_build","tool":"build","stream":"stdout","text":"compiling main.go\n"}`, string(raw))

			for _, m := range messages(t, watcher, "t1") {
				blob, _ := json.Marshal(m)
				assert.NotContains(t, string(blob), "compiling", "tool output is never stored in the thread")
				assert.NotContains(t, string(blob), "warning")
			}
			assert.Equal(t, "build ok (call call_build)", messages(t, watcher, "t1")[2].ToolResults()[0].Content)

			// The runner's own handle got them too.
			var local []string
			for ev := range h.Events() {
				if ev.Type == runtime.EventToolOutput {
					local = append(local, ev.Stream+":"+strings.TrimSpace(ev.Text))
				}
			}
			assert.Equal(t, []string{"stdout:compiling main.go", "stderr:warning: unused x"}, local)

			// A subscriber after the end gets the final event only.
			late, err := watcher.Subscribe(tctx(t), h.RunID)
			require.NoError(t, err)
			evs = collect(t, late)
			require.Len(t, evs, 1)
			assert.Equal(t, runtime.EventFinished, evs[0].Type)
			assert.Equal(t, "Built.", evs[0].Text)
		})
	}
}

func TestEmitToolOutputOutsideARunDoesNothing(t *testing.T) {
	lifecycle.EmitToolOutput(context.Background(), "stdout", "nobody listens")
	assert.Empty(t, lifecycle.ToolCallID(context.Background()))
}

func TestSubscribeToAMissingRun(t *testing.T) {
	rt := memoryWorld(t, nil, nil).worker(t)
	_, err := rt.Subscribe(tctx(t), "run-missing")
	assert.Error(t, err)
}
