package vfs

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
)

// loadAt loads the snapshot under prefix into a fresh Snapshotter.
func loadAt(t *testing.T, store SnapshotStore, prefix string) (*Snapshotter, *FS) {
	t.Helper()
	s := NewSnapshotter(store, prefix)
	fsys, _, err := s.Load(context.Background(), Options{})
	require.NoError(t, err)
	return s, fsys
}

// TestConcurrentWritersMerge: two writers start from one snapshot; the
// second to save merges with the first, so both keep their changes, the
// same file takes the last writer's version, and nothing either wrote is
// collected from under the other.
func TestConcurrentWritersMerge(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		first  func(fsys *FS) error
		second func(fsys *FS) error
		want   []string
	}{
		{"different new files",
			func(fsys *FS) error { return afero.WriteFile(fsys, "/w/x", []byte("p1"), 0o644) },
			func(fsys *FS) error { return afero.WriteFile(fsys, "/w/y", []byte("p2"), 0o644) },
			[]string{"/keep=k", "/w/", "/w/a=a", "/w/b=b", "/w/x=p1", "/w/y=p2"}},
		{"different existing files",
			func(fsys *FS) error { return afero.WriteFile(fsys, "/w/a", []byte("A1"), 0o644) },
			func(fsys *FS) error { return afero.WriteFile(fsys, "/w/b", []byte("B2"), 0o644) },
			[]string{"/keep=k", "/w/", "/w/a=A1", "/w/b=B2"}},
		{"same file: last writer wins",
			func(fsys *FS) error { return afero.WriteFile(fsys, "/w/a", []byte("first"), 0o644) },
			func(fsys *FS) error { return afero.WriteFile(fsys, "/w/a", []byte("second"), 0o644) },
			[]string{"/keep=k", "/w/", "/w/a=second", "/w/b=b"}},
		{"one removes, the other adds",
			func(fsys *FS) error { return fsys.Remove("/w/a") },
			func(fsys *FS) error { return afero.WriteFile(fsys, "/w/new", []byte("n"), 0o644) },
			[]string{"/keep=k", "/w/", "/w/b=b", "/w/new=n"}},
		{"one removes the folder the other writes in",
			func(fsys *FS) error { return fsys.RemoveAll("/w") },
			func(fsys *FS) error { return afero.WriteFile(fsys, "/w/new", []byte("n"), 0o644) },
			[]string{"/keep=k", "/w/", "/w/new=n"}},
		{"a new folder each",
			func(fsys *FS) error { return fsys.MkdirAll("/d1/e", 0o755) },
			func(fsys *FS) error { return fsys.MkdirAll("/d2", 0o755) },
			[]string{"/d1/", "/d1/e/", "/d2/", "/keep=k", "/w/", "/w/a=a", "/w/b=b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			store := memkv.New(memkv.Options{})
			_, err := NewSnapshotter(store, "sb/").Save(ctx, newTree(t, "/keep=k", "/w/", "/w/a=a", "/w/b=b"), time.Hour)
			require.NoError(t, err)
			s1, fs1 := loadAt(t, store, "sb/")
			s2, fs2 := loadAt(t, store, "sb/")
			require.NoError(t, c.first(fs1))
			require.NoError(t, c.second(fs2))
			st1, err := s1.Save(ctx, fs1, time.Hour)
			require.NoError(t, err)
			assert.Equal(t, 0, st1.Merged)
			st2, err := s2.Save(ctx, fs2, time.Hour)
			require.NoError(t, err)
			assert.Equal(t, 1, st2.Merged)
			assert.Equal(t, uint64(3), st2.Generation)

			_, got := loadAt(t, store, "sb/")
			assert.Equal(t, c.want, dump(t, got), "the stored snapshot")
			assert.Equal(t, c.want, dump(t, fs2), "the second writer's files got the first's changes")
			assertNoGarbage(t, store, "sb/")

			// The first writer saves again from its stale base: a merge
			// again, nothing lost.
			require.NoError(t, afero.WriteFile(fs1, "/late", []byte("l"), 0o644))
			st3, err := s1.Save(ctx, fs1, time.Hour)
			require.NoError(t, err)
			assert.Equal(t, 1, st3.Merged)
			_, got = loadAt(t, store, "sb/")
			assert.Equal(t, sortedCopy(append([]string{"/late=l"}, c.want...)), sortedCopy(dump(t, got)))
		})
	}
}

func sortedCopy(s []string) []string { return slices.Sorted(slices.Values(s)) }

// assertNoGarbage: the store holds exactly the objects the manifest
// references.
func assertNoGarbage(t *testing.T, store SnapshotStore, prefix string) {
	t.Helper()
	s := NewSnapshotter(store, prefix)
	_, _, err := s.Load(context.Background(), Options{})
	require.NoError(t, err)
	keys, err := store.Keys(context.Background(), prefix+"obj/")
	require.NoError(t, err)
	assert.Len(t, keys, len(s.known), "objects stored vs referenced")
	saving, err := store.Keys(context.Background(), prefix+"saving/")
	require.NoError(t, err)
	assert.Empty(t, saving)
}

