// Package billyfs gives go-git a billy filesystem over an afero.Fs (the
// sandbox's files), so that git's storage and worktree never reach the
// host's files.
package billyfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"sort"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/helper/chroot"
	"github.com/spf13/afero"
)

// aferoFS is go-git's billy filesystem over the command's afero.Fs. Paths
// are absolute paths of the afero filesystem ("/" is its root); billyAt
// wraps it in billy's chroot helper to give go-git a filesystem rooted at a
// folder (the worktree, the .git folder). Nothing here touches package os's
// files: os is only used for its flag and mode constants.
type aferoFS struct{ fs afero.Fs }

// At returns a billy filesystem rooted at dir of fsys.
func At(fsys afero.Fs, dir string) billy.Filesystem {
	return chroot.New(aferoFS{fsys}, path.Clean("/"+dir))
}

func (a aferoFS) abs(name string) string { return path.Clean("/" + name) }

func (a aferoFS) Create(name string) (billy.File, error) {
	return a.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (a aferoFS) Open(name string) (billy.File, error) {
	return a.OpenFile(name, os.O_RDONLY, 0)
}

// readAhead is the largest file a read-only open reads whole: go-git reads
// the index and objects in many small reads, each a host call under WASI.
const readAhead = 32 << 20

func (a aferoFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	name = a.abs(name)
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_APPEND|os.O_TRUNC) == 0 {
		if fi, err := a.fs.Stat(name); err == nil && fi.Mode().IsRegular() && fi.Size() <= readAhead {
			data, err := afero.ReadFile(a.fs, name)
			if err != nil {
				return nil, err
			}
			return &memFile{Reader: bytes.NewReader(data), name: name}, nil
		}
	}
	if flag&os.O_CREATE != 0 {
		if err := a.fs.MkdirAll(path.Dir(name), 0o755); err != nil {
			return nil, err
		}
	}
	f, err := a.fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &file{File: f, name: name}, nil
}

func (a aferoFS) Stat(name string) (os.FileInfo, error) { return a.fs.Stat(a.abs(name)) }

func (a aferoFS) Rename(from, to string) error {
	to = a.abs(to)
	if err := a.fs.MkdirAll(path.Dir(to), 0o755); err != nil {
		return err
	}
	return a.fs.Rename(a.abs(from), to)
}

func (a aferoFS) Remove(name string) error { return a.fs.Remove(a.abs(name)) }

func (a aferoFS) Join(elem ...string) string { return path.Join(elem...) }

func (a aferoFS) TempFile(dir, prefix string) (billy.File, error) {
	dir = a.abs(dir)
	if err := a.fs.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for range 100 {
		name := path.Join(dir, fmt.Sprintf("%s%d", prefix, rand.Uint32()))
		f, err := a.fs.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &file{File: f, name: name}, nil
	}
	return nil, fmt.Errorf("git: no free temporary file name in %s", dir)
}

func (a aferoFS) ReadDir(name string) ([]os.FileInfo, error) {
	infos, err := afero.ReadDir(a.fs, a.abs(name))
	if err != nil {
		return nil, err
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Name() < infos[j].Name() })
	return infos, nil
}

func (a aferoFS) MkdirAll(name string, perm os.FileMode) error {
	return a.fs.MkdirAll(a.abs(name), perm)
}

func (a aferoFS) Lstat(name string) (os.FileInfo, error) {
	if l, ok := a.fs.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(a.abs(name))
		return fi, err
	}
	return a.Stat(name)
}

func (a aferoFS) Symlink(target, link string) error {
	l, ok := a.fs.(afero.Linker)
	if !ok {
		return &os.LinkError{Op: "symlink", Old: target, New: link, Err: errors.ErrUnsupported}
	}
	link = a.abs(link)
	if err := a.fs.MkdirAll(path.Dir(link), 0o755); err != nil {
		return err
	}
	return l.SymlinkIfPossible(target, link)
}

func (a aferoFS) Readlink(link string) (string, error) {
	l, ok := a.fs.(afero.LinkReader)
	if !ok {
		return "", &os.PathError{Op: "readlink", Path: link, Err: errors.ErrUnsupported}
	}
	return l.ReadlinkIfPossible(a.abs(link))
}

func (a aferoFS) Chmod(name string, mode os.FileMode) error { return a.fs.Chmod(a.abs(name), mode) }

func (a aferoFS) Lchown(name string, uid, gid int) error { return a.fs.Chown(a.abs(name), uid, gid) }

func (a aferoFS) Chown(name string, uid, gid int) error { return a.fs.Chown(a.abs(name), uid, gid) }

func (a aferoFS) Chtimes(name string, atime, mtime time.Time) error {
	return a.fs.Chtimes(a.abs(name), atime, mtime)
}

func (a aferoFS) Chroot(dir string) (billy.Filesystem, error) {
	return chroot.New(a, a.abs(dir)), nil
}

func (a aferoFS) Root() string { return "/" }

// memFile is a file read whole, for reading.
type memFile struct {
	*bytes.Reader
	name string
}

func (f *memFile) Name() string { return f.name }
func (f *memFile) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: f.name, Err: fs.ErrPermission}
}
func (f *memFile) Close() error  { return nil }
func (f *memFile) Lock() error   { return nil }
func (f *memFile) Unlock() error { return nil }
func (f *memFile) Truncate(int64) error {
	return &os.PathError{Op: "truncate", Path: f.name, Err: fs.ErrPermission}
}

// file is an afero file as a billy file. Locks are no-ops: one shell
// command at a time changes a sandbox's repository, and afero has no locks.
type file struct {
	afero.File
	name string
}

func (f *file) Name() string  { return f.name }
func (f *file) Lock() error   { return nil }
func (f *file) Unlock() error { return nil }
