package vfs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
)

func TestSnapshotRoundTrip(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	src := newTree(t, "/home/", "/home/user/", "/home/user/a.txt=alpha", "/home/user/empty=",
		"/home/user/sub/", "/home/user/sub/deep/", "/home/user/sub/deep/b.go=package b\n",
		"/home/user/link->sub/deep/b.go", "/emptydir/")
	bin := make([]byte, 256)
	for i := range bin {
		bin[i] = byte(i)
	}
	require.NoError(t, afero.WriteFile(src, "/home/user/all.bin", bin, 0o600))
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 6, time.UTC)
	require.NoError(t, src.Chtimes("/home/user/a.txt", mtime, mtime))

	st, err := NewSnapshotter(store, "sb1/").Save(ctx, src, time.Hour)
	require.NoError(t, err)
	assert.Equal(t, uint64(1), st.Generation)

	// Another process loads it.
	got, m, err := NewSnapshotter(store, "sb1/").Load(ctx, Options{})
	require.NoError(t, err)
	assert.Equal(t, uint64(1), m.Generation)
	assert.Equal(t, dump(t, src), dump(t, got))
	fi, err := got.Stat("/home/user/a.txt")
	require.NoError(t, err)
	assert.True(t, fi.ModTime().Equal(mtime), "modification times survive")
	fi, err = got.Stat("/home/user/all.bin")
	require.NoError(t, err)
	assert.Equal(t, "-rw-------", fi.Mode().String(), "modes survive")

	_, _, err = NewSnapshotter(store, "other/").Load(ctx, Options{})
	assert.ErrorIs(t, err, ErrNoSnapshot)
}

func TestSnapshotIsIncremental(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	fsys := New(Options{})
	big := strings.Repeat("some source line of a realistic length, more or less\n", 200) // ~10 KB
	var total int
	for d := range 100 {
		dir := fmt.Sprintf("/w/pkg%03d", d)
		require.NoError(t, fsys.MkdirAll(dir, 0o755))
		for f := range 100 {
			content := fmt.Sprintf("// file %d/%d\n%s", d, f, big)
			total += len(content)
			require.NoError(t, afero.WriteFile(fsys, fmt.Sprintf("%s/f%03d.go", dir, f), []byte(content), 0o644))
		}
	}
	s := NewSnapshotter(store, "sb/")
	first, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	t.Logf("first snapshot of %d files, %d MB: %d objects, %d bytes", 10000, total>>20, first.ObjectsWritten, first.BytesWritten)

	// One line changes in one file.
	p := "/w/pkg042/f007.go"
	b, err := afero.ReadFile(fsys, p)
	require.NoError(t, err)
	require.NoError(t, afero.WriteFile(fsys, p, []byte(strings.Replace(string(b), "file 42/7", "file 42/7 edited", 1)), 0o644))
	second, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	t.Logf("after a one-line edit: %d objects, %d bytes written, %d deleted", second.ObjectsWritten, second.BytesWritten, second.ObjectsDeleted)
	assert.Equal(t, 4, second.ObjectsWritten, "the file, its folder, /w and the root")
	assert.Equal(t, 4, second.ObjectsDeleted, "the old file, pkg042, /w and root objects")
	assert.Less(t, second.BytesWritten, int64(32<<10), "kilobytes, not megabytes")
	assert.Equal(t, uint64(2), second.Generation)

	third, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	assert.Equal(t, 0, third.ObjectsWritten, "nothing changed, nothing but the manifest written")

	got, _, err := NewSnapshotter(store, "sb/").Load(ctx, Options{})
	require.NoError(t, err)
	b, err = afero.ReadFile(got, p)
	require.NoError(t, err)
	assert.Contains(t, string(b), "file 42/7 edited")
}

// failingStore fails every Set after the first n.
type failingStore struct {
	SnapshotStore
	n atomic.Int64
}

func (f *failingStore) Set(ctx context.Context, key string, v []byte, ttl time.Duration) error {
	if f.n.Add(-1) < 0 {
		return errors.New("the worker crashed")
	}
	return f.SnapshotStore.Set(ctx, key, v, ttl)
}

func TestCrashMidSnapshotKeepsThePreviousOne(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	fsys := newTree(t, "/a=one", "/d/", "/d/b=two")
	_, err := NewSnapshotter(store, "sb/").Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	want := dump(t, fsys)

	build(t, fsys, "/c=three", "/d/e=four")
	require.NoError(t, afero.WriteFile(fsys, "/a", []byte("changed"), 0o644))
	crashing := &failingStore{SnapshotStore: store}
	crashing.n.Store(2) // two objects get in, then the crash
	s := NewSnapshotter(crashing, "sb/")
	_, _, err = s.Load(ctx, Options{})
	require.NoError(t, err)
	_, err = s.Save(ctx, fsys, time.Hour)
	require.Error(t, err)

	got, m, err := NewSnapshotter(store, "sb/").Load(ctx, Options{})
	require.NoError(t, err)
	assert.Equal(t, uint64(1), m.Generation)
	assert.Equal(t, want, dump(t, got), "the previous snapshot is whole")
}

