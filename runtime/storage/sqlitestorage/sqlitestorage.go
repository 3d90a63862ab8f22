// Package sqlitestorage is the embedded adapter of [storage.Storage]: one
// SQLite file (modernc.org/sqlite, pure Go) that several processes on one
// machine can share, such as the workers of a single-host deployment. It
// may be the same file as sqlitekv's: the tables do not collide.
//
// It is safe across processes the way sqlitekv is: WAL mode, a busy
// timeout, and every write in a BEGIN IMMEDIATE transaction (which takes
// the write lock before it reads, so UpdateRun's read-modify-write and the
// next Seq of a thread are atomic across processes). Within a process,
// writers queue on a semaphore first.
//
// # Schema
//
// threads(id), messages(thread_id, seq, run_id, role, parts JSON), runs(id,
// thread_id, agent, state, error, stop_requested, data), usage(id, run_id,
// thread_id, …); times are unix nanoseconds.
package sqlitestorage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/agentenkit/agentenkit/internal/sqlitedb"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

// BusyTimeout is how long a connection waits for another process's write
// lock before an operation fails.
const BusyTimeout = sqlitedb.BusyTimeout

const schema = `
CREATE TABLE IF NOT EXISTS threads (
	id         TEXT PRIMARY KEY NOT NULL,
	created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
	thread_id  TEXT NOT NULL,
	seq        INTEGER NOT NULL,
	run_id     TEXT NOT NULL DEFAULT '',
	role       TEXT NOT NULL,
	parts      TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (thread_id, seq)
);
CREATE TABLE IF NOT EXISTS runs (
	id             TEXT PRIMARY KEY NOT NULL,
	thread_id      TEXT NOT NULL,
	agent          TEXT NOT NULL DEFAULT '',
	state          TEXT NOT NULL DEFAULT '',
	error          TEXT NOT NULL DEFAULT '',
	stop_requested INTEGER NOT NULL DEFAULT 0,
	data           BLOB,
	created_at     INTEGER NOT NULL,
	updated_at     INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_thread ON runs (thread_id, created_at);
CREATE TABLE IF NOT EXISTS usage (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	run_id        TEXT NOT NULL,
	thread_id     TEXT NOT NULL,
	agent         TEXT NOT NULL DEFAULT '',
	kind          TEXT NOT NULL,
	model         TEXT NOT NULL DEFAULT '',
	model_id      TEXT NOT NULL DEFAULT '',
	tool_call_id  TEXT NOT NULL DEFAULT '',
	input_tokens  INTEGER NOT NULL DEFAULT 0,
	output_tokens INTEGER NOT NULL DEFAULT 0,
	seconds       REAL NOT NULL DEFAULT 0,
	created_at    INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_run ON usage (run_id);
CREATE INDEX IF NOT EXISTS usage_thread ON usage (thread_id);
`

// Store is a [storage.Storage] in one SQLite file, safe for concurrent use
// by goroutines and processes. Make one with Open.
type Store struct {
	db     *sql.DB
	path   string
	writes chan struct{} // a one-slot semaphore: this process's writer
	closed atomic.Bool
}

var _ storage.Storage = (*Store)(nil)

// Open opens (or creates) the store in the SQLite file at path, creating
// its parent folder. Other processes, and a sqlitekv store, may have the
// same file open.
func Open(path string) (*Store, error) {
	db, abs, err := sqlitedb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sqlitestorage: open %q: %w", path, err)
	}
	s := &Store{db: db, path: abs, writes: make(chan struct{}, 1)}
	if err := s.tx(context.Background(), func(tx *sql.Tx) error {
		_, err := tx.Exec(schema)
		return err
	}); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitestorage: open %q: create schema: %w", path, err)
	}
	return s, nil
}

// Path returns the absolute path of the store's file.
func (s *Store) Path() string { return s.path }

func (s *Store) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return storage.ErrClosed
	}
	return nil
}

