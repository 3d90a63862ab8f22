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

func ended(state string) bool {
	switch lifecycle.RunState(state) {
	case lifecycle.RunFinished, lifecycle.RunFailed, lifecycle.RunStopped:
		return true
	}
	return false
}

// Stop stops a run and returns once it is stopped (or had ended already):
// state stopped, its run lock released, a stopped event published. Calls
// it left open reach the thread as results saying the run was stopped.
//
//   - Running here: its ctx is cancelled; a tool that honours ctx ends.
//   - Parked, or its worker died: it is stopped here, under its lock.
//   - Running on another worker: Stop marks it in storage and asks over
//     the bus; that worker stops it at once (or at its next step).
func (rt *Runtime) Stop(ctx context.Context, runID string) error {
	core := rt.agents
	asked := false
	backoff := 10 * time.Millisecond
	wait := func() error {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 250*time.Millisecond)
		return nil
	}
	for {
		r, err := core.storage.GetRun(ctx, runID)
		if err != nil {
			return err
		}
		if ended(r.State) {
			held, err := rt.lockedBy(ctx, r.ThreadID, runID)
			if err != nil || !held {
				return err
			}
			if err := wait(); err != nil { // its worker is releasing the lock
				return err
			}
			continue
		}
		if a := core.lookup(runID); a != nil {
			a.stop()
			select {
			case <-a.done:
			case <-ctx.Done():
				return ctx.Err()
			}
			continue
		}
		if a := core.claim(runID); a != nil {
			run, rctx, err := rt.sb.BeginRun(ctx, r.ThreadID, lifecycle.BeginRunOptions{RunID: runID})
			if err == nil {
				err = rt.stopHere(rctx, run)
				core.release(runID, a)
				return err
			}
			core.release(runID, a)
			if !errors.Is(err, lifecycle.ErrThreadBusy) {
				return err
			}
		}
		if !asked {
			_, err := core.storage.UpdateRun(ctx, runID, func(s *storage.Run) error {
				if ended(s.State) {
					return errSkip
				}
				s.StopRequested = true
				return nil
			})
			if errors.Is(err, errSkip) {
				continue
			}
			if err != nil {
				return err
			}
			core.publish(ctx, Event{Type: EventStopRequested, RunID: runID, ThreadID: r.ThreadID, Agent: r.Agent})
			asked = true
		}
		if err := wait(); err != nil {
			return err
		}
	}
}

// lockedBy reports whether runID holds its thread's run lock: a run's
// state is saved before its lock is released (so that no new message sees
// it as abandoned), and whoever waits for a run to end waits for this too.
func (rt *Runtime) lockedBy(ctx context.Context, threadID, runID string) (bool, error) {
	return rt.sb.RunLockHeld(ctx, threadID, runID)
}

// stopHere stops a run nobody runs, holding its lock.
func (rt *Runtime) stopHere(ctx context.Context, run *lifecycle.Run) error {
	core := rt.agents
	var saved json.RawMessage
	var r storage.Run
	r, err := core.storage.UpdateRun(ctx, run.RunID, func(s *storage.Run) error {
		if ended(s.State) {
			return errSkip
		}
		saved = s.Data
		s.State, s.Data, s.StopRequested = string(lifecycle.RunStopped), nil, false
		return nil
	})
	if errors.Is(err, errSkip) {
		return run.End(ctx, lifecycle.RunStopped)
	}
	if err != nil {
		return errors.Join(err, run.End(ctx, lifecycle.RunParked))
	}
	var errs []error
	if data, derr := decodeRunData(saved); derr == nil {
		if msgs := data.closeOut(stoppedResult); msgs != nil {
			errs = append(errs, appendThread(ctx, core.storage, run.ThreadID, run.RunID, msgs...))
		}
	}
	errs = append(errs, run.End(ctx, lifecycle.RunStopped))
	core.publish(ctx, Event{Type: EventStopped, RunID: run.RunID, ThreadID: run.ThreadID, Agent: r.Agent})
	return errors.Join(errs...)
}

// ErrNotFailed: Retry of a run that did not fail, or whose thread has
// moved on since (a later message closed it out).
var ErrNotFailed = errors.New("runtime: the run cannot be retried: it did not fail, or its thread has moved on")

