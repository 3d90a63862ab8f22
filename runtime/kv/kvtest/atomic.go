package kvtest

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// racers is how many goroutines race in the race cases.
const racers = 50

// race runs fn(i) on racers goroutines released at the same moment and
// waits for them all.
func race(fn func(i int)) {
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	for i := range racers {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			fn(i)
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
}

var atomicCases = []testCase{
	{
		name: "SetIfAbsent",
		rule: "SetIfAbsent stores and reports true only when the key is missing; over a live key it reports false and changes neither value nor TTL.",
		run: func(t *testing.T, s kv.Store) {
			ok, err := s.SetIfAbsent(ctx(t), "k", []byte("first"), time.Hour)
			wantBool(t, "SetIfAbsent of a missing key", ok, err, true)
			ok, err = s.SetIfAbsent(ctx(t), "k", []byte("second"), 0)
			wantBool(t, "SetIfAbsent of a live key", ok, err, false)
			wantValue(t, s, "k", "first")
			if d, err := s.TTL(ctx(t), "k"); err != nil || d <= 30*time.Minute {
				t.Fatalf("TTL after a failed SetIfAbsent = %s, %v; want the first TTL (about 1h) kept", d, err)
			}
		},
	},
	{
		name:   "SetIfAbsentRace",
		serial: true,
		rule:   "Of 50 goroutines calling SetIfAbsent on one missing key at once, exactly one gets true, and its value is the one stored.",
		run: func(t *testing.T, s kv.Store) {
			for round := range 3 {
				key := fmt.Sprintf("race/%d", round)
				var (
					mu      sync.Mutex
					winners []int
					errs    []error
				)
				race(func(i int) {
					ok, err := s.SetIfAbsent(ctx(t), key, []byte(strconv.Itoa(i)), time.Minute)
					mu.Lock()
					defer mu.Unlock()
					if err != nil {
						errs = append(errs, err)
					}
					if ok {
						winners = append(winners, i)
					}
				})
				if len(errs) > 0 {
					t.Fatalf("round %d: %d SetIfAbsent calls failed, first: %v", round, len(errs), errs[0])
				}
				if len(winners) != 1 {
					t.Fatalf("round %d: winners = %v, want exactly one", round, winners)
				}
				wantValue(t, s, key, strconv.Itoa(winners[0]))
			}
		},
	},
	{
		name: "CompareAndSwap",
		rule: "CompareAndSwap swaps only when the live value equals old byte for byte (nil old: only when the key is missing; empty old: only the empty value), sets the new TTL, and new equal to old just resets the TTL.",
		run: func(t *testing.T, s kv.Store) {
			ok, err := s.CompareAndSwap(ctx(t), "k", nil, []byte("v1"), 0)
			wantBool(t, "CompareAndSwap(nil → v1) of a missing key", ok, err, true)
			wantValue(t, s, "k", "v1")
			ok, err = s.CompareAndSwap(ctx(t), "k", nil, []byte("v2"), 0)
			wantBool(t, "CompareAndSwap(nil → v2) of a live key", ok, err, false)
			ok, err = s.CompareAndSwap(ctx(t), "k", []byte("v0"), []byte("v2"), 0)
			wantBool(t, "CompareAndSwap with a wrong old value", ok, err, false)
			ok, err = s.CompareAndSwap(ctx(t), "k", []byte("v1\x00"), []byte("v2"), 0)
			wantBool(t, "CompareAndSwap with old = value + NUL", ok, err, false)
			ok, err = s.CompareAndSwap(ctx(t), "k", []byte("v"), []byte("v2"), 0)
			wantBool(t, "CompareAndSwap with old = a prefix of the value", ok, err, false)
			ok, err = s.CompareAndSwap(ctx(t), "k", []byte{}, []byte("v2"), 0)
			wantBool(t, "CompareAndSwap with old = empty over a non-empty value", ok, err, false)
			wantValue(t, s, "k", "v1")

			ok, err = s.CompareAndSwap(ctx(t), "k", []byte("v1"), []byte("v2"), time.Hour)
			wantBool(t, "CompareAndSwap(v1 → v2)", ok, err, true)
			wantValue(t, s, "k", "v2")
			if d, err := s.TTL(ctx(t), "k"); err != nil || d <= 30*time.Minute || d > time.Hour {
				t.Fatalf("TTL after CompareAndSwap(ttl 1h) = %s, %v; want about 1h", d, err)
			}
			ok, err = s.CompareAndSwap(ctx(t), "k", []byte("v2"), []byte("v2"), 10*time.Second)
			wantBool(t, "CompareAndSwap(v2 → v2) (a renewal)", ok, err, true)
			if d, err := s.TTL(ctx(t), "k"); err != nil || d <= 5*time.Second || d > 10*time.Second {
				t.Fatalf("TTL after CompareAndSwap(v2 → v2, 10s) = %s, %v; want about 10s", d, err)
			}
			ok, err = s.CompareAndSwap(ctx(t), "k", []byte("v2"), []byte{}, 0)
			wantBool(t, "CompareAndSwap(v2 → empty)", ok, err, true)
			if d, err := s.TTL(ctx(t), "k"); err != nil || d != 0 {
				t.Fatalf("TTL after CompareAndSwap(ttl 0) = %s, %v; want 0 (no expiry)", d, err)
			}
			empty := mustGet(t, s, "k")
			if empty == nil || len(empty) != 0 {
				t.Fatalf("Get of an empty value = %#v, want a non-nil empty slice (usable as CompareAndSwap's old)", empty)
			}
			ok, err = s.CompareAndSwap(ctx(t), "k", empty, []byte("v3"), 0)
			wantBool(t, "CompareAndSwap(empty → v3) with the value Get returned", ok, err, true)
			wantValue(t, s, "k", "v3")
		},
	},
	{
		name:   "CompareAndSwapRace",
		serial: true,
		rule:   "Counter increments by 50 goroutines, each a Get then CompareAndSwap retried until it wins, add up exactly; of 50 CompareAndSwap(nil, …) on one missing key exactly one wins.",
		run: func(t *testing.T, s kv.Store) {
			const perRacer = 2
			must(t, s.Set(ctx(t), "counter", []byte("0"), 0), "Set")
			var (
				mu   sync.Mutex
				errs []error
			)
			race(func(int) {
				for range perRacer {
					if err := increment(t, s, "counter"); err != nil {
						mu.Lock()
						errs = append(errs, err)
						mu.Unlock()
						return
					}
				}
			})
			if len(errs) > 0 {
				t.Fatalf("%d increments failed, first: %v", len(errs), errs[0])
			}
			wantValue(t, s, "counter", strconv.Itoa(racers*perRacer))

			var winners []int
			race(func(i int) {
				ok, err := s.CompareAndSwap(ctx(t), "first", nil, []byte(strconv.Itoa(i)), 0)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
				}
				if ok {
					winners = append(winners, i)
				}
			})
			if len(errs) > 0 {
				t.Fatalf("%d CompareAndSwap(nil, …) calls failed, first: %v", len(errs), errs[0])
			}
			if len(winners) != 1 {
				t.Fatalf("CompareAndSwap(nil, …) winners = %v, want exactly one", winners)
			}
			wantValue(t, s, "first", strconv.Itoa(winners[0]))
		},
	},
	{
		name: "CompareAndDelete",
		rule: "CompareAndDelete deletes, and reports true, only when the live value equals old byte for byte.",
		run: func(t *testing.T, s kv.Store) {
			must(t, s.Set(ctx(t), "k", []byte("mine"), time.Minute), "Set")
			ok, err := s.CompareAndDelete(ctx(t), "k", []byte("theirs"))
			wantBool(t, "CompareAndDelete with a wrong value", ok, err, false)
			ok, err = s.CompareAndDelete(ctx(t), "k", []byte("min"))
			wantBool(t, "CompareAndDelete with a prefix of the value", ok, err, false)
			ok, err = s.CompareAndDelete(ctx(t), "k", nil)
			wantBool(t, "CompareAndDelete with nil", ok, err, false)
			wantValue(t, s, "k", "mine")
			ok, err = s.CompareAndDelete(ctx(t), "k", []byte("mine"))
			wantBool(t, "CompareAndDelete with the value", ok, err, true)
			wantNotFound(t, s, "k")
			ok, err = s.CompareAndDelete(ctx(t), "k", []byte("mine"))
			wantBool(t, "CompareAndDelete of a deleted key", ok, err, false)
		},
	},
}

// increment adds one to the decimal counter at key with Get and
// CompareAndSwap, retrying until its swap wins.
func increment(t *testing.T, s kv.Store, key string) error {
	for attempt := 0; ; attempt++ {
		if attempt > 100_000 {
			return errors.New("increment: no swap won in 100000 attempts")
		}
		cur, err := s.Get(ctx(t), key)
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(string(cur))
		if err != nil {
			return err
		}
		// Let the other racers run between the read and the swap, so a
		// store whose swap is not conditional loses increments even when
		// its calls are too quick to interleave by themselves.
		runtime.Gosched()
		ok, err := s.CompareAndSwap(ctx(t), key, cur, []byte(strconv.Itoa(n+1)), 0)
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
	}
}
