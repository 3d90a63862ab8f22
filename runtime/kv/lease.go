package kv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// A Lease is a time-limited claim on a key, held by one owner at a time
// across every process that shares the store: the run lock of a thread.
// It is built only on [Store]'s atomic methods, so it works the same on
// every adapter.
//
// The key holds an encoded value naming the owner and a token unique to
// this Lease. The holder keeps the lease by renewing it before its TTL
// runs out (Renew, or KeepAlive in the background). A holder that crashes
// stops renewing; once the TTL has passed, the next AcquireLease takes it
// over.
//
// A Lease is safe for concurrent use.
type Lease struct {
	store Store
	key   string
	owner string
	ttl   time.Duration
	value []byte

	mu       sync.Mutex
	released bool
	stops    []context.CancelFunc
	wg       sync.WaitGroup
}

// LockedError is the error AcquireLease returns when another owner holds
// the lease. It matches [ErrLocked].
type LockedError struct {
	Key   string        // the lease's key
	Owner string        // the current holder, "" if unknown (not a lease value)
	TTL   time.Duration // how long the holder's lease has left, 0 if unknown
}

func (e *LockedError) Error() string {
	msg := fmt.Sprintf("kv: lease %q is held", e.Key)
	if e.Owner != "" {
		msg += fmt.Sprintf(" by %q", e.Owner)
	}
	if e.TTL > 0 {
		msg += fmt.Sprintf(" for another %s", e.TTL.Round(time.Millisecond))
	}
	return msg
}

// Is reports whether target is ErrLocked.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

const leaseMagic = "kvlease1 "

// AcquireLease claims key for owner for ttl, and returns the Lease.
//
//   - If the key is missing or its lease has expired (a crashed holder),
//     the lease is taken.
//   - If another owner holds a live lease, the error is a *[LockedError]
//     matching [ErrLocked]. AcquireLease does not wait: callers retry.
//   - If owner itself holds the lease (say, a restarted worker with a
//     stable name), it is taken over at once; the older *Lease then sees
//     [ErrLeaseLost]. Give each holder that must exclude others a unique
//     owner (a run id), not a shared one.
//
// ttl must be positive (a lease that never expires could never be taken
// over after a crash); owner must not be empty.
func AcquireLease(ctx context.Context, store Store, key, owner string, ttl time.Duration) (*Lease, error) {
	if ttl <= 0 {
		return nil, fmt.Errorf("kv: acquire lease %q: ttl must be positive, got %s: %w", key, ttl, ErrInvalidTTL)
	}
	if owner == "" {
		return nil, fmt.Errorf("kv: acquire lease %q: empty owner", key)
	}
	var tok [16]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return nil, fmt.Errorf("kv: acquire lease %q: %w", key, err)
	}
	l := &Lease{
		store: store,
		key:   key,
		owner: owner,
		ttl:   ttl,
		value: []byte(leaseMagic + hex.EncodeToString(tok[:]) + " " + owner),
	}
	// Each round either wins or sees a state that changed since the last
	// call (a lease that ended or was taken between our calls); a handful
	// of rounds settles any realistic race.
	for range 8 {
		ok, err := store.SetIfAbsent(ctx, key, l.value, ttl)
		if err != nil {
			return nil, fmt.Errorf("kv: acquire lease %q: %w", key, err)
		}
		if ok {
			return l, nil
		}
		cur, err := store.Get(ctx, key)
		if errors.Is(err, ErrNotFound) {
			continue // ended between our calls
		}
		if err != nil {
			return nil, fmt.Errorf("kv: acquire lease %q: %w", key, err)
		}
		holder, isLease := leaseOwner(cur)
		if isLease && holder == owner {
			ok, err := store.CompareAndSwap(ctx, key, cur, l.value, ttl)
			if err != nil {
				return nil, fmt.Errorf("kv: acquire lease %q: %w", key, err)
			}
			if ok {
				return l, nil
			}
			continue
		}
		left, err := store.TTL(ctx, key)
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("kv: acquire lease %q: %w", key, err)
		}
		return nil, &LockedError{Key: key, Owner: holder, TTL: left}
	}
	return nil, &LockedError{Key: key}
}

// LeaseOwner returns the owner named by a lease's value, as read with
// Get from a leased key; ok is false for a value that is not a lease. The
// value is "kvlease1 <token> <owner>", the token unique to each
// AcquireLease.
func LeaseOwner(value []byte) (owner string, ok bool) { return leaseOwner(value) }

