package memkv

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/kvtest"
)

func TestConformance(t *testing.T) {
	kvtest.Run(t, func(t *testing.T) kv.Store { return New(Options{}) })
}

// clock is a fake clock for exact TTL tests.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newFake() (*Store, *clock) {
	c := &clock{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	return New(Options{Now: c.Now}), c
}

func TestExpiryIsExact(t *testing.T) {
	s, c := newFake()
	ctx := t.Context()
	if err := s.Set(ctx, "k", []byte("v"), time.Second); err != nil {
		t.Fatal(err)
	}
	c.Add(time.Second - time.Nanosecond)
	if d, err := s.TTL(ctx, "k"); err != nil || d != time.Nanosecond {
		t.Fatalf("TTL 1ns before the end = %s, %v; want 1ns", d, err)
	}
	c.Add(time.Nanosecond)
	if _, err := s.Get(ctx, "k"); !errors.Is(err, kv.ErrNotFound) {
		t.Fatalf("Get at the end of the TTL: err = %v, want kv.ErrNotFound", err)
	}
}

func TestSubMillisecondTTLRoundsUp(t *testing.T) {
	s, c := newFake()
	ctx := t.Context()
	if err := s.Set(ctx, "k", []byte("v"), time.Microsecond); err != nil {
		t.Fatal(err)
	}
	if d, err := s.TTL(ctx, "k"); err != nil || d != time.Millisecond {
		t.Fatalf("TTL after Set(1µs) = %s, %v; want 1ms", d, err)
	}
	c.Add(time.Millisecond)
	if _, err := s.Get(ctx, "k"); !errors.Is(err, kv.ErrNotFound) {
		t.Fatalf("Get 1ms after Set(1µs): err = %v, want kv.ErrNotFound", err)
	}
}

func TestSweepFreesExpiredKeys(t *testing.T) {
	s, c := newFake()
	ctx := t.Context()
	for i := range 100 {
		if err := s.Set(ctx, fmt.Sprint("old/", i), []byte("v"), time.Second); err != nil {
			t.Fatal(err)
		}
	}
	c.Add(sweepInterval)
	// Nobody reads the old keys again; one write after the interval sweeps.
	if err := s.Set(ctx, "new", []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	n := len(s.m)
	s.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d entries held after the sweep, want 1", n)
	}
}

func TestLeaseTakeoverIsExact(t *testing.T) {
	s, c := newFake()
	ctx := t.Context()
	a, err := kv.AcquireLease(ctx, s, "run", "a", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.Add(10*time.Second - time.Millisecond)
	_, err = kv.AcquireLease(ctx, s, "run", "b", time.Minute)
	var le *kv.LockedError
	if !errors.As(err, &le) || le.Owner != "a" || le.TTL != time.Millisecond {
		t.Fatalf("AcquireLease 1ms before the end: err = %v, want a LockedError by %q with 1ms left", err, "a")
	}
	if err := a.Renew(ctx); err != nil {
		t.Fatalf("Renew 1ms before the end: %v", err)
	}
	c.Add(10 * time.Second)
	if _, err := kv.AcquireLease(ctx, s, "run", "b", time.Minute); err != nil {
		t.Fatalf("AcquireLease at the end of the renewed TTL: %v", err)
	}
	if err := a.Renew(ctx); !errors.Is(err, kv.ErrLeaseLost) {
		t.Fatalf("Renew after takeover: err = %v, want kv.ErrLeaseLost", err)
	}
}
