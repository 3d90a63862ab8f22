package vfs

import (
	"io"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/require"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

func TestWASIBridge(t *testing.T) {
	fsys := New(Options{MaxBytes: 20})
	build(t, fsys, "d/", "d/b=22", "d/a=1", "d/c/", "d/l->a", "loop->loop")
	w := fsys.WASI()

	// Paths arrive as wazero sends them: relative, "." for the root.
	st, e := w.Stat(".")
	require.Zero(t, e)
	require.True(t, st.Mode.IsDir())
	require.NotZero(t, st.Ino)

	f, e := w.OpenFile("d", experimentalsys.O_RDONLY|experimentalsys.O_DIRECTORY, 0)
	require.Zero(t, e)
	ino, e := f.Ino()
	require.Zero(t, e)
	dst, _ := w.Stat("d")
	require.Equal(t, dst.Ino, ino, "a handle's inode is its path's")

	var names []string
	for {
		dirents, e := f.Readdir(2)
		require.Zero(t, e)
		for _, d := range dirents {
			names = append(names, d.Name)
			lst, e := w.Lstat("d/" + d.Name)
			require.Zero(t, e)
			require.Equal(t, lst.Ino, d.Ino, "%s: dirent inode is Lstat's", d.Name)
			require.Equal(t, lst.Mode.Type(), d.Type)
		}
		if len(dirents) < 2 {
			break
		}
	}
	require.Equal(t, []string{"a", "b", "c", "l"}, names)
	off, e := f.Seek(0, io.SeekStart)
	require.Zero(t, e)
	require.Zero(t, off)
	dirents, e := f.Readdir(10)
	require.Zero(t, e)
	require.Len(t, dirents, 4, "Seek(0, io.SeekStart) rewinds")
	_, e = f.Seek(3, io.SeekStart)
	require.Equal(t, experimentalsys.EINVAL, e)
	_, e = f.Write([]byte("x"))
	require.Equal(t, experimentalsys.EBADF, e)
	require.Zero(t, f.Close())
	_, e = f.Readdir(1)
	require.Equal(t, experimentalsys.EBADF, e)
	_, e = f.Seek(0, io.SeekStart)
	require.Equal(t, experimentalsys.EBADF, e)

	for _, c := range []struct {
		name string
		flag experimentalsys.Oflag
		want experimentalsys.Errno
	}{
		{"d/a", experimentalsys.O_RDONLY | experimentalsys.O_DIRECTORY, experimentalsys.ENOTDIR},
		{"d/l", experimentalsys.O_RDONLY | experimentalsys.O_NOFOLLOW, experimentalsys.ELOOP},
		{"d/l", experimentalsys.O_RDONLY, 0},
		{"loop", experimentalsys.O_RDONLY, experimentalsys.ELOOP},
		{"d", experimentalsys.O_RDWR, experimentalsys.EISDIR},
		{"d/new/", experimentalsys.O_RDWR | experimentalsys.O_CREAT, experimentalsys.EISDIR},
		{"no/new", experimentalsys.O_RDWR | experimentalsys.O_CREAT, experimentalsys.ENOENT},
		{"d/a", experimentalsys.O_RDWR | experimentalsys.O_CREAT | experimentalsys.O_EXCL, experimentalsys.EEXIST},
		{"d/x", experimentalsys.O_RDWR | experimentalsys.O_CREAT | experimentalsys.O_DIRECTORY, experimentalsys.EINVAL},
		{"d/a", experimentalsys.O_RDWR | experimentalsys.O_WRONLY, experimentalsys.EINVAL},
	} {
		f, e := w.OpenFile(c.name, c.flag, 0o600)
		require.Equal(t, c.want, e, "%s %v", c.name, c.flag)
		if e == 0 {
			require.Zero(t, f.Close())
		}
	}

	for name, got := range map[string]experimentalsys.Errno{
		"mkdir existing":  w.Mkdir("d", 0o755),
		"rmdir non-empty": w.Rmdir("d"),
		"rmdir file":      w.Rmdir("d/a"),
		"rmdir link":      w.Rmdir("d/l"),
		"unlink dir":      w.Unlink("d/c"),
		"unlink root":     w.Unlink("."),
		"rename into own": w.Rename("d", "d/c/x"),
		"rename missing":  w.Rename("nope", "x"),
		"link":            w.Link("d/a", "d/hard"),
		"symlink exists":  w.Symlink("x", "d/a"),
	} {
		want := map[string]experimentalsys.Errno{
			"mkdir existing": experimentalsys.EEXIST, "rmdir non-empty": experimentalsys.ENOTEMPTY,
			"rmdir file": experimentalsys.ENOTDIR, "rmdir link": experimentalsys.ENOTDIR,
			"unlink dir": experimentalsys.EISDIR, "unlink root": experimentalsys.EPERM,
			"rename into own": experimentalsys.EINVAL, "rename missing": experimentalsys.ENOENT,
			"link": experimentalsys.ENOSYS, "symlink exists": experimentalsys.EEXIST,
		}[name]
		require.Equal(t, want, got, name)
	}
	target, e := w.Readlink("d/l")
	require.Zero(t, e)
	require.Equal(t, "a", target)
	_, e = w.Readlink("d/a")
	require.Equal(t, experimentalsys.EINVAL, e)

	// A file: append toggling, pwrite, truncate, quota as EIO.
	f, e = w.OpenFile("d/a", experimentalsys.O_RDWR|experimentalsys.O_APPEND, 0)
	require.Zero(t, e)
	require.True(t, f.IsAppend())
	_, e = f.Write([]byte("23"))
	require.Zero(t, e)
	_, e = f.Pwrite([]byte("x"), 0)
	require.Equal(t, experimentalsys.EINVAL, e, "pwrite in append mode, as package os")
	require.Zero(t, f.SetAppend(false))
	n, e := f.Pwrite([]byte("A"), 0)
	require.Zero(t, e)
	require.Equal(t, 1, n)
	off, e = f.Seek(0, io.SeekCurrent)
	require.Zero(t, e)
	require.Equal(t, int64(3), off, "pwrite keeps the offset")
	_, e = f.Seek(0, 9)
	require.Equal(t, experimentalsys.EINVAL, e)
	buf := make([]byte, 10)
	n, e = f.Pread(buf, 0)
	require.Zero(t, e, "a short pread is no error")
	require.Equal(t, "A23", string(buf[:n]))
	n, e = f.Read(buf)
	require.Zero(t, e)
	require.Zero(t, n, "end of file is 0, no errno")
	_, e = f.Write(make([]byte, 16)) // 2 + 3 + 16 > 20
	require.Equal(t, experimentalsys.EIO, e, "quota: WASI has no ENOSPC")
	require.Equal(t, experimentalsys.EIO, f.Truncate(100))
	require.Zero(t, f.Truncate(1))
	st, e = f.Stat()
	require.Zero(t, e)
	require.Equal(t, int64(1), st.Size)
	require.Zero(t, f.Utimens(experimentalsys.UTIME_OMIT, 1e18))
	st, _ = f.Stat()
	require.Equal(t, int64(1e18), st.Mtim)
	require.Zero(t, f.Sync())
	require.Zero(t, f.Close())
	require.Equal(t, experimentalsys.EBADF, f.Close())
	require.Zero(t, w.Utimens("d/l", experimentalsys.UTIME_OMIT, experimentalsys.UTIME_OMIT))
	require.Equal(t, experimentalsys.ENOENT, w.Utimens("nope", 0, 0))

	info, err := fsys.Stat("/d/a")
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o644), info.Mode())
	requireUsage(t, fsys)
}
