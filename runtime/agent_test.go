package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
)

var errUnknownModel = errors.New("no such model")

func call(name, input string) model.ToolCall {
	return model.ToolCall{Name: name, Input: json.RawMessage(input)}
}

// touchTool writes input.path in the thread's sandbox and returns the
// sandbox's id.
func touchTool(calls *atomic.Int32) lifecycle.Tool {
	return rawTool("touch", "Makes a file.", func(ctx context.Context, in json.RawMessage) (any, error) {
		if calls != nil {
			calls.Add(1)
		}
		var args struct{ Path string }
		if err := json.Unmarshal(in, &args); err != nil {
			return nil, err
		}
		sb, err := lifecycle.SandboxFor(ctx)
		if err != nil {
			return nil, err
		}
		return sb.Sandbox.ID(), sb.Sandbox.FileSystem().WriteFile(ctx, args.Path, []byte("x"))
	})
}

func TestSendRunsTheLoop(t *testing.T) {
	llm := scripted.New(
		scripted.Turn{Text: "Making it.", ToolCalls: []model.ToolCall{call("touch", `{"path":"a.txt"}`)}},
		scripted.Turn{Text: "Done, a.txt exists."},
	)
	w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "maker", Model: "m", System: "You make files.", Tools: []lifecycle.Tool{touchTool(nil)}})
	}, map[string]model.Model{"m": llm})
	rt := w.worker(t)
	maker := agentNamed(t, rt, "maker")

	h, err := maker.Send(tctx(t), "t1", "make a.txt")
	require.NoError(t, err)
	evs := collect(t, h.Events())
	res, err := h.Wait(tctx(t))
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunFinished, res.State)
	assert.Equal(t, "Done, a.txt exists.", res.Text)
	assert.Equal(t, model.StopEnd, res.StopReason)

	assert.Equal(t, []runtime.EventType{
		runtime.EventTextDelta, runtime.EventToolCall, runtime.EventToolResult, runtime.EventTextDelta, runtime.EventFinished,
	}, types(evs))
	var text strings.Builder
	for _, ev := range evs {
		assert.Equal(t, h.RunID, ev.RunID)
		assert.Equal(t, "t1", ev.ThreadID)
		if ev.Type == runtime.EventTextDelta {
			text.WriteString(ev.Text)
		}
	}
	assert.Equal(t, "Making it.Done, a.txt exists.", text.String(), "deltas join back to the replies")

	msgs := messages(t, rt, "t1")
	assert.Equal(t, []model.Role{model.RoleUser, model.RoleAssistant, model.RoleTool, model.RoleAssistant}, roles(msgs))
	sandboxID := msgs[2].ToolResults()[0].Content
	assert.NotEmpty(t, sandboxID)
	for _, m := range msgs {
		assert.Equal(t, h.RunID, m.RunID)
	}

	reqs := llm.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "You make files.", reqs[0].System)
	assert.Equal(t, "touch", reqs[0].Tools[0].Name)
	assert.Len(t, reqs[1].Messages, 3, "the second call sees the first reply and its result")

	w.hookMu.Lock()
	require.Len(t, w.hooked, 1, "AfterSandboxCall ran after the call that used the sandbox")
	assert.Equal(t, "touch", w.hooked[0].Tool)
	assert.Equal(t, h.RunID, w.hooked[0].RunID)
	assert.Equal(t, sandboxID, w.hooked[0].Sandbox.ID())
	assert.Equal(t, msgs[2].ToolResults()[0].ToolCallID, w.hooked[0].ToolCallID, "the hook gets the model's call id")
	assert.NotEmpty(t, w.hooked[0].ToolCallID)
	w.hookMu.Unlock()

	run, _, err := rt.BeginRun(tctx(t), "t1", lifecycle.BeginRunOptions{})
	require.NoError(t, err, "the run released its lock")
	require.NoError(t, run.End(tctx(t), lifecycle.RunFinished))
}

// agentNamed returns an agent the world's agents func made on rt.
func agentNamed(t *testing.T, rt *runtime.Runtime, name string) *runtime.Agent {
	t.Helper()
	a, ok := rt.Agent(name)
	require.True(t, ok, "agent %s", name)
	return a
}

func TestNextMessageSeesEarlierMessages(t *testing.T) {
	llm := scripted.Func(func(req model.Request) (scripted.Turn, error) {
		last := req.Messages[len(req.Messages)-1]
		if last.Role == model.RoleTool {
			return scripted.Turn{Text: "sandbox " + last.ToolResults()[0].Content}, nil
		}
		return scripted.Turn{ToolCalls: []model.ToolCall{call("touch", `{"path":"`+last.Text()+`"}`)}}, nil
	})
	w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "maker", Model: "m", Tools: []lifecycle.Tool{touchTool(nil)}})
	}, map[string]model.Model{"m": llm})
	first, second := w.worker(t), w.worker(t)

	h, err := agentNamed(t, first, "maker").Send(tctx(t), "t1", "one.txt")
	require.NoError(t, err)
	r1, err := h.Wait(tctx(t))
	require.NoError(t, err)
	// The next message, on another worker.
	h, err = agentNamed(t, second, "maker").Send(tctx(t), "t1", "two.txt")
	require.NoError(t, err)
	r2, err := h.Wait(tctx(t))
	require.NoError(t, err)
	assert.Equal(t, r1.Text, r2.Text, "the next message finds the thread's sandbox")

	reqs := llm.Requests()
	require.Len(t, reqs, 4)
	var seen []string
	for _, m := range reqs[2].Messages {
		seen = append(seen, string(m.Role)+":"+m.Text())
	}
	assert.Equal(t, []string{"user:one.txt", "assistant:", "tool:", "assistant:" + r1.Text, "user:two.txt"}, seen,
		"the second message's first model call sees the whole thread")
	assert.Len(t, messages(t, second, "t1"), 8)
}