// leaseOwner decodes a lease value; ok is false for a value that is not one.
func leaseOwner(v []byte) (owner string, ok bool) {
	s, ok := strings.CutPrefix(string(v), leaseMagic)
	if !ok {
		return "", false
	}
	_, owner, ok = strings.Cut(s, " ")
	return owner, ok
}

// Key returns the leased key.
func (l *Lease) Key() string { return l.key }

// Owner returns the owner the lease was acquired for.
func (l *Lease) Owner() string { return l.owner }

// TTL returns the lease's time to live, which each renewal starts again.
func (l *Lease) TTL() time.Duration { return l.ttl }

func (l *Lease) lost(why string) error {
	return fmt.Errorf("%w: %q %s", ErrLeaseLost, l.key, why)
}

// Renew starts the lease's TTL again from now, if the lease is still ours.
// It fails with an error matching [ErrLeaseLost] if the lease expired
// (even if nobody has taken it since: someone could have), was taken over
// or overwritten, or was released.
func (l *Lease) Renew(ctx context.Context) error {
	l.mu.Lock()
	released := l.released
	l.mu.Unlock()
	if released {
		return l.lost("was released")
	}
	ok, err := l.store.CompareAndSwap(ctx, l.key, l.value, l.value, l.ttl)
	if err != nil {
		return fmt.Errorf("kv: renew lease %q: %w", l.key, err)
	}
	if !ok {
		return l.lost("expired or was taken over")
	}
	return nil
}

// Release stops every KeepAlive of the lease, then deletes the key if it
// still holds this lease (compare-and-delete, so a lease that was taken
// over is left to its new holder). It returns an error matching
// [ErrLeaseLost] if the lease was no longer ours; callers that only clean
// up may ignore it. A second Release returns nil.
//
// Release uses ctx for the delete: in a deferred call after work that may
// be cancelled, pass context.WithoutCancel(ctx). If the delete fails the
// lease stays until its TTL runs out.
func (l *Lease) Release(ctx context.Context) error {
	l.mu.Lock()
	if l.released {
		l.mu.Unlock()
		return nil
	}
	// Cancel under the lock, before released is visible: a KeepAlive that
	// then sees released also sees its context done, and reports nothing.
	for _, stop := range l.stops {
		stop()
	}
	l.stops = nil
	l.released = true
	l.mu.Unlock()
	l.wg.Wait()

	ok, err := l.store.CompareAndDelete(ctx, l.key, l.value)
	if err != nil {
		return fmt.Errorf("kv: release lease %q: %w", l.key, err)
	}
	if !ok {
		return l.lost("expired or was taken over before release")
	}
	return nil
}

// KeepAlive renews the lease every interval in the background until ctx
// is done, the lease is released, or it is lost. An interval of 0 or less
// means a third of the TTL.
//
// The returned channel receives at most one error, matching
// [ErrLeaseLost], when the lease is lost: a renewal found it taken over or
// expired, or renewals kept failing (say, the store is unreachable) until a
// whole TTL passed since the last good one. The channel is closed when
// KeepAlive stops for any reason; a stop by ctx or Release sends nothing.
// Holders doing work under the lease should watch it and stop the work.
func (l *Lease) KeepAlive(ctx context.Context, interval time.Duration) <-chan error {
	if interval <= 0 {
		interval = l.ttl / 3
	}
	ch := make(chan error, 1)
	kctx, cancel := context.WithCancel(ctx)
	l.mu.Lock()
	if l.released {
		l.mu.Unlock()
		cancel()
		ch <- l.lost("was released")
		close(ch)
		return ch
	}
	l.stops = append(l.stops, cancel)
	l.wg.Add(1)
	l.mu.Unlock()

	go func() {
		defer l.wg.Done()
		defer close(ch)
		defer cancel()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		lastOK := time.Now()
		for {
			select {
			case <-kctx.Done():
				return
			case <-tick.C:
			}
			err := l.Renew(kctx)
			switch {
			case err == nil:
				lastOK = time.Now()
			case kctx.Err() != nil:
				return
			case errors.Is(err, ErrLeaseLost):
				ch <- err
				return
			case time.Since(lastOK) >= l.ttl:
				ch <- fmt.Errorf("%w: %q not renewed for %s: %w", ErrLeaseLost, l.key, l.ttl, err)
				return
			}
		}
	}()
	return ch
}
