// Package sqlitekv is the embedded adapter of [kv.Store]: one SQLite file
// (through modernc.org/sqlite, pure Go, no cgo) that several processes on
// one machine can share at once, such as the workers of a single-host
// deployment or a CLI next to a server.
//
// # How it is safe across processes
//
//   - The file is in WAL mode, so readers never block the writer.
//   - Every connection has a busy timeout ([BusyTimeout]): a writer that
//     finds the file locked by another process waits for it instead of
//     failing.
//   - SetIfAbsent, CompareAndSwap and CompareAndDelete read and write in one
//     BEGIN IMMEDIATE transaction, which takes the write lock before it
//     reads, so no other process can write between the read and the write.
//   - Within one process, writes queue on a semaphore first, so goroutines
//     wait their turn fairly in Go (and honour their contexts) rather than
//     in SQLite's busy loop.
//   - Expiry is stored as unix milliseconds (0 for none) and checked in
//     every query against the caller's clock, so an expired row is absent
//     the instant its time has come, in every process, before any sweep.
//
// Expired rows are deleted by a sweep at Open and then at most once a
// minute, as part of a write. Values are BLOBs; multi-MiB values (the wasm
// adapter's snapshot blobs) are fine.
//
// # Schema
//
// One table, kv(key TEXT PRIMARY KEY, value BLOB NOT NULL, expires_at
// INTEGER NOT NULL), with an index on expires_at for the sweep.
package sqlitekv

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/agentenkit/agentenkit/internal/sqlitedb"
	"github.com/agentenkit/agentenkit/runtime/kv"
)

// BusyTimeout is how long a connection waits for another process's write
// lock before an operation fails with SQLITE_BUSY.
const BusyTimeout = sqlitedb.BusyTimeout

const sweepInterval = time.Minute

const schema = `
CREATE TABLE IF NOT EXISTS kv (
	key        TEXT PRIMARY KEY NOT NULL,
	value      BLOB NOT NULL,
	expires_at INTEGER NOT NULL DEFAULT 0 -- unix ms; 0: never
);
CREATE INDEX IF NOT EXISTS kv_expires_at ON kv (expires_at) WHERE expires_at > 0;
`

// live is the SQL condition for a row that has not expired; ?1 is now.
const live = `(expires_at = 0 OR expires_at > ?1)`

// Store is a [kv.Store] in one SQLite file, safe for concurrent use by
// goroutines and by processes. Make one with Open.
type Store struct {
	db     *sql.DB
	path   string
	writes chan struct{} // a one-slot semaphore: this process's writer
	closed atomic.Bool

	lastSweep atomic.Int64 // unix ms
}

var _ kv.Store = (*Store)(nil)

// Open opens (or creates) the store in the SQLite file at path, creating
// its parent folder. Other processes may have the same file open.
func Open(path string) (*Store, error) {
	db, abs, err := sqlitedb.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sqlitekv: open %q: %w", path, err)
	}
	s := &Store{db: db, path: abs, writes: make(chan struct{}, 1)}
	ctx := context.Background()
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitekv: open %q: create schema: %w", path, err)
	}
	if err := s.sweep(ctx, nowMillis()); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlitekv: open %q: %w", path, err)
	}
	return s, nil
}

// Path returns the absolute path of the store's file.
func (s *Store) Path() string { return s.path }

func nowMillis() int64 { return time.Now().UnixMilli() }

// expiresAt turns a TTL into the stored expiry: 0 for none, else unix ms,
// with a TTL below a millisecond rounded up to one.
func expiresAt(now int64, ttl time.Duration) (int64, error) {
	switch {
	case ttl < 0:
		return 0, fmt.Errorf("%w: %s", kv.ErrInvalidTTL, ttl)
	case ttl == 0:
		return 0, nil
	}
	ms := (ttl + time.Millisecond - 1) / time.Millisecond
	return now + int64(ms), nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// check is the start of every method.
func (s *Store) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return kv.ErrClosed
	}
	return nil
}

// fail wraps a backend error once, leaving context errors as they are.
func (s *Store) fail(ctx context.Context, op, key string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if s.closed.Load() {
		return kv.ErrClosed
	}
	return fmt.Errorf("sqlitekv: %s %q: %w", op, key, err)
}

