// Package kvtest is the conformance suite for [kv.Store] adapters. Every
// adapter's tests call [Run]:
//
//	func TestConformance(t *testing.T) {
//		kvtest.Run(t, func(t *testing.T) kv.Store { return memkv.New(memkv.Options{}) })
//	}
//
// Each case is a named rule, one sentence, printed when the case fails.
// Timing cases use real time with short TTLs (a few hundred milliseconds)
// and poll for the outcome rather than sleeping a fixed margin, so they
// are exact on a fast machine and patient on a loaded one.
package kvtest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// Run runs every case of the suite as a subtest of t: first the heavy
// ones (races, large values) one at a time, then the rest in parallel, so
// the load of the former does not stall the timing of the latter. newStore is
// called once per case, with the case's *testing.T, and must return a
// store in which no key is set: a fresh store, or one on a fresh key
// prefix. Run closes it when the case ends (Close must be idempotent).
func Run(t *testing.T, newStore func(t *testing.T) kv.Store) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !c.serial {
				t.Parallel()
			}
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("rule: %s", c.rule)
				}
			})
			s := newStore(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			c.run(t, s)
		})
	}
}

// A testCase is one rule of the contract and the check of it.
type testCase struct {
	name string
	rule string
	run  func(t *testing.T, s kv.Store)
	// serial marks a heavy case, run alone before the parallel ones.
	serial bool
}

// cases is the suite, in the order of the contract in package kv.
var cases = concat(basicCases, ttlCases, atomicCases, leaseCases, valueCases, keysCases, lifecycleCases)

func concat[T any](lists ...[]T) []T {
	var all []T
	for _, l := range lists {
		all = append(all, l...)
	}
	return all
}

// Timing of the cases that wait for expiry.
const (
	shortTTL = 300 * time.Millisecond
	// patience bounds every poll: far past any TTL used, so a slow machine
	// waits longer instead of failing.
	patience = 15 * time.Second
	// clockSlack is how much earlier than measured from the test's side a
	// key may expire: adapters keep time in whole (wall-clock) milliseconds.
	clockSlack = 5 * time.Millisecond
	pollEvery  = 10 * time.Millisecond
)

// waitFor polls cond until it is true and returns how long that took from
// start; it fails t if patience runs out first.
func waitFor(t *testing.T, start time.Time, what string, cond func() bool) time.Duration {
	t.Helper()
	for {
		if cond() {
			return time.Since(start)
		}
		if time.Since(start) > patience {
			t.Fatalf("still waiting after %s for %s", patience, what)
		}
		time.Sleep(pollEvery)
	}
}

// stalled skips t, saying why, when a step that had to happen within
// bound of since came later: the machine stalled, and what the store did
// then says nothing about the contract. Callers use it only after a result
// that would be a failure had the step been in time.
func stalled(t *testing.T, since time.Time, bound time.Duration, step string) {
	t.Helper()
	if d := time.Since(since); d >= bound-clockSlack {
		t.Skipf("the machine stalled: %s came %s after the start, past the %s this check allows; cannot judge", step, d.Round(time.Millisecond), bound)
	}
}

// must fails t at once on err.
func must(t *testing.T, err error, format string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(format, args...), err)
	}
}

func mustGet(t *testing.T, s kv.Store, key string) []byte {
	t.Helper()
	v, err := s.Get(t.Context(), key)
	must(t, err, "Get(%q)", key)
	return v
}

func wantValue(t *testing.T, s kv.Store, key, want string) {
	t.Helper()
	if got := mustGet(t, s, key); string(got) != want {
		t.Fatalf("Get(%q) = %q, want %q", key, got, want)
	}
}

func wantNotFound(t *testing.T, s kv.Store, key string) {
	t.Helper()
	v, err := s.Get(t.Context(), key)
	if !errors.Is(err, kv.ErrNotFound) {
		t.Fatalf("Get(%q) = %q, %v; want an error matching kv.ErrNotFound", key, v, err)
	}
}

func isNotFound(t *testing.T, s kv.Store, key string) bool {
	t.Helper()
	_, err := s.Get(t.Context(), key)
	if err != nil && !errors.Is(err, kv.ErrNotFound) {
		t.Fatalf("Get(%q): %v", key, err)
	}
	return err != nil
}

func wantBool(t *testing.T, what string, got bool, err error, want bool) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got != want {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

// ctx returns t's context; it ends when the case does.
func ctx(t *testing.T) context.Context { return t.Context() }
