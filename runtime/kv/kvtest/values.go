package kvtest

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// largeSize is the size of the large values: a wasm snapshot blob.
const largeSize = 8 << 20

func randomBytes(n int, seed uint64) []byte {
	b := make([]byte, n)
	r := rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8)})
	r.Read(b)
	return b
}

func wantBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("%s: got %d bytes, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: first difference at byte %d: got %#02x, want %#02x", what, i, got[i], want[i])
		}
	}
}

var valueCases = []testCase{
	{
		name:   "LargeValues",
		serial: true,
		rule:   "An 8 MiB value round-trips exactly through Set, SetIfAbsent and CompareAndSwap (as old and as new).",
		run: func(t *testing.T, s kv.Store) {
			a, b := randomBytes(largeSize, 1), randomBytes(largeSize, 2)
			must(t, s.Set(ctx(t), "blob/a", a, time.Minute), "Set 8 MiB")
			wantBytes(t, "Get after Set", mustGet(t, s, "blob/a"), a)
			ok, err := s.SetIfAbsent(ctx(t), "blob/b", b, 0)
			wantBool(t, "SetIfAbsent 8 MiB", ok, err, true)
			wantBytes(t, "Get after SetIfAbsent", mustGet(t, s, "blob/b"), b)
			ok, err = s.CompareAndSwap(ctx(t), "blob/a", a, b, 0)
			wantBool(t, "CompareAndSwap 8 MiB → 8 MiB", ok, err, true)
			wantBytes(t, "Get after CompareAndSwap", mustGet(t, s, "blob/a"), b)
			// Differs from the stored value in its last byte only.
			almost := bytes.Clone(b)
			almost[len(almost)-1] ^= 1
			ok, err = s.CompareAndSwap(ctx(t), "blob/a", almost, a, 0)
			wantBool(t, "CompareAndSwap with an old value differing in its last byte", ok, err, false)
			ok, err = s.CompareAndDelete(ctx(t), "blob/a", b)
			wantBool(t, "CompareAndDelete 8 MiB", ok, err, true)
		},
	},
	{
		name: "BinaryValues",
		rule: "Values are bytes, not text: every byte value 0x00–0xff, invalid UTF-8 and the empty value round-trip exactly; a nil value is stored as the empty value.",
		run: func(t *testing.T, s kv.Store) {
			all := make([]byte, 0, 256*4)
			for range 4 {
				for i := range 256 {
					all = append(all, byte(i))
				}
			}
			must(t, s.Set(ctx(t), "all", all, 0), "Set all byte values")
			wantBytes(t, "Get of all byte values", mustGet(t, s, "all"), all)
			rev := bytes.Clone(all)
			for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
				rev[i], rev[j] = rev[j], rev[i]
			}
			ok, err := s.CompareAndSwap(ctx(t), "all", all, rev, 0)
			wantBool(t, "CompareAndSwap of binary values", ok, err, true)
			wantBytes(t, "Get after CompareAndSwap", mustGet(t, s, "all"), rev)

			for name, v := range map[string][]byte{
				"nul":      {0},
				"nuls":     {0, 0, 0, 'x', 0},
				"bad-utf8": {0xff, 0xfe, 0xc3, 0x28, 0xa0, 0xa1},
				"crlf":     []byte("a\r\nb\rc\n"),
			} {
				must(t, s.Set(ctx(t), name, v, 0), "Set %s", name)
				wantBytes(t, "Get "+name, mustGet(t, s, name), v)
			}

			for name, v := range map[string][]byte{"empty": {}, "nil": nil} {
				must(t, s.Set(ctx(t), name, v, 0), "Set %s value", name)
				got := mustGet(t, s, name)
				if got == nil || len(got) != 0 {
					t.Fatalf("Get after Set(%s) = %#v, want a non-nil empty slice", name, got)
				}
			}
		},
	},
}
