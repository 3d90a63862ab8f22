package vfs

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
)

// TestDeepTreeLookupIsDirect: looking a path up costs about the same at
// depth 1000 as at depth 10 (one map access, not one per element, which
// made a snapshot of a deep tree O(depth³) to load). Measured in
// allocations, which do not depend on the machine's load.
func TestDeepTreeLookupIsDirect(t *testing.T) {
	fsys := New(Options{})
	const depth = 1000
	p := strings.Repeat("/d", depth)
	require.NoError(t, fsys.MkdirAll(p, 0o755))
	shallow := strings.Repeat("/d", 10)
	allocs := func(name string) float64 {
		return testing.AllocsPerRun(20, func() {
			if _, err := fsys.Stat(name); err != nil {
				t.Fatal(err)
			}
		})
	}
	deep, near := allocs(p), allocs(shallow)
	t.Logf("allocations per Stat: depth 10 %.0f, depth %d %.0f", near, depth, deep)
	assert.LessOrEqual(t, deep, near+2, "a deep lookup walks element by element")
	missing := testing.AllocsPerRun(20, func() {
		if _, err := fsys.Stat(p + "/nothing"); err == nil {
			t.Fatal("found")
		}
	})
	assert.Less(t, missing, float64(depth)/10, "a missing name under a deep folder")

	// And a snapshot of it saves and loads whole.
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	require.NoError(t, fsys.WriteFile(p+"/f", []byte("deep"), 0o644))
	_, err := NewSnapshotter(store, "sb/").Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	got, _, err := NewSnapshotter(store, "sb/").Load(ctx, Options{})
	require.NoError(t, err)
	b, err := got.Open(p + "/f")
	require.NoError(t, err)
	b.Close()
}
