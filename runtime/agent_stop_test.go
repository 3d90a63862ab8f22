package runtime_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

// waitTool blocks until its ctx ends, after saying it started.
func waitTool(started chan<- struct{}) lifecycle.Tool {
	return rawTool("wait", "Waits.", func(ctx context.Context, in json.RawMessage) (any, error) {
		started <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	})
}

// A stopped run ends in state stopped and releases its lock, whether it
// runs on the runtime that stops it, on another, or is parked.
func TestStopReleasesTheLock(t *testing.T) {
	for _, c := range []struct {
		name   string
		where  string // "here", "elsewhere", "parked"
		server int    // backends index
	}{
		{"running here", "here", 0},
		{"running on another worker", "elsewhere", 0},
		{"running on another worker, through Redis", "elsewhere", 2},
		{"parked", "parked", 0},
		{"parked, sqlite", "parked", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			started := make(chan struct{}, 1)
			var removes atomic.Int32
			first := scripted.Turn{ToolCalls: []model.ToolCall{call("touch", `{"path":"kept"}`), call("wait", `{}`)}}
			if c.where == "parked" {
				first = scripted.Turn{ToolCalls: []model.ToolCall{call("touch", `{"path":"kept"}`), call("rm", `{"path":"kept"}`)}}
			}
			llm := scripted.New(first, scripted.Turn{Text: "next message"})
			w := newAgentWorld(t, backends[c.server], func(t *testing.T, rt *runtime.Runtime) {
				mustAgent(t, rt, runtime.AgentOptions{Name: "a", Model: "m", Tools: []lifecycle.Tool{touchTool(nil), waitTool(started), rmTool(&removes)}})
			}, map[string]model.Model{"m": llm})
			runner, stopper := w.worker(t), w.worker(t)
			if c.where == "here" {
				stopper = runner
			}
			h, err := agentNamed(t, runner, "a").Send(tctx(t), "t1", "go")
			require.NoError(t, err)
			if c.where == "parked" {
				res, err := h.Wait(tctx(t))
				require.NoError(t, err)
				require.Equal(t, lifecycle.RunParked, res.State)
			} else {
				<-started
			}
			events, err := stopper.Subscribe(tctx(t), h.RunID)
			require.NoError(t, err)

			require.NoError(t, stopper.Stop(tctx(t), h.RunID))
			st, err := stopper.RunStatus(tctx(t), h.RunID)
			require.NoError(t, err)
			assert.Equal(t, lifecycle.RunStopped, st.State)
			evs := collect(t, events)
			require.NotEmpty(t, evs)
			assert.Equal(t, runtime.EventStopped, evs[len(evs)-1].Type)
			if c.where != "parked" {
				res, err := h.Wait(tctx(t))
				require.NoError(t, err)
				assert.Equal(t, lifecycle.RunStopped, res.State)
			}

			run, _, err := w.worker(t).BeginRun(tctx(t), "t1", lifecycle.BeginRunOptions{})
			require.NoError(t, err, "the stopped run released its lock")
			require.NoError(t, run.End(tctx(t), lifecycle.RunFinished))

			// The thread is whole: the step's calls have results, the ones
			// that never finished say why. (A parked step ran none.)
			msgs := messages(t, stopper, "t1")
			require.Equal(t, []model.Role{model.RoleUser, model.RoleAssistant, model.RoleTool}, roles(msgs))
			results := msgs[2].ToolResults()
			require.Len(t, results, 2)
			assert.Equal(t, c.where == "parked", results[0].IsError)
			assert.True(t, results[1].IsError)
			assert.Contains(t, results[1].Content, "stopped")
			assert.EqualValues(t, 0, removes.Load())

			// The next message runs.
			h, err = agentNamed(t, stopper, "a").Send(tctx(t), "t1", "again")
			require.NoError(t, err)
			res, err := h.Wait(tctx(t))
			require.NoError(t, err)
			assert.Equal(t, "next message", res.Text)
			assert.NoError(t, stopper.Stop(tctx(t), h.RunID), "stopping an ended run is a no-op")
		})
	}
}

func TestCancellingSendsContextStopsTheRun(t *testing.T) {
	started := make(chan struct{}, 1)
	llm := scripted.New(scripted.Turn{ToolCalls: []model.ToolCall{call("wait", `{}`)}})
	w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "a", Model: "m", Tools: []lifecycle.Tool{waitTool(started)}})
	}, map[string]model.Model{"m": llm})
	rt := w.worker(t)
	ctx, cancel := context.WithCancel(context.Background())
	h, err := agentNamed(t, rt, "a").Send(ctx, "t1", "go")
	require.NoError(t, err)
	<-started
	cancel()
	res, err := h.Wait(tctx(t))
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunStopped, res.State)
}

