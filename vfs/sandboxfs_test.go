package vfs

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/stretchr/testify/require"
)

func TestSandboxFS(t *testing.T) {
	ctx := context.Background()
	fsys := New(Options{})
	sfs := SandboxFS(fsys, "/home/user")
	binary := []byte{0, 1, 2, 0xff, 0xfe, '\n', '\r', 0}

	require.NoError(t, sfs.WriteFile(ctx, "deep/er/bin.dat", binary), "WriteFile makes parents")
	b, err := sfs.ReadFileBytes(ctx, "/home/user/deep/er/bin.dat")
	require.NoError(t, err)
	require.Equal(t, binary, b, "binary round-trips exactly")
	require.NoError(t, sfs.WriteFile(ctx, "notes.txt", []byte("héllo\n")))
	s, err := sfs.ReadFile(ctx, "notes.txt")
	require.NoError(t, err)
	require.Equal(t, "héllo\n", s)
	require.Equal(t, "héllo\n", readAll(t, fsys, "/home/user/notes.txt"), "relative paths are against the work folder")

	require.NoError(t, sfs.Mkdir(ctx, "a/b/c"))
	require.NoError(t, sfs.Mkdir(ctx, "a/b/c"), "Mkdir is mkdir -p: existing is fine")
	require.NoError(t, fsys.SymlinkIfPossible("notes.txt", "/home/user/link"))

	entries, err := sfs.ReadDir(ctx, ".")
	require.NoError(t, err)
	var got []sandbox.FileEntry
	for _, e := range entries {
		require.False(t, e.ModTime.IsZero())
		e.ModTime = time.Time{}
		got = append(got, e)
	}
	require.Equal(t, []sandbox.FileEntry{
		{Name: "a", Path: "/home/user/a", IsDir: true},
		{Name: "deep", Path: "/home/user/deep", IsDir: true},
		{Name: "link", Path: "/home/user/link", Size: 9},
		{Name: "notes.txt", Path: "/home/user/notes.txt", Size: 7},
	}, got)
	_, err = sfs.ReadDir(ctx, "notes.txt")
	require.ErrorIs(t, err, syscall.ENOTDIR)
	_, err = sfs.ReadDir(ctx, "nope")
	require.ErrorIs(t, err, fs.ErrNotExist)

	for p, want := range map[string]bool{"a/b": true, "notes.txt": true, "link": true, "nope": false, "notes.txt/x": false, "/": true} {
		ok, err := sfs.Exists(ctx, p)
		require.NoError(t, err, p)
		require.Equal(t, want, ok, p)
	}

	_, err = sfs.ReadFile(ctx, "a")
	require.ErrorIs(t, err, fs.ErrInvalid, "reading a folder as a file")
	require.ErrorIs(t, err, syscall.EISDIR)
	require.Contains(t, err.Error(), "is a directory")
	_, err = sfs.ReadFile(ctx, "missing")
	require.ErrorIs(t, err, fs.ErrNotExist)

	require.NoError(t, sfs.Remove(ctx, "a"), "Remove is recursive")
	ok, _ := sfs.Exists(ctx, "a/b/c")
	require.False(t, ok)
	require.ErrorIs(t, sfs.Remove(ctx, "a"), fs.ErrNotExist)
	require.NoError(t, sfs.Remove(ctx, "link"))
	ok, _ = sfs.Exists(ctx, "notes.txt")
	require.True(t, ok, "removing a link keeps its target")
	require.Error(t, sfs.Remove(ctx, "/"), "the root is not removed")

	// ".." stops at the root: the host is never reached.
	_, err = sfs.ReadFile(ctx, "../../../../etc/passwd")
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.NoError(t, sfs.WriteFile(ctx, "../../../../tmp/x", []byte("1")))
	require.Equal(t, "1", readAll(t, fsys, "/tmp/x"))
	requireUsage(t, fsys)
}

func TestSandboxFSContextAndCheck(t *testing.T) {
	fsys := newTree(t, "w/", "w/f=1")
	gone := sandbox.Gone("memory", "sb-1")
	var isGone bool
	sfs := SandboxFS(fsys, "w", SandboxFSOptions{Check: func() error {
		if isGone {
			return gone
		}
		return nil
	}})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	ctx := context.Background()

	calls := map[string]func(ctx context.Context) error{
		"ReadFile":      func(ctx context.Context) error { _, err := sfs.ReadFile(ctx, "f"); return err },
		"ReadFileBytes": func(ctx context.Context) error { _, err := sfs.ReadFileBytes(ctx, "f"); return err },
		"WriteFile":     func(ctx context.Context) error { return sfs.WriteFile(ctx, "g", nil) },
		"ReadDir":       func(ctx context.Context) error { _, err := sfs.ReadDir(ctx, "."); return err },
		"Mkdir":         func(ctx context.Context) error { return sfs.Mkdir(ctx, "d") },
		"Exists":        func(ctx context.Context) error { _, err := sfs.Exists(ctx, "f"); return err },
		"Remove":        func(ctx context.Context) error { return sfs.Remove(ctx, "nope-but-never-looked-up") },
	}
	for name, call := range calls {
		require.ErrorIs(t, call(cancelled), context.Canceled, name)
		isGone = true
		err := call(ctx)
		require.True(t, err == gone, "%s: the check's error is returned as is, got %v", name, err)
		require.True(t, errors.Is(err, sandbox.ErrGone))
		isGone = false
	}
	require.Equal(t, []string{"/w/", "/w/f=1"}, dump(t, fsys), "nothing was done")
}
