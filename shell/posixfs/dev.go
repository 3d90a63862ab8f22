package posixfs

import (
	"crypto/rand"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// fsDev is an afero.Fs that serves the device files scripts expect over a
// base filesystem, for the shell's redirections and for builtins alike:
//
//   - /dev/null reads nothing and swallows writes;
//   - /dev/zero reads zero bytes, /dev/random and /dev/urandom random ones;
//   - /dev/stdin, /dev/stdout, /dev/stderr (and /dev/fd/0, 1, 2) are the
//     command's own standard streams;
//   - /dev/tty is ENXIO: a sandbox has no terminal.
//
// Everything else goes to the base. The devices cannot be removed, renamed
// or made; /dev lists them when the base has no /dev of its own.
type fsDev struct {
	base   afero.Fs
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

var (
	_ afero.Fs        = (*fsDev)(nil)
	_ afero.Symlinker = (*fsDev)(nil)
)

// WithDev returns base (made POSIX, see fsStrict) with the device files
// bound to the given streams; nil streams read nothing and discard.
func WithDev(base afero.Fs, stdin io.Reader, stdout, stderr io.Writer) afero.Fs {
	if d, ok := base.(*fsDev); ok {
		base = d.base
	}
	if _, ok := base.(*fsPOSIX); !ok {
		base = newFSPOSIX(base)
	}
	return &fsDev{base: base, stdin: stdin, stdout: stdout, stderr: stderr}
}

// fsDevKind names the device at name ("" for none).
func fsDevKind(name string) string {
	switch name {
	case "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom",
		"/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/tty":
		return path.Base(name)
	case "/dev/fd/0":
		return "stdin"
	case "/dev/fd/1":
		return "stdout"
	case "/dev/fd/2":
		return "stderr"
	}
	return ""
}

var DevNames = []string{"fd", "null", "random", "stderr", "stdin", "stdout", "tty", "urandom", "zero"}

// fsDevTime is the modification time the device files show.
var fsDevTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func (d *fsDev) baseHasDev() bool {
	_, err := d.base.Stat("/dev")
	return err == nil
}

func (d *fsDev) device(name string) (afero.File, error) {
	kind := fsDevKind(name)
	if kind == "tty" {
		return nil, PathErr("open", name, syscall.ENXIO)
	}
	f := &DevFile{name: name, kind: kind}
	switch kind {
	case "stdin":
		f.r = d.stdin
	case "stdout":
		f.w = d.stdout
	case "stderr":
		f.w = d.stderr
	}
	return f, nil
}

func (d *fsDev) Name() string { return "dev(" + d.base.Name() + ")" }

func (d *fsDev) Create(name string) (afero.File, error) {
	return d.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (d *fsDev) Mkdir(name string, perm os.FileMode) error {
	name = fsClean(name)
	if fsDevKind(name) != "" || (name == "/dev" && !d.baseHasDev()) {
		return PathErr("mkdir", name, syscall.EEXIST)
	}
	return d.base.Mkdir(name, perm)
}

func (d *fsDev) MkdirAll(name string, perm os.FileMode) error {
	name = fsClean(name)
	if fsDevKind(name) != "" {
		return PathErr("mkdir", name, syscall.ENOTDIR)
	}
	return d.base.MkdirAll(name, perm)
}

func (d *fsDev) Open(name string) (afero.File, error) {
	return d.OpenFile(name, os.O_RDONLY, 0)
}

func (d *fsDev) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	name = fsClean(name)
	if fsDevKind(name) != "" {
		return d.device(name)
	}
	if (name == "/dev" || name == "/dev/fd") && !d.baseHasDev() {
		if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
			return nil, PathErr("open", name, syscall.EISDIR)
		}
		return &fsDevDir{name: name}, nil
	}
	return d.base.OpenFile(name, flag, perm)
}

func (d *fsDev) Remove(name string) error {
	name = fsClean(name)
	if fsDevKind(name) != "" {
		return PathErr("remove", name, syscall.EPERM)
	}
	return d.base.Remove(name)
}

func (d *fsDev) RemoveAll(name string) error {
	name = fsClean(name)
	if fsDevKind(name) != "" {
		return PathErr("remove", name, syscall.EPERM)
	}
	return d.base.RemoveAll(name)
}

func (d *fsDev) Rename(oldname, newname string) error {
	oldname, newname = fsClean(oldname), fsClean(newname)
	if fsDevKind(oldname) != "" || fsDevKind(newname) != "" {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: syscall.EPERM}
	}
	return d.base.Rename(oldname, newname)
}

