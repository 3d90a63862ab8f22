package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
)

// rmTool removes input.path from the thread's sandbox (failing if it is
// missing) and needs approval.
func rmTool(calls *atomic.Int32) lifecycle.Tool {
	t := rawTool("rm", "Removes a file.", func(ctx context.Context, in json.RawMessage) (any, error) {
		calls.Add(1)
		var args struct{ Path string }
		if err := json.Unmarshal(in, &args); err != nil {
			return nil, err
		}
		sb, err := lifecycle.SandboxFor(ctx)
		if err != nil {
			return nil, err
		}
		if err := sb.Sandbox.FileSystem().Remove(ctx, args.Path); err != nil {
			return nil, err
		}
		return "removed from " + sb.Sandbox.ID(), nil
	})
	t.Approval = lifecycle.AskAlways
	return t
}

// The acceptance path: a call that needs approval parks the run; a second
// runtime (another worker on the same SQLite file, or on Redis) resumes it
// after Respond, in the same sandbox, and finishes.
func TestParkedRunResumesOnAnotherWorker(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			var touches, removes atomic.Int32
			llm := scripted.New(
				scripted.Turn{Text: "First a file.", ToolCalls: []model.ToolCall{call("touch", `{"path":"old.log"}`)}},
				scripted.Turn{Text: "Now remove it.", ToolCalls: []model.ToolCall{call("rm", `{"path":"old.log"}`)}},
				scripted.Turn{Text: "Removed."},
			)
			w := newAgentWorld(t, b, func(t *testing.T, rt *runtime.Runtime) {
				mustAgent(t, rt, runtime.AgentOptions{Name: "ops", Model: "m", Tools: []lifecycle.Tool{touchTool(&touches), rmTool(&removes)}})
			}, map[string]model.Model{"m": llm})
			a, other := w.worker(t), w.worker(t)
			working(t, other) // the other worker consumes resume jobs

			h, err := agentNamed(t, a, "ops").Send(tctx(t), "t1", "clean up")
			require.NoError(t, err)
			res, err := h.Wait(tctx(t))
			require.NoError(t, err)
			require.Equal(t, lifecycle.RunParked, res.State)
			require.Len(t, res.Pending, 1)
			p := res.Pending[0]
			assert.Equal(t, "rm", p.Tool)
			assert.Equal(t, "ops", p.Agent)
			assert.JSONEq(t, `{"path":"old.log"}`, string(p.Input))
			assert.EqualValues(t, 1, touches.Load())
			assert.EqualValues(t, 0, removes.Load(), "the call waits for approval")

			st, err := other.RunStatus(tctx(t), h.RunID)
			require.NoError(t, err)
			assert.Equal(t, lifecycle.RunParked, st.State, "the parked state is in storage")
			assert.Equal(t, res.Pending, st.Pending)
			run, _, err := other.BeginRun(tctx(t), "t1", lifecycle.BeginRunOptions{})
			require.NoError(t, err, "a parked run holds no lock")
			require.NoError(t, run.End(tctx(t), lifecycle.RunFinished))
			_, err = agentNamed(t, other, "ops").Send(tctx(t), "t1", "something else")
			assert.ErrorIs(t, err, runtime.ErrThreadParked)

			events, err := a.Subscribe(tctx(t), h.RunID)
			require.NoError(t, err)
			require.ErrorIs(t, a.Respond(tctx(t), h.RunID, []runtime.Approval{{ToolCallID: "nope", Approved: true}}), runtime.ErrUnknownToolCall)
			require.NoError(t, a.Respond(tctx(t), h.RunID, []runtime.Approval{{ToolCallID: p.ToolCallID, Approved: true}}))

			evs := collect(t, events) // published by the other worker
			assert.Equal(t, []runtime.EventType{runtime.EventToolResult, runtime.EventTextDelta, runtime.EventFinished}, types(evs))
			done, err := a.WaitRun(tctx(t), h.RunID)
			require.NoError(t, err)
			assert.Equal(t, lifecycle.RunFinished, done.State)
			assert.Equal(t, "Removed.", done.Text)
			assert.EqualValues(t, 1, removes.Load())

			msgs := messages(t, a, "t1")
			require.Equal(t, []model.Role{
				model.RoleUser, model.RoleAssistant, model.RoleTool, model.RoleAssistant, model.RoleTool, model.RoleAssistant,
			}, roles(msgs))
			sandboxID := msgs[2].ToolResults()[0].Content
			assert.Equal(t, "removed from "+sandboxID, msgs[4].ToolResults()[0].Content,
				"the resumed run found the thread's sandbox and the file in it")
			assert.ErrorIs(t, a.Respond(tctx(t), h.RunID, nil), runtime.ErrNotParked)

			// The thread goes on.
			llm2 := scripted.New(scripted.Turn{Text: "Hello again."})
			w.models["m"] = llm2
			h, err = agentNamed(t, other, "ops").Send(tctx(t), "t1", "thanks")
			require.NoError(t, err)
			_, err = h.Wait(tctx(t))
			require.NoError(t, err)
			assert.Len(t, llm2.Requests()[0].Messages, 7)
		})
	}
}

