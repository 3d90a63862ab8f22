package kvtest

import (
	"errors"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

var ttlCases = []testCase{
	{
		name: "TTLExpiry",
		rule: "A key set with a TTL is live until the TTL has passed, and then gone (kv.ErrNotFound); a key set with TTL 0 stays.",
		run: func(t *testing.T, s kv.Store) {
			start := time.Now()
			must(t, s.Set(ctx(t), "short", []byte("v"), shortTTL), "Set with TTL")
			must(t, s.Set(ctx(t), "forever", []byte("v"), 0), "Set without TTL")
			if isNotFound(t, s, "short") && time.Since(start) < shortTTL-clockSlack {
				t.Fatalf("key with TTL %s gone after only %s", shortTTL, time.Since(start))
			}
			gone := waitFor(t, start, "the key with a TTL to expire", func() bool { return isNotFound(t, s, "short") })
			// gone is measured after the Get that saw it missing returned,
			// and start before the Set: the key may not have vanished
			// before its TTL.
			if gone < shortTTL-clockSlack {
				t.Fatalf("key with TTL %s gone after %s", shortTTL, gone)
			}
			wantValue(t, s, "forever", "v")
		},
	},
	{
		name: "ExpiredIsAbsent",
		rule: "An expired key is absent for every method: Get and TTL give kv.ErrNotFound, Expire, CompareAndSwap and CompareAndDelete report false, SetIfAbsent takes the key, Keys leaves it out.",
		run: func(t *testing.T, s kv.Store) {
			start := time.Now()
			must(t, s.Set(ctx(t), "e", []byte("old"), shortTTL), "Set")
			must(t, s.Set(ctx(t), "e2", []byte("old"), shortTTL), "Set")
			waitFor(t, start, "the keys to expire", func() bool {
				return isNotFound(t, s, "e") && isNotFound(t, s, "e2")
			})
			if _, err := s.TTL(ctx(t), "e"); !errors.Is(err, kv.ErrNotFound) {
				t.Fatalf("TTL of an expired key: err = %v, want kv.ErrNotFound", err)
			}
			ok, err := s.Expire(ctx(t), "e", time.Minute)
			wantBool(t, "Expire of an expired key", ok, err, false)
			wantNotFound(t, s, "e") // Expire must not have revived it
			ok, err = s.CompareAndSwap(ctx(t), "e", []byte("old"), []byte("new"), 0)
			wantBool(t, "CompareAndSwap of an expired key against its old value", ok, err, false)
			ok, err = s.CompareAndDelete(ctx(t), "e", []byte("old"))
			wantBool(t, "CompareAndDelete of an expired key", ok, err, false)
			keys, err := s.Keys(ctx(t), "")
			must(t, err, "Keys")
			if len(keys) != 0 {
				t.Fatalf("Keys after expiry = %q, want none", keys)
			}
			ok, err = s.SetIfAbsent(ctx(t), "e", []byte("fresh"), 0)
			wantBool(t, "SetIfAbsent of an expired key", ok, err, true)
			wantValue(t, s, "e", "fresh")
			ok, err = s.CompareAndSwap(ctx(t), "e2", nil, []byte("fresh"), 0)
			wantBool(t, "CompareAndSwap(old nil) of an expired key", ok, err, true)
			wantValue(t, s, "e2", "fresh")
			if d, err := s.TTL(ctx(t), "e"); err != nil || d != 0 {
				t.Fatalf("TTL of the key retaken without TTL = %s, %v; want 0 (the old TTL must not carry over)", d, err)
			}
		},
	},
	{
		name: "ExpirePushesBack",
		rule: "Expire(key, d) moves a live key's end to d from now (later or sooner), Expire(key, 0) removes it, and Expire reports whether the key was there.",
		run: func(t *testing.T, s kv.Store) {
			const first = 2 * time.Second
			start := time.Now()
			must(t, s.Set(ctx(t), "later", []byte("v"), first), "Set")
			must(t, s.Set(ctx(t), "never", []byte("v"), first), "Set")
			ok, err := s.Expire(ctx(t), "later", time.Minute)
			if err == nil && !ok {
				stalled(t, start, first, "Expire")
			}
			wantBool(t, "Expire(1m) of a live key", ok, err, true)
			ok, err = s.Expire(ctx(t), "never", 0)
			if err == nil && !ok {
				stalled(t, start, first, "Expire")
			}
			wantBool(t, "Expire(0) of a live key", ok, err, true)
			if d, err := s.TTL(ctx(t), "never"); err != nil || d != 0 {
				t.Fatalf("TTL after Expire(0) = %s, %v; want 0 (no expiry)", d, err)
			}
			// Wait past the first TTL: both keys must still be there.
			for time.Since(start) < first+shortTTL {
				time.Sleep(pollEvery)
			}
			wantValue(t, s, "later", "v")
			wantValue(t, s, "never", "v")
			if d, err := s.TTL(ctx(t), "later"); err != nil || d <= first || d > time.Minute {
				t.Fatalf("TTL %s after Expire(1m) = %s, %v; want in (%s, 1m]", time.Since(start), d, err, first)
			}

			// Bring the end forward.
			start = time.Now()
			ok, err = s.Expire(ctx(t), "later", shortTTL)
			wantBool(t, "Expire to a shorter TTL", ok, err, true)
			gone := waitFor(t, start, "the key to expire after Expire(short)", func() bool { return isNotFound(t, s, "later") })
			if gone < shortTTL-clockSlack {
				t.Fatalf("key gone %s after Expire(%s)", gone, shortTTL)
			}
			wantValue(t, s, "never", "v")
		},
	},
	{
		name: "TTLReports",
		rule: "TTL reports the time a live key has left (at most what was set, counting down), 0 for a key without expiry; Set replaces the TTL; a negative TTL is refused with kv.ErrInvalidTTL.",
		run: func(t *testing.T, s kv.Store) {
			must(t, s.Set(ctx(t), "none", []byte("v"), 0), "Set")
			if d, err := s.TTL(ctx(t), "none"); err != nil || d != 0 {
				t.Fatalf("TTL of a key without expiry = %s, %v; want 0", d, err)
			}
			must(t, s.Set(ctx(t), "ten", []byte("v"), 10*time.Second), "Set")
			d1, err := s.TTL(ctx(t), "ten")
			must(t, err, "TTL")
			if d1 <= 5*time.Second || d1 > 10*time.Second {
				t.Fatalf("TTL right after Set(10s) = %s, want in (5s, 10s]", d1)
			}
			time.Sleep(50 * time.Millisecond)
			d2, err := s.TTL(ctx(t), "ten")
			must(t, err, "TTL")
			if d2 >= d1 {
				t.Fatalf("TTL did not count down: %s then, 50ms later, %s", d1, d2)
			}
			must(t, s.Set(ctx(t), "ten", []byte("v"), 0), "Set without TTL")
			if d, err := s.TTL(ctx(t), "ten"); err != nil || d != 0 {
				t.Fatalf("TTL after Set(ttl 0) over a key with TTL = %s, %v; want 0", d, err)
			}
			must(t, s.Set(ctx(t), "ten", []byte("v"), time.Hour), "Set with 1h")
			if d, err := s.TTL(ctx(t), "ten"); err != nil || d <= 30*time.Minute || d > time.Hour {
				t.Fatalf("TTL after Set(1h) = %s, %v; want in (30m, 1h]", d, err)
			}

			neg := -time.Second
			if err := s.Set(ctx(t), "n", []byte("v"), neg); !errors.Is(err, kv.ErrInvalidTTL) {
				t.Fatalf("Set with a negative TTL: err = %v, want kv.ErrInvalidTTL", err)
			}
			if _, err := s.SetIfAbsent(ctx(t), "n", []byte("v"), neg); !errors.Is(err, kv.ErrInvalidTTL) {
				t.Fatalf("SetIfAbsent with a negative TTL: err = %v, want kv.ErrInvalidTTL", err)
			}
			if _, err := s.CompareAndSwap(ctx(t), "none", []byte("v"), []byte("w"), neg); !errors.Is(err, kv.ErrInvalidTTL) {
				t.Fatalf("CompareAndSwap with a negative TTL: err = %v, want kv.ErrInvalidTTL", err)
			}
			if _, err := s.Expire(ctx(t), "none", neg); !errors.Is(err, kv.ErrInvalidTTL) {
				t.Fatalf("Expire with a negative TTL: err = %v, want kv.ErrInvalidTTL", err)
			}
			wantNotFound(t, s, "n")
			wantValue(t, s, "none", "v")
			if d, err := s.TTL(ctx(t), "none"); err != nil || d != 0 {
				t.Fatalf("a refused negative TTL changed the key's TTL to %s, %v", d, err)
			}
		},
	},
}
