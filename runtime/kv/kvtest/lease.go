package kvtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

func acquire(t *testing.T, s kv.Store, key, owner string, ttl time.Duration) *kv.Lease {
	t.Helper()
	l, err := kv.AcquireLease(ctx(t), s, key, owner, ttl)
	must(t, err, "AcquireLease(%q, %q)", key, owner)
	return l
}

// wantLocked checks that owner cannot take key because holder has it.
func wantLocked(t *testing.T, s kv.Store, key, owner, holder string) {
	t.Helper()
	l, err := kv.AcquireLease(ctx(t), s, key, owner, time.Minute)
	if !errors.Is(err, kv.ErrLocked) {
		if l != nil {
			l.Release(context.Background())
		}
		t.Fatalf("AcquireLease(%q, %q) while %q holds it: err = %v, want kv.ErrLocked", key, owner, holder, err)
	}
	var le *kv.LockedError
	if !errors.As(err, &le) || le.Owner != holder {
		t.Fatalf("AcquireLease(%q, %q): error %v does not name the holder %q", key, owner, err, holder)
	}
}

var leaseCases = []testCase{
	{
		name: "LeaseExclusion",
		rule: "Of 50 owners calling AcquireLease on one free key at once, exactly one gets the lease; the others get an error matching kv.ErrLocked that names the holder.",
		run: func(t *testing.T, s kv.Store) {
			var (
				mu      sync.Mutex
				winners []*kv.Lease
				errs    []error
			)
			race(func(i int) {
				l, err := kv.AcquireLease(ctx(t), s, "run/thread-1", fmt.Sprintf("worker-%d", i), time.Minute)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					winners = append(winners, l)
				case !errors.Is(err, kv.ErrLocked):
					errs = append(errs, err)
				}
			})
			if len(errs) > 0 {
				t.Fatalf("%d AcquireLease calls failed with something other than kv.ErrLocked, first: %v", len(errs), errs[0])
			}
			if len(winners) != 1 {
				t.Fatalf("%d owners got the lease, want exactly one", len(winners))
			}
			wantLocked(t, s, "run/thread-1", "late-comer", winners[0].Owner())
			must(t, winners[0].Renew(ctx(t)), "Renew by the holder")
		},
	},
	{
		name: "LeaseTakeoverAfterCrash",
		rule: "A lease whose holder stops renewing (a crash) blocks others until its TTL passes, then the next AcquireLease takes it over; the old holder's Renew and Release then fail with kv.ErrLeaseLost and leave the new holder's lease alone.",
		run: func(t *testing.T, s kv.Store) {
			start := time.Now()
			a := acquire(t, s, "run/t", "crashed", shortTTL)
			var b *kv.Lease
			tries := 0
			took := waitFor(t, start, "the crashed holder's lease to be taken over", func() bool {
				tries++
				l, err := kv.AcquireLease(ctx(t), s, "run/t", "next", time.Minute)
				var le *kv.LockedError
				if errors.As(err, &le) {
					if le.Owner != "crashed" {
						t.Fatalf("AcquireLease while %q holds it: error %v does not name the holder", "crashed", err)
					}
					return false
				}
				must(t, err, "AcquireLease after the TTL")
				b = l
				return true
			})
			// took is measured after the winning call returned, start before
			// the crashed holder acquired: the lease was taken over early
			// only if even that is less than the TTL.
			if took < shortTTL-clockSlack {
				t.Fatalf("lease with TTL %s taken over after only %s (attempt %d)", shortTTL, took, tries)
			}
			if err := a.Renew(ctx(t)); !errors.Is(err, kv.ErrLeaseLost) {
				t.Fatalf("Renew by the crashed holder after takeover: err = %v, want kv.ErrLeaseLost", err)
			}
			if err := a.Release(ctx(t)); !errors.Is(err, kv.ErrLeaseLost) {
				t.Fatalf("Release by the crashed holder after takeover: err = %v, want kv.ErrLeaseLost", err)
			}
			wantLocked(t, s, "run/t", "third", "next")
			must(t, b.Renew(ctx(t)), "Renew by the new holder")
		},
	},
	{
		name: "LeaseRenewalKeepsIt",
		rule: "A holder that renews before each TTL runs out keeps the lease for as long as it renews, past many TTLs; others stay locked out.",
		run: func(t *testing.T, s kv.Store) {
			const ttl = 2 * shortTTL
			// renewed is when the last good renewal started: the lease is
			// surely live until renewed+ttl. Only a loss, or a takeover,
			// before then breaks the rule; one after it means this machine
			// stalled past the TTL, and the count starts again.
			renewed := time.Now()
			l := acquire(t, s, "run/t", "holder", ttl)
			held := renewed
			giveUp := time.Now().Add(patience)
			restart := func(why string) {
				if time.Now().After(giveUp) {
					t.Fatalf("could not renew on time for %s in %s: %s", 3*ttl, patience, why)
				}
				t.Logf("stalled (%s); counting again", why)
				must(t, s.Delete(ctx(t), "run/t"), "Delete")
				renewed = time.Now()
				l = acquire(t, s, "run/t", "holder", ttl)
				held = renewed
			}
			for renewed.Sub(held) < 3*ttl {
				time.Sleep(ttl / 6)
				start := time.Now()
				err := l.Renew(ctx(t))
				if err != nil {
					if !errors.Is(err, kv.ErrLeaseLost) || time.Since(renewed) < ttl-clockSlack {
						t.Fatalf("Renew %s after the last renewal: %v", time.Since(renewed).Round(time.Millisecond), err)
					}
					restart("a renewal came after the TTL")
					continue
				}
				renewed = start
				other, err := kv.AcquireLease(ctx(t), s, "run/t", "other", time.Minute)
				if !errors.Is(err, kv.ErrLocked) {
					must(t, err, "AcquireLease by another owner")
					if time.Since(renewed) < ttl-clockSlack {
						t.Fatalf("another owner took the lease %s after its renewal (TTL %s)", time.Since(renewed).Round(time.Millisecond), ttl)
					}
					other.Release(ctx(t))
					restart("the check came after the TTL")
				}
			}
			if d, err := s.TTL(ctx(t), "run/t"); err != nil || d > ttl {
				t.Fatalf("TTL of a renewed lease = %s, %v; want at most %s", d, err, ttl)
			}
		},
	},
	{
		name: "LeaseReleaseOnlyByOwner",
		rule: "Release deletes the key only while it still holds this lease: a holder's Release frees it for the next owner at once, a former holder's Release (after a takeover) reports kv.ErrLeaseLost and deletes nothing, and a second Release is a no-op.",
		run: func(t *testing.T, s kv.Store) {
			a := acquire(t, s, "run/t", "a", time.Minute)
			must(t, a.Release(ctx(t)), "Release by the holder")
			wantNotFound(t, s, "run/t")
			must(t, a.Release(ctx(t)), "second Release")
			if err := a.Renew(ctx(t)); !errors.Is(err, kv.ErrLeaseLost) {
				t.Fatalf("Renew after Release: err = %v, want kv.ErrLeaseLost", err)
			}

			b := acquire(t, s, "run/t", "b", time.Minute)
			// The key vanishes (an operator, or expiry) and c takes it.
			must(t, s.Delete(ctx(t), "run/t"), "Delete")
			c := acquire(t, s, "run/t", "c", time.Minute)
			if err := b.Release(ctx(t)); !errors.Is(err, kv.ErrLeaseLost) {
				t.Fatalf("Release by a former holder: err = %v, want kv.ErrLeaseLost", err)
			}
			wantLocked(t, s, "run/t", "d", "c")
			must(t, c.Release(ctx(t)), "Release by the current holder")
			acquire(t, s, "run/t", "d", time.Minute)
		},
	},
	{
		name: "LeaseSameOwner",
		rule: "AcquireLease by the owner that already holds the lease takes it over at once (a restarted worker); the older Lease then sees kv.ErrLeaseLost.",
		run: func(t *testing.T, s kv.Store) {
			old := acquire(t, s, "run/t", "worker-1", time.Minute)
			cur := acquire(t, s, "run/t", "worker-1", time.Minute)
			if err := old.Renew(ctx(t)); !errors.Is(err, kv.ErrLeaseLost) {
				t.Fatalf("Renew of the older lease: err = %v, want kv.ErrLeaseLost", err)
			}
			must(t, cur.Renew(ctx(t)), "Renew of the newer lease")
			wantLocked(t, s, "run/t", "worker-2", "worker-1")
		},
	},
	{
		name: "LeaseKeepAlive",
		rule: "KeepAlive renews in the background (the TTL goes back up) so the lease outlives its TTL; it stops silently (channel closed, nothing sent) on Release or when its context ends, and sends one kv.ErrLeaseLost when someone else overwrites the lease.",
		run: func(t *testing.T, s kv.Store) {
			// A TTL long next to the interval: KeepAlive itself loses the
			// lease only if this machine stalls it for most of a TTL.
			const ttl, every = 2 * time.Second, 100 * time.Millisecond

			// Kept alive past its TTL, then released.
			start := time.Now()
			a := acquire(t, s, "run/a", "holder", ttl)
			lost := a.KeepAlive(ctx(t), every)
			prev, err := s.TTL(ctx(t), "run/a")
			must(t, err, "TTL")
			renewals := 0
			waitFor(t, start, "KeepAlive to renew the lease past its TTL", func() bool {
				d, err := s.TTL(ctx(t), "run/a")
				must(t, err, "TTL of a lease kept alive, %s after it was acquired", time.Since(start).Round(time.Millisecond))
				if d > prev {
					renewals++
				}
				prev = d
				return renewals >= 3 && time.Since(start) > ttl+ttl/2
			})
			wantLocked(t, s, "run/a", "other", "holder")
			select {
			case err := <-lost:
				t.Fatalf("KeepAlive reported %v for a lease it kept", err)
			default:
			}
			must(t, a.Release(ctx(t)), "Release")
			wantClosedSilently(t, lost, "KeepAlive after Release")
			acquire(t, s, "run/a", "other", time.Minute)

			// Stopped by its context: then the lease runs out.
			b := acquire(t, s, "run/b", "holder", ttl)
			kctx, cancel := context.WithCancel(ctx(t))
			lost = b.KeepAlive(kctx, every)
			time.Sleep(3 * every)
			cancel()
			wantClosedSilently(t, lost, "KeepAlive after its context ended")
			waitFor(t, time.Now(), "the lease to run out once KeepAlive stopped", func() bool { return isNotFound(t, s, "run/b") })

			// Lost to an intruder.
			c := acquire(t, s, "run/c", "holder", time.Minute)
			lost = c.KeepAlive(ctx(t), every)
			must(t, s.Set(ctx(t), "run/c", []byte("intruder"), 0), "Set over the lease")
			select {
			case err, ok := <-lost:
				if !ok || !errors.Is(err, kv.ErrLeaseLost) {
					t.Fatalf("KeepAlive of an overwritten lease sent %v (open %v), want kv.ErrLeaseLost", err, ok)
				}
			case <-time.After(patience):
				t.Fatalf("KeepAlive did not report the overwritten lease within %s", patience)
			}
			wantClosedSilently(t, lost, "KeepAlive after reporting the loss")
			wantValue(t, s, "run/c", "intruder")
			if err := c.Release(ctx(t)); !errors.Is(err, kv.ErrLeaseLost) {
				t.Fatalf("Release of an overwritten lease: err = %v, want kv.ErrLeaseLost", err)
			}
			wantValue(t, s, "run/c", "intruder")
		},
	},
}

func wantClosedSilently(t *testing.T, ch <-chan error, what string) {
	t.Helper()
	select {
	case err, ok := <-ch:
		if ok {
			t.Fatalf("%s: sent %v, want the channel closed with nothing sent", what, err)
		}
	case <-time.After(patience):
		t.Fatalf("%s: channel still open after %s", what, patience)
	}
}
