package kvtest

import (
	"errors"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

var basicCases = []testCase{
	{
		name: "RoundTrip",
		rule: "Get returns what Set stored; a second Set replaces it; Delete removes it; deleting a missing key is no error.",
		run: func(t *testing.T, s kv.Store) {
			must(t, s.Set(ctx(t), "thread/1", []byte("sbx-a"), 0), "Set")
			wantValue(t, s, "thread/1", "sbx-a")
			must(t, s.Set(ctx(t), "thread/1", []byte("sbx-b"), 0), "Set again")
			wantValue(t, s, "thread/1", "sbx-b")
			must(t, s.Set(ctx(t), "thread/2", []byte("other"), 0), "Set other key")
			must(t, s.Delete(ctx(t), "thread/1"), "Delete")
			wantNotFound(t, s, "thread/1")
			wantValue(t, s, "thread/2", "other")
			must(t, s.Delete(ctx(t), "thread/1"), "Delete of a deleted key")
			must(t, s.Delete(ctx(t), "never-set"), "Delete of a missing key")
		},
	},
	{
		name: "MissingIsNotFound",
		rule: "A key never set is missing: Get and TTL give an error matching kv.ErrNotFound; Expire, CompareAndSwap and CompareAndDelete report false; Keys lists nothing.",
		run: func(t *testing.T, s kv.Store) {
			wantNotFound(t, s, "nope")
			if _, err := s.TTL(ctx(t), "nope"); !errors.Is(err, kv.ErrNotFound) {
				t.Fatalf("TTL of a missing key: err = %v, want kv.ErrNotFound", err)
			}
			ok, err := s.Expire(ctx(t), "nope", time.Minute)
			wantBool(t, "Expire of a missing key", ok, err, false)
			ok, err = s.CompareAndSwap(ctx(t), "nope", []byte(""), []byte("x"), 0)
			wantBool(t, `CompareAndSwap(old "") of a missing key`, ok, err, false)
			ok, err = s.CompareAndSwap(ctx(t), "nope", []byte("x"), []byte("y"), 0)
			wantBool(t, "CompareAndSwap of a missing key", ok, err, false)
			ok, err = s.CompareAndDelete(ctx(t), "nope", []byte("x"))
			wantBool(t, "CompareAndDelete of a missing key", ok, err, false)
			wantNotFound(t, s, "nope")
			keys, err := s.Keys(ctx(t), "")
			must(t, err, "Keys")
			if len(keys) != 0 {
				t.Fatalf(`Keys("") of an empty store = %q, want none`, keys)
			}
		},
	},
	{
		name: "ValuesAreCopied",
		rule: "The store keeps its own copy of a value: changing the slice given to Set, or the one Get returned, changes nothing stored.",
		run: func(t *testing.T, s kv.Store) {
			v := []byte("original")
			must(t, s.Set(ctx(t), "k", v, 0), "Set")
			copy(v, "CHANGED!")
			got := mustGet(t, s, "k")
			if string(got) != "original" {
				t.Fatalf("after changing the slice given to Set, Get = %q, want %q", got, "original")
			}
			copy(got, "CHANGED!")
			wantValue(t, s, "k", "original")
		},
	},
}
