package vfs

import (
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/require"
)

// op is one operation of a table case on paths p and q.
type op func(fsys *FS, p, q string) error

func opCreate(fsys *FS, p, _ string) error   { return closeOK(fsys.Create(p)) }
func opOpen(fsys *FS, p, _ string) error     { return closeOK(fsys.Open(p)) }
func opMkdir(fsys *FS, p, _ string) error    { return fsys.Mkdir(p, 0o755) }
func opMkdirAll(fsys *FS, p, _ string) error { return fsys.MkdirAll(p, 0o755) }
func opRemove(fsys *FS, p, _ string) error   { return fsys.Remove(p) }
func opRemoveAll(fsys *FS, p, _ string) error {
	return fsys.RemoveAll(p)
}
func opRename(fsys *FS, p, q string) error  { return fsys.Rename(p, q) }
func opSymlink(fsys *FS, p, q string) error { return fsys.SymlinkIfPossible(p, q) }
func opStat(fsys *FS, p, _ string) error    { _, err := fsys.Stat(p); return err }
func opLstat(fsys *FS, p, _ string) error   { _, _, err := fsys.LstatIfPossible(p); return err }
func opReadlink(fsys *FS, p, _ string) error {
	_, err := fsys.ReadlinkIfPossible(p)
	return err
}
func opWrite(text string) op {
	return func(fsys *FS, p, _ string) error { return afero.WriteFile(fsys, p, []byte(text), 0o644) }
}
func opOpenFlag(flag int) op {
	return func(fsys *FS, p, _ string) error { return closeOK(fsys.OpenFile(p, flag, 0o644)) }
}

func closeOK(h afero.File, err error) error {
	if err != nil {
		return err
	}
	return h.Close()
}

// posixCase is one rule: op on p (and q) in tree gives want and leaves the
// tree as after (nil: not checked).
type posixCase struct {
	name  string
	tree  []string
	p, q  string
	op    op
	want  error
	after []string
}