// TestManyWritersLoseNothing: writers in goroutines, each with its own
// copy, save over and over at once; every write of every writer is in the
// final snapshot and every object it references is there.
func TestManyWritersLoseNothing(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	_, err := NewSnapshotter(store, "sb/").Save(ctx, newTree(t, "/shared=0"), time.Hour)
	require.NoError(t, err)
	const writers, rounds = 4, 15
	var wg sync.WaitGroup
	for i := range writers {
		s, fsys := loadAt(t, store, "sb/")
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				if err := afero.WriteFile(fsys, fmt.Sprintf("/w%d-r%d", i, r), []byte("x"), 0o644); err != nil {
					t.Error(err)
					return
				}
				if err := afero.WriteFile(fsys, "/shared", []byte(fmt.Sprint(i, r)), 0o644); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Save(ctx, fsys, time.Hour); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	_, got := loadAt(t, store, "sb/")
	for i := range writers {
		for r := range rounds {
			ok, err := afero.Exists(got, fmt.Sprintf("/w%d-r%d", i, r))
			require.NoError(t, err)
			assert.True(t, ok, "writer %d round %d", i, r)
		}
	}
	assertNoGarbage(t, store, "sb/")
}

// cancelAfter cancels a context after n object writes: a Save killed
// part way.
type cancelAfter struct {
	SnapshotStore
	n      int
	cancel context.CancelFunc
	mu     sync.Mutex
}

func (c *cancelAfter) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	c.mu.Lock()
	c.n--
	if c.n < 0 {
		c.cancel()
	}
	c.mu.Unlock()
	return c.SnapshotStore.Set(ctx, key, v, ttl)
}

// TestKilledSavesAreCollected: the objects of Saves killed part way are
// collected by the next Save that completes.
func TestKilledSavesAreCollected(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	fsys := newTree(t, "/a=1")
	s := NewSnapshotter(store, "sb/")
	_, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	for k := range 5 {
		for i := range 50 {
			require.NoError(t, afero.WriteFile(fsys, fmt.Sprintf("/f%d", i), []byte(fmt.Sprint(k, i)), 0o644))
		}
		kctx, cancel := context.WithCancel(ctx)
		killed := NewSnapshotter(&cancelAfter{SnapshotStore: store, n: 30, cancel: cancel}, "sb/")
		_, _, err := killed.Load(ctx, Options{})
		require.NoError(t, err)
		_, err = killed.Save(kctx, fsys, time.Hour)
		require.ErrorIs(t, err, context.Canceled)
	}
	keys, err := store.Keys(ctx, "sb/obj/")
	require.NoError(t, err)
	require.Greater(t, len(keys), 100, "the killed saves left objects")
	st, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	t.Logf("collected %d objects", st.ObjectsDeleted)
	assertNoGarbage(t, store, "sb/")
}

// TestMissingObjectIsDamaged: a manifest whose object is gone is damaged,
// not "no snapshot".
func TestMissingObjectIsDamaged(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	_, err := NewSnapshotter(store, "sb/").Save(ctx, newTree(t, "/a=1", "/b=2"), time.Hour)
	require.NoError(t, err)
	keys, err := store.Keys(ctx, "sb/obj/")
	require.NoError(t, err)
	require.NoError(t, store.Delete(ctx, keys[0]))
	_, _, err = NewSnapshotter(store, "sb/").Load(ctx, Options{})
	assert.ErrorIs(t, err, ErrDamaged)
	assert.NotErrorIs(t, err, ErrNoSnapshot)

	require.NoError(t, store.Set(ctx, "sb/manifest", []byte("{garbage"), time.Hour))
	_, _, err = NewSnapshotter(store, "sb/").Load(ctx, Options{})
	assert.ErrorIs(t, err, ErrDamaged)
	require.NoError(t, NewSnapshotter(store, "sb/").Delete(ctx), "a damaged snapshot can be deleted")
	left, err := store.Keys(ctx, "sb/")
	require.NoError(t, err)
	assert.Empty(t, left)
}

// TestBigFileIsStoredInPieces: a file over fileChunk bytes is stored as
// pieces; a change to its end writes one piece.
func TestBigFileIsStoredInPieces(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	fsys := New(Options{})
	big := make([]byte, 3*fileChunk+123)
	for i := range big {
		big[i] = byte(i * 7 / 3)
	}
	require.NoError(t, afero.WriteFile(fsys, "/big", big, 0o644))
	s := NewSnapshotter(store, "sb/")
	_, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	f, err := fsys.OpenFile("/big", 1, 0) // O_WRONLY
	require.NoError(t, err)
	_, err = f.WriteAt([]byte("changed"), int64(len(big)-10))
	require.NoError(t, err)
	require.NoError(t, f.Close())
	copy(big[len(big)-10:], "changed")
	st, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	assert.Equal(t, 2, st.ObjectsWritten, "the last piece and the root listing, nothing else")
	_, got := loadAt(t, store, "sb/")
	b, err := afero.ReadFile(got, "/big")
	require.NoError(t, err)
	assert.Equal(t, big, b)
}