func TestDeniedCallReachesTheModel(t *testing.T) {
	var removes atomic.Int32
	llm := scripted.New(
		scripted.Turn{ToolCalls: []model.ToolCall{call("rm", `{"path":"/etc/passwd"}`), call("touch", `{"path":"b"}`)}},
		scripted.Turn{Text: "Understood, I will not remove it."},
	)
	w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "ops", Model: "m", Tools: []lifecycle.Tool{rmTool(&removes), touchTool(nil)}})
	}, map[string]model.Model{"m": llm})
	rt := w.worker(t)
	working(t, rt)
	h, err := agentNamed(t, rt, "ops").Send(tctx(t), "t1", "remove passwd")
	require.NoError(t, err)
	res, err := h.Wait(tctx(t))
	require.NoError(t, err)
	require.Equal(t, lifecycle.RunParked, res.State)
	require.NoError(t, rt.Respond(tctx(t), h.RunID, []runtime.Approval{{ToolCallID: res.Pending[0].ToolCallID, Approved: false, Message: "never touch /etc"}}))
	done, err := rt.WaitRun(tctx(t), h.RunID)
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunFinished, done.State)
	assert.EqualValues(t, 0, removes.Load(), "a denied call does not run")

	results := llm.Requests()[1].Messages[2].ToolResults()
	require.Len(t, results, 2)
	assert.Equal(t, runtime.DeniedResult+" Their message: never touch /etc", results[0].Content)
	assert.True(t, results[0].IsError)
	assert.False(t, results[1].IsError, "the other call of the step ran")
}

func TestApprovalPolicies(t *testing.T) {
	errPolicy := errors.New("cannot tell")
	for _, c := range []struct {
		name   string
		policy lifecycle.ApprovalPolicy
		input  string
		parks  bool
	}{
		{"nil never asks", nil, `{}`, false},
		{"AskNever", lifecycle.AskNever, `{}`, false},
		{"AskAlways", lifecycle.AskAlways, `{}`, true},
		{"predicate says no", dangerous, `{"command":"ls"}`, false},
		{"predicate says yes", dangerous, `{"command":"rm -rf /"}`, true},
		{"an error asks", func(context.Context, json.RawMessage) (bool, error) { return false, errPolicy }, `{}`, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			tool := rawTool("bash", "", func(context.Context, json.RawMessage) (any, error) { return "ran", nil })
			tool.Approval = c.policy
			llm := scripted.New(scripted.Turn{ToolCalls: []model.ToolCall{call("bash", c.input)}}, scripted.Turn{Text: "ok"})
			w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
				mustAgent(t, rt, runtime.AgentOptions{Name: "a", Model: "m", Tools: []lifecycle.Tool{tool}})
			}, map[string]model.Model{"m": llm})
			rt := w.worker(t)
			h, err := agentNamed(t, rt, "a").Send(tctx(t), "t1", "go")
			require.NoError(t, err)
			res, err := h.Wait(tctx(t))
			require.NoError(t, err)
			if c.parks {
				assert.Equal(t, lifecycle.RunParked, res.State)
			} else {
				assert.Equal(t, lifecycle.RunFinished, res.State)
			}
		})
	}
}

func dangerous(ctx context.Context, in json.RawMessage) (bool, error) {
	var args struct{ Command string }
	if err := json.Unmarshal(in, &args); err != nil {
		return true, err
	}
	return len(args.Command) >= 2 && args.Command[:2] == "rm", nil
}