// Retry enqueues a failed run to go on from its last checkpoint (the model
// call or tool call that failed, with every result before it kept), on any
// worker. Until a worker takes it, the run is parked with nothing pending.
func (rt *Runtime) Retry(ctx context.Context, runID string) error {
	core := rt.agents
	var job queue.Job
	_, err := core.storage.UpdateRun(ctx, runID, func(r *storage.Run) error {
		if lifecycle.RunState(r.State) != lifecycle.RunFailed || len(r.Data) == 0 {
			return fmt.Errorf("%w (run %s is %s)", ErrNotFailed, runID, r.State)
		}
		data, err := decodeRunData(r.Data)
		if err != nil {
			return err
		}
		data.Parks++
		data.Pending = nil
		payload, _ := json.Marshal(resumeJob{RunID: runID, ThreadID: r.ThreadID})
		job = queue.Job{ID: fmt.Sprintf("resume/%s/%d", runID, data.Parks), Kind: JobResume, Payload: payload}
		r.State, r.Error = string(lifecycle.RunParked), ""
		r.Data, err = json.Marshal(data)
		return err
	})
	if err != nil {
		return err
	}
	return core.queue.Enqueue(ctx, job)
}

// RunStatus returns where a run is now, from storage.
func (rt *Runtime) RunStatus(ctx context.Context, runID string) (RunResult, error) {
	r, err := rt.agents.storage.GetRun(ctx, runID)
	if err != nil {
		return RunResult{}, err
	}
	res := RunResult{RunID: r.ID, ThreadID: r.ThreadID, State: lifecycle.RunState(r.State), Error: r.Error}
	if data, err := decodeRunData(r.Data); err == nil {
		res.Pending = data.Pending
		if res.State == lifecycle.RunFinished {
			res.Text, res.StopReason = data.Text, data.StopReason
		}
	}
	return res, nil
}

// WaitRun waits, on any runtime sharing the storage, kv and bus, until the
// run ends or parks waiting on a person (a parked run whose calls are all
// answered is on its way to a worker, and is waited for), and its run lock
// is released; it returns where the run is.
func (rt *Runtime) WaitRun(ctx context.Context, runID string) (RunResult, error) {
	sub, err := rt.agents.bus.Subscribe(ctx, runTopic(runID))
	if err != nil {
		sub = nil // poll storage only
	}
	for {
		res, err := rt.RunStatus(ctx, runID)
		if err != nil {
			return RunResult{}, err
		}
		if ended(string(res.State)) || (res.State == lifecycle.RunParked && len(res.Pending) > 0) {
			held, err := rt.lockedBy(ctx, res.ThreadID, runID)
			if err != nil {
				return RunResult{}, err
			}
			if !held {
				return res, nil
			}
		}
		select {
		case <-ctx.Done():
			return RunResult{}, ctx.Err()
		case _, ok := <-sub:
			if !ok {
				sub = nil
			}
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// DeleteThread deletes a thread and everything of it: its runs are
// stopped first (a parked run becomes stopped, and Respond to it is then an
// error matching storage.ErrNotFound; a run on another worker is stopped
// there), then its sandboxes end, its kv records go, and the storage drops
// the thread with its messages, runs and usage rows. A thread that does not
// exist is no error.
func (rt *Runtime) DeleteThread(ctx context.Context, threadID string) error {
	core := rt.agents
	runs, err := core.storage.ListRuns(ctx, threadID)
	if err != nil && !errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("runtime: delete thread %s: %w", threadID, err)
	}
	for _, r := range runs {
		if ended(r.State) {
			continue
		}
		if err := rt.Stop(ctx, r.ID); err != nil && !errors.Is(err, storage.ErrNotFound) {
			return fmt.Errorf("runtime: delete thread %s: stop run %s: %w", threadID, r.ID, err)
		}
	}
	if err := rt.sb.EndThread(ctx, threadID); err != nil {
		return err
	}
	if err := core.storage.DeleteThread(ctx, threadID); err != nil && !errors.Is(err, storage.ErrNotFound) {
		return fmt.Errorf("runtime: delete thread %s: %w", threadID, err)
	}
	return nil
}
