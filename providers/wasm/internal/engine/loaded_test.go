package engine

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
)

// TestLoaded: Loaded lists the images loaded, and not one whose compile
// failed.
func TestLoaded(t *testing.T) {
	e, _ := busybox(t, Options{})
	if got := e.Loaded(); !slices.Equal(got, []string{"busybox"}) {
		t.Fatalf("Loaded() = %q, want [busybox]", got)
	}
	if _, err := e.Load(context.Background(), "node", filepath.Join(t.TempDir(), "missing.wasm")); err == nil {
		t.Fatal("a missing file loaded")
	}
	if got := e.Loaded(); !slices.Equal(got, []string{"busybox"}) {
		t.Fatalf("after a failed load Loaded() = %q, want [busybox]", got)
	}
}
