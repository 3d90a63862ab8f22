//go:build wasip1

package wasifs

import (
	"io/fs"
	"os"
	"path"
	"runtime"
	"syscall"
	"unsafe"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/spf13/afero"
)

// The filesystem of the busybox image. WASI preview 1 knows no modes: no
// mode argument to create with, none in a stat, no chmod. The wasm
// adapter's filesystem (vfs.FS.WASI) fills the gap: a guest's new file is
// 0644 and folder 0755, every stat carries the node's mode in st_dev
// (wasiDevTag | bits, with wasiRootOwned for a node of root's), and
// fs_chmod of the host module "agentenkit" sets a mode. WASIFS is afero's
// OsFs seen through that.

//go:wasmimport agentenkit fs_chmod
func hostFSChmod(path unsafe.Pointer, n uint32, mode uint32) int32

//go:wasmimport agentenkit fs_umask
func hostFSUmask() int32

// wasiDevTag is vfs.WASIDevTag: the high 32 bits of an st_dev that carries
// a mode in its low 12.
const wasiDevTag uint64 = 0x6165_6b6d << 32

// wasiRootOwned is vfs.WASIRootOwned: the bit of a tagged st_dev that says
// the node is root's (the system folders the host shows, /usr/bin, ...).
const wasiRootOwned uint64 = 1 << 16

// The modes the host creates with.
const (
	wasiFilePerm fs.FileMode = 0o644
	wasiDirPerm  fs.FileMode = 0o755
)

func init() {
	posixfs.InitialUmask = func(afero.Fs) fs.FileMode {
		if m := hostFSUmask(); m >= 0 {
			return fs.FileMode(m) & 0o777
		}
		return posixfs.DefaultUmask
	}
}

// New returns the files WASI gives this process (afero.OsFs) with the
// modes the wasm adapter's host keeps: Stat, Lstat, Readdir and an open
// file's Stat report them, Chmod sets them, and a create or mkdir with a
// mode other than the host's default sets it afterwards. Importing the
// package also sets posixfs.InitialUmask to ask the host for the umask.
func New() afero.Fs { return &wasiFS{} }

type wasiFS struct{ afero.OsFs }

var (
	_ afero.Lstater   = (*wasiFS)(nil)
	_ afero.Symlinker = (*wasiFS)(nil)
)

func (w *wasiFS) Stat(name string) (fs.FileInfo, error) {
	fi, err := w.OsFs.Stat(name)
	return wasiInfo(fi), err
}

func (w *wasiFS) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	fi, ok, err := w.OsFs.LstatIfPossible(name)
	return wasiInfo(fi), ok, err
}

func (w *wasiFS) Create(name string) (afero.File, error) {
	return w.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666&^posixfs.DefaultUmask)
}

func (w *wasiFS) Open(name string) (afero.File, error) {
	return w.OpenFile(name, os.O_RDONLY, 0)
}

func (w *wasiFS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	setMode := false
	if flag&os.O_CREATE != 0 && perm.Perm() != wasiFilePerm {
		_, _, err := w.OsFs.LstatIfPossible(name)
		setMode = err != nil
	}
	f, err := w.OsFs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	if setMode {
		_ = w.Chmod(name, perm)
	}
	return &wasiFile{File: f}, nil
}

func (w *wasiFS) Mkdir(name string, perm fs.FileMode) error {
	if err := w.OsFs.Mkdir(name, perm); err != nil {
		return err
	}
	if perm.Perm() != wasiDirPerm {
		_ = w.Chmod(name, perm)
	}
	return nil
}

// MkdirAll makes name and its missing parents, each with perm.
func (w *wasiFS) MkdirAll(name string, perm fs.FileMode) error {
	if fi, err := w.OsFs.Stat(name); err == nil {
		if fi.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: name, Err: syscall.ENOTDIR}
	}
	if parent := path.Dir(name); parent != name {
		if err := w.MkdirAll(parent, perm); err != nil {
			return err
		}
	}
	err := w.Mkdir(name, perm)
	if err != nil {
		if fi, serr := w.OsFs.Stat(name); serr == nil && fi.IsDir() {
			return nil
		}
	}
	return err
}

// Chmod sets name's mode through the host (links followed).
func (w *wasiFS) Chmod(name string, mode fs.FileMode) error {
	bits := command.UnixMode(mode)
	p := []byte(name)
	if len(p) == 0 {
		return &fs.PathError{Op: "chmod", Path: name, Err: syscall.ENOENT}
	}
	e := hostFSChmod(unsafe.Pointer(unsafe.SliceData(p)), uint32(len(p)), bits)
	runtime.KeepAlive(p)
	if e == 0 {
		return nil
	}
	return &fs.PathError{Op: "chmod", Path: name, Err: wasiErrno(e)}
}

// wasiErrno is the syscall.Errno of one of wazero's experimental/sys
// Errno values, as fs_chmod returns them.
func wasiErrno(e int32) syscall.Errno {
	switch e {
	case 1:
		return syscall.EACCES
	case 10:
		return syscall.ELOOP
	case 12:
		return syscall.ENOENT
	case 14:
		return syscall.ENOTDIR
	case 19:
		return syscall.EPERM
	case 20:
		return syscall.EROFS
	}
	return syscall.EIO
}

// wasiFile is an open file whose Stat and listings report real modes.
type wasiFile struct{ afero.File }

func (f *wasiFile) Stat() (fs.FileInfo, error) {
	fi, err := f.File.Stat()
	return wasiInfo(fi), err
}

func (f *wasiFile) Readdir(n int) ([]fs.FileInfo, error) {
	infos, err := f.File.Readdir(n)
	for i, fi := range infos {
		infos[i] = wasiInfo(fi)
	}
	return infos, err
}

func (f *wasiFile) ReadDir(n int) ([]fs.DirEntry, error) {
	infos, err := f.Readdir(n)
	entries := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		entries[i] = fs.FileInfoToDirEntry(fi)
	}
	return entries, err
}

// wasiInfo is fi with the mode its st_dev carries, and a plain st_dev.
func wasiInfo(fi fs.FileInfo) fs.FileInfo {
	if fi == nil {
		return nil
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Dev&^0xffffffff != wasiDevTag {
		return fi
	}
	bits := uint32(st.Dev & 0o7777)
	mode := fi.Mode()&fs.ModeType | command.FileMode(bits)
	root := st.Dev&wasiRootOwned != 0
	sys := *st
	sys.Dev = 1
	sys.Mode = int(bits)
	sys.Uid, sys.Gid = 1000, 1000
	if root {
		sys.Uid, sys.Gid = 0, 0
	}
	return &wasiFileInfo{FileInfo: fi, mode: mode, sys: &sys, root: root}
}

type wasiFileInfo struct {
	fs.FileInfo
	mode fs.FileMode
	sys  *syscall.Stat_t
	root bool
}

func (i *wasiFileInfo) Mode() fs.FileMode { return i.mode }
func (i *wasiFileInfo) Sys() any          { return i.sys }

// RootOwned reports whether the node is root's (posixfs.RootOwned).
func (i *wasiFileInfo) RootOwned() bool { return i.root }