func TestMaxSteps(t *testing.T) {
	var calls atomic.Int32
	llm := scripted.Func(func(req model.Request) (scripted.Turn, error) {
		return scripted.Turn{Text: "again", ToolCalls: []model.ToolCall{call("touch", `{"path":"f"}`)}}, nil
	})
	w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "loop", Model: "m", MaxSteps: 3, Tools: []lifecycle.Tool{touchTool(&calls)}})
	}, map[string]model.Model{"m": llm})
	rt := w.worker(t)
	h, err := agentNamed(t, rt, "loop").Send(tctx(t), "t1", "go")
	require.NoError(t, err)
	res, err := h.Wait(tctx(t))
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunFinished, res.State)
	assert.Equal(t, "max_steps", res.StopReason)
	assert.Equal(t, 3, llm.Calls())
	assert.EqualValues(t, 3, calls.Load(), "the last step's calls still ran, so the thread stays whole")
	msgs := messages(t, rt, "t1")
	assert.Equal(t, model.RoleTool, msgs[len(msgs)-1].Role)
}

func TestFailedCallsReachTheModel(t *testing.T) {
	panics := rawTool("panics", "", func(context.Context, json.RawMessage) (any, error) { panic("boom") })
	fails := rawTool("fails", "", func(context.Context, json.RawMessage) (any, error) { return nil, errors.New("disk full") })
	structured := rawTool("structured", "", func(context.Context, json.RawMessage) (any, error) {
		return map[string]int{"files": 2}, nil
	})
	llm := scripted.New(
		scripted.Turn{ToolCalls: []model.ToolCall{call("nope", `{}`), call("panics", `{}`), call("fails", `{}`), call("structured", `{}`)}},
		scripted.Turn{Text: "ok"},
	)
	w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "a", Model: "m", Tools: []lifecycle.Tool{panics, fails, structured}})
	}, map[string]model.Model{"m": llm})
	rt := w.worker(t)
	h, err := agentNamed(t, rt, "a").Send(tctx(t), "t1", "go")
	require.NoError(t, err)
	_, err = h.Wait(tctx(t))
	require.NoError(t, err)
	results := llm.Requests()[1].Messages[2].ToolResults()
	require.Len(t, results, 4)
	for i, want := range []struct {
		content string
		isError bool
	}{
		{`unknown tool "nope"`, true},
		{"tool panics panicked: boom", true},
		{"disk full", true},
		{`{"files":2}`, false},
	} {
		assert.Equal(t, want.content, results[i].Content, "result %d", i)
		assert.Equal(t, want.isError, results[i].IsError, "result %d", i)
	}
}

func TestModelFailureFailsTheRun(t *testing.T) {
	for _, c := range []struct {
		name  string
		model string
		want  string
	}{
		{"unknown model", "missing", "no such model"},
		{"model error", "m", "overloaded"},
	} {
		t.Run(c.name, func(t *testing.T) {
			llm := scripted.New(scripted.Turn{Text: "partial", Err: errors.New("overloaded")})
			w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
				mustAgent(t, rt, runtime.AgentOptions{Name: "a", Model: c.model})
			}, map[string]model.Model{"m": llm})
			rt := w.worker(t)
			h, err := agentNamed(t, rt, "a").Send(tctx(t), "t1", "go")
			require.NoError(t, err)
			evs := collect(t, h.Events())
			res, err := h.Wait(tctx(t))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.Equal(t, lifecycle.RunFailed, res.State)
			last := evs[len(evs)-1]
			assert.Equal(t, runtime.EventFailed, last.Type)
			assert.Contains(t, last.Error, c.want)
			st, err := rt.RunStatus(tctx(t), h.RunID)
			require.NoError(t, err)
			assert.Equal(t, lifecycle.RunFailed, st.State)
			assert.Contains(t, st.Error, c.want)
		})
	}
}

func TestAgentOptionsAreChecked(t *testing.T) {
	rt := memoryWorld(t, nil, nil).worker(t)
	tool := touchTool(nil)
	sub := mustAgent(t, rt, runtime.AgentOptions{Name: "sub"})
	for _, c := range []struct {
		name string
		opts runtime.AgentOptions
	}{
		{"no name", runtime.AgentOptions{}},
		{"two tools of a name", runtime.AgentOptions{Name: "x", Tools: []lifecycle.Tool{tool, tool}}},
		{"a tool named as a subagent", runtime.AgentOptions{Name: "x", Tools: []lifecycle.Tool{rawTool("sub", "", tool.Handler)}, Subagents: []*runtime.Agent{sub}}},
		{"a tool without a handler", runtime.AgentOptions{Name: "x", Tools: []lifecycle.Tool{{Name: "t"}}}},
		{"a name taken", runtime.AgentOptions{Name: "sub"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := rt.CreateStreamTextAgent(c.opts)
			assert.Error(t, err)
		})
	}
	other := memoryWorld(t, nil, nil).worker(t)
	_, err := other.CreateStreamTextAgent(runtime.AgentOptions{Name: "x", Subagents: []*runtime.Agent{sub}})
	assert.Error(t, err, "a subagent of another runtime")
}
