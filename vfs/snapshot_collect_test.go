package vfs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
)

// listCounter counts the store's listings of a snapshot's objects.
type listCounter struct {
	SnapshotStore
	objLists atomic.Int64
}

func (c *listCounter) Keys(ctx context.Context, prefix string) ([]string, error) {
	if strings.HasSuffix(prefix, "obj/") {
		c.objLists.Add(1)
	}
	return c.SnapshotStore.Keys(ctx, prefix)
}

// TestSaveCollectsWithoutListing: once a Snapshotter has swept the store,
// a Save that replaces a file deletes the replaced objects by name, without
// listing the store's objects, and leaves none behind.
func TestSaveCollectsWithoutListing(t *testing.T) {
	ctx := context.Background()
	store := &listCounter{SnapshotStore: memkv.New(memkv.Options{})}
	fsys := newTree(t, "/d/", "/d/a=1", "/d/b=2", "/e/", "/e/c=3")
	s := NewSnapshotter(store, "sb/")
	_, err := s.Save(ctx, fsys, time.Hour)
	require.NoError(t, err)
	require.EqualValues(t, 1, store.objLists.Load(), "the first Save sweeps once")
	for i := range 5 {
		require.NoError(t, afero.WriteFile(fsys, "/d/a", []byte(fmt.Sprint("edit ", i)), 0o644))
		require.NoError(t, fsys.Remove("/e/c"))
		require.NoError(t, afero.WriteFile(fsys, "/e/c", []byte(fmt.Sprint("c", i)), 0o644))
		st, err := s.Save(ctx, fsys, time.Hour)
		require.NoError(t, err)
		// /d/a, /e/c, both folders and the root are new; their old versions go.
		assert.Equal(t, 5, st.ObjectsDeleted, "save %d", i)
	}
	assert.EqualValues(t, 1, store.objLists.Load(), "no Save after the first listed the objects")
	assertNoGarbage(t, store, "sb/")
}

// TestHardKilledSaveIsCollected: a Save whose process ended mid-way leaves
// its objects and its saving/ key, no litter key; once the key expires, the
// next Save of a Snapshotter that saw it lists the store and collects them.
func TestHardKilledSaveIsCollected(t *testing.T) {
	ctx := context.Background()
	now := time.Now()
	store := memkv.New(memkv.Options{Now: func() time.Time { return now }})
	fsys := newTree(t, "/a=1")
	s := NewSnapshotter(store, "sb/")
	_, err := s.Save(ctx, fsys, 24*time.Hour)
	require.NoError(t, err)

	// The killed Save: its key, then objects no manifest references.
	require.NoError(t, store.Set(ctx, "sb/saving/killed", []byte("1"), savingTTL))
	for i := range 20 {
		_, err := (&saver{s: NewSnapshotter(store, "sb/"), ctx: ctx, ttl: 24 * time.Hour, used: map[string]struct{}{}}).put([]byte(fmt.Sprint("orphan ", i)))
		require.NoError(t, err)
	}
	require.NoError(t, afero.WriteFile(fsys, "/a", []byte("2"), 0o644))
	_, err = s.Save(ctx, fsys, 24*time.Hour)
	require.NoError(t, err)
	keys, err := store.Keys(ctx, "sb/obj/")
	require.NoError(t, err)
	require.Greater(t, len(keys), 20, "no collection while the killed Save's key lives")

	now = now.Add(savingTTL + time.Second)
	require.NoError(t, afero.WriteFile(fsys, "/a", []byte("3"), 0o644))
	_, err = s.Save(ctx, fsys, 24*time.Hour)
	require.NoError(t, err)
	assertNoGarbage(t, store, "sb/")
}

// TestSnapshotRandomEditsLoadBack: random changes to a tree with big
// folders (stored in chunks, their unchanged chunks kept from the Save
// before), saved after each round; every snapshot loads back as the tree
// was, and the store holds no object the snapshot does not reference.
func TestSnapshotRandomEditsLoadBack(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	fsys := New(Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	dirs := []string{"/big", "/big/sub", "/small", "/other"}
	for _, d := range dirs {
		require.NoError(t, fsys.MkdirAll(d, 0o755))
	}
	for i := range 1500 {
		require.NoError(t, afero.WriteFile(fsys, fmt.Sprintf("/big/f%04d", i), []byte(fmt.Sprint(i)), 0o644))
	}
	for i := range 700 {
		require.NoError(t, afero.WriteFile(fsys, fmt.Sprintf("/big/sub/g%d", i), []byte(fmt.Sprint(i)), 0o644))
	}
	s := NewSnapshotter(store, "sb/")
	for round := range 40 {
		for range 1 + rng.IntN(4) {
			d := dirs[rng.IntN(len(dirs))]
			name := fmt.Sprintf("%s/f%04d", d, rng.IntN(1600))
			switch rng.IntN(6) {
			case 0, 1: // write (new or changed)
				require.NoError(t, afero.WriteFile(fsys, name, []byte(fmt.Sprint("r", round)), 0o644))
			case 2: // remove
				if err := fsys.Remove(name); err != nil {
					require.ErrorIs(t, err, afero.ErrFileNotFound)
				}
			case 3: // rename within the folder (same count of entries)
				to := fmt.Sprintf("%s/f%04d", d, rng.IntN(1600))
				if _, err := fsys.Stat(name); err == nil {
					require.NoError(t, fsys.Rename(name, to))
				}
			case 4: // mode
				if _, err := fsys.Stat(name); err == nil {
					require.NoError(t, fsys.Chmod(name, 0o600))
				}
			case 5: // a symlink
				_ = fsys.Remove(name)
				require.NoError(t, fsys.SymlinkIfPossible("target", name))
			}
		}
		_, err := s.Save(ctx, fsys, time.Hour)
		require.NoError(t, err)
		got, _, err := NewSnapshotter(store, "sb/").Load(ctx, Options{})
		require.NoError(t, err)
		require.Equal(t, dump(t, fsys), dump(t, got), "round %d", round)
	}
	assertNoGarbage(t, store, "sb/")
}

// TestEqualEntryComparesEveryField: a field added to entry must be
// compared by equalEntry, or a Save would keep a folder object that lists
// the field's old value.
func TestEqualEntryComparesEveryField(t *testing.T) {
	base := entry{Name: "a", Type: "f", Mode: 0o644, Size: 1, MTime: 2, Hash: "h", Link: "l", Chunks: []string{"c"}}
	require.True(t, equalEntry(base, base))
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		changed := base
		changed.Chunks = []string{"c"}
		f := reflect.ValueOf(&changed).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Int64:
			f.SetInt(f.Int() + 1)
		case reflect.Uint32:
			f.SetUint(f.Uint() + 1)
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"d"}))
		default:
			t.Fatalf("field %s: kind %s not handled here", typ.Field(i).Name, f.Kind())
		}
		assert.False(t, equalEntry(base, changed), "field %s", typ.Field(i).Name)
	}
}
