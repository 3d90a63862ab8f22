package engine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
)

// TestLoadModuleCached: a second engine on the same cache finds an image
// file's prepared module from its ref (one stat), the same module the
// first made; a file whose content changed (and with it size or mtime) is
// prepared anew, never served the old module.
func TestLoadModuleCached(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "loop.wasm")
	src := loopModule(true, false)
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	e1, err := New(ctx, Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer e1.Close(ctx)
	first, err := e1.loadModule(file, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%x", sha256.Sum256(src)); first.sum != want {
		t.Fatalf("sum %s, want the file's content hash %s", first.sum, want)
	}
	refs, _ := filepath.Glob(filepath.Join(e1.prepared, "ref-*"))
	if len(refs) != 1 {
		t.Fatalf("refs %v, want one", refs)
	}

	// The prepared module is taken from the cache: mark it, and the next
	// engine's module is the marked one.
	cached := e1.preparedBase(first.sum, false) + ".wasm"
	marked := append(bytes.Clone(first.module), 0, 1, 'x') // a custom section "x", empty
	if err := os.WriteFile(cached, marked, 0o644); err != nil {
		t.Fatal(err)
	}
	e2, err := New(ctx, Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close(ctx)
	again, err := e2.loadModule(file, false)
	if err != nil || again.sum != first.sum || !bytes.Equal(again.module, marked) {
		t.Fatalf("the second engine did not take the cached module (sum %s, %v)", again.sum, err)
	}

	// Another content at the same path: a new sum, prepared from it.
	other := loopModule(true, true)
	if err := os.WriteFile(file, other, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	_ = os.Chtimes(file, later, later)
	changed, err := e2.loadModule(file, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%x", sha256.Sum256(other)); changed.sum != want || bytes.Equal(changed.module, marked) {
		t.Fatalf("after the file changed: sum %s, want %s", changed.sum, want)
	}
	if _, err := e2.rt.CompileModule(ctx, changed.module); err != nil {
		t.Fatalf("the changed module does not compile: %v", err)
	}
}

// A ref naming a sum the cache has no module for (pruned) falls back to
// the file itself.
func TestLoadModuleRefWithoutModule(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	file := filepath.Join(t.TempDir(), "loop.wasm")
	if err := os.WriteFile(file, loopModule(true, false), 0o644); err != nil {
		t.Fatal(err)
	}
	first, err := e.loadModule(file, false)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(e.prepared, first.sum+"*"))
	for _, f := range files {
		os.Remove(f)
	}
	again, err := e.loadModule(file, false)
	if err != nil || again.sum != first.sum || !bytes.Equal(again.module, first.module) {
		t.Fatalf("after the module was pruned: sum %s, %v", again.sum, err)
	}
}

// TestSharedCacheVersion: wazero keys its compilation cache by the version
// the CLI's build info names, in test binaries too, so that the tests and
// the CLI share one copy of the compiled images.
func TestSharedCacheVersion(t *testing.T) {
	dir := t.TempDir()
	c, err := wazero.NewCompilationCacheWithDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	v, _ := buildVersion()
	want := fmt.Sprintf("wazero-%s-%s-%s", v, runtime.GOARCH, runtime.GOOS)
	if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
		entries, _ := os.ReadDir(dir)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("wazero's cache folders %v, want %s", names, want)
	}
}
