package vfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/require"
)

// build makes a tree from specs, in order: "d/" is a directory, "f=text" a
// file with that content, "l->target" a link. Parents must come first.
func build(t testing.TB, fsys *FS, specs ...string) {
	t.Helper()
	for _, s := range specs {
		switch {
		case strings.Contains(s, "->"):
			name, target, _ := strings.Cut(s, "->")
			require.NoError(t, fsys.SymlinkIfPossible(target, name), s)
		case strings.Contains(s, "="):
			name, data, _ := strings.Cut(s, "=")
			require.NoError(t, afero.WriteFile(fsys, name, []byte(data), 0o644), s)
		case strings.HasSuffix(s, "/"):
			require.NoError(t, fsys.Mkdir(s, 0o755), s)
		default:
			t.Fatalf("bad spec %q", s)
		}
	}
}

// newTree is New(Options{}) with build(specs).
func newTree(t testing.TB, specs ...string) *FS {
	t.Helper()
	fsys := New(Options{})
	build(t, fsys, specs...)
	return fsys
}

// dump lists the whole tree, one line a node, for comparisons and failure
// messages: "/d/", "/f=content", "/l->target".
func dump(t testing.TB, fsys *FS) []string {
	t.Helper()
	var out []string
	var walk func(dir string)
	walk = func(dir string) {
		h, err := fsys.Open(dir)
		require.NoError(t, err)
		infos, err := h.Readdir(-1)
		require.NoError(t, err)
		require.NoError(t, h.Close())
		for _, info := range infos {
			p := path.Join(dir, info.Name())
			switch {
			case info.Mode()&fs.ModeSymlink != 0:
				target, err := fsys.ReadlinkIfPossible(p)
				require.NoError(t, err)
				out = append(out, p+"->"+target)
			case info.IsDir():
				out = append(out, p+"/")
				walk(p)
			default:
				b, err := afero.ReadFile(fsys, p)
				require.NoError(t, err)
				out = append(out, p+"="+string(b))
			}
		}
	}
	walk("/")
	return out
}

// requireErr checks that err matches want (nil for success) and, when it is
// an error, that it is typed: a *fs.PathError or *os.LinkError whose paths
// are clean and absolute.
func requireErr(t testing.TB, want, err error, msg ...any) {
	t.Helper()
	if want == nil {
		require.NoError(t, err, msg...)
		return
	}
	require.Error(t, err, msg...)
	require.ErrorIs(t, err, want, msg...)
	requireTyped(t, err)
}

func requireTyped(t testing.TB, err error) {
	t.Helper()
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		requireInside(t, pe.Path)
	case errors.As(err, &le):
		requireInside(t, le.New)
	default:
		t.Fatalf("error %v (%T) is neither *fs.PathError nor *os.LinkError", err, err)
	}
}

// requireInside checks p is a clean absolute path: the only kind of path
// this package ever yields.
func requireInside(t testing.TB, p string) {
	t.Helper()
	require.True(t, strings.HasPrefix(p, "/") && path.Clean(p) == p, "path %q is not clean and absolute", p)
}

func readAll(t testing.TB, fsys *FS, name string) string {
	t.Helper()
	b, err := afero.ReadFile(fsys, name)
	require.NoError(t, err, name)
	return string(b)
}