// write runs fn as this process's only writer, then sweeps if one is due.
func (s *Store) write(ctx context.Context, fn func(now int64) error) error {
	select {
	case s.writes <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-s.writes }()
	now := nowMillis()
	if err := fn(now); err != nil {
		return err
	}
	if now-s.lastSweep.Load() >= sweepInterval.Milliseconds() {
		// Best effort: the write itself succeeded, and expired rows are
		// invisible anyway; a failed sweep is retried on a later write.
		_ = s.sweep(ctx, now)
	}
	return nil
}

func (s *Store) sweep(ctx context.Context, now int64) error {
	s.lastSweep.Store(now)
	if _, err := s.db.ExecContext(ctx, `DELETE FROM kv WHERE expires_at > 0 AND expires_at <= ?1`, now); err != nil {
		return fmt.Errorf("sweep: %w", err)
	}
	return nil
}

// tx runs fn in a BEGIN IMMEDIATE transaction (the DSN's _txlock), as
// this process's writer.
func (s *Store) tx(ctx context.Context, fn func(tx *sql.Tx, now int64) error) error {
	return s.write(ctx, func(now int64) error {
		tx, err := s.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err := fn(tx, now); err != nil {
			tx.Rollback()
			return err
		}
		return tx.Commit()
	})
}

// queryer is a *sql.DB or *sql.Tx.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// matches reports whether key's live value equals old byte for byte, or,
// for a nil old, whether key is absent. It compares in SQL, so a large
// value is not copied out.
func matches(ctx context.Context, q queryer, key string, old []byte, now int64) (bool, error) {
	var eq bool
	err := q.QueryRowContext(ctx, `SELECT value = ?3 FROM kv WHERE key = ?2 AND `+live, now, key, nonNil(old)).Scan(&eq)
	if errors.Is(err, sql.ErrNoRows) {
		return old == nil, nil
	}
	if err != nil {
		return false, err
	}
	return old != nil && eq, nil
}

// conditional runs a conditional write: if the condition (matches old)
// holds, write in the same BEGIN IMMEDIATE transaction, and report whether
// it ran. A condition already false in a plain read returns false without
// queuing for the write lock: a failed compare needs only one moment
// within the call when the value differed, and a read is such a moment.
// This keeps losers of a race off the writer's queue.
func (s *Store) conditional(ctx context.Context, key string, old []byte, write func(tx *sql.Tx, now int64) error) (bool, error) {
	ok, err := matches(ctx, s.db, key, old, nowMillis())
	if err != nil || !ok {
		return false, err
	}
	done := false
	err = s.tx(ctx, func(tx *sql.Tx, now int64) error {
		ok, err := matches(ctx, tx, key, old, now)
		if err != nil || !ok {
			return err
		}
		if err := write(tx, now); err != nil {
			return err
		}
		done = true
		return nil
	})
	return done, err
}

const upsert = `INSERT INTO kv (key, value, expires_at) VALUES (?1, ?2, ?3)
	ON CONFLICT (key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`

func notFound(key string) error { return fmt.Errorf("%w: %q", kv.ErrNotFound, key) }

// Get implements [kv.Store].
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	var v []byte
	err := s.db.QueryRowContext(ctx, `SELECT value FROM kv WHERE key = ?2 AND `+live, nowMillis(), key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound(key)
	}
	if err != nil {
		return nil, s.fail(ctx, "get", key, err)
	}
	return nonNil(v), nil
}

// Set implements [kv.Store].
func (s *Store) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	err := s.write(ctx, func(now int64) error {
		exp, err := expiresAt(now, ttl)
		if err != nil {
			return err
		}
		_, err = s.db.ExecContext(ctx, upsert, key, nonNil(value), exp)
		return err
	})
	if err != nil {
		if errors.Is(err, kv.ErrInvalidTTL) {
			return err
		}
		return s.fail(ctx, "set", key, err)
	}
	return nil
}

// Delete implements [kv.Store].
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	err := s.write(ctx, func(int64) error {
		_, err := s.db.ExecContext(ctx, `DELETE FROM kv WHERE key = ?1`, key)
		return err
	})
	if err != nil {
		return s.fail(ctx, "delete", key, err)
	}
	return nil
}

