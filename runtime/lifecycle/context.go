package lifecycle

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
)

type ctxKey int

const (
	threadKey ctxKey = iota
	runKey
	callKey
	managerKey
)

// withManager returns ctx carrying m, for the package-level SandboxFor and
// WithSandbox inside tool calls and runs.
func withManager(ctx context.Context, m *Manager) context.Context {
	return context.WithValue(ctx, managerKey, m)
}

// FromContext returns the Manager a tool call or run's ctx carries.
func FromContext(ctx context.Context) (*Manager, bool) {
	m, ok := ctx.Value(managerKey).(*Manager)
	return m, ok
}

// ErrNoRuntime: SandboxFor or WithSandbox outside a tool call or a run.
var ErrNoRuntime = errors.New("runtime: no runtime in context: call SandboxFor and WithSandbox with the ctx of a tool call (CallTool) or a run (BeginRun)")

// SandboxFor returns the sandbox of the thread (or run) of ctx, the ctx of a
// tool call or a run: Manager.SandboxFor of the manager it carries.
func SandboxFor(ctx context.Context) (ThreadSandbox, error) {
	m, ok := FromContext(ctx)
	if !ok {
		return ThreadSandbox{}, ErrNoRuntime
	}
	return m.SandboxFor(ctx)
}

// WithSandbox runs fn with the sandbox of the thread (or run) of ctx, the
// ctx of a tool call or a run, and returns what fn returns. When fn fails
// because the sandbox ended part way (an error matching sandbox.ErrGone),
// it runs fn once more on a fresh sandbox, whose Lost (or Restored) and
// Note say so.
func WithSandbox[T any](ctx context.Context, fn func(ThreadSandbox) (T, error)) (T, error) {
	var out T
	m, ok := FromContext(ctx)
	if !ok {
		return out, ErrNoRuntime
	}
	err := m.withSandbox(ctx, func(ts ThreadSandbox) error {
		var err error
		out, err = fn(ts)
		return err
	})
	return out, err
}

// WithThread returns ctx for calls in thread threadID.
func WithThread(ctx context.Context, threadID string) context.Context {
	return context.WithValue(ctx, threadKey, threadID)
}

// WithRun returns ctx for calls in run runID of thread threadID. Subagents
// of the run use the same ctx values, and so share the run's sandbox.
func WithRun(ctx context.Context, threadID, runID string) context.Context {
	return context.WithValue(WithThread(ctx, threadID), runKey, runID)
}

// ThreadID returns the thread of ctx, or "".
func ThreadID(ctx context.Context) string {
	s, _ := ctx.Value(threadKey).(string)
	return s
}

// RunID returns the run of ctx, or "".
func RunID(ctx context.Context) string {
	s, _ := ctx.Value(runKey).(string)
	return s
}

// newID returns prefix-<16 random hex digits>.
func newID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + "-" + hex.EncodeToString(b[:])
}
