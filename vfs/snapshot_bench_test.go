package vfs

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
)

// BenchmarkSaveOneEdit: a Save after one file of a 10 000-file folder
// changed, on the in-memory kv and on SQLite (the default kv), as the wasm
// adapter saves after a command.
func BenchmarkSaveOneEdit(b *testing.B) {
	ctx := context.Background()
	for _, kind := range []string{"memkv", "sqlite"} {
		b.Run(kind, func(b *testing.B) {
			var store SnapshotStore = memkv.New(memkv.Options{})
			if kind == "sqlite" {
				s, err := sqlitekv.Open(filepath.Join(b.TempDir(), "kv.db"))
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { s.Close() })
				store = s
			}
			fsys := New(Options{})
			if err := fsys.MkdirAll("/t", 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range 10_000 {
				if err := afero.WriteFile(fsys, fmt.Sprintf("/t/f%d.txt", i), fmt.Appendf(nil, "line %d\n", i), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			s := NewSnapshotter(store, "sb/")
			if _, err := s.Save(ctx, fsys, time.Hour); err != nil {
				b.Fatal(err)
			}
			i := 0
			for b.Loop() {
				i++
				if err := afero.WriteFile(fsys, "/t/f5000.txt", fmt.Appendf(nil, "line 5000\nedit %d\n", i), 0o644); err != nil {
					b.Fatal(err)
				}
				if _, err := s.Save(ctx, fsys, time.Hour); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
