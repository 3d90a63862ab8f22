package kv

import (
	"context"
	"errors"
	"time"
)

// Store is a key-value store with per-key TTLs and atomic conditional
// writes. Implementations are safe for concurrent use by many goroutines;
// sqlitekv and rediskv are also safe across processes.
//
// Values passed in are not retained (the store copies or sends them) and
// values returned are the caller's to keep and modify.
type Store interface {
	// Get returns the value of a live key. A missing or expired key gives
	// an error matching ErrNotFound.
	Get(ctx context.Context, key string) ([]byte, error)

	// Set stores value under key, replacing any value and TTL it had.
	// ttl 0 means the key never expires.
	Set(ctx context.Context, key string, value []byte, ttl time.Duration) error

	// Delete removes key. Deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error

	// SetIfAbsent stores value under key only if key is missing or expired,
	// atomically, and reports whether it did. Of many concurrent callers on
	// one absent key exactly one gets true.
	SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error)

	// CompareAndSwap replaces key's value with new (and its TTL with ttl)
	// only if the current live value equals old byte for byte, atomically,
	// and reports whether it did. A nil old means "key must be absent",
	// which makes it SetIfAbsent; an empty non-nil old matches a key that
	// holds the empty value. new may equal old: that only resets the TTL
	// (a lease renewal).
	CompareAndSwap(ctx context.Context, key string, old, new []byte, ttl time.Duration) (bool, error)

	// CompareAndDelete deletes key only if its current live value equals
	// old byte for byte, atomically, and reports whether it did (a lease
	// release). A missing key reports false.
	CompareAndDelete(ctx context.Context, key string, old []byte) (bool, error)

	// Expire sets a live key's TTL to ttl from now, pushing back (or
	// bringing forward) its end, and reports whether the key was there.
	// ttl 0 removes the expiry. A missing or expired key reports false.
	Expire(ctx context.Context, key string, ttl time.Duration) (bool, error)

	// TTL reports how long a live key has left, or 0 if it never expires.
	// A missing or expired key gives an error matching ErrNotFound.
	TTL(ctx context.Context, key string) (time.Duration, error)

	// Keys returns the live keys that start with prefix, sorted bytewise
	// ascending. An empty prefix lists every key. Keys is meant for
	// listings and garbage collection, not hot paths: it may scan.
	Keys(ctx context.Context, prefix string) ([]string, error)

	// Close releases the store's resources. A second Close returns nil;
	// every other method then returns ErrClosed.
	Close() error
}

var (
	// ErrNotFound is matched by the error for a missing or expired key.
	ErrNotFound = errors.New("kv: not found")

	// ErrClosed is returned by a store used after Close.
	ErrClosed = errors.New("kv: store closed")

	// ErrInvalidTTL is matched by the error for a negative TTL.
	ErrInvalidTTL = errors.New("kv: negative ttl")

	// ErrLocked is matched by the error AcquireLease returns when another
	// owner holds a live lease on the key. Its concrete type is
	// *LockedError, which names the holder.
	ErrLocked = errors.New("kv: locked")

	// ErrLeaseLost is matched by the error Renew, Release and KeepAlive
	// report once the lease is no longer ours: it expired, was taken over,
	// or was overwritten.
	ErrLeaseLost = errors.New("kv: lease lost")
)
