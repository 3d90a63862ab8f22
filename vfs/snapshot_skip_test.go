package vfs

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
)

// fullRoot is the root object a Save that reads the whole of fsys stores:
// what an incremental Save must store too.
func fullRoot(t *testing.T, fsys *FS) string {
	t.Helper()
	s := NewSnapshotter(memkv.New(memkv.Options{}), "full/")
	_, err := s.Save(context.Background(), fsys, time.Hour)
	require.NoError(t, err)
	return s.root
}

// TestSaveReadsOnlyChangedFolders: random changes of every kind (through
// paths, through handles kept open across Saves and moved meanwhile,
// through a symbolic link and through the WASI view) to a tree of many
// folders, a Save after each round; each Save stores exactly the tree a
// Save that reads everything stores, loads back as the tree is, and reads
// fewer folders than the tree has when few changed.
func TestSaveReadsOnlyChangedFolders(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(6) {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			store := memkv.New(memkv.Options{})
			fsys := New(Options{})
			dirs := []string{"/"}
			for i := range 30 {
				d := fmt.Sprintf("%s/d%d", dirs[rng.IntN(len(dirs))], i)
				d = path.Clean(d)
				require.NoError(t, fsys.MkdirAll(d, 0o755))
				dirs = append(dirs, d)
				for j := range 5 {
					require.NoError(t, afero.WriteFile(fsys, fmt.Sprintf("%s/f%d", d, j), []byte(fmt.Sprint(i, j)), 0o644))
				}
			}
			require.NoError(t, fsys.SymlinkIfPossible(dirs[3], "/link"))
			s := NewSnapshotter(store, "sb/")
			_, err := s.Save(ctx, fsys, time.Hour)
			require.NoError(t, err)
			var open []afero.File
			pick := func() string { return dirs[rng.IntN(len(dirs))] }
			name := func() string { return path.Join(pick(), fmt.Sprintf("f%d", rng.IntN(7))) }
			skipped := 0
			for round := range 60 {
				for range 1 + rng.IntN(3) {
					switch op := rng.IntN(14); op {
					case 0:
						_ = afero.WriteFile(fsys, name(), []byte(fmt.Sprint("w", round)), 0o644)
					case 1: // a handle, kept open
						if h, err := fsys.OpenFile(name(), os.O_RDWR|os.O_CREATE, 0o644); err == nil {
							open = append(open, h)
						}
					case 2, 3: // a write through an open handle (perhaps moved since)
						if len(open) > 0 {
							h := open[rng.IntN(len(open))]
							_, _ = h.Write([]byte(fmt.Sprint("h", round)))
							if rng.IntN(3) == 0 {
								_ = h.Truncate(1)
							}
						}
					case 4: // close one
						if len(open) > 0 {
							k := rng.IntN(len(open))
							_ = open[k].Close()
							open = append(open[:k], open[k+1:]...)
						}
					case 5: // move a file
						_ = fsys.Rename(name(), name())
					case 6: // move a folder (not one of dirs' first few)
						from := pick()
						if from != "/" {
							to := path.Join(pick(), fmt.Sprintf("m%d", round))
							if fsys.Rename(from, to) == nil {
								for k, d := range dirs {
									if d == from || len(d) > len(from) && d[:len(from)+1] == from+"/" {
										dirs[k] = to + d[len(from):]
									}
								}
							}
						}
					case 7: // remove a file
						_ = fsys.Remove(name())
					case 8: // remove a folder, make it again empty
						d := pick()
						if d != "/" && fsys.RemoveAll(d) == nil {
							_ = fsys.MkdirAll(d, 0o700)
						}
					case 9:
						_ = fsys.Chmod(name(), fs0(rng))
					case 10:
						_ = fsys.Chtimes(name(), time.Unix(int64(round), 0), time.Unix(int64(round), 0))
					case 11: // through the link
						_ = afero.WriteFile(fsys, fmt.Sprintf("/link/f%d", rng.IntN(7)), []byte(fmt.Sprint("l", round)), 0o644)
					case 12: // through WASI: a write, and futimens on an open file
						w := fsys.WASI()
						p := name()[1:]
						if f, e := w.OpenFile(p, experimentalsys.O_RDWR|experimentalsys.O_CREAT, 0o644); e == 0 {
							_, _ = f.Write([]byte("wasi"))
							_ = f.Utimens(experimentalsys.UTIME_OMIT, int64(round)*1e9)
							_ = f.Close()
						}
					case 13: // a symbolic link
						_ = fsys.SymlinkIfPossible("t", name())
					}
				}
				st, err := s.Save(ctx, fsys, time.Hour)
				require.NoError(t, err)
				require.Equal(t, fullRoot(t, fsys), s.root, "round %d: the tree stored differs from the whole tree's", round)
				if st.FoldersRead < len(dirs)/2 {
					skipped++
				}
				got, _, err := NewSnapshotter(store, "sb/").Load(ctx, Options{})
				require.NoError(t, err)
				require.Equal(t, dump(t, fsys), dump(t, got), "round %d", round)
			}
			for _, h := range open {
				_ = h.Close()
			}
			assert.Greater(t, skipped, 30, "most Saves read under half the folders")
			assertNoGarbage(t, store, "sb/")
		})
	}
}

