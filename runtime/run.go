package runtime

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// RunState is where a run ended up.
type RunState string

const (
	RunRunning  RunState = "running"
	RunParked   RunState = "parked"
	RunFinished RunState = "finished"
	RunFailed   RunState = "failed"
	RunStopped  RunState = "stopped"
)

// ErrThreadBusy: another run holds the thread's run lock.
var ErrThreadBusy = errors.New("runtime: another run is active on this thread")

// Run is one run holding its thread's run lock.
type Run struct {
	rt       *Runtime
	ThreadID string
	RunID    string
	lease    *kv.Lease
	stop     context.CancelFunc
	lost     <-chan error
	ctx      context.Context
}

// BeginRunOptions tunes BeginRun.
type BeginRunOptions struct {
	// RunID names the run; default a new id. A run resumed after parking
	// passes its own id again.
	RunID string
	// Wait for the lock while another run holds it (until ctx ends),
	// instead of returning ErrThreadBusy at once.
	Wait bool
}

func runLockKey(threadID string) string { return "runlock/" + threadID }

// BeginRun takes threadID's run lock and returns the run and a ctx for its
// calls (WithRun). The lock is renewed in the background until End; a
// crashed worker's lock is taken over once RunLockTTL has passed.
func (rt *Runtime) BeginRun(ctx context.Context, threadID string, opts BeginRunOptions) (*Run, context.Context, error) {
	if threadID == "" {
		return nil, nil, ErrNoThread
	}
	if opts.RunID == "" {
		opts.RunID = newID("run")
	}
	owner := rt.owner + "/" + opts.RunID
	var lease *kv.Lease
	backoff := 10 * time.Millisecond
	for {
		var err error
		lease, err = kv.AcquireLease(ctx, rt.kv, runLockKey(threadID), owner, rt.cfg.RunLockTTL)
		if err == nil {
			break
		}
		if !errors.Is(err, kv.ErrLocked) {
			return nil, nil, fmt.Errorf("runtime: run lock of thread %s: %w", threadID, err)
		}
		if !opts.Wait {
			return nil, nil, fmt.Errorf("%w (thread %s): %v", ErrThreadBusy, threadID, err)
		}
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 500*time.Millisecond)
	}
	keepCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	run := &Run{rt: rt, ThreadID: threadID, RunID: opts.RunID, lease: lease, stop: stop}
	run.lost = lease.KeepAlive(keepCtx, rt.cfg.RunLockTTL/3)
	run.ctx = withRuntime(WithRun(ctx, threadID, opts.RunID), rt)
	rt.runsMu.Lock()
	rt.runs[run] = struct{}{}
	rt.runsMu.Unlock()
	return run, run.ctx, nil
}

// Lost returns a channel that receives an error if the run lock is lost (the
// worker stalled past RunLockTTL and another took the thread over).
func (r *Run) Lost() <-chan error { return r.lost }

// Context returns the run's ctx (WithRun of its thread and id).
func (r *Run) Context() context.Context { return r.ctx }

// End ends the run in state and releases the lock. With ScopeRun, the run's
// sandbox ends too — at park only without SandboxKeepOnPark.
func (r *Run) End(ctx context.Context, state RunState) error {
	var errs []error
	if r.rt.cfg.SandboxScope == ScopeRun && (state != RunParked || !r.rt.cfg.SandboxKeepOnPark) {
		if err := r.rt.endRunSandbox(ctx, r.ThreadID, r.RunID, state == RunParked); err != nil {
			errs = append(errs, err)
		}
	}
	r.stop()
	r.rt.runsMu.Lock()
	delete(r.rt.runs, r)
	r.rt.runsMu.Unlock()
	if err := r.lease.Release(context.WithoutCancel(ctx)); err != nil && !errors.Is(err, kv.ErrLeaseLost) {
		errs = append(errs, fmt.Errorf("runtime: release the run lock of thread %s: %w", r.ThreadID, err))
	}
	return errors.Join(errs...)
}

// endRunSandbox ends the run-scoped sandbox of threadID if runID made it.
// At park the record stays, so the resumed run's next call finds the sandbox
// ended and says its files are lost (or restored); a new run ends it anyway.
func (rt *Runtime) endRunSandbox(ctx context.Context, threadID, runID string, parked bool) error {
	key := recordKey(ScopeRun, threadID)
	rec, _, err := rt.readRecord(ctx, key)
	if err != nil || rec == nil || rec.RunID != runID {
		return err
	}
	if parked {
		rt.destroy(ctx, rec)
		return nil
	}
	return rt.endScope(ctx, key)
}