func (d *fsDev) Stat(name string) (os.FileInfo, error) {
	name = fsClean(name)
	if k := fsDevKind(name); k != "" {
		if k == "tty" {
			return nil, PathErr("stat", name, syscall.ENXIO)
		}
		return fsDevInfo{name: path.Base(name)}, nil
	}
	if (name == "/dev" || name == "/dev/fd") && !d.baseHasDev() {
		return fsDevInfo{name: path.Base(name), dir: true}, nil
	}
	return d.base.Stat(name)
}

func (d *fsDev) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	name = fsClean(name)
	if fsDevKind(name) != "" || name == "/dev" || name == "/dev/fd" {
		fi, err := d.Stat(name)
		return fi, false, err
	}
	if l, ok := d.base.(afero.Lstater); ok {
		return l.LstatIfPossible(name)
	}
	fi, err := d.base.Stat(name)
	return fi, false, err
}

func (d *fsDev) SymlinkIfPossible(oldname, newname string) error {
	return Symlink(d.base, oldname, newname)
}

func (d *fsDev) ReadlinkIfPossible(name string) (string, error) {
	name = fsClean(name)
	if fsDevKind(name) != "" {
		return "", PathErr("readlink", name, syscall.EINVAL)
	}
	return Readlink(d.base, name)
}

func (d *fsDev) Chmod(name string, mode os.FileMode) error {
	name = fsClean(name)
	if fsDevKind(name) != "" {
		return PathErr("chmod", name, syscall.EPERM)
	}
	return d.base.Chmod(name, mode)
}

func (d *fsDev) Chown(name string, uid, gid int) error {
	name = fsClean(name)
	if fsDevKind(name) != "" {
		return PathErr("chown", name, syscall.EPERM)
	}
	return d.base.Chown(name, uid, gid)
}

func (d *fsDev) Chtimes(name string, atime, mtime time.Time) error {
	name = fsClean(name)
	if fsDevKind(name) != "" {
		return nil
	}
	return d.base.Chtimes(name, atime, mtime)
}

// fsDevInfo describes a device file (or the synthetic /dev folder).
type fsDevInfo struct {
	name string
	dir  bool
}

func (i fsDevInfo) Name() string { return i.name }
func (i fsDevInfo) Size() int64 {
	if i.dir {
		return 4096
	}
	return 0
}
func (i fsDevInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o755
	}
	return fs.ModeDevice | fs.ModeCharDevice | 0o666
}
func (i fsDevInfo) ModTime() time.Time { return fsDevTime }
func (i fsDevInfo) IsDir() bool        { return i.dir }
func (i fsDevInfo) Sys() any           { return nil }

// DevFile is an open device.
type DevFile struct {
	name string
	kind string
	r    io.Reader // stdin
	w    io.Writer // stdout, stderr
}

// Kind is the device f is: "null", "zero", "random", "stdin", "stdout",
// "stderr", ...
func (f *DevFile) Kind() string { return f.kind }

// Input is the reader a "stdin" device reads from (nil for the others).
func (f *DevFile) Input() io.Reader { return f.r }

func (f *DevFile) Close() error { return nil }

func (f *DevFile) Read(p []byte) (int, error) {
	switch f.kind {
	case "null":
		return 0, io.EOF
	case "zero":
		clear(p)
		return len(p), nil
	case "random", "urandom":
		return rand.Read(p)
	case "stdin":
		if f.r == nil {
			return 0, io.EOF
		}
		return f.r.Read(p)
	}
	return 0, PathErr("read", f.name, syscall.EBADF)
}

