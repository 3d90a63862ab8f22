package kvtest

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

func wantKeys(t *testing.T, s kv.Store, prefix string, want ...string) {
	t.Helper()
	got, err := s.Keys(ctx(t), prefix)
	must(t, err, "Keys(%q)", prefix)
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Keys(%q) = %q, want %q", prefix, got, want)
	}
}

var keysCases = []testCase{
	{
		name: "KeysPrefixSorted",
		rule: "Keys lists exactly the live keys that start with the prefix, taken literally (no glob or LIKE patterns), sorted bytewise; the empty prefix lists all.",
		run: func(t *testing.T, s kv.Store) {
			all := []string{
				"sandbox/b", "sandbox/a", "sandbox/a/1", "sandbox/A", "sandbox", "sandboxes",
				"thread/10", "thread/9", "thread/1",
				"g*", "g*x", "gx", "g?", "g[ab]", "ga", "g\\", "g%", "g_", "g%x", "g_x",
				"u/é", "u/e", "u/\xff", "u/\x00", "u/ÿ",
			}
			for _, k := range all {
				must(t, s.Set(ctx(t), k, []byte(k), 0), "Set(%q)", k)
			}
			wantKeys(t, s, "sandbox/", "sandbox/A", "sandbox/a", "sandbox/a/1", "sandbox/b")
			wantKeys(t, s, "sandbox", "sandbox", "sandbox/A", "sandbox/a", "sandbox/a/1", "sandbox/b", "sandboxes")
			wantKeys(t, s, "thread/", "thread/1", "thread/10", "thread/9")
			wantKeys(t, s, "thread/1", "thread/1", "thread/10")
			wantKeys(t, s, "g*", "g*", "g*x")
			wantKeys(t, s, "g?", "g?")
			wantKeys(t, s, "g[", "g[ab]")
			wantKeys(t, s, "g\\", "g\\")
			wantKeys(t, s, "g%", "g%", "g%x")
			wantKeys(t, s, "g_", "g_", "g_x")
			wantKeys(t, s, "u/", "u/\x00", "u/e", "u/é", "u/ÿ", "u/\xff")
			wantKeys(t, s, "u/\xff", "u/\xff")
			wantKeys(t, s, "none/")
			sorted := slices.Clone(all)
			slices.Sort(sorted)
			wantKeys(t, s, "", sorted...)
		},
	},
	{
		name: "KeysExcludeExpired",
		rule: "Keys leaves out expired keys, and deleted ones.",
		run: func(t *testing.T, s kv.Store) {
			start := time.Now()
			must(t, s.Set(ctx(t), "sb/short", []byte("v"), shortTTL), "Set")
			must(t, s.Set(ctx(t), "sb/long", []byte("v"), time.Hour), "Set")
			must(t, s.Set(ctx(t), "sb/forever", []byte("v"), 0), "Set")
			must(t, s.Set(ctx(t), "sb/deleted", []byte("v"), 0), "Set")
			must(t, s.Delete(ctx(t), "sb/deleted"), "Delete")
			if time.Since(start) < shortTTL-clockSlack {
				wantKeys(t, s, "sb/", "sb/forever", "sb/long", "sb/short")
			}
			waitFor(t, start, "Keys to leave out the expired key", func() bool {
				got, err := s.Keys(ctx(t), "sb/")
				must(t, err, "Keys")
				return !slices.Contains(got, "sb/short")
			})
			wantKeys(t, s, "sb/", "sb/forever", "sb/long")
		},
	},
}

var lifecycleCases = []testCase{
	{
		name: "ContextCanceled",
		rule: "Every method, and AcquireLease, returns promptly with an error matching the context's (context.Canceled, context.DeadlineExceeded) when called with a context that is done, and changes nothing.",
		run: func(t *testing.T, s kv.Store) {
			must(t, s.Set(ctx(t), "k", []byte("v"), 0), "Set")
			canceled, cancel := context.WithCancel(ctx(t))
			cancel()
			expired, cancel2 := context.WithDeadline(ctx(t), time.Now().Add(-time.Second))
			defer cancel2()
			for _, c := range []struct {
				ctx  context.Context
				want error
			}{{canceled, context.Canceled}, {expired, context.DeadlineExceeded}} {
				calls := map[string]func(context.Context) error{
					"Get":    func(ctx context.Context) error { _, err := s.Get(ctx, "k"); return err },
					"Set":    func(ctx context.Context) error { return s.Set(ctx, "k", []byte("changed"), 0) },
					"Delete": func(ctx context.Context) error { return s.Delete(ctx, "k") },
					"SetIfAbsent": func(ctx context.Context) error {
						_, err := s.SetIfAbsent(ctx, "new", []byte("v"), 0)
						return err
					},
					"CompareAndSwap": func(ctx context.Context) error {
						_, err := s.CompareAndSwap(ctx, "k", []byte("v"), []byte("changed"), 0)
						return err
					},
					"CompareAndDelete": func(ctx context.Context) error {
						_, err := s.CompareAndDelete(ctx, "k", []byte("v"))
						return err
					},
					"Expire": func(ctx context.Context) error { _, err := s.Expire(ctx, "k", time.Millisecond); return err },
					"TTL":    func(ctx context.Context) error { _, err := s.TTL(ctx, "k"); return err },
					"Keys":   func(ctx context.Context) error { _, err := s.Keys(ctx, ""); return err },
					"AcquireLease": func(ctx context.Context) error {
						_, err := kv.AcquireLease(ctx, s, "lease", "me", time.Minute)
						return err
					},
				}
				for name, call := range calls {
					start := time.Now()
					err := call(c.ctx)
					if d := time.Since(start); d > time.Second {
						t.Errorf("%s with a done context took %s", name, d)
					}
					if !errors.Is(err, c.want) {
						t.Errorf("%s with a done context: err = %v, want one matching %v", name, err, c.want)
					}
				}
			}
			wantValue(t, s, "k", "v")
			if d, err := s.TTL(ctx(t), "k"); err != nil || d != 0 {
				t.Fatalf("TTL after calls with done contexts = %s, %v; want 0", d, err)
			}
			wantNotFound(t, s, "new")
			wantNotFound(t, s, "lease")
		},
	},
	{
		name: "Close",
		rule: "After Close every method returns an error matching kv.ErrClosed, and a second Close returns nil.",
		run: func(t *testing.T, s kv.Store) {
			must(t, s.Set(ctx(t), "k", []byte("v"), 0), "Set")
			must(t, s.Close(), "Close")
			must(t, s.Close(), "second Close")
			if _, err := s.Get(ctx(t), "k"); !errors.Is(err, kv.ErrClosed) {
				t.Errorf("Get after Close: err = %v, want kv.ErrClosed", err)
			}
			if err := s.Set(ctx(t), "k", nil, 0); !errors.Is(err, kv.ErrClosed) {
				t.Errorf("Set after Close: err = %v, want kv.ErrClosed", err)
			}
			if _, err := s.CompareAndSwap(ctx(t), "k", []byte("v"), nil, 0); !errors.Is(err, kv.ErrClosed) {
				t.Errorf("CompareAndSwap after Close: err = %v, want kv.ErrClosed", err)
			}
			if _, err := s.Keys(ctx(t), ""); !errors.Is(err, kv.ErrClosed) {
				t.Errorf("Keys after Close: err = %v, want kv.ErrClosed", err)
			}
		},
	},
}