var posixCases = []posixCase{
	// The root jail: every name is clean and absolute.
	{name: "relative name is from the root", tree: []string{"a/"}, p: "a/f", op: opWrite("x"), after: []string{"/a/", "/a/f=x"}},
	{name: "dotdot stops at the root", tree: []string{"a/"}, p: "../../../a/../a/./f", op: opWrite("x"), after: []string{"/a/", "/a/f=x"}},
	{name: "empty name", p: "", op: opStat, want: fs.ErrNotExist},
	{name: "NUL in name", p: "a\x00b", op: opCreate, want: syscall.EINVAL, after: []string{}},
	{name: "overlong element", p: strings.Repeat("x", 256), op: opCreate, want: syscall.ENAMETOOLONG, after: []string{}},
	{name: "overlong path", p: strings.Repeat("x/", 2049), op: opMkdirAll, want: syscall.ENAMETOOLONG, after: []string{}},
	{name: "root stats", p: "/", op: opStat},
	{name: "dotdot root stats", p: "../..", op: opStat},

	// Creating: parents are never made silently.
	{name: "create in missing parent", p: "/no/f", op: opCreate, want: fs.ErrNotExist, after: []string{}},
	{name: "create under a file", tree: []string{"f=x"}, p: "/f/g", op: opCreate, want: syscall.ENOTDIR, after: []string{"/f=x"}},
	{name: "create with trailing slash", p: "/new/", op: opCreate, want: syscall.EISDIR, after: []string{}},
	{name: "create truncates", tree: []string{"f=hello"}, p: "/f", op: opCreate, after: []string{"/f="}},
	{name: "excl on existing", tree: []string{"f=x"}, p: "/f", op: opOpenFlag(os.O_RDWR | os.O_CREATE | os.O_EXCL), want: fs.ErrExist},
	{name: "excl on dangling link", tree: []string{"l->nowhere"}, p: "/l", op: opOpenFlag(os.O_RDWR | os.O_CREATE | os.O_EXCL), want: fs.ErrExist, after: []string{"/l->nowhere"}},
	{name: "open missing", p: "/nope", op: opOpen, want: fs.ErrNotExist},
	{name: "open file with slash", tree: []string{"f=x"}, p: "/f/", op: opOpen, want: syscall.ENOTDIR},
	{name: "open dir for writing", tree: []string{"d/"}, p: "/d", op: opOpenFlag(os.O_WRONLY), want: syscall.EISDIR},
	{name: "open dir with create", tree: []string{"d/"}, p: "/d", op: opOpenFlag(os.O_RDONLY | os.O_CREATE), want: syscall.EISDIR},
	{name: "bad access mode", tree: []string{"f=x"}, p: "/f", op: opOpenFlag(os.O_WRONLY | os.O_RDWR), want: syscall.EINVAL},
	{name: "open dir read-only", tree: []string{"d/"}, p: "/d", op: opOpen},

	// Mkdir and MkdirAll.
	{name: "mkdir existing dir", tree: []string{"d/"}, p: "/d", op: opMkdir, want: fs.ErrExist},
	{name: "mkdir existing file", tree: []string{"f=x"}, p: "/f", op: opMkdir, want: fs.ErrExist},
	{name: "mkdir over link", tree: []string{"d/", "l->d"}, p: "/l", op: opMkdir, want: fs.ErrExist},
	{name: "mkdir over dangling link", tree: []string{"l->d"}, p: "/l/", op: opMkdir, want: fs.ErrExist, after: []string{"/l->d"}},
	{name: "mkdir root", p: "/", op: opMkdir, want: fs.ErrExist},
	{name: "mkdir missing parent", p: "/a/b", op: opMkdir, want: fs.ErrNotExist, after: []string{}},
	{name: "mkdir under file", tree: []string{"f=x"}, p: "/f/d", op: opMkdir, want: syscall.ENOTDIR},
	{name: "mkdir with slash", p: "/d/", op: opMkdir, after: []string{"/d/"}},
	{name: "mkdirall nested", p: "a/b/c", op: opMkdirAll, after: []string{"/a/", "/a/b/", "/a/b/c/"}},
	{name: "mkdirall existing", tree: []string{"a/"}, p: "/a", op: opMkdirAll},
	{name: "mkdirall through file", tree: []string{"f=x"}, p: "/f/a/b", op: opMkdirAll, want: syscall.ENOTDIR, after: []string{"/f=x"}},
	{name: "mkdirall over file", tree: []string{"f=x"}, p: "/f", op: opMkdirAll, want: syscall.ENOTDIR},
	{name: "mkdirall through link", tree: []string{"d/", "l->d"}, p: "/l/x", op: opMkdirAll, after: []string{"/d/", "/d/x/", "/l->d"}},

	// Remove and RemoveAll.
	{name: "remove non-empty dir", tree: []string{"d/", "d/f=x"}, p: "/d", op: opRemove, want: syscall.ENOTEMPTY, after: []string{"/d/", "/d/f=x"}},
	{name: "remove empty dir", tree: []string{"d/"}, p: "/d", op: opRemove, after: []string{}},
	{name: "remove file", tree: []string{"f=x", "g=y"}, p: "/f", op: opRemove, after: []string{"/g=y"}},
	{name: "remove missing", p: "/nope", op: opRemove, want: fs.ErrNotExist},
	{name: "remove root", p: "/", op: opRemove, want: syscall.EBUSY},
	{name: "remove link not target", tree: []string{"f=x", "l->f"}, p: "/l", op: opRemove, after: []string{"/f=x"}},
	{name: "remove file with slash", tree: []string{"f=x"}, p: "/f/", op: opRemove, want: syscall.ENOTDIR},
	{name: "removeall tree", tree: []string{"d/", "d/e/", "d/e/f=x", "d/l->e", "g=y"}, p: "/d", op: opRemoveAll, after: []string{"/g=y"}},
	{name: "removeall missing", p: "/nope/x", op: opRemoveAll},
	{name: "removeall root", tree: []string{"f=x"}, p: "/", op: opRemoveAll, want: syscall.EBUSY, after: []string{"/f=x"}},
	{name: "removeall link keeps target", tree: []string{"d/", "d/f=x", "l->d"}, p: "/l", op: opRemoveAll, after: []string{"/d/", "/d/f=x"}},

	// Rename, as rename(2).
	{name: "rename file over file", tree: []string{"a=1", "b=2"}, p: "/a", q: "/b", op: opRename, after: []string{"/b=1"}},
	{name: "rename file over dir", tree: []string{"a=1", "d/"}, p: "/a", q: "/d", op: opRename, want: syscall.EISDIR},
	{name: "rename dir over file", tree: []string{"d/", "f=1"}, p: "/d", q: "/f", op: opRename, want: syscall.ENOTDIR},
	{name: "rename dir over non-empty dir", tree: []string{"d/", "e/", "e/f=1"}, p: "/d", q: "/e", op: opRename, want: syscall.ENOTEMPTY},
	{name: "rename dir over empty dir", tree: []string{"d/", "d/f=1", "e/"}, p: "/d", q: "/e", op: opRename, after: []string{"/e/", "/e/f=1"}},
	{name: "rename dir into itself", tree: []string{"d/", "d/e/"}, p: "/d", q: "/d/e/x", op: opRename, want: syscall.EINVAL},
	{name: "rename dir onto its parent", tree: []string{"d/", "d/e/"}, p: "/d/e", q: "/d", op: opRename, want: syscall.ENOTEMPTY},
	{name: "rename missing", p: "/nope", q: "/x", op: opRename, want: fs.ErrNotExist},
	{name: "rename into missing parent", tree: []string{"a=1"}, p: "/a", q: "/no/a", op: opRename, want: fs.ErrNotExist, after: []string{"/a=1"}},
	{name: "rename under a file", tree: []string{"a=1", "f=2"}, p: "/a", q: "/f/a", op: opRename, want: syscall.ENOTDIR},
	{name: "rename to itself", tree: []string{"a=1"}, p: "/a", q: "a", op: opRename, after: []string{"/a=1"}},
	{name: "rename moves children", tree: []string{"d/", "d/e/", "d/e/f=1", "x/"}, p: "/d", q: "/x/d", op: opRename, after: []string{"/x/", "/x/d/", "/x/d/e/", "/x/d/e/f=1"}},
	{name: "rename root", tree: []string{"d/"}, p: "/", q: "/d/r", op: opRename, want: syscall.EBUSY},
	{name: "rename link moves link", tree: []string{"f=1", "l->f", "d/"}, p: "/l", q: "/d/l", op: opRename, after: []string{"/d/", "/d/l->f", "/f=1"}},
	{name: "rename file with slash", tree: []string{"a=1"}, p: "/a", q: "/b/", op: opRename, want: syscall.ENOTDIR},

	// Links.
	{name: "symlink over existing", tree: []string{"f=1"}, p: "x", q: "/f", op: opSymlink, want: fs.ErrExist},
	{name: "symlink empty target", p: "", q: "/l", op: opSymlink, want: fs.ErrNotExist},
	{name: "symlink in missing dir", p: "x", q: "/no/l", op: opSymlink, want: fs.ErrNotExist},
	{name: "readlink of file", tree: []string{"f=1"}, p: "/f", op: opReadlink, want: syscall.EINVAL},
	{name: "readlink missing", p: "/nope", op: opReadlink, want: fs.ErrNotExist},
	{name: "lstat dangling link", tree: []string{"l->nowhere"}, p: "/l", op: opLstat},
	{name: "stat dangling link", tree: []string{"l->nowhere"}, p: "/l", op: opStat, want: fs.ErrNotExist},
	{name: "stat loop", tree: []string{"a->b", "b->a"}, p: "/a", op: opStat, want: syscall.ELOOP},
	{name: "escape link", tree: []string{"d/", "d/l->../../../../etc/passwd"}, p: "/d/l", op: opOpen, want: fs.ErrNotExist},
	{name: "create through dangling link", tree: []string{"d/", "l->d/new"}, p: "/l", op: opWrite("x"), after: []string{"/d/", "/d/new=x", "/l->d/new"}},
}