func fs0(rng *rand.Rand) os.FileMode { return os.FileMode(0o600 + rng.IntN(0o100)) }

// TestSaveSeesEveryChange: changes a Save that reads only changed folders
// could miss, each after a Save of the same FS; the next Save stores the
// tree a whole read stores.
func TestSaveSeesEveryChange(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		tree   []string
		change func(t *testing.T, fsys *FS, save func())
	}{
		{"a folder moved to where a removed one was", []string{"/a/", "/a/sub/", "/a/sub/x=new", "/b/", "/b/sub/", "/b/sub/x=old"},
			func(t *testing.T, fsys *FS, _ func()) {
				require.NoError(t, fsys.RemoveAll("/b"))
				require.NoError(t, fsys.Rename("/a", "/b"))
			}},
		{"a folder removed", []string{"/d/", "/d/sub/", "/d/sub/x=1", "/d/y=2"},
			func(t *testing.T, fsys *FS, _ func()) { require.NoError(t, fsys.RemoveAll("/d/sub")) }},
		{"an empty folder removed", []string{"/d/", "/d/sub/"},
			func(t *testing.T, fsys *FS, _ func()) { require.NoError(t, fsys.Remove("/d/sub")) }},
		{"futimens on a read-only handle", []string{"/d/", "/d/e/", "/d/e/x=1"},
			func(t *testing.T, fsys *FS, _ func()) {
				f, e := fsys.WASI().OpenFile("d/e/x", experimentalsys.O_RDONLY, 0)
				require.Zero(t, e)
				require.Zero(t, f.Utimens(experimentalsys.UTIME_OMIT, 12345e9))
				require.Zero(t, f.Close())
			}},
		{"a write through a handle whose folder moved before a Save", []string{"/d/", "/d/x=1", "/e/"},
			func(t *testing.T, fsys *FS, save func()) {
				h, err := fsys.OpenFile("/d/x", os.O_WRONLY|os.O_APPEND, 0)
				require.NoError(t, err)
				require.NoError(t, fsys.Rename("/d", "/e/d"))
				save()
				_, err = h.Write([]byte("more"))
				require.NoError(t, err)
				save()
				_, err = h.Write([]byte("again"))
				require.NoError(t, err)
				require.NoError(t, h.Close())
			}},
		{"a file replaced by a rename over it while open", []string{"/d/", "/d/x=1", "/d/y=2"},
			func(t *testing.T, fsys *FS, save func()) {
				h, err := fsys.OpenFile("/d/x", os.O_WRONLY, 0)
				require.NoError(t, err)
				require.NoError(t, fsys.Rename("/d/y", "/d/x"))
				save()
				_, err = h.Write([]byte("to the removed file"))
				require.NoError(t, err)
				require.NoError(t, h.Close())
			}},
		{"a folder's mode", []string{"/d/", "/d/e/", "/d/e/x=1"},
			func(t *testing.T, fsys *FS, _ func()) { require.NoError(t, fsys.Chmod("/d/e", 0o700)) }},
		{"a write through a link to a folder", []string{"/d/", "/d/e/", "/d/e/x=1", "/l->d/e"},
			func(t *testing.T, fsys *FS, _ func()) {
				require.NoError(t, afero.WriteFile(fsys, "/l/x", []byte("via the link"), 0o644))
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := newTree(t, c.tree...)
			store := memkv.New(memkv.Options{})
			s := NewSnapshotter(store, "sb/")
			save := func() {
				t.Helper()
				_, err := s.Save(ctx, fsys, time.Hour)
				require.NoError(t, err)
				require.Equal(t, fullRoot(t, fsys), s.root, "the tree stored differs from the whole tree's")
			}
			save()
			c.change(t, fsys, save)
			save()
			got, _, err := NewSnapshotter(store, "sb/").Load(ctx, Options{})
			require.NoError(t, err)
			require.Equal(t, dump(t, fsys), dump(t, got))
		})
	}
}
