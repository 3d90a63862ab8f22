// Package memstorage is the in-memory adapter of [storage.Storage]: maps in
// one process, for tests and for runtimes that need no history past their
// process.
package memstorage

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/runtime/storage"
)

// Options tune a Store. The zero value is ready to use.
type Options struct {
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Store is a [storage.Storage] in memory, safe for concurrent use.
type Store struct {
	now func() time.Time

	mu       sync.Mutex
	closed   bool
	threads  map[string]storage.Thread
	messages map[string][]storage.Message
	runs     map[string]storage.Run
	runOrder []string
	usage    []storage.UsageRow
	nextID   int64
}

var _ storage.Storage = (*Store)(nil)

// New returns an empty Store.
func New(opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Store{
		now:      opts.Now,
		threads:  map[string]storage.Thread{},
		messages: map[string][]storage.Message{},
		runs:     map[string]storage.Run{},
	}
}

// lock takes the store's lock after checking ctx and Close; on success the
// caller must Unlock.
func (s *Store) lock(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return storage.ErrClosed
	}
	return nil
}

func notFound(what, id string) error { return fmt.Errorf("%w: %s %q", storage.ErrNotFound, what, id) }

// EnsureThread implements storage.Storage.
func (s *Store) EnsureThread(ctx context.Context, threadID string) (storage.Thread, error) {
	if err := s.lock(ctx); err != nil {
		return storage.Thread{}, err
	}
	defer s.mu.Unlock()
	t, ok := s.threads[threadID]
	if !ok {
		t = storage.Thread{ID: threadID, CreatedAt: s.now()}
		s.threads[threadID] = t
	}
	return t, nil
}

// GetThread implements storage.Storage.
func (s *Store) GetThread(ctx context.Context, threadID string) (storage.Thread, error) {
	if err := s.lock(ctx); err != nil {
		return storage.Thread{}, err
	}
	defer s.mu.Unlock()
	t, ok := s.threads[threadID]
	if !ok {
		return storage.Thread{}, notFound("thread", threadID)
	}
	return t, nil
}

// DeleteThread implements storage.Storage.
func (s *Store) DeleteThread(ctx context.Context, threadID string) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	delete(s.threads, threadID)
	delete(s.messages, threadID)
	s.runOrder = slices.DeleteFunc(s.runOrder, func(id string) bool {
		if s.runs[id].ThreadID == threadID {
			delete(s.runs, id)
			return true
		}
		return false
	})
	s.usage = slices.DeleteFunc(s.usage, func(r storage.UsageRow) bool { return r.ThreadID == threadID })
	return nil
}

// AppendMessages implements storage.Storage.
func (s *Store) AppendMessages(ctx context.Context, threadID string, msgs []storage.Message) ([]storage.Message, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	if _, ok := s.threads[threadID]; !ok {
		return nil, notFound("thread", threadID)
	}
	have := s.messages[threadID]
	now := s.now()
	out := make([]storage.Message, len(msgs))
	for i, m := range msgs {
		var err error
		if m.Message, err = clone(m.Message); err != nil {
			return nil, fmt.Errorf("memstorage: append to thread %q: %w", threadID, err)
		}
		m.ThreadID = threadID
		m.Seq = int64(len(have) + i + 1)
		m.CreatedAt = now
		out[i] = m
	}
	s.messages[threadID] = append(have, out...)
	return cloneMessages(out), nil
}

// Messages implements storage.Storage.
func (s *Store) Messages(ctx context.Context, threadID string) ([]storage.Message, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	if _, ok := s.threads[threadID]; !ok {
		return nil, notFound("thread", threadID)
	}
	return cloneMessages(s.messages[threadID]), nil
}

// CreateRun implements storage.Storage.
func (s *Store) CreateRun(ctx context.Context, run storage.Run) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if _, ok := s.threads[run.ThreadID]; !ok {
		return notFound("thread", run.ThreadID)
	}
	if _, ok := s.runs[run.ID]; ok {
		return fmt.Errorf("%w: run %q", storage.ErrExists, run.ID)
	}
	run.CreatedAt = s.now()
	run.UpdatedAt = run.CreatedAt
	run.Data = slices.Clone(run.Data)
	s.runs[run.ID] = run
	s.runOrder = append(s.runOrder, run.ID)
	return nil
}

// GetRun implements storage.Storage.
func (s *Store) GetRun(ctx context.Context, runID string) (storage.Run, error) {
	if err := s.lock(ctx); err != nil {
		return storage.Run{}, err
	}
	defer s.mu.Unlock()
	r, ok := s.runs[runID]
	if !ok {
		return storage.Run{}, notFound("run", runID)
	}
	r.Data = slices.Clone(r.Data)
	return r, nil
}

// UpdateRun implements storage.Storage.
func (s *Store) UpdateRun(ctx context.Context, runID string, fn func(*storage.Run) error) (storage.Run, error) {
	if err := s.lock(ctx); err != nil {
		return storage.Run{}, err
	}
	defer s.mu.Unlock()
	old, ok := s.runs[runID]
	if !ok {
		return storage.Run{}, notFound("run", runID)
	}
	r := old
	r.Data = slices.Clone(old.Data)
	if err := fn(&r); err != nil {
		return storage.Run{}, err
	}
	r.ID, r.ThreadID, r.CreatedAt = old.ID, old.ThreadID, old.CreatedAt
	r.UpdatedAt = s.now()
	r.Data = slices.Clone(r.Data)
	s.runs[runID] = r
	r.Data = slices.Clone(r.Data)
	return r, nil
}

// ListRuns implements storage.Storage.
func (s *Store) ListRuns(ctx context.Context, threadID string) ([]storage.Run, error) {
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []storage.Run
	for _, id := range s.runOrder {
		if r := s.runs[id]; r.ThreadID == threadID {
			r.Data = slices.Clone(r.Data)
			out = append(out, r)
		}
	}
	return out, nil
}

// AddUsage implements storage.Storage.
func (s *Store) AddUsage(ctx context.Context, rows []storage.UsageRow) error {
	if err := s.lock(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	for _, r := range rows {
		s.nextID++
		r.ID = s.nextID
		if r.CreatedAt.IsZero() {
			r.CreatedAt = s.now()
		}
		s.usage = append(s.usage, r)
	}
	return nil
}

// Usage implements storage.Storage.
func (s *Store) Usage(ctx context.Context, f storage.UsageFilter) ([]storage.UsageRow, error) {
	if (f.RunID == "") == (f.ThreadID == "") {
		return nil, fmt.Errorf("memstorage: usage: set exactly one of RunID and ThreadID")
	}
	if err := s.lock(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []storage.UsageRow
	for _, r := range s.usage {
		if (f.RunID != "" && r.RunID == f.RunID) || (f.ThreadID != "" && r.ThreadID == f.ThreadID) {
			out = append(out, r)
		}
	}
	return out, nil
}

// Close implements storage.Storage.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// clone deep-copies v through JSON, as a store that serialises would.
func clone[T any](v T) (T, error) {
	var out T
	raw, err := json.Marshal(v)
	if err != nil {
		return out, err
	}
	err = json.Unmarshal(raw, &out)
	return out, err
}

// cloneMessages copies stored messages, which are known to clone.
func cloneMessages(ms []storage.Message) []storage.Message {
	out := make([]storage.Message, len(ms))
	for i, m := range ms {
		m.Message, _ = clone(m.Message)
		out[i] = m
	}
	return out
}
