package sqlitestorage_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
	"github.com/agentenkit/agentenkit/runtime/storage"
	"github.com/agentenkit/agentenkit/runtime/storage/sqlitestorage"
	"github.com/agentenkit/agentenkit/runtime/storage/storagetest"
)

func TestConformance(t *testing.T) {
	var mu sync.Mutex
	files := map[string]string{}
	storagetest.Run(t, func(t *testing.T) storage.Storage {
		mu.Lock()
		file, ok := files[t.Name()]
		if !ok {
			file = filepath.Join(t.TempDir(), "storage.sqlite")
			files[t.Name()] = file
		}
		mu.Unlock()
		s, err := sqlitestorage.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

// The store shares its file with the kv.
func TestSharesAFileWithTheKv(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.sqlite")
	kvs, err := sqlitekv.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer kvs.Close()
	s, err := sqlitestorage.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if err := kvs.Set(ctx, "k", []byte("v"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnsureThread(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if v, err := kvs.Get(ctx, "k"); err != nil || string(v) != "v" {
		t.Fatalf("kv Get = %q, %v", v, err)
	}
	if _, err := s.GetThread(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
}
