package runtime

import (
	"context"
	"errors"
	"crypto/rand"
	"encoding/hex"
)

type ctxKey int

const (
	threadKey ctxKey = iota
	runKey
	callKey
	runtimeKey
)

// withRuntime returns ctx carrying rt, for the package-level SandboxFor and
// WithSandbox inside tool calls and runs.
func withRuntime(ctx context.Context, rt *Runtime) context.Context {
	return context.WithValue(ctx, runtimeKey, rt)
}

// FromContext returns the Runtime a tool call or run's ctx carries.
func FromContext(ctx context.Context) (*Runtime, bool) {
	rt, ok := ctx.Value(runtimeKey).(*Runtime)
	return rt, ok
}

// errNoRuntime: SandboxFor outside a tool call or run.
var errNoRuntime = errors.New("runtime: no runtime in context: call SandboxFor inside a tool call or a run")

// SandboxFor returns the sandbox of the thread (or run) of ctx, the ctx of a
// tool call or a run: Runtime.SandboxFor of the runtime it carries.
func SandboxFor(ctx context.Context) (*SandboxHandle, error) {
	rt, ok := FromContext(ctx)
	if !ok {
		return nil, errNoRuntime
	}
	return rt.SandboxFor(ctx)
}

// WithSandbox is Runtime.WithSandbox of the runtime ctx carries.
func WithSandbox(ctx context.Context, fn func(ctx context.Context, sb *SandboxHandle) error) error {
	rt, ok := FromContext(ctx)
	if !ok {
		return errNoRuntime
	}
	return rt.WithSandbox(ctx, fn)
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
