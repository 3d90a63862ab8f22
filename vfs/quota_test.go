package vfs

import (
	"context"
	"io"
	"os"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/require"
)

func requireUsed(t testing.TB, fsys *FS, bytes int64, files int) {
	t.Helper()
	gotBytes, gotFiles := fsys.Usage()
	require.Equal(t, bytes, gotBytes, "bytes")
	require.Equal(t, files, gotFiles, "files")
	requireUsage(t, fsys)
}

func requireNoSpace(t testing.TB, err error, msg string) {
	t.Helper()
	requireErr(t, ErrNoSpace, err)
	require.ErrorIs(t, err, syscall.ENOSPC)
	require.Contains(t, err.Error(), msg)
}

func TestQuotaBytesExactBoundary(t *testing.T) {
	fsys := New(Options{MaxBytes: 10})
	h, err := fsys.Create("/f")
	require.NoError(t, err)
	n, err := h.Write([]byte("0123456789"))
	require.NoError(t, err, "exactly MaxBytes fits")
	require.Equal(t, 10, n)
	n, err = h.Write([]byte("x"))
	require.Equal(t, 0, n)
	requireNoSpace(t, err, "no space left on device (sandbox quota of 10 bytes)")
	require.NoError(t, h.Close())
	require.Equal(t, "0123456789", readAll(t, fsys, "/f"))
	requireUsed(t, fsys, 10, 1)

	// Overwriting in place takes no new room.
	h, err = fsys.OpenFile("/f", os.O_RDWR, 0)
	require.NoError(t, err)
	_, err = h.Write([]byte("abcdefghij"))
	require.NoError(t, err)
	require.NoError(t, h.Close())
	requireUsed(t, fsys, 10, 1)
}

func TestQuotaWriteOverWritesNothing(t *testing.T) {
	fsys := New(Options{MaxBytes: 10})
	build(t, fsys, "f=12345678")
	h, err := fsys.OpenFile("/f", os.O_RDWR, 0)
	require.NoError(t, err)
	_, err = h.Seek(6, io.SeekStart)
	require.NoError(t, err)
	n, err := h.Write([]byte("abcde")) // would end at 11
	require.Equal(t, 0, n)
	requireNoSpace(t, err, "10 bytes")
	off, _ := h.Seek(0, io.SeekCurrent)
	require.Equal(t, int64(6), off, "a refused write does not move the offset")
	n, err = h.Write([]byte("abcd")) // ends at 10
	require.NoError(t, err)
	require.Equal(t, 4, n)
	require.NoError(t, h.Close())
	require.Equal(t, "123456abcd", readAll(t, fsys, "/f"))

	// A gap counts: seeking past the end and writing takes the zeros too.
	fsys = New(Options{MaxBytes: 10})
	h, err = fsys.Create("/g")
	require.NoError(t, err)
	_, err = h.Seek(8, io.SeekStart)
	require.NoError(t, err)
	_, err = h.Write([]byte("abc"))
	requireNoSpace(t, err, "10 bytes")
	_, err = h.WriteAt([]byte("abc"), 8)
	requireNoSpace(t, err, "10 bytes")
	_, err = h.WriteAt([]byte("ab"), 8)
	require.NoError(t, err)
	require.NoError(t, h.Close())
	requireUsed(t, fsys, 10, 1)
}

func TestQuotaTruncate(t *testing.T) {
	fsys := New(Options{MaxBytes: 10})
	build(t, fsys, "f=0123456789")
	h, err := fsys.OpenFile("/f", os.O_RDWR, 0)
	require.NoError(t, err)
	requireNoSpace(t, h.Truncate(11), "10 bytes")
	require.NoError(t, h.Truncate(4), "shrinking gives back")
	requireUsed(t, fsys, 4, 1)
	require.NoError(t, h.Truncate(10), "growing within the quota")
	require.NoError(t, h.Close())
	require.Equal(t, "0123\x00\x00\x00\x00\x00\x00", readAll(t, fsys, "/f"))

	h, err = fsys.OpenFile("/f", os.O_WRONLY|os.O_TRUNC, 0)
	require.NoError(t, err)
	requireUsed(t, fsys, 0, 1)
	require.NoError(t, h.Close())
}

func TestQuotaGivesBack(t *testing.T) {
	fsys := New(Options{MaxBytes: 10})
	build(t, fsys, "d/", "d/a=12345", "b=12345")
	requireUsed(t, fsys, 10, 3)
	requireNoSpace(t, afero.WriteFile(fsys, "/c", []byte("x"), 0o644), "10 bytes")
	require.Equal(t, "", readAll(t, fsys, "/c"), "open(O_CREATE) made the file, the write wrote nothing")
	requireUsed(t, fsys, 10, 4)

	require.NoError(t, fsys.Remove("/b"), "unlink gives back")
	requireUsed(t, fsys, 5, 3)
	build(t, fsys, "c=123", "e=12")
	requireUsed(t, fsys, 10, 4)

	require.NoError(t, fsys.Rename("/c", "/e"), "rename over gives back the replaced file")
	requireUsed(t, fsys, 8, 3)
	require.NoError(t, fsys.RemoveAll("/d"))
	requireUsed(t, fsys, 3, 1)
}

