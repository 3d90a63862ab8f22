package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"time"

	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

// MaxJobAttempts is how often Work tries a job whose handling fails (the
// storage or kv unreachable, say) before it gives up on it.
const MaxJobAttempts = 5

// Work consumes the queue's run jobs until ctx ends, one at a time (run it
// in several goroutines to resume several runs at once): each
// resume job continues its parked (or retried) run, with this runtime's
// agents, until it parks again or ends. Any number of runtimes (workers,
// in one process or many) may Work on one queue; a job whose worker dies
// is delivered again after the queue's visibility timeout, and the next
// worker goes on from the run's last checkpoint once the run lock has
// expired.
//
// Work returns nil once ctx has ended, after the run at hand has parked
// or ended (it is not cut short); it returns an error only if the queue is
// closed. Jobs of other kinds are dropped.
func (rt *Runtime) Work(ctx context.Context) error {
	q := rt.agents.queue
	backoff := 50 * time.Millisecond
	for {
		d, err := q.Dequeue(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, queue.ErrClosed) {
				return err
			}
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 5*time.Second)
			continue
		}
		backoff = 50 * time.Millisecond
		rt.work(ctx, d)
	}
}

// work handles one delivery, keeping it invisible to others meanwhile.
func (rt *Runtime) work(ctx context.Context, d queue.Delivery) {
	q := rt.agents.queue
	bg := context.WithoutCancel(ctx)
	keep, stop := context.WithCancel(bg)
	go func() {
		tick := time.NewTicker(max(q.Visibility()/3, 10*time.Millisecond))
		defer tick.Stop()
		for {
			select {
			case <-keep.Done():
				return
			case <-tick.C:
				if err := q.Extend(keep, d); errors.Is(err, queue.ErrLost) {
					return
				}
			}
		}
	}()
	err := rt.runJob(ctx, d)
	stop()
	switch {
	case err == nil:
		_ = q.Ack(bg, d)
	case d.Attempt >= MaxJobAttempts:
		_ = q.Ack(bg, d)
		rt.failJob(bg, d, err)
	default:
		_ = q.Nack(bg, d, min(time.Duration(1<<d.Attempt)*100*time.Millisecond, 30*time.Second))
	}
}

func (rt *Runtime) runJob(ctx context.Context, d queue.Delivery) error {
	if d.Kind != JobResume {
		return nil
	}
	var j resumeJob
	if err := json.Unmarshal(d.Payload, &j); err != nil || j.RunID == "" {
		return nil // not a job we can do anything with
	}
	return rt.resume(ctx, j.RunID)
}

// failJob marks the run of a job that kept failing as failed.
func (rt *Runtime) failJob(ctx context.Context, d queue.Delivery, cause error) {
	var j resumeJob
	if json.Unmarshal(d.Payload, &j) != nil || j.RunID == "" {
		return
	}
	_, _ = rt.agents.storage.UpdateRun(ctx, j.RunID, func(r *storage.Run) error {
		if ended(r.State) {
			return errSkip
		}
		r.State, r.Error = string(lifecycle.RunFailed), fmt.Sprintf("resume failed %d times: %v", d.Attempt, cause)
		return nil
	})
}

// resumable reports whether a worker may go on with r: parked with every
// call answered (or a retry), or running with no worker (its lock was
// free).
func resumable(r storage.Run, data *runData) bool {
	switch lifecycle.RunState(r.State) {
	case lifecycle.RunParked:
		return len(data.Pending) == 0
	case lifecycle.RunRunning:
		return true
	}
	return false
}

// resume continues a run on this runtime: under its lock (waiting for
// it), from its saved state.
func (rt *Runtime) resume(ctx context.Context, runID string) error {
	core := rt.agents
	r, err := core.storage.GetRun(ctx, runID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if data, err := decodeRunData(r.Data); err != nil || !resumable(r, data) {
		return nil
	}
	// A segment of the run on this runtime may still be ending (it parked
	// a moment ago): wait for it, then look again under the lock.
	var active *activeRun
	for active == nil {
		if active = core.claim(runID); active != nil {
			break
		}
		if a := core.lookup(runID); a != nil {
			select {
			case <-a.done:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
	}
	run, rctx, err := rt.sb.BeginRun(ctx, r.ThreadID, lifecycle.BeginRunOptions{RunID: runID, Wait: true})
	if err != nil {
		core.release(runID, active)
		return err
	}
	bg := context.WithoutCancel(rctx)
	// Under the lock, look again: another worker may have been first.
	r, err = core.storage.GetRun(bg, runID)
	var data *runData
	if err == nil {
		data, err = decodeRunData(r.Data)
	}
	if err != nil || !resumable(r, data) {
		core.release(runID, active)
		state := lifecycle.RunParked
		if ended(r.State) {
			state = lifecycle.RunState(r.State)
		}
		return errors.Join(err, run.End(bg, state))
	}
	agent := core.agent(r.Agent)
	if agent == nil {
		core.release(runID, active)
		msg := fmt.Sprintf("no agent named %q on the worker that resumed it (every worker must create the same agents)", r.Agent)
		_, err := core.storage.UpdateRun(bg, runID, func(s *storage.Run) error {
			s.State, s.Error = string(lifecycle.RunFailed), msg
			return nil
		})
		core.publish(bg, Event{Type: EventFailed, RunID: runID, ThreadID: r.ThreadID, Agent: r.Agent, Error: msg})
		return errors.Join(err, run.End(bg, lifecycle.RunFailed))
	}
	if _, err := core.storage.UpdateRun(bg, runID, func(s *storage.Run) error {
		s.State, s.Error = string(lifecycle.RunRunning), ""
		return nil
	}); err != nil {
		core.release(runID, active)
		return errors.Join(err, run.End(bg, lifecycle.RunParked))
	}
	x := &execution{rt: rt, core: core, lock: run, top: agent, runID: runID, threadID: r.ThreadID, data: data}
	x.execute(bg, active)
	return nil
}
