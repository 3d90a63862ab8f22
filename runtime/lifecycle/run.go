package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	m        *Manager
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
func (m *Manager) BeginRun(ctx context.Context, threadID string, opts BeginRunOptions) (*Run, context.Context, error) {
	if threadID == "" {
		return nil, nil, ErrNoThread
	}
	if opts.RunID == "" {
		opts.RunID = newID("run")
	}
	owner := m.owner + "/" + opts.RunID
	var lease *kv.Lease
	backoff := 10 * time.Millisecond
	for {
		var err error
		lease, err = kv.AcquireLease(ctx, m.kv, runLockKey(threadID), owner, m.cfg.RunLockTTL)
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
	run := &Run{m: m, ThreadID: threadID, RunID: opts.RunID, lease: lease, stop: stop}
	run.lost = lease.KeepAlive(keepCtx, m.cfg.RunLockTTL/3)
	run.ctx = withManager(WithRun(ctx, threadID, opts.RunID), m)
	m.runsMu.Lock()
	m.runs[run] = struct{}{}
	m.runsMu.Unlock()
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
	if r.m.cfg.SandboxScope == ScopeRun && (state != RunParked || !r.m.cfg.SandboxKeepOnPark) {
		if err := r.m.endRunSandbox(ctx, r.ThreadID, r.RunID, state == RunParked); err != nil {
			errs = append(errs, err)
		}
	}
	r.stop()
	r.m.runsMu.Lock()
	delete(r.m.runs, r)
	r.m.runsMu.Unlock()
	if err := r.lease.Release(context.WithoutCancel(ctx)); err != nil && !errors.Is(err, kv.ErrLeaseLost) {
		errs = append(errs, fmt.Errorf("runtime: release the run lock of thread %s: %w", r.ThreadID, err))
	}
	return errors.Join(errs...)
}

// endRunSandbox ends the run-scoped sandbox of threadID if runID made it.
// At park the record stays, so the resumed run's next call finds the sandbox
// ended and says its files are lost (or restored); a new run ends it anyway.
func (m *Manager) endRunSandbox(ctx context.Context, threadID, runID string, parked bool) error {
	key := recordKey(ScopeRun, threadID)
	rec, _, err := m.readRecord(ctx, key)
	if err != nil || rec == nil || rec.RunID != runID {
		return err
	}
	if parked {
		m.destroy(ctx, rec)
		return nil
	}
	return m.endScope(ctx, key)
}

// Forget stops renewing a run lock that another worker has taken over and
// drops it from the manager, touching neither the lock's key nor the
// run's sandbox (End would end a run-scoped one).
func (r *Run) Forget(ctx context.Context) {
	r.stop()
	r.m.runsMu.Lock()
	delete(r.m.runs, r)
	r.m.runsMu.Unlock()
	_ = r.lease.Release(ctx) // compare-and-delete: leaves the new holder's lease alone
}

// RunLockHeld reports whether runID holds its thread's run lock.
func (m *Manager) RunLockHeld(ctx context.Context, threadID, runID string) (bool, error) {
	v, err := m.kv.Get(ctx, runLockKey(threadID))
	if errors.Is(err, kv.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	owner, ok := kv.LeaseOwner(v)
	return ok && strings.HasSuffix(owner, "/"+runID), nil
}