func TestQuotaFiles(t *testing.T) {
	fsys := New(Options{MaxFiles: 3})
	require.NoError(t, fsys.Mkdir("/d", 0o755))
	require.NoError(t, afero.WriteFile(fsys, "/d/f", nil, 0o644))
	require.NoError(t, fsys.SymlinkIfPossible("d", "/l"), "exactly MaxFiles fits")
	requireUsed(t, fsys, 0, 3)

	requireNoSpace(t, fsys.Mkdir("/e", 0o755), "sandbox quota of 3 files")
	_, err := fsys.Create("/g")
	requireNoSpace(t, err, "3 files")
	requireNoSpace(t, fsys.SymlinkIfPossible("d", "/m"), "3 files")
	requireNoSpace(t, fsys.WriteFile("/g", []byte("x"), 0o644), "3 files")
	// Replacing and renaming take no new file.
	require.NoError(t, fsys.WriteFile("/d/f", []byte("x"), 0o644))
	require.NoError(t, fsys.Rename("/d/f", "/f"))
	requireUsed(t, fsys, 1, 3)

	require.NoError(t, fsys.Remove("/l"))
	require.NoError(t, fsys.Mkdir("/e", 0o755))
	requireUsed(t, fsys, 1, 3)
}

func TestQuotaMkdirAllAllOrNothing(t *testing.T) {
	fsys := New(Options{MaxFiles: 3})
	build(t, fsys, "a/")
	requireNoSpace(t, fsys.MkdirAll("/a/b/c/d", 0o755), "3 files")
	require.Equal(t, []string{"/a/"}, dump(t, fsys), "MkdirAll over the quota makes nothing")
	require.NoError(t, fsys.MkdirAll("/a/b/c", 0o755))
	requireUsed(t, fsys, 0, 3)
}

func TestQuotaWriteFileAllOrNothing(t *testing.T) {
	fsys := New(Options{MaxBytes: 10})
	build(t, fsys, "f=12345")
	requireNoSpace(t, fsys.WriteFile("/f", []byte("01234567890"), 0o644), "10 bytes")
	require.Equal(t, "12345", readAll(t, fsys, "/f"), "the old content stays")
	require.NoError(t, fsys.WriteFile("/f", []byte("0123456789"), 0o644),
		"replacing counts the net change: 10 replaces 5")
	requireUsed(t, fsys, 10, 1)

	sfs := SandboxFS(New(Options{MaxBytes: 4, MaxFiles: 2}), "/")
	err := sfs.WriteFile(context.Background(), "a/b/c", []byte("x"))
	requireNoSpace(t, err, "2 files")
	exists, err := sfs.Exists(context.Background(), "/a")
	require.NoError(t, err)
	require.False(t, exists, "no parent made when the whole write does not fit")
	requireNoSpace(t, sfs.WriteFile(context.Background(), "a/c", []byte("12345")), "4 bytes")
	require.NoError(t, sfs.WriteFile(context.Background(), "a/c", []byte("1234")))
}

func TestQuotaRemovedWhileOpen(t *testing.T) {
	fsys := New(Options{MaxBytes: 10})
	h, err := fsys.Create("/f")
	require.NoError(t, err)
	_, err = h.Write([]byte("12345"))
	require.NoError(t, err)
	require.NoError(t, fsys.Remove("/f"))
	used, files := fsys.Usage()
	require.Equal(t, int64(5), used, "a removed file open for writing keeps its bytes")
	require.Zero(t, files)
	_, err = h.Write([]byte("123456"))
	requireNoSpace(t, err, "10 bytes")
	_, err = h.Write([]byte("12345"))
	require.NoError(t, err, "it still counts and may grow within the quota")
	requireNoSpace(t, fsys.WriteFile("/g", []byte("1"), 0o644), "10 bytes")
	require.NoError(t, h.Close())
	used, _ = fsys.Usage()
	require.Zero(t, used, "closing the last writer gives the bytes back")

	// The same for a file replaced by a rename.
	build(t, fsys, "a=12", "b=123")
	h, err = fsys.OpenFile("/b", os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, fsys.Rename("/a", "/b"))
	requireEqualUsed(t, fsys, 5)
	require.NoError(t, h.Close())
	requireUsed(t, fsys, 2, 1)
}

func requireEqualUsed(t testing.TB, fsys *FS, bytes int64) {
	t.Helper()
	got, _ := fsys.Usage()
	require.Equal(t, bytes, got)
}

func TestMaxFileSize(t *testing.T) {
	fsys := New(Options{})
	h, err := fsys.Create("/f")
	require.NoError(t, err)
	defer h.Close()
	_, err = h.Seek(MaxFileSize, io.SeekStart)
	require.NoError(t, err, "seeking far is allowed")
	_, err = h.Write([]byte("x"))
	requireErr(t, syscall.EFBIG, err)
	requireErr(t, syscall.EFBIG, h.Truncate(MaxFileSize+1))
	_, err = h.WriteAt([]byte("x"), 1<<62)
	requireErr(t, syscall.EFBIG, err)
	_, err = h.Seek(1<<62, io.SeekStart)
	require.NoError(t, err)
	_, err = h.Seek(1<<62, io.SeekCurrent) // 1<<63 overflows int64
	requireErr(t, syscall.EINVAL, err)
	requireUsed(t, fsys, 0, 1)
}

func TestQuotaErrorValue(t *testing.T) {
	require.ErrorIs(t, ErrNoSpace, syscall.ENOSPC)
	require.Equal(t, "no space left on device (sandbox quota)", ErrNoSpace.Error())
	fsys := New(Options{MaxBytes: -1, MaxFiles: -1})
	require.NoError(t, afero.WriteFile(fsys, "/f", make([]byte, 1000), 0o644), "negative quotas mean none")
}
