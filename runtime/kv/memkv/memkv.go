// Package memkv is the in-process adapter of [kv.Store]: a map guarded by
// a mutex, with per-key TTLs. It is for tests and for a single process; its
// data ends with the process.
//
// Expired keys are invisible at once (every read checks the clock) and are
// freed by a sweep that runs every so often as part of a write, so memory
// does not grow with keys nobody reads again. There is no background
// goroutine.
//
// The clock is injectable ([Options].Now), so tests of TTL logic built on
// memkv can be exact instead of sleeping.
package memkv

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// Options configure a Store. The zero value is ready to use.
type Options struct {
	// Now returns the current time. Nil means time.Now. A fake clock makes
	// expiry exact: a key with TTL d is live while Now() < set time + d.
	Now func() time.Time
}

// The sweep of expired keys runs on a write once sweepEvery writes or
// sweepInterval of clock time have passed since the last one.
const (
	sweepEvery    = 1024
	sweepInterval = time.Minute
)

// Store is an in-memory [kv.Store], safe for concurrent use. Make one with
// New.
type Store struct {
	now func() time.Time

	mu        sync.Mutex
	m         map[string]entry
	closed    bool
	writes    int
	lastSweep time.Time
}

type entry struct {
	value   []byte
	expires time.Time // zero: never
}

func (e entry) live(now time.Time) bool {
	return e.expires.IsZero() || now.Before(e.expires)
}

var _ kv.Store = (*Store)(nil)

// New returns an empty Store.
func New(opts Options) *Store {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Store{now: now, m: make(map[string]entry), lastSweep: now()}
}

// expiry turns a TTL into an expiry time; zero for no expiry.
func expiry(now time.Time, ttl time.Duration) (time.Time, error) {
	switch {
	case ttl < 0:
		return time.Time{}, fmt.Errorf("%w: %s", kv.ErrInvalidTTL, ttl)
	case ttl == 0:
		return time.Time{}, nil
	case ttl < time.Millisecond:
		ttl = time.Millisecond
	}
	return now.Add(ttl), nil
}

// begin checks ctx and the closed state, and locks the store. On success
// the caller must unlock s.mu.
func (s *Store) begin(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return kv.ErrClosed
	}
	return nil
}

// lookup returns key's live entry; the caller holds s.mu.
func (s *Store) lookup(key string, now time.Time) (entry, bool) {
	e, ok := s.m[key]
	if ok && !e.live(now) {
		delete(s.m, key)
		return entry{}, false
	}
	return e, ok
}

// put stores an entry and sweeps now and then; the caller holds s.mu.
func (s *Store) put(key string, value []byte, expires time.Time, now time.Time) {
	s.m[key] = entry{value: bytes.Clone(nonNil(value)), expires: expires}
	s.wrote(now)
}

func (s *Store) wrote(now time.Time) {
	s.writes++
	if s.writes < sweepEvery && now.Sub(s.lastSweep) < sweepInterval {
		return
	}
	s.writes, s.lastSweep = 0, now
	for k, e := range s.m {
		if !e.live(now) {
			delete(s.m, k)
		}
	}
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func notFound(key string) error { return fmt.Errorf("%w: %q", kv.ErrNotFound, key) }

// Get implements [kv.Store].
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	if err := s.begin(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	e, ok := s.lookup(key, s.now())
	if !ok {
		return nil, notFound(key)
	}
	return bytes.Clone(e.value), nil
}

// Set implements [kv.Store].
func (s *Store) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := s.begin(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	now := s.now()
	exp, err := expiry(now, ttl)
	if err != nil {
		return err
	}
	s.put(key, value, exp, now)
	return nil
}

// Delete implements [kv.Store].
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := s.begin(ctx); err != nil {
		return err
	}
	defer s.mu.Unlock()
	delete(s.m, key)
	return nil
}

// SetIfAbsent implements [kv.Store].
func (s *Store) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	return s.CompareAndSwap(ctx, key, nil, value, ttl)
}

// CompareAndSwap implements [kv.Store].
func (s *Store) CompareAndSwap(ctx context.Context, key string, old, new []byte, ttl time.Duration) (bool, error) {
	if err := s.begin(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	now := s.now()
	exp, err := expiry(now, ttl)
	if err != nil {
		return false, err
	}
	e, ok := s.lookup(key, now)
	if old == nil && ok || old != nil && (!ok || !bytes.Equal(e.value, old)) {
		return false, nil
	}
	s.put(key, new, exp, now)
	return true, nil
}

// CompareAndDelete implements [kv.Store].
func (s *Store) CompareAndDelete(ctx context.Context, key string, old []byte) (bool, error) {
	if err := s.begin(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	e, ok := s.lookup(key, s.now())
	if !ok || !bytes.Equal(e.value, old) {
		return false, nil
	}
	delete(s.m, key)
	return true, nil
}

// Expire implements [kv.Store].
func (s *Store) Expire(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if err := s.begin(ctx); err != nil {
		return false, err
	}
	defer s.mu.Unlock()
	now := s.now()
	exp, err := expiry(now, ttl)
	if err != nil {
		return false, err
	}
	e, ok := s.lookup(key, now)
	if !ok {
		return false, nil
	}
	e.expires = exp
	s.m[key] = e
	s.wrote(now)
	return true, nil
}

// TTL implements [kv.Store].
func (s *Store) TTL(ctx context.Context, key string) (time.Duration, error) {
	if err := s.begin(ctx); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	now := s.now()
	e, ok := s.lookup(key, now)
	if !ok {
		return 0, notFound(key)
	}
	if e.expires.IsZero() {
		return 0, nil
	}
	return e.expires.Sub(now), nil
}

// Keys implements [kv.Store].
func (s *Store) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := s.begin(ctx); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	now := s.now()
	keys := []string{}
	for k, e := range s.m {
		if strings.HasPrefix(k, prefix) && e.live(now) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys, nil
}

// Close implements [kv.Store]. It drops every key.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.m = nil
	return nil
}