// fail wraps a backend error once, leaving ours and ctx's as they are.
func (s *Store) fail(ctx context.Context, op string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if s.closed.Load() {
		return storage.ErrClosed
	}
	if errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrExists) {
		return err
	}
	return fmt.Errorf("sqlitestorage: %s: %w", op, err)
}

// tx runs fn in a BEGIN IMMEDIATE transaction, as this process's writer.
func (s *Store) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	select {
	case s.writes <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.writes }()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

func nanos(t time.Time) int64     { return t.UnixNano() }
func fromNanos(n int64) time.Time { return time.Unix(0, n) }

func notFound(what, id string) error { return fmt.Errorf("%w: %s %q", storage.ErrNotFound, what, id) }

// EnsureThread implements storage.Storage.
func (s *Store) EnsureThread(ctx context.Context, threadID string) (storage.Thread, error) {
	if err := s.check(ctx); err != nil {
		return storage.Thread{}, err
	}
	var t storage.Thread
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO threads (id, created_at) VALUES (?1, ?2)`, threadID, nanos(time.Now())); err != nil {
			return err
		}
		var err error
		t, err = getThread(ctx, tx, threadID)
		return err
	})
	if err != nil {
		return storage.Thread{}, s.fail(ctx, "ensure thread "+threadID, err)
	}
	return t, nil
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func getThread(ctx context.Context, q queryer, id string) (storage.Thread, error) {
	var created int64
	err := q.QueryRowContext(ctx, `SELECT created_at FROM threads WHERE id = ?1`, id).Scan(&created)
	if errors.Is(err, sql.ErrNoRows) {
		return storage.Thread{}, notFound("thread", id)
	}
	if err != nil {
		return storage.Thread{}, err
	}
	return storage.Thread{ID: id, CreatedAt: fromNanos(created)}, nil
}

// GetThread implements storage.Storage.
func (s *Store) GetThread(ctx context.Context, threadID string) (storage.Thread, error) {
	if err := s.check(ctx); err != nil {
		return storage.Thread{}, err
	}
	t, err := getThread(ctx, s.db, threadID)
	if err != nil {
		return storage.Thread{}, s.fail(ctx, "get thread "+threadID, err)
	}
	return t, nil
}

// DeleteThread implements storage.Storage.
func (s *Store) DeleteThread(ctx context.Context, threadID string) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			`DELETE FROM messages WHERE thread_id = ?1`,
			`DELETE FROM runs WHERE thread_id = ?1`,
			`DELETE FROM usage WHERE thread_id = ?1`,
			`DELETE FROM threads WHERE id = ?1`,
		} {
			if _, err := tx.ExecContext(ctx, q, threadID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return s.fail(ctx, "delete thread "+threadID, err)
	}
	return nil
}

// AppendMessages implements storage.Storage.
func (s *Store) AppendMessages(ctx context.Context, threadID string, msgs []storage.Message) ([]storage.Message, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	out := make([]storage.Message, len(msgs))
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := getThread(ctx, tx, threadID); err != nil {
			return err
		}
		var last int64
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM messages WHERE thread_id = ?1`, threadID).Scan(&last); err != nil {
			return err
		}
		now := time.Now()
		for i, m := range msgs {
			parts, err := json.Marshal(m.Parts)
			if err != nil {
				return fmt.Errorf("message %d: %w", i, err)
			}
			m.ThreadID, m.Seq, m.CreatedAt = threadID, last+int64(i)+1, now
			if _, err := tx.ExecContext(ctx,
				`INSERT INTO messages (thread_id, seq, run_id, role, parts, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)`,
				threadID, m.Seq, m.RunID, string(m.Role), string(parts), nanos(now)); err != nil {
				return err
			}
			if err := json.Unmarshal(parts, &m.Parts); err != nil {
				return err
			}
			out[i] = m
		}
		return nil
	})
	if err != nil {
		return nil, s.fail(ctx, "append to thread "+threadID, err)
	}
	return out, nil
}