func (f *DevFile) ReadAt(p []byte, _ int64) (int, error) {
	if f.kind == "stdin" || f.kind == "stdout" || f.kind == "stderr" {
		return 0, PathErr("read", f.name, syscall.ESPIPE)
	}
	return f.Read(p)
}

func (f *DevFile) Seek(int64, int) (int64, error) {
	if f.kind == "stdin" || f.kind == "stdout" || f.kind == "stderr" {
		return 0, PathErr("seek", f.name, syscall.ESPIPE)
	}
	return 0, nil
}

func (f *DevFile) Write(p []byte) (int, error) {
	switch f.kind {
	case "null", "zero", "random", "urandom":
		return len(p), nil
	case "stdout", "stderr":
		if f.w == nil {
			return len(p), nil
		}
		return f.w.Write(p)
	}
	return 0, PathErr("write", f.name, syscall.EBADF)
}

func (f *DevFile) WriteAt(p []byte, _ int64) (int, error) { return f.Write(p) }
func (f *DevFile) WriteString(s string) (int, error)      { return f.Write([]byte(s)) }
func (f *DevFile) Name() string                           { return f.name }
func (f *DevFile) Readdir(int) ([]os.FileInfo, error) {
	return nil, PathErr("readdirent", f.name, syscall.ENOTDIR)
}
func (f *DevFile) Readdirnames(int) ([]string, error) {
	return nil, PathErr("readdirent", f.name, syscall.ENOTDIR)
}
func (f *DevFile) Stat() (os.FileInfo, error) { return fsDevInfo{name: path.Base(f.name)}, nil }
func (f *DevFile) Sync() error                { return nil }
func (f *DevFile) Truncate(int64) error       { return nil }

// fsDevDir is the synthetic /dev (or /dev/fd) folder.
type fsDevDir struct {
	name string
	done bool
}

func (d *fsDevDir) list() []os.FileInfo {
	var out []os.FileInfo
	if d.name == "/dev/fd" {
		for _, n := range []string{"0", "1", "2"} {
			out = append(out, fsDevInfo{name: n})
		}
		return out
	}
	for _, n := range DevNames {
		out = append(out, fsDevInfo{name: n, dir: n == "fd"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

func (d *fsDevDir) Close() error { return nil }
func (d *fsDevDir) Read([]byte) (int, error) {
	return 0, PathErr("read", d.name, syscall.EISDIR)
}
func (d *fsDevDir) ReadAt([]byte, int64) (int, error) {
	return 0, PathErr("read", d.name, syscall.EISDIR)
}
func (d *fsDevDir) Seek(int64, int) (int64, error) { return 0, nil }
func (d *fsDevDir) Write([]byte) (int, error) {
	return 0, PathErr("write", d.name, syscall.EISDIR)
}
func (d *fsDevDir) WriteAt([]byte, int64) (int, error) {
	return 0, PathErr("write", d.name, syscall.EISDIR)
}
func (d *fsDevDir) WriteString(string) (int, error) {
	return 0, PathErr("write", d.name, syscall.EISDIR)
}
func (d *fsDevDir) Name() string { return d.name }
func (d *fsDevDir) Readdir(n int) ([]os.FileInfo, error) {
	if d.done {
		if n > 0 {
			return nil, io.EOF
		}
		return nil, nil
	}
	d.done = true
	return d.list(), nil
}
func (d *fsDevDir) Readdirnames(n int) ([]string, error) {
	infos, err := d.Readdir(n)
	names := make([]string, len(infos))
	for i, fi := range infos {
		names[i] = fi.Name()
	}
	return names, err
}
func (d *fsDevDir) Stat() (os.FileInfo, error) {
	return fsDevInfo{name: path.Base(d.name), dir: true}, nil
}
func (d *fsDevDir) Sync() error          { return nil }
func (d *fsDevDir) Truncate(int64) error { return PathErr("truncate", d.name, syscall.EISDIR) }