func TestPOSIX(t *testing.T) {
	for _, c := range posixCases {
		t.Run(c.name, func(t *testing.T) {
			fsys := newTree(t, c.tree...)
			err := c.op(fsys, c.p, c.q)
			requireErr(t, c.want, err, "%s(%q, %q)", c.name, c.p, c.q)
			if c.after != nil {
				require.Equal(t, c.after, append([]string{}, dump(t, fsys)...))
			}
			requireUsage(t, fsys)
		})
	}
}

// requireUsage checks Usage against a count of the tree.
func requireUsage(t testing.TB, fsys *FS) {
	t.Helper()
	var bytes int64
	files := -1 // the root
	require.NoError(t, afero.Walk(fsys, "/", func(_ string, info fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		files++
		if info.Mode().IsRegular() {
			bytes += info.Size()
		}
		return nil
	}))
	gotBytes, gotFiles := fsys.Usage()
	require.Equal(t, bytes, gotBytes, "usage bytes")
	require.Equal(t, files, gotFiles, "usage files")
}

func TestReadPastEOF(t *testing.T) {
	fsys := newTree(t, "f=abc")
	h, err := fsys.Open("/f")
	require.NoError(t, err)
	defer h.Close()
	b := make([]byte, 10)
	n, err := h.Read(b)
	require.NoError(t, err)
	require.Equal(t, "abc", string(b[:n]))
	n, err = h.Read(b)
	require.Equal(t, 0, n)
	require.Equal(t, io.EOF, err)

	_, err = h.Seek(100, io.SeekStart)
	require.NoError(t, err)
	n, err = h.Read(b)
	require.Equal(t, 0, n)
	require.Equal(t, io.EOF, err, "past the end is io.EOF, not io.ErrUnexpectedEOF")

	n, err = h.ReadAt(b, 100)
	require.Equal(t, 0, n)
	require.Equal(t, io.EOF, err)
	n, err = h.ReadAt(b, 1)
	require.Equal(t, 2, n)
	require.Equal(t, io.EOF, err, "a short ReadAt is io.EOF")
	n, err = h.ReadAt(b[:2], 1)
	require.Equal(t, 2, n)
	require.NoError(t, err)
	_, err = h.ReadAt(b, -1)
	requireErr(t, syscall.EINVAL, err)
}