// A subagent runs in the parent's run: it shares the thread's sandbox, and
// an approval inside it parks the whole run, which another worker resumes
// inside the subagent.
func TestSubagentsShareTheRun(t *testing.T) {
	for _, b := range backends[:2] {
		t.Run(b.name, func(t *testing.T) {
			var publishes atomic.Int32
			publish := rawTool("publish", "Publishes the report.", func(ctx context.Context, in json.RawMessage) (any, error) {
				publishes.Add(1)
				return "published", nil
			})
			publish.Approval = lifecycle.AskAlways
			read := rawTool("read", "Reads a file.", func(ctx context.Context, in json.RawMessage) (any, error) {
				sb, err := lifecycle.SandboxFor(ctx)
				if err != nil {
					return nil, err
				}
				data, err := sb.Sandbox.FileSystem().ReadFile(ctx, "report.md")
				return sb.Sandbox.ID() + ":" + data, err
			})
			lead := scripted.New(
				scripted.Turn{ToolCalls: []model.ToolCall{call("researcher", `{"prompt":"write and publish the report"}`)}},
				scripted.Turn{ToolCalls: []model.ToolCall{call("read", `{}`)}},
				scripted.Turn{Text: "All done."},
			)
			sub := scripted.New(
				scripted.Turn{ToolCalls: []model.ToolCall{call("touch", `{"path":"report.md"}`)}},
				scripted.Turn{ToolCalls: []model.ToolCall{call("publish", `{}`)}},
				scripted.Turn{Text: "Wrote and published report.md."},
			)
			w := newAgentWorld(t, b, func(t *testing.T, rt *runtime.Runtime) {
				r := mustAgent(t, rt, runtime.AgentOptions{Name: "researcher", Description: "Writes reports.", Model: "sub", System: "You research.", Tools: []lifecycle.Tool{touchTool(nil), publish}})
				mustAgent(t, rt, runtime.AgentOptions{Name: "lead", Model: "lead", Tools: []lifecycle.Tool{read}, Subagents: []*runtime.Agent{r}})
			}, map[string]model.Model{"lead": lead, "sub": sub})
			a, other := w.worker(t), w.worker(t)
			working(t, other)

			h, err := agentNamed(t, a, "lead").Send(tctx(t), "t1", "make the report")
			require.NoError(t, err)
			res, err := h.Wait(tctx(t))
			require.NoError(t, err)
			require.Equal(t, lifecycle.RunParked, res.State)
			require.Len(t, res.Pending, 1)
			assert.Equal(t, "publish", res.Pending[0].Tool)
			assert.Equal(t, "researcher", res.Pending[0].Agent)

			require.NoError(t, a.Respond(tctx(t), h.RunID, []runtime.Approval{{ToolCallID: res.Pending[0].ToolCallID, Approved: true}}))
			done, err := a.WaitRun(tctx(t), h.RunID)
			require.NoError(t, err)
			require.Equal(t, lifecycle.RunFinished, done.State, done.Error)
			assert.Equal(t, "All done.", done.Text)
			assert.EqualValues(t, 1, publishes.Load())

			// The subagent's own conversation: its prompt, then its steps.
			subReqs := sub.Requests()
			require.Len(t, subReqs, 3)
			assert.Equal(t, "You research.", subReqs[0].System)
			assert.Equal(t, "write and publish the report", subReqs[0].Messages[0].Text())
			assert.Len(t, subReqs[2].Messages, 5)
			sandboxID := subReqs[1].Messages[2].ToolResults()[0].Content

			// The lead got the subagent's reply, then read its file in the
			// same sandbox.
			leadReqs := lead.Requests()
			require.Len(t, leadReqs, 3)
			assert.Equal(t, "Wrote and published report.md.", leadReqs[1].Messages[2].ToolResults()[0].Content)
			assert.Equal(t, sandboxID+":x", leadReqs[2].Messages[4].ToolResults()[0].Content, "subagents share the run's sandbox")
			assert.Equal(t, "researcher", leadReqs[0].Tools[1].Name)
			assert.Equal(t, "Writes reports.", leadReqs[0].Tools[1].Description)

			// The thread holds the lead's conversation only.
			assert.Len(t, messages(t, a, "t1"), 6)
			rows, err := a.Usage(tctx(t), h.RunID)
			require.NoError(t, err)
			agents := map[string]int{}
			for _, r := range rows {
				agents[r.Agent+"/"+r.Kind]++
			}
			assert.Equal(t, map[string]int{"lead/model": 3, "lead/tool": 2, "researcher/model": 3, "researcher/tool": 2}, agents)
		})
	}
}
