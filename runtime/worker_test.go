package runtime_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/bus/membus"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/queue/memqueue"
	"github.com/agentenkit/agentenkit/runtime/storage/memstorage"
	"github.com/agentenkit/agentenkit/sandbox"
)

// parkedRun sends a message whose reply calls rm, which parks the run.
func parkedRun(t *testing.T, rt *runtime.Runtime) runtime.RunResult {
	t.Helper()
	h, err := agentNamed(t, rt, "ops").Send(tctx(t), "t1", "remove it")
	require.NoError(t, err)
	res, err := h.Wait(tctx(t))
	require.NoError(t, err)
	require.Equal(t, lifecycle.RunParked, res.State)
	return res
}

func opsWorld(t *testing.T, removes *atomic.Int32, b backend) *agentWorld {
	llm := scripted.New(
		scripted.Turn{ToolCalls: []model.ToolCall{call("touch", `{"path":"x"}`)}},
		scripted.Turn{ToolCalls: []model.ToolCall{call("rm", `{"path":"x"}`)}},
		scripted.Turn{Text: "Removed."},
	)
	return newAgentWorld(t, b, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "ops", Model: "m", Tools: []lifecycle.Tool{touchTool(nil), rmTool(removes)}})
	}, map[string]model.Model{"m": llm})
}

// A worker that takes the resume job and dies before it acknowledges it:
// the job comes back after the visibility timeout, and another worker
// resumes the run.
func TestAResumeJobOutlivesACrashedWorker(t *testing.T) {
	q := memqueue.New(memqueue.Options{Visibility: 300 * time.Millisecond})
	p := ports{kv: memkv.New(memkv.Options{}), storage: memstorage.New(memstorage.Options{}), bus: membus.New(), queue: q}
	var removes atomic.Int32
	w := opsWorld(t, &removes, backend{"crash", func(*testing.T) func(*testing.T) ports {
		return func(*testing.T) ports { return p }
	}})
	rt := w.worker(t)
	res := parkedRun(t, rt)
	require.NoError(t, rt.Respond(tctx(t), res.RunID, []runtime.Approval{{ToolCallID: res.Pending[0].ToolCallID, Approved: true}}))

	// The crashed worker: dequeued, never acked.
	lost, err := q.Dequeue(tctx(t))
	require.NoError(t, err)
	assert.Equal(t, runtime.JobResume, lost.Kind)

	working(t, w.worker(t))
	done, err := rt.WaitRun(tctx(t), res.RunID)
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunFinished, done.State)
	assert.EqualValues(t, 1, removes.Load())
	assert.ErrorIs(t, q.Ack(tctx(t), lost), queue.ErrLost, "the job was delivered again")
}

func TestADuplicateResumeIsHarmless(t *testing.T) {
	var removes atomic.Int32
	w := opsWorld(t, &removes, backends[0])
	rt := w.worker(t)
	res := parkedRun(t, rt)
	approve := []runtime.Approval{{ToolCallID: res.Pending[0].ToolCallID, Approved: true}}
	require.NoError(t, rt.Respond(tctx(t), res.RunID, approve))
	require.NoError(t, rt.Respond(tctx(t), res.RunID, approve), "answering again is ignored")
	require.NoError(t, rt.Respond(tctx(t), res.RunID, nil), "and re-enqueues the resume")
	working(t, rt)
	working(t, w.worker(t))
	done, err := rt.WaitRun(tctx(t), res.RunID)
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunFinished, done.State)
	time.Sleep(100 * time.Millisecond) // let any duplicate be handled
	assert.EqualValues(t, 1, removes.Load(), "the run resumed once")
}

func TestRespondToSomeCallsOnly(t *testing.T) {
	var removes atomic.Int32
	llm := scripted.New(
		scripted.Turn{ToolCalls: []model.ToolCall{call("rm", `{"path":"a"}`), call("rm", `{"path":"b"}`)}},
		scripted.Turn{Text: "done"},
	)
	w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "ops", Model: "m", Tools: []lifecycle.Tool{touchTool(nil), rmTool(&removes)}})
	}, map[string]model.Model{"m": llm})
	rt := w.worker(t)
	working(t, rt)
	h, err := agentNamed(t, rt, "ops").Send(tctx(t), "t1", "remove both")
	require.NoError(t, err)
	res, err := h.Wait(tctx(t))
	require.NoError(t, err)
	require.Len(t, res.Pending, 2)
	require.NoError(t, rt.Respond(tctx(t), res.RunID, []runtime.Approval{{ToolCallID: res.Pending[0].ToolCallID, Approved: false}}))
	st, err := rt.WaitRun(tctx(t), res.RunID)
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunParked, st.State, "one call still waits")
	require.Len(t, st.Pending, 1)
	assert.Equal(t, res.Pending[1].ToolCallID, st.Pending[0].ToolCallID)
	require.NoError(t, rt.Respond(tctx(t), res.RunID, []runtime.Approval{{ToolCallID: st.Pending[0].ToolCallID, Approved: false}}))
	st, err = rt.WaitRun(tctx(t), res.RunID)
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunFinished, st.State)
	assert.EqualValues(t, 0, removes.Load())
}

func TestAWorkerWithoutTheAgentFailsTheRun(t *testing.T) {
	var removes atomic.Int32
	w := opsWorld(t, &removes, backends[0])
	rt := w.worker(t)
	res := parkedRun(t, rt)
	w.agents = nil // a worker that made no agents
	working(t, w.worker(t))
	require.NoError(t, rt.Respond(tctx(t), res.RunID, []runtime.Approval{{ToolCallID: res.Pending[0].ToolCallID, Approved: true}}))
	done, err := rt.WaitRun(tctx(t), res.RunID)
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunFailed, done.State)
	assert.Contains(t, done.Error, `no agent named "ops"`)
}

// A run-scoped sandbox ends when its run parks, unless SandboxKeepOnPark:
// then the resumed run (on another worker) finds it.
func TestRunScopedSandboxAcrossAPark(t *testing.T) {
	for _, keep := range []bool{true, false} {
		name := "ended at park"
		if keep {
			name = "kept on park"
		}
		t.Run(name, func(t *testing.T) {
			var removes atomic.Int32
			w := opsWorld(t, &removes, backends[0])
			w.cfg = lifecycle.Config{SandboxScope: lifecycle.ScopeRun, SandboxKeepOnPark: keep}
			rt := w.worker(t)
			res := parkedRun(t, rt)
			working(t, w.worker(t))
			require.NoError(t, rt.Respond(tctx(t), res.RunID, []runtime.Approval{{ToolCallID: res.Pending[0].ToolCallID, Approved: true}}))
			done, err := rt.WaitRun(tctx(t), res.RunID)
			require.NoError(t, err)
			require.Equal(t, lifecycle.RunFinished, done.State)
			msgs := messages(t, rt, "t1")
			first := msgs[2].ToolResults()[0].Content
			rm := msgs[4].ToolResults()[0]
			if keep {
				assert.Equal(t, "removed from "+first, rm.Content, "the kept sandbox still had the file")
			} else {
				assert.True(t, rm.IsError, "a fresh sandbox: the file is gone (%s)", rm.Content)
			}
			_, err = memory.New(memory.Options{Store: w.sandbox, Now: w.clock.Now}).Connect(tctx(t), first)
			assert.ErrorIs(t, err, sandbox.ErrGone, "the run's sandbox ended with the run")
		})
	}
}
