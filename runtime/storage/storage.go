// Package storage is the port the runtime keeps conversations in: threads,
// their messages, runs (with the state a parked run resumes from) and usage
// rows.
//
// # Adapters
//
// Two adapters implement [Storage] and pass the same conformance suite
// (package storagetest):
//
//   - memstorage: one process, maps; for tests.
//   - sqlitestorage: one SQLite file shared by several processes on one
//     machine; the embedded default. It may share its file with sqlitekv.
//
// # Contracts
//
//   - A thread's messages keep the order they were appended in; each gets
//     the next Seq of its thread (1, 2, …). AppendMessages appends all of
//     its messages or none.
//   - UpdateRun is an atomic read-modify-write: of concurrent updates of one
//     run, each sees the result of the ones before it.
//   - Missing things give an error matching [ErrNotFound]; creating a run
//     whose id exists gives [ErrExists].
//   - Values passed in are not retained and values returned are the
//     caller's to keep.
package storage

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/agentenkit/agentenkit/runtime/model"
)

// Storage keeps threads, messages, runs and usage rows. Implementations are
// safe for concurrent use; sqlitestorage is also safe across processes.
type Storage interface {
	// EnsureThread returns the thread, creating it first if it is missing.
	EnsureThread(ctx context.Context, threadID string) (Thread, error)
	// GetThread returns the thread, or ErrNotFound.
	GetThread(ctx context.Context, threadID string) (Thread, error)
	// DeleteThread removes the thread with its messages, runs and usage
	// rows. Deleting a missing thread is not an error.
	DeleteThread(ctx context.Context, threadID string) error

	// AppendMessages appends msgs to the thread, in order, all or none,
	// and returns them with their Seq and CreatedAt set. The thread must
	// exist (ErrNotFound).
	AppendMessages(ctx context.Context, threadID string, msgs []Message) ([]Message, error)
	// Messages returns the thread's messages in order (an empty list for a
	// thread without any), or ErrNotFound for a missing thread.
	Messages(ctx context.Context, threadID string) ([]Message, error)

	// CreateRun stores a new run; ErrExists if its id is taken. Its thread
	// must exist (ErrNotFound). CreatedAt and UpdatedAt are set by the
	// store.
	CreateRun(ctx context.Context, run Run) error
	// GetRun returns the run, or ErrNotFound.
	GetRun(ctx context.Context, runID string) (Run, error)
	// UpdateRun reads the run, calls fn on it and writes what fn left,
	// atomically, and returns the run as written. If fn returns an error
	// nothing is written and UpdateRun returns that error. fn may be
	// called more than once; ID, ThreadID and CreatedAt cannot change.
	UpdateRun(ctx context.Context, runID string, fn func(*Run) error) (Run, error)
	// ListRuns returns the thread's runs, oldest first.
	ListRuns(ctx context.Context, threadID string) ([]Run, error)

	// AddUsage stores usage rows, setting each one's ID (and CreatedAt if
	// zero).
	AddUsage(ctx context.Context, rows []UsageRow) error
	// Usage returns the rows matching filter, in the order they were
	// added.
	Usage(ctx context.Context, filter UsageFilter) ([]UsageRow, error)

	// Close releases the store's resources. A second Close returns nil;
	// every other method then returns ErrClosed.
	Close() error
}

var (
	// ErrNotFound is matched by the error for a missing thread or run.
	ErrNotFound = errors.New("storage: not found")
	// ErrExists is matched by the error for a run id that is taken.
	ErrExists = errors.New("storage: already exists")
	// ErrClosed is returned by a store used after Close.
	ErrClosed = errors.New("storage: store closed")
)

// Thread is a conversation.
type Thread struct {
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"createdAt"`
}

// Message is a message of a thread.
type Message struct {
	// Seq is the message's place in its thread, from 1.
	Seq      int64  `json:"seq"`
	ThreadID string `json:"threadId"`
	// RunID is the run that added it, if any.
	RunID     string    `json:"runId,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	model.Message
}

// Run is one run of an agent over a thread.
type Run struct {
	ID       string `json:"id"`
	ThreadID string `json:"threadId"`
	// Agent is the name of the agent that runs it.
	Agent string `json:"agent"`
	// State is the runtime's run state: running, parked, finished, failed
	// or stopped.
	State string `json:"state"`
	// Error says why a failed run failed.
	Error string `json:"error,omitempty"`
	// StopRequested is set by a Stop that found the run running on
	// another worker.
	StopRequested bool `json:"stopRequested,omitempty"`
	// Data is the runtime's own state of the run (what a parked run
	// resumes from), opaque to the store.
	Data      json.RawMessage `json:"data,omitempty"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
}

// Usage kinds.
const (
	KindModel = "model"
	KindTool  = "tool"
)

// UsageRow is what one model call or one tool call consumed.
type UsageRow struct {
	// ID is set by the store: unique, and increasing in the order rows
	// were added by one process.
	ID       int64  `json:"id"`
	RunID    string `json:"runId"`
	ThreadID string `json:"threadId"`
	Agent    string `json:"agent,omitempty"`
	// Kind is KindModel or KindTool.
	Kind string `json:"kind"`
	// Model is the model's name for a model call, "tool:<name>" for a
	// tool call.
	Model string `json:"model"`
	// ModelID is, for a model call, the model id the provider reported;
	// for a tool call, the adapter name of the sandbox provider if the
	// call used the sandbox, else "".
	ModelID      string `json:"modelId"`
	ToolCallID   string `json:"toolCallId,omitempty"`
	InputTokens  int64  `json:"inputTokens,omitempty"`
	OutputTokens int64  `json:"outputTokens,omitempty"`
	// Seconds is how long the call took.
	Seconds   float64   `json:"seconds"`
	CreatedAt time.Time `json:"createdAt"`
}

// UsageFilter selects usage rows: those of RunID, or else of ThreadID.
// Exactly one must be set.
type UsageFilter struct {
	RunID    string
	ThreadID string
}