// Messages implements storage.Storage.
func (s *Store) Messages(ctx context.Context, threadID string) ([]storage.Message, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	msgs, err := s.messages(ctx, threadID)
	if err != nil {
		return nil, s.fail(ctx, "messages of thread "+threadID, err)
	}
	return msgs, nil
}

func (s *Store) messages(ctx context.Context, threadID string) ([]storage.Message, error) {
	if _, err := getThread(ctx, s.db, threadID); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT seq, run_id, role, parts, created_at FROM messages WHERE thread_id = ?1 ORDER BY seq`, threadID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	msgs := []storage.Message{}
	for rows.Next() {
		var (
			m       storage.Message
			role    string
			parts   string
			created int64
		)
		if err := rows.Scan(&m.Seq, &m.RunID, &role, &parts, &created); err != nil {
			return nil, err
		}
		m.ThreadID, m.Role, m.CreatedAt = threadID, model.Role(role), fromNanos(created)
		if err := json.Unmarshal([]byte(parts), &m.Parts); err != nil {
			return nil, fmt.Errorf("message %d: %w", m.Seq, err)
		}
		msgs = append(msgs, m)
	}
	return msgs, rows.Err()
}

const runColumns = `id, thread_id, agent, state, error, stop_requested, data, created_at, updated_at`

type scanner interface{ Scan(dest ...any) error }

func scanRun(sc scanner) (storage.Run, error) {
	var (
		r                storage.Run
		stop             int64
		data             []byte
		created, updated int64
	)
	if err := sc.Scan(&r.ID, &r.ThreadID, &r.Agent, &r.State, &r.Error, &stop, &data, &created, &updated); err != nil {
		return storage.Run{}, err
	}
	r.StopRequested = stop != 0
	if len(data) > 0 {
		r.Data = json.RawMessage(data)
	}
	r.CreatedAt, r.UpdatedAt = fromNanos(created), fromNanos(updated)
	return r, nil
}

func getRun(ctx context.Context, q queryer, id string) (storage.Run, error) {
	r, err := scanRun(q.QueryRowContext(ctx, `SELECT `+runColumns+` FROM runs WHERE id = ?1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return storage.Run{}, notFound("run", id)
	}
	return r, err
}

func dataArg(d json.RawMessage) any {
	if len(d) == 0 {
		return nil
	}
	return []byte(d)
}

// CreateRun implements storage.Storage.
func (s *Store) CreateRun(ctx context.Context, run storage.Run) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := getThread(ctx, tx, run.ThreadID); err != nil {
			return err
		}
		if _, err := getRun(ctx, tx, run.ID); err == nil {
			return fmt.Errorf("%w: run %q", storage.ErrExists, run.ID)
		} else if !errors.Is(err, storage.ErrNotFound) {
			return err
		}
		now := nanos(time.Now())
		_, err := tx.ExecContext(ctx, `INSERT INTO runs (`+runColumns+`) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)`,
			run.ID, run.ThreadID, run.Agent, run.State, run.Error, run.StopRequested, dataArg(run.Data), now)
		return err
	})
	if err != nil {
		return s.fail(ctx, "create run "+run.ID, err)
	}
	return nil
}

// GetRun implements storage.Storage.
func (s *Store) GetRun(ctx context.Context, runID string) (storage.Run, error) {
	if err := s.check(ctx); err != nil {
		return storage.Run{}, err
	}
	r, err := getRun(ctx, s.db, runID)
	if err != nil {
		return storage.Run{}, s.fail(ctx, "get run "+runID, err)
	}
	return r, nil
}

// errAbort carries fn's own error out of the transaction unwrapped.
type errAbort struct{ err error }

func (e errAbort) Error() string { return e.err.Error() }

