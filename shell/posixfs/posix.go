package posixfs

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/spf13/afero"
)

// DefaultUmask is the sandbox's default umask: files are created 0644 and
// folders 0755 unless a mode says otherwise, as under a login shell. The
// umask builtin changes it for the rest of the Run (see fsUmaskOf).
const DefaultUmask = 0o022

// UmaskOf is the umask in force over fsys: the one its fsPOSIX keeps,
// or fsUmask.
func UmaskOf(fsys afero.Fs) fs.FileMode {
	if d, ok := fsys.(*fsDev); ok {
		fsys = d.base
	}
	if p, ok := fsys.(*fsPOSIX); ok && p.umask != nil {
		return fs.FileMode(p.umask.Load())
	}
	return DefaultUmask
}

// SetUmask sets the umask kept over fsys, when it keeps one.
func SetUmask(fsys afero.Fs, mask fs.FileMode) bool {
	if d, ok := fsys.(*fsDev); ok {
		fsys = d.base
	}
	if p, ok := fsys.(*fsPOSIX); ok && p.umask != nil {
		p.umask.Store(uint32(mask & 0o777))
		return true
	}
	return false
}

// fsPOSIX is an afero.Fs that keeps the POSIX rules afero.MemMapFs
// departs from, over any afero.Fs:
//
//   - creating, making a folder or renaming into a missing parent is ENOENT
//     (ENOTDIR under a file) instead of making the parent;
//   - a path through a file is ENOTDIR, not ENOENT;
//   - Mkdir of anything existing is EEXIST;
//   - opening a folder for writing is EISDIR, and reading an opened
//     folder's bytes is EISDIR;
//   - removing a folder with entries is ENOTEMPTY instead of orphaning them;
//   - renaming over a folder needs an empty folder and a folder, renaming a
//     folder into itself is EINVAL;
//   - O_APPEND holds at every write;
//   - new files and folders get the umask (022 unless the umask builtin
//     changed it).
//
// Names are made absolute ("/" + name) and clean before use. Symbolic
// links are used when the base has them (afero.Symlinker); otherwise
// Symlink fails with afero.ErrNoSymlink and Readlink with EINVAL.
//
// Over a filesystem that already keeps these rules (package vfs) the checks
// only cost a few extra Stat calls.
type fsPOSIX struct {
	base  afero.Fs
	umask *atomic.Uint32 // shared by the copies of one Run
}

var (
	_ afero.Fs        = (*fsPOSIX)(nil)
	_ afero.Symlinker = (*fsPOSIX)(nil)
)

// newFSPOSIX returns fsys with the POSIX rules and a umask of its own.
func newFSPOSIX(fsys afero.Fs) *fsPOSIX {
	p := &fsPOSIX{base: fsys, umask: new(atomic.Uint32)}
	p.umask.Store(uint32(InitialUmask(fsys)))
	return p
}

// Strict returns fsys with the POSIX rules of fsPOSIX (fsys itself when
// it already is one).
func Strict(fsys afero.Fs) afero.Fs {
	switch f := fsys.(type) {
	case *fsPOSIX:
		return f
	case *fsDev:
		if _, ok := f.base.(*fsPOSIX); ok {
			return f
		}
	}
	return newFSPOSIX(fsys)
}

// Strictly runs b with c.FS made POSIX (fsStrict) for the call, so
// that a file command keeps the rules also when called with a bare
// filesystem (as tests do); under Run it already is.
func Strictly(b command.Func) command.Func {
	return func(ctx context.Context, c *command.Call, args []string) error {
		old := c.FS
		c.FS = Strict(old)
		defer func() { c.FS = old }()
		return b(ctx, c, args)
	}
}

func fsClean(name string) string {
	if !path.IsAbs(name) {
		name = "/" + name
	}
	return path.Clean(name)
}

func (p *fsPOSIX) Name() string { return "posix(" + p.base.Name() + ")" }

// missing returns the error for a name that does not exist: ENOTDIR when
// the nearest existing ancestor is not a folder, else ENOENT.
func (p *fsPOSIX) missing(op, name string) error {
	for d := path.Dir(name); ; d = path.Dir(d) {
		if fi, err := p.base.Stat(d); err == nil {
			if !fi.IsDir() {
				return PathErr(op, name, syscall.ENOTDIR)
			}
			break
		}
		if d == "/" {
			break
		}
	}
	return PathErr(op, name, syscall.ENOENT)
}

// fix turns a base error about name into the POSIX one.
func (p *fsPOSIX) fix(op, name string, err error) error {
	if err != nil && errors.Is(err, fs.ErrNotExist) {
		return p.missing(op, name)
	}
	return err
}

