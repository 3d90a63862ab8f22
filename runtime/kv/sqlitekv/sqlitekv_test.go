package sqlitekv

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/kvtest"
)

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	kvtest.Run(t, func(t *testing.T) kv.Store { return open(t, filepath.Join(t.TempDir(), "kv.db")) })
}

func TestOpenMakesParentFolders(t *testing.T) {
	// A '?' and a '#' in the path must not be read as a URI query or fragment.
	path := filepath.Join(t.TempDir(), "a", "b?c#d", "kv.db")
	s := open(t, path)
	if err := s.Set(t.Context(), "k", []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	if s.Path() != path {
		t.Fatalf("Path() = %q, want %q", s.Path(), path)
	}
	s.Close()
	s2 := open(t, path)
	if v, err := s2.Get(t.Context(), "k"); err != nil || string(v) != "v" {
		t.Fatalf("Get after reopening = %q, %v; want %q", v, err, "v")
	}
}

func TestTwoStoresShareTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv.db")
	a, b := open(t, path), open(t, path)
	ctx := t.Context()
	if ok, err := a.SetIfAbsent(ctx, "k", []byte("a"), time.Minute); err != nil || !ok {
		t.Fatalf("SetIfAbsent on a = %v, %v", ok, err)
	}
	if ok, err := b.SetIfAbsent(ctx, "k", []byte("b"), time.Minute); err != nil || ok {
		t.Fatalf("SetIfAbsent on b of a key a set = %v, %v; want false", ok, err)
	}
	if v, err := b.Get(ctx, "k"); err != nil || string(v) != "a" {
		t.Fatalf("b.Get = %q, %v", v, err)
	}
}

func TestSweepDeletesExpiredRows(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "kv.db"))
	ctx := t.Context()
	if err := s.Set(ctx, "old", []byte("v"), time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	s.lastSweep.Store(0) // a sweep is due
	if err := s.Set(ctx, "new", []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM kv`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d rows after the sweep, want 1", n)
	}
}

func TestPrefixEnd(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"", "", false},
		{"a", "b", true},
		{"a/", "a0", true},
		{"a\xff", "b", true},
		{"\xff\xff", "", false},
	} {
		got, ok := prefixEnd(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("prefixEnd(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// While another connection (another process) holds the write lock, a
// write waits, but only as long as its context allows; reads go on (WAL).
func TestContextEndsBusyWait(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kv.db")
	holder, s := open(t, path), open(t, path)
	if err := s.Set(t.Context(), "k", []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	tx, err := holder.db.BeginTx(t.Context(), nil) // BEGIN IMMEDIATE: takes the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()

	for name, write := range map[string]func(context.Context) error{
		"Set": func(ctx context.Context) error { return s.Set(ctx, "k", []byte("w"), 0) },
		"CompareAndSwap": func(ctx context.Context) error {
			_, err := s.CompareAndSwap(ctx, "k", []byte("v"), []byte("w"), 0)
			return err
		},
	} {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		start := time.Now()
		err := write(ctx)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s while the file is locked: err = %v, want context.DeadlineExceeded", name, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s while the file is locked returned after %s, want soon after its 200ms deadline", name, d)
		}
	}
	if v, err := s.Get(t.Context(), "k"); err != nil || string(v) != "v" {
		t.Fatalf("Get while the file is locked = %q, %v; want %q", v, err, "v")
	}
}
