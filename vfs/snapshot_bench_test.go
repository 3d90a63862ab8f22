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

// BenchmarkSaveOneEdit: a Save after one file of 10 000 changed, on the
// in-memory kv and on SQLite (the default kv), as the wasm adapter saves
// after a command: the files in one folder ("flat"), or in 100 folders of
// 100 ("nested").
func BenchmarkSaveOneEdit(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct{ kind, tree string }{{"memkv", "flat"}, {"sqlite", "flat"}, {"memkv", "nested"}, {"sqlite", "nested"}} {
		kind := c.kind
		b.Run(c.tree+"/"+kind, func(b *testing.B) {
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
				name := fmt.Sprintf("/t/f%d.txt", i)
				if c.tree == "nested" {
					name = fmt.Sprintf("/t/d%d/f%d.txt", i/100, i)
					if err := fsys.MkdirAll(fmt.Sprintf("/t/d%d", i/100), 0o755); err != nil {
						b.Fatal(err)
					}
				}
				if err := afero.WriteFile(fsys, name, fmt.Appendf(nil, "line %d\n", i), 0o644); err != nil {
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
				name := "/t/f5000.txt"
				if c.tree == "nested" {
					name = "/t/d50/f5000.txt"
				}
				if err := afero.WriteFile(fsys, name, fmt.Appendf(nil, "line 5000\nedit %d\n", i), 0o644); err != nil {
					b.Fatal(err)
				}
				st, err := s.Save(ctx, fsys, time.Hour)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(st.FoldersRead), "folders/op")
			}
		})
	}
}