// A failed run goes on from its last checkpoint when retried, on any
// worker: the calls that ran before the failure do not run again.
func TestRetryGoesOnFromTheCheckpoint(t *testing.T) {
	var touches atomic.Int32
	llm := scripted.New(
		scripted.Turn{ToolCalls: []model.ToolCall{call("touch", `{"path":"a"}`)}},
		scripted.Turn{Err: errOverloaded},
		scripted.Turn{Text: "Recovered."},
	)
	w := newAgentWorld(t, backends[1], func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "a", Model: "m", Tools: []lifecycle.Tool{touchTool(&touches)}})
	}, map[string]model.Model{"m": llm})
	a, other := w.worker(t), w.worker(t)
	working(t, other)
	h, err := agentNamed(t, a, "a").Send(tctx(t), "t1", "go")
	require.NoError(t, err)
	res, _ := h.Wait(tctx(t))
	require.Equal(t, lifecycle.RunFailed, res.State)
	assert.Contains(t, res.Error, "overloaded")
	assert.ErrorIs(t, a.Retry(tctx(t), "run-missing"), errNotFound)

	require.NoError(t, a.Retry(tctx(t), h.RunID))
	done, err := a.WaitRun(tctx(t), h.RunID)
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunFinished, done.State, done.Error)
	assert.Equal(t, "Recovered.", done.Text)
	assert.EqualValues(t, 1, touches.Load())
	assert.Equal(t, []model.Role{model.RoleUser, model.RoleAssistant, model.RoleTool, model.RoleAssistant}, roles(messages(t, a, "t1")))
	assert.ErrorIs(t, a.Retry(tctx(t), h.RunID), runtime.ErrNotFailed)
}

// What an ended run left open does not block its thread: the next
// message closes it out, so the thread stays whole for the model.
func TestTheNextMessageClosesOutWhatARunLeft(t *testing.T) {
	for _, c := range []struct {
		name   string
		first  scripted.Turn
		before func(t *testing.T, rt *runtime.Runtime, res runtime.RunResult)
	}{
		{"a failed run", scripted.Turn{Err: errOverloaded}, func(t *testing.T, rt *runtime.Runtime, res runtime.RunResult) {
			require.Equal(t, lifecycle.RunFailed, res.State)
		}},
		{"a run whose worker died", scripted.Turn{ToolCalls: []model.ToolCall{call("rm", `{"path":"a"}`)}}, func(t *testing.T, rt *runtime.Runtime, res runtime.RunResult) {
			// Resumed by a worker that died: the run still says running,
			// and its lock has expired.
			require.Equal(t, lifecycle.RunParked, res.State)
			_, err := rt.Storage().UpdateRun(tctx(t), res.RunID, func(r *storage.Run) error {
				r.State = string(lifecycle.RunRunning)
				return nil
			})
			require.NoError(t, err)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var removes atomic.Int32
			llm := scripted.New(
				scripted.Turn{ToolCalls: []model.ToolCall{call("touch", `{"path":"a"}`)}},
				c.first,
				scripted.Turn{Text: "Fresh start."},
			)
			w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
				mustAgent(t, rt, runtime.AgentOptions{Name: "a", Model: "m", Tools: []lifecycle.Tool{touchTool(nil), rmTool(&removes)}})
			}, map[string]model.Model{"m": llm})
			rt := w.worker(t)
			h, err := agentNamed(t, rt, "a").Send(tctx(t), "t1", "go")
			require.NoError(t, err)
			res, _ := h.Wait(tctx(t))
			c.before(t, rt, res)
			first := res.RunID

			h, err = agentNamed(t, w.worker(t), "a").Send(tctx(t), "t1", "try again")
			require.NoError(t, err)
			res, err = h.Wait(tctx(t))
			require.NoError(t, err)
			assert.Equal(t, "Fresh start.", res.Text)
			st, err := rt.RunStatus(tctx(t), first)
			require.NoError(t, err)
			assert.Equal(t, lifecycle.RunFailed, st.State)
			assert.ErrorIs(t, rt.Retry(tctx(t), first), runtime.ErrNotFailed, "the thread has moved on")

			var seen []string
			for _, m := range llm.Requests()[2].Messages {
				seen = append(seen, string(m.Role))
			}
			if c.name == "a failed run" {
				assert.Equal(t, []string{"user", "assistant", "tool", "user"}, seen)
			} else {
				assert.Equal(t, []string{"user", "assistant", "tool", "assistant", "tool", "user"}, seen, "the open step was closed out")
				results := llm.Requests()[2].Messages[4].ToolResults()
				assert.True(t, results[0].IsError)
			}
			assert.EqualValues(t, 0, removes.Load())
		})
	}
}