// SetIfAbsent implements [kv.Store].
func (s *Store) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	return s.cas(ctx, "set if absent", key, nil, value, ttl)
}

// CompareAndSwap implements [kv.Store].
func (s *Store) CompareAndSwap(ctx context.Context, key string, old, new []byte, ttl time.Duration) (bool, error) {
	return s.cas(ctx, "compare and swap", key, old, new, ttl)
}

func (s *Store) cas(ctx context.Context, op, key string, old, new []byte, ttl time.Duration) (bool, error) {
	if err := s.check(ctx); err != nil {
		return false, err
	}
	if ttl < 0 {
		return false, fmt.Errorf("%w: %s", kv.ErrInvalidTTL, ttl)
	}
	swapped, err := s.conditional(ctx, key, old, func(tx *sql.Tx, now int64) error {
		exp, _ := expiresAt(now, ttl)
		_, err := tx.ExecContext(ctx, upsert, key, nonNil(new), exp)
		return err
	})
	if err != nil {
		return false, s.fail(ctx, op, key, err)
	}
	return swapped, nil
}

// CompareAndDelete implements [kv.Store].
func (s *Store) CompareAndDelete(ctx context.Context, key string, old []byte) (bool, error) {
	if err := s.check(ctx); err != nil {
		return false, err
	}
	if old == nil {
		return false, nil // no stored value is nil: Get gives []byte{} for an empty one
	}
	deleted, err := s.conditional(ctx, key, old, func(tx *sql.Tx, _ int64) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM kv WHERE key = ?1`, key)
		return err
	})
	if err != nil {
		return false, s.fail(ctx, "compare and delete", key, err)
	}
	return deleted, nil
}

// Expire implements [kv.Store].
func (s *Store) Expire(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if err := s.check(ctx); err != nil {
		return false, err
	}
	if ttl < 0 {
		return false, fmt.Errorf("%w: %s", kv.ErrInvalidTTL, ttl)
	}
	var n int64
	err := s.write(ctx, func(now int64) error {
		exp, _ := expiresAt(now, ttl)
		res, err := s.db.ExecContext(ctx, `UPDATE kv SET expires_at = ?3 WHERE key = ?2 AND `+live, now, key, exp)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return false, s.fail(ctx, "expire", key, err)
	}
	return n == 1, nil
}

// TTL implements [kv.Store].
func (s *Store) TTL(ctx context.Context, key string) (time.Duration, error) {
	if err := s.check(ctx); err != nil {
		return 0, err
	}
	now := nowMillis()
	var exp int64
	err := s.db.QueryRowContext(ctx, `SELECT expires_at FROM kv WHERE key = ?2 AND `+live, now, key).Scan(&exp)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, notFound(key)
	}
	if err != nil {
		return 0, s.fail(ctx, "ttl", key, err)
	}
	if exp == 0 {
		return 0, nil
	}
	return time.Duration(exp-now) * time.Millisecond, nil
}

// Keys implements [kv.Store].
func (s *Store) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	// A range on the primary key, not LIKE: no escaping, and the index is
	// used. Keys compare bytewise (the BINARY collation), as Go strings do.
	query := `SELECT key FROM kv WHERE key >= ?2 AND ` + live
	args := []any{nowMillis(), prefix}
	if end, ok := prefixEnd(prefix); ok {
		query += ` AND key < ?3`
		args = append(args, end)
	}
	rows, err := s.db.QueryContext(ctx, query+` ORDER BY key`, args...)
	if err != nil {
		return nil, s.fail(ctx, "keys", prefix, err)
	}
	defer rows.Close()
	keys := []string{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, s.fail(ctx, "keys", prefix, err)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail(ctx, "keys", prefix, err)
	}
	return keys, nil
}

// prefixEnd returns the least string greater than every string with the
// prefix; ok is false when there is none (empty, or all 0xff bytes).
func prefixEnd(prefix string) (string, bool) {
	b := []byte(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1]), true
		}
	}
	return "", false
}

// Close implements [kv.Store]. It closes the store's connections; the
// file and its data stay.
func (s *Store) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	return s.db.Close()
}
