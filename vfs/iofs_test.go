package vfs

import (
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"
)

func populated(t testing.TB) *FS {
	return newTree(t,
		"README.md=# hello\n",
		"bin/", "bin/sh=\x7fELF\x00\x01binary",
		"work/", "work/src/", "work/src/main.go=package main\n", "work/src/util.go=package main // util\n",
		"work/empty/", "work/big="+string(make([]byte, 100_000)),
		"work/notes.txt=line 1\nline 2\n",
		"work/link.txt->notes.txt", "work/srclink->src", "abs->/work/src/main.go",
	)
}

func TestIOFSPassesFSTest(t *testing.T) {
	fsys := populated(t)
	require.NoError(t, fstest.TestFS(fsys.IOFS(),
		"README.md", "bin/sh", "work/src/main.go", "work/src/util.go", "work/empty",
		"work/big", "work/notes.txt", "work/link.txt", "work/srclink", "abs"))
}

func TestIOFSEmpty(t *testing.T) {
	require.NoError(t, fstest.TestFS(New(Options{}).IOFS()))
}

func TestIOFSNamesAndErrors(t *testing.T) {
	v := populated(t).IOFS()
	for _, bad := range []string{"/work", "work/", "../work", "work/../work", "", "work//src"} {
		_, err := fs.Stat(v, bad)
		require.ErrorIs(t, err, fs.ErrInvalid, bad)
		_, err = v.Open(bad)
		require.ErrorIs(t, err, fs.ErrInvalid, bad)
	}
	_, err := fs.ReadFile(v, "work/nope")
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "work/nope", pe.Path, "errors carry the io/fs name")
	require.ErrorIs(t, err, fs.ErrNotExist)

	entries, err := fs.ReadDir(v, "work")
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	require.Equal(t, []string{"big", "empty", "link.txt", "notes.txt", "src", "srclink"}, names)

	target, err := fs.ReadLink(v, "work/link.txt")
	require.NoError(t, err)
	require.Equal(t, "notes.txt", target)
	info, err := fs.Lstat(v, "work/link.txt")
	require.NoError(t, err)
	require.Equal(t, fs.ModeSymlink, info.Mode().Type())
	info, err = fs.Stat(v, ".")
	require.NoError(t, err)
	require.Equal(t, ".", info.Name())

	f, err := v.Open("work/notes.txt")
	require.NoError(t, err)
	defer f.Close()
	_, err = f.(interface{ Write([]byte) (int, error) }).Write([]byte("x"))
	require.Error(t, err, "the view is read-only")
}