// UpdateRun implements storage.Storage.
func (s *Store) UpdateRun(ctx context.Context, runID string, fn func(*storage.Run) error) (storage.Run, error) {
	if err := s.check(ctx); err != nil {
		return storage.Run{}, err
	}
	var out storage.Run
	err := s.tx(ctx, func(tx *sql.Tx) error {
		old, err := getRun(ctx, tx, runID)
		if err != nil {
			return err
		}
		r := old
		if err := fn(&r); err != nil {
			return errAbort{err}
		}
		r.ID, r.ThreadID, r.CreatedAt = old.ID, old.ThreadID, old.CreatedAt
		r.UpdatedAt = time.Now()
		if _, err := tx.ExecContext(ctx,
			`UPDATE runs SET agent = ?2, state = ?3, error = ?4, stop_requested = ?5, data = ?6, updated_at = ?7 WHERE id = ?1`,
			r.ID, r.Agent, r.State, r.Error, r.StopRequested, dataArg(r.Data), nanos(r.UpdatedAt)); err != nil {
			return err
		}
		out = r
		return nil
	})
	var abort errAbort
	if errors.As(err, &abort) {
		return storage.Run{}, abort.err
	}
	if err != nil {
		return storage.Run{}, s.fail(ctx, "update run "+runID, err)
	}
	return out, nil
}

// ListRuns implements storage.Storage.
func (s *Store) ListRuns(ctx context.Context, threadID string) ([]storage.Run, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+runColumns+` FROM runs WHERE thread_id = ?1 ORDER BY created_at, rowid`, threadID)
	if err != nil {
		return nil, s.fail(ctx, "list runs of thread "+threadID, err)
	}
	defer rows.Close()
	var out []storage.Run
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, s.fail(ctx, "list runs of thread "+threadID, err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(ctx, "list runs of thread "+threadID, err)
	}
	return out, nil
}

// AddUsage implements storage.Storage.
func (s *Store) AddUsage(ctx context.Context, rows []storage.UsageRow) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	err := s.tx(ctx, func(tx *sql.Tx) error {
		now := time.Now()
		for _, r := range rows {
			if r.CreatedAt.IsZero() {
				r.CreatedAt = now
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO usage
				(run_id, thread_id, agent, kind, model, model_id, tool_call_id, input_tokens, output_tokens, seconds, created_at)
				VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)`,
				r.RunID, r.ThreadID, r.Agent, r.Kind, r.Model, r.ModelID, r.ToolCallID,
				r.InputTokens, r.OutputTokens, r.Seconds, nanos(r.CreatedAt)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return s.fail(ctx, "add usage", err)
	}
	return nil
}

// Usage implements storage.Storage.
func (s *Store) Usage(ctx context.Context, f storage.UsageFilter) ([]storage.UsageRow, error) {
	if (f.RunID == "") == (f.ThreadID == "") {
		return nil, errors.New("sqlitestorage: usage: set exactly one of RunID and ThreadID")
	}
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	col, val := "run_id", f.RunID
	if f.RunID == "" {
		col, val = "thread_id", f.ThreadID
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, run_id, thread_id, agent, kind, model, model_id, tool_call_id,
		input_tokens, output_tokens, seconds, created_at FROM usage WHERE `+col+` = ?1 ORDER BY id`, val)
	if err != nil {
		return nil, s.fail(ctx, "usage", err)
	}
	defer rows.Close()
	var out []storage.UsageRow
	for rows.Next() {
		var (
			r       storage.UsageRow
			created int64
		)
		if err := rows.Scan(&r.ID, &r.RunID, &r.ThreadID, &r.Agent, &r.Kind, &r.Model, &r.ModelID, &r.ToolCallID,
			&r.InputTokens, &r.OutputTokens, &r.Seconds, &created); err != nil {
			return nil, s.fail(ctx, "usage", err)
		}
		r.CreatedAt = fromNanos(created)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(ctx, "usage", err)
	}
	return out, nil
}

// Close implements storage.Storage.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.db.Close()
}