func TestAppendEveryWrite(t *testing.T) {
	fsys := newTree(t, "f=start")
	h, err := fsys.OpenFile("/f", os.O_RDWR|os.O_APPEND, 0)
	require.NoError(t, err)
	other, err := fsys.OpenFile("/f", os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = h.Write([]byte("-1"))
	require.NoError(t, err)
	_, err = other.Write([]byte("START")) // overwrites at 0, length 5
	require.NoError(t, err)
	_, err = h.Seek(0, io.SeekStart)
	require.NoError(t, err)
	_, err = h.Write([]byte("-2"))
	require.NoError(t, err)
	require.NoError(t, h.Close())
	require.NoError(t, other.Close())
	require.Equal(t, "START-1-2", readAll(t, fsys, "/f"))

	h, err = fsys.OpenFile("/f", os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = h.WriteAt([]byte("x"), 0)
	requireErr(t, syscall.EINVAL, err, "WriteAt in append mode, as package os")
	require.NoError(t, h.Close())
}

func TestWriteAtKeepsOffset(t *testing.T) {
	fsys := newTree(t, "f=0123456789")
	h, err := fsys.OpenFile("/f", os.O_RDWR, 0)
	require.NoError(t, err)
	defer h.Close()
	_, err = h.Seek(3, io.SeekStart)
	require.NoError(t, err)
	n, err := h.WriteAt([]byte("ab"), 7)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	off, err := h.Seek(0, io.SeekCurrent)
	require.NoError(t, err)
	require.Equal(t, int64(3), off, "WriteAt must not move the offset")
	b := make([]byte, 2)
	_, err = h.ReadAt(b, 0)
	require.NoError(t, err)
	off, _ = h.Seek(0, io.SeekCurrent)
	require.Equal(t, int64(3), off, "ReadAt must not move the offset")
	_, err = h.Write([]byte("X"))
	require.NoError(t, err)
	_, err = h.WriteAt([]byte("END"), 12) // past the end: zero gap
	require.NoError(t, err)
	require.Equal(t, "012X456ab9\x00\x00END", readAll(t, fsys, "/f"))
	_, err = h.WriteAt([]byte("x"), -1)
	requireErr(t, syscall.EINVAL, err)
}

func TestAccessModeAndSeek(t *testing.T) {
	fsys := newTree(t, "f=abc", "d/")
	ro, err := fsys.Open("/f")
	require.NoError(t, err)
	_, err = ro.Write([]byte("x"))
	requireErr(t, syscall.EBADF, err)
	requireErr(t, syscall.EINVAL, ro.Truncate(0))
	_, err = ro.Seek(-1, io.SeekStart)
	requireErr(t, syscall.EINVAL, err)
	_, err = ro.Seek(0, 7)
	requireErr(t, syscall.EINVAL, err)
	off, err := ro.Seek(-1, io.SeekEnd)
	require.NoError(t, err)
	require.Equal(t, int64(2), off)
	require.NoError(t, ro.Close())
	requireErr(t, fs.ErrClosed, ro.Close())
	_, err = ro.Read(make([]byte, 1))
	requireErr(t, fs.ErrClosed, err)

	wo, err := fsys.OpenFile("/f", os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = wo.Read(make([]byte, 1))
	requireErr(t, syscall.EBADF, err)
	require.NoError(t, wo.Close())

	d, err := fsys.Open("/d")
	require.NoError(t, err)
	_, err = d.Read(make([]byte, 1))
	requireErr(t, syscall.EISDIR, err)
	require.NoError(t, d.Close())

	f, err := fsys.Open("/f")
	require.NoError(t, err)
	_, err = f.Readdir(-1)
	requireErr(t, syscall.ENOTDIR, err)
	require.NoError(t, f.Close())
}

func TestListingSortedAndRewinds(t *testing.T) {
	fsys := newTree(t, "d/", "d/zeta=1", "d/alpha/", "d/Mid=2", "d/beta->alpha", "d/_x=3")
	want := []string{"Mid", "_x", "alpha", "beta", "zeta"}
	h, err := fsys.Open("/d")
	require.NoError(t, err)
	defer h.Close()
	names, err := h.Readdirnames(-1)
	require.NoError(t, err)
	require.Equal(t, want, names)
	names, err = h.Readdirnames(-1)
	require.NoError(t, err)
	require.Empty(t, names, "at the end, count <= 0 gives nothing and no error")
	names, err = h.Readdirnames(1)
	require.Equal(t, io.EOF, err)
	require.Empty(t, names)

	off, err := h.Seek(0, io.SeekStart)
	require.NoError(t, err)
	require.Zero(t, off)
	var paged []string
	for {
		infos, err := h.Readdir(2)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		require.LessOrEqual(t, len(infos), 2)
		for _, info := range infos {
			paged = append(paged, info.Name())
		}
	}
	require.Equal(t, want, paged, "Seek(0, io.SeekStart) rewinds the listing")

	_, err = h.Seek(1, io.SeekStart)
	requireErr(t, syscall.EINVAL, err)

	h.Seek(0, io.SeekStart)
	infos, err := h.Readdir(-1)
	require.NoError(t, err)
	require.True(t, infos[3].Mode()&fs.ModeSymlink != 0, "listing does not follow links")
	require.True(t, infos[2].IsDir())
}

func TestCloseKeepsMtime(t *testing.T) {
	fsys := newTree(t, "f=abc")
	before, err := fsys.Stat("/f")
	require.NoError(t, err)
	h, err := fsys.OpenFile("/f", os.O_RDWR, 0)
	require.NoError(t, err)
	require.NoError(t, h.Close())
	after, err := fsys.Stat("/f")
	require.NoError(t, err)
	require.Equal(t, before.ModTime(), after.ModTime(), "closing an unchanged file keeps its mtime")
}

func TestStatNamesAndModes(t *testing.T) {
	fsys := New(Options{})
	h, err := fsys.OpenFile("x", os.O_RDWR|os.O_CREATE, 0o640)
	require.NoError(t, err)
	require.Equal(t, "/x", h.Name(), "handles are named by clean absolute path")
	require.NoError(t, h.Close())
	require.NoError(t, fsys.Mkdir("d", 0o700))
	require.NoError(t, fsys.SymlinkIfPossible("x", "l"))

	info, err := fsys.Stat("/x")
	require.NoError(t, err)
	require.Equal(t, fs.FileMode(0o640), info.Mode())
	info, err = fsys.Stat("d")
	require.NoError(t, err)
	require.Equal(t, fs.ModeDir|0o700, info.Mode())
	require.Equal(t, "d", info.Name())
	info, err = fsys.Stat("/")
	require.NoError(t, err)
	require.True(t, info.IsDir())
	require.Equal(t, "/", info.Name())
	info, err = fsys.Stat("l")
	require.NoError(t, err)
	require.Equal(t, "l", info.Name(), "Stat names the link, describes the target")
	require.True(t, info.Mode().IsRegular())
	info, _, err = fsys.LstatIfPossible("l")
	require.NoError(t, err)
	require.Equal(t, fs.ModeSymlink|0o777, info.Mode())
	require.Equal(t, int64(1), info.Size(), "a link's size is its target's length")

	require.NoError(t, fsys.Chmod("l", 0o600))
	info, _ = fsys.Stat("x")
	require.Equal(t, fs.FileMode(0o600), info.Mode(), "Chmod follows links")
	info, _, _ = fsys.LstatIfPossible("l")
	require.Equal(t, fs.ModeSymlink|0o777, info.Mode())
	requireErr(t, fs.ErrNotExist, fsys.Chmod("nope", 0o600))
	requireErr(t, fs.ErrNotExist, fsys.Chtimes("nope", info.ModTime(), info.ModTime()))
	requireErr(t, fs.ErrNotExist, fsys.Chown("nope", 1, 1))
	when := info.ModTime().Add(-3600e9)
	require.NoError(t, fsys.Chtimes("/x", when, when))
	info, _ = fsys.Stat("x")
	require.True(t, info.ModTime().Equal(when))
}

func TestErrorsMatchSentinels(t *testing.T) {
	fsys := newTree(t, "d/", "d/f=x")
	_, err := fsys.Open("/nope")
	var pe *fs.PathError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "open", pe.Op)
	require.Equal(t, "/nope", pe.Path)
	require.ErrorIs(t, err, fs.ErrNotExist)
	require.ErrorIs(t, err, syscall.ENOENT)
	require.True(t, os.IsNotExist(err))

	err = fsys.Rename("/nope", "/x")
	var le *os.LinkError
	require.ErrorAs(t, err, &le)
	require.Equal(t, "/nope", le.Old)
	require.Equal(t, "/x", le.New)
	require.ErrorIs(t, err, fs.ErrNotExist)

	require.ErrorIs(t, fsys.Mkdir("d", 0), fs.ErrExist)
	require.ErrorIs(t, fsys.Remove("d"), fs.ErrExist, "ENOTEMPTY matches fs.ErrExist, as in package os")
}
