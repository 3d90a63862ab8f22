package kv_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
)

// flaky is a store whose CompareAndSwap fails while down is set, as an
// unreachable server would.
type flaky struct {
	kv.Store
	down atomic.Bool
}

var errDown = errors.New("store unreachable")

func (f *flaky) CompareAndSwap(ctx context.Context, key string, old, new []byte, ttl time.Duration) (bool, error) {
	if f.down.Load() {
		return false, errDown
	}
	return f.Store.CompareAndSwap(ctx, key, old, new, ttl)
}

func TestAcquireLeaseRejectsBadArguments(t *testing.T) {
	s := memkv.New(memkv.Options{})
	for _, ttl := range []time.Duration{0, -time.Second} {
		if _, err := kv.AcquireLease(t.Context(), s, "k", "me", ttl); !errors.Is(err, kv.ErrInvalidTTL) {
			t.Errorf("AcquireLease with ttl %s: err = %v, want kv.ErrInvalidTTL", ttl, err)
		}
	}
	if _, err := kv.AcquireLease(t.Context(), s, "k", "", time.Minute); err == nil {
		t.Error("AcquireLease with an empty owner succeeded")
	}
}

func TestLockedErrorNamesHolder(t *testing.T) {
	now := time.Unix(1000, 0)
	s := memkv.New(memkv.Options{Now: func() time.Time { return now }})
	if _, err := kv.AcquireLease(t.Context(), s, "run/t", "worker-1", 90*time.Second); err != nil {
		t.Fatal(err)
	}
	_, err := kv.AcquireLease(t.Context(), s, "run/t", "worker-2", time.Minute)
	if got, want := err.Error(), `kv: lease "run/t" is held by "worker-1" for another 1m30s`; got != want {
		t.Fatalf("error = %q, want %q", got, want)
	}
}

func TestLockedByForeignValue(t *testing.T) {
	s := memkv.New(memkv.Options{})
	if err := s.Set(t.Context(), "run/t", []byte("not a lease"), 0); err != nil {
		t.Fatal(err)
	}
	_, err := kv.AcquireLease(t.Context(), s, "run/t", "me", time.Minute)
	var le *kv.LockedError
	if !errors.As(err, &le) || le.Owner != "" {
		t.Fatalf("AcquireLease over a non-lease value: err = %v, want a LockedError with no owner", err)
	}
}

func TestKeepAliveRidesOutShortOutage(t *testing.T) {
	s := &flaky{Store: memkv.New(memkv.Options{})}
	l, err := kv.AcquireLease(t.Context(), s, "run/t", "me", 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	lost := l.KeepAlive(t.Context(), 20*time.Millisecond)
	s.down.Store(true)
	time.Sleep(100 * time.Millisecond) // a few failed renewals, far less than the TTL
	s.down.Store(false)
	time.Sleep(100 * time.Millisecond)
	select {
	case err := <-lost:
		t.Fatalf("KeepAlive reported %v after an outage shorter than the TTL", err)
	default:
	}
	if err := l.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestKeepAliveReportsLongOutage(t *testing.T) {
	s := &flaky{Store: memkv.New(memkv.Options{})}
	const ttl = 200 * time.Millisecond
	l, err := kv.AcquireLease(t.Context(), s, "run/t", "me", ttl)
	if err != nil {
		t.Fatal(err)
	}
	s.down.Store(true)
	start := time.Now()
	lost := l.KeepAlive(t.Context(), 20*time.Millisecond)
	select {
	case err := <-lost:
		if !errors.Is(err, kv.ErrLeaseLost) || !errors.Is(err, errDown) {
			t.Fatalf("KeepAlive sent %v, want kv.ErrLeaseLost wrapping the store's error", err)
		}
		if d := time.Since(start); d < ttl {
			t.Fatalf("KeepAlive gave up after %s, before a whole TTL (%s) without renewal", d, ttl)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("KeepAlive did not report a lease it could not renew for a whole TTL")
	}
	if _, open := <-lost; open {
		t.Fatal("KeepAlive's channel still open after reporting the loss")
	}
}

func TestKeepAliveAfterRelease(t *testing.T) {
	s := memkv.New(memkv.Options{})
	l, err := kv.AcquireLease(t.Context(), s, "run/t", "me", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Release(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := <-l.KeepAlive(t.Context(), 0); !errors.Is(err, kv.ErrLeaseLost) {
		t.Fatalf("KeepAlive of a released lease sent %v, want kv.ErrLeaseLost", err)
	}
}

func TestLeaseOwner(t *testing.T) {
	s := memkv.New(memkv.Options{})
	if _, err := kv.AcquireLease(t.Context(), s, "run/t", "worker 1", time.Minute); err != nil {
		t.Fatal(err)
	}
	v, err := s.Get(t.Context(), "run/t")
	if err != nil {
		t.Fatal(err)
	}
	if owner, ok := kv.LeaseOwner(v); !ok || owner != "worker 1" {
		t.Fatalf("LeaseOwner = %q, %v; want %q, true", owner, ok, "worker 1")
	}
	if _, ok := kv.LeaseOwner([]byte("sbx-123")); ok {
		t.Fatal("LeaseOwner of a plain value reports a lease")
	}
}