// parentOK checks that the folder to hold name exists and is a folder.
func (p *fsPOSIX) parentOK(op, name string) error {
	dir := path.Dir(name)
	if dir == name {
		return nil
	}
	fi, err := p.base.Stat(dir)
	if err != nil {
		return p.fix(op, name, err)
	}
	if !fi.IsDir() {
		return PathErr(op, name, syscall.ENOTDIR)
	}
	return nil
}

func (p *fsPOSIX) isEmptyDir(name string) (bool, error) {
	f, err := p.base.Open(name)
	if err != nil {
		return false, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil && err != io.EOF {
		return false, err
	}
	return len(names) == 0, nil
}

func (p *fsPOSIX) Create(name string) (afero.File, error) {
	return p.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (p *fsPOSIX) Mkdir(name string, perm os.FileMode) error {
	name = fsClean(name)
	if _, err := Lstat(p.base, name); err == nil {
		return PathErr("mkdir", name, syscall.EEXIST)
	}
	if err := p.parentOK("mkdir", name); err != nil {
		return err
	}
	return p.base.Mkdir(name, perm&^UmaskOf(p))
}

func (p *fsPOSIX) MkdirAll(name string, perm os.FileMode) error {
	name = fsClean(name)
	if name == "/" {
		return nil
	}
	parts := strings.Split(name[1:], "/")
	cur := ""
	for _, part := range parts {
		cur += "/" + part
		fi, err := p.base.Stat(cur)
		switch {
		case err == nil:
			if !fi.IsDir() {
				return PathErr("mkdir", cur, syscall.ENOTDIR)
			}
		case errors.Is(err, fs.ErrNotExist):
			if err := p.base.Mkdir(cur, perm&^UmaskOf(p)); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
		default:
			return err
		}
	}
	return nil
}

func (p *fsPOSIX) Open(name string) (afero.File, error) {
	name = fsClean(name)
	f, err := p.base.Open(name)
	if err != nil {
		return nil, p.fix("open", name, err)
	}
	return fsWrapDir(f), nil
}

func (p *fsPOSIX) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	name = fsClean(name)
	write := flag&(os.O_WRONLY|os.O_RDWR) != 0
	fi, err := p.base.Stat(name)
	switch {
	case err == nil:
		if flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL {
			return nil, PathErr("open", name, syscall.EEXIST)
		}
		if fi.IsDir() && (write || flag&os.O_TRUNC != 0) {
			return nil, PathErr("open", name, syscall.EISDIR)
		}
	case errors.Is(err, fs.ErrNotExist):
		if flag&os.O_CREATE == 0 {
			return nil, p.missing("open", name)
		}
		if err := p.parentOK("open", name); err != nil {
			return nil, err
		}
		perm &^= UmaskOf(p)
	default:
		return nil, err
	}
	f, err := p.base.OpenFile(name, flag, perm)
	if err != nil {
		return nil, p.fix("open", name, err)
	}
	if flag&os.O_APPEND != 0 && write {
		return &fsAppendFile{File: f}, nil
	}
	return fsWrapDir(f), nil
}

func (p *fsPOSIX) Remove(name string) error {
	name = fsClean(name)
	fi, err := Lstat(p.base, name)
	if err != nil {
		return p.fix("remove", name, err)
	}
	if name == "/" {
		return PathErr("remove", name, syscall.EBUSY)
	}
	if fi.IsDir() {
		empty, err := p.isEmptyDir(name)
		if err != nil {
			return err
		}
		if !empty {
			return PathErr("remove", name, syscall.ENOTEMPTY)
		}
	}
	return p.base.Remove(name)
}

func (p *fsPOSIX) RemoveAll(name string) error {
	name = fsClean(name)
	if _, err := Lstat(p.base, name); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if name != "/" {
		return p.base.RemoveAll(name)
	}
	list, err := ReadDir(p.base, name)
	if err != nil {
		return err
	}
	for _, fi := range list {
		if RootOwned(fi) {
			continue // the system's folders stay (WithSystem)
		}
		if err := p.base.RemoveAll("/" + fi.Name()); err != nil {
			return err
		}
	}
	return nil
}

func (p *fsPOSIX) Rename(oldname, newname string) error {
	oldname, newname = fsClean(oldname), fsClean(newname)
	linkErr := func(errno syscall.Errno) error {
		return &os.LinkError{Op: "rename", Old: oldname, New: newname, Err: errno}
	}
	ofi, err := Lstat(p.base, oldname)
	if err != nil {
		return p.fix("rename", oldname, err)
	}
	if oldname == newname {
		return nil
	}
	if oldname == "/" || strings.HasPrefix(newname, oldname+"/") {
		return linkErr(syscall.EINVAL)
	}
	if err := p.parentOK("rename", newname); err != nil {
		return err
	}
	if nfi, err := Lstat(p.base, newname); err == nil {
		switch {
		case nfi.IsDir() && !ofi.IsDir():
			return linkErr(syscall.EISDIR)
		case !nfi.IsDir() && ofi.IsDir():
			return linkErr(syscall.ENOTDIR)
		case nfi.IsDir():
			empty, err := p.isEmptyDir(newname)
			if err != nil {
				return err
			}
			if !empty {
				return linkErr(syscall.ENOTEMPTY)
			}
		}
		if err := p.base.Remove(newname); err != nil {
			return err
		}
	}
	return p.base.Rename(oldname, newname)
}

func (p *fsPOSIX) Stat(name string) (os.FileInfo, error) {
	name = fsClean(name)
	fi, err := p.base.Stat(name)
	return fi, p.fix("stat", name, err)
}

func (p *fsPOSIX) Chmod(name string, mode os.FileMode) error {
	name = fsClean(name)
	return p.fix("chmod", name, p.base.Chmod(name, mode))
}

func (p *fsPOSIX) Chown(name string, uid, gid int) error {
	name = fsClean(name)
	return p.fix("chown", name, p.base.Chown(name, uid, gid))
}

func (p *fsPOSIX) Chtimes(name string, atime, mtime time.Time) error {
	name = fsClean(name)
	return p.fix("chtimes", name, p.base.Chtimes(name, atime, mtime))
}

func (p *fsPOSIX) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	name = fsClean(name)
	if l, ok := p.base.(afero.Lstater); ok {
		fi, used, err := l.LstatIfPossible(name)
		return fi, used, p.fix("lstat", name, err)
	}
	fi, err := p.Stat(name)
	return fi, false, err
}