func TestSnapshotCollectsUnreferencedObjects(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	fsys := newTree(t, "/keep=same", "/gone=bye", "/d/", "/d/x=1")
	s := NewSnapshotter(store, "sb/")
	_, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	require.NoError(t, fsys.Remove("/gone"))
	require.NoError(t, fsys.RemoveAll("/d"))
	_, err = s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	keys, err := store.Keys(ctx, "sb/obj/")
	require.NoError(t, err)
	assert.Len(t, keys, 2, "the root and /keep's content: %v", keys)

	require.NoError(t, s.Delete(ctx))
	keys, err = store.Keys(ctx, "sb/")
	require.NoError(t, err)
	assert.Empty(t, keys)
}

func TestSnapshotExpiresWithItsTTL(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	store := memkv.New(memkv.Options{Now: func() time.Time { return now }})
	_, err := NewSnapshotter(store, "sb/").Save(ctx, newTree(t, "/a=1"), time.Minute)
	require.NoError(t, err)
	now = now.Add(2 * time.Minute)
	_, _, err = NewSnapshotter(store, "sb/").Load(ctx, Options{})
	assert.ErrorIs(t, err, ErrNoSnapshot)
	keys, err := store.Keys(ctx, "sb/")
	require.NoError(t, err)
	assert.Empty(t, keys, "objects expire too")
}

func TestDamagedObjectIsAnError(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	_, err := NewSnapshotter(store, "sb/").Save(ctx, newTree(t, "/a=1"), time.Hour)
	require.NoError(t, err)
	keys, err := store.Keys(ctx, "sb/obj/")
	require.NoError(t, err)
	for _, k := range keys {
		require.NoError(t, store.Set(ctx, k, []byte("not gzip"), time.Hour))
	}
	_, _, err = NewSnapshotter(store, "sb/").Load(ctx, Options{})
	assert.ErrorContains(t, err, "damaged")
}

// TestSnapshotBigFolderIsIncremental: a folder of 10 000 files is stored in
// chunks, so editing, adding or removing one file writes kilobytes; every
// version loads back whole.
func TestSnapshotBigFolderIsIncremental(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	fsys := New(Options{})
	require.NoError(t, fsys.MkdirAll("/t", 0o755))
	for i := range 10_000 {
		require.NoError(t, afero.WriteFile(fsys, fmt.Sprintf("/t/f%d.txt", i), []byte(fmt.Sprintf("line %d\n", i)), 0o644))
	}
	s := NewSnapshotter(store, "sb/")
	first, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	t.Logf("first snapshot of 10 000 files in one folder: %d objects, %d bytes", first.ObjectsWritten, first.BytesWritten)
	for _, c := range []struct {
		name   string
		change func() error
		check  func(got *FS)
	}{
		{"edit", func() error { return afero.WriteFile(fsys, "/t/f5000.txt", []byte("line 5000\nedited\n"), 0o644) },
			func(got *FS) {
				b, err := afero.ReadFile(got, "/t/f5000.txt")
				require.NoError(t, err)
				assert.Equal(t, "line 5000\nedited\n", string(b))
			}},
		{"add", func() error { return afero.WriteFile(fsys, "/t/new.txt", []byte("new\n"), 0o644) },
			func(got *FS) {
				b, err := afero.ReadFile(got, "/t/new.txt")
				require.NoError(t, err)
				assert.Equal(t, "new\n", string(b))
			}},
		{"remove", func() error { return fsys.Remove("/t/f42.txt") },
			func(got *FS) {
				_, err := got.Stat("/t/f42.txt")
				assert.ErrorIs(t, err, fs.ErrNotExist)
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, c.change())
			st, err := s.Save(ctx, fsys, time.Hour)
			require.NoError(t, err)
			t.Logf("%s: %d objects, %d bytes written", c.name, st.ObjectsWritten, st.BytesWritten)
			assert.LessOrEqual(t, st.ObjectsWritten, 5, "the file, at most two chunks (an edge moved), the chunk list, the root")
			assert.Less(t, st.BytesWritten, int64(16<<10), "kilobytes, not the 10 000-entry listing (840 KB)")
			got, _, err := NewSnapshotter(store, "sb/").Load(ctx, Options{})
			require.NoError(t, err)
			infos, err := afero.ReadDir(got, "/t")
			require.NoError(t, err)
			want, err := afero.ReadDir(fsys, "/t")
			require.NoError(t, err)
			assert.Equal(t, len(want), len(infos))
			c.check(got)
		})
	}
}
