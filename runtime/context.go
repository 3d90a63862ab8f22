package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

type ctxKey int

const (
	threadKey ctxKey = iota
	runKey
	callKey
)

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