func (p *fsPOSIX) SymlinkIfPossible(oldname, newname string) error {
	newname = fsClean(newname)
	l, ok := p.base.(afero.Linker)
	if !ok {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: afero.ErrNoSymlink}
	}
	if _, err := Lstat(p.base, newname); err == nil {
		return &os.LinkError{Op: "symlink", Old: oldname, New: newname, Err: syscall.EEXIST}
	}
	if err := p.parentOK("symlink", newname); err != nil {
		return err
	}
	return l.SymlinkIfPossible(oldname, newname)
}

func (p *fsPOSIX) ReadlinkIfPossible(name string) (string, error) {
	name = fsClean(name)
	if r, ok := p.base.(afero.LinkReader); ok {
		s, err := r.ReadlinkIfPossible(name)
		return s, p.fix("readlink", name, err)
	}
	if _, err := p.base.Stat(name); err != nil {
		return "", p.fix("readlink", name, err)
	}
	return "", PathErr("readlink", name, syscall.EINVAL)
}

// fsWrapDir makes reading an opened folder's bytes EISDIR.
func fsWrapDir(f afero.File) afero.File {
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return &DirFile{File: f}
	}
	return f
}

// DirFile is an opened folder: it lists, but has no bytes.
type DirFile struct{ afero.File }

func (d *DirFile) err(op string) error { return PathErr(op, d.Name(), syscall.EISDIR) }

func (d *DirFile) Read([]byte) (int, error)           { return 0, d.err("read") }
func (d *DirFile) ReadAt([]byte, int64) (int, error)  { return 0, d.err("read") }
func (d *DirFile) Write([]byte) (int, error)          { return 0, d.err("write") }
func (d *DirFile) WriteAt([]byte, int64) (int, error) { return 0, d.err("write") }
func (d *DirFile) WriteString(string) (int, error)    { return 0, d.err("write") }
func (d *DirFile) Truncate(int64) error               { return d.err("truncate") }
func (d *DirFile) Seek(int64, int) (int64, error)     { return 0, nil }

// fsAppendFile writes at the end of the file every time (O_APPEND).
type fsAppendFile struct{ afero.File }

func (a *fsAppendFile) Write(p []byte) (int, error) {
	if _, err := a.File.Seek(0, io.SeekEnd); err != nil {
		return 0, err
	}
	return a.File.Write(p)
}

func (a *fsAppendFile) WriteString(s string) (int, error) { return a.Write([]byte(s)) }

// InitialUmask is the umask a Run starts with over fsys: fsUmask, or on
// wasip1 the one the host says the parent process had.
var InitialUmask = func(afero.Fs) fs.FileMode { return DefaultUmask }
