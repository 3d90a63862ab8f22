package vfs

import (
	"errors"
	"io/fs"
	"os"
	"path"

	"github.com/spf13/afero"
)

// IOFS returns a read-only io/fs view of f rooted at "/": names are io/fs
// names ("." is the root, no leading slash; fs.ValidPath is enforced). It
// implements fs.ReadDirFS, fs.StatFS, fs.ReadFileFS and fs.ReadLinkFS, and
// passes testing/fstest.TestFS. Files it opens are read-only handles; the
// view sees later changes to f.
func (f *FS) IOFS() fs.FS { return ioFS{f} }

type ioFS struct{ fsys *FS }

var (
	_ fs.ReadDirFS  = ioFS{}
	_ fs.StatFS     = ioFS{}
	_ fs.ReadFileFS = ioFS{}
	_ fs.ReadLinkFS = ioFS{}
)

func (v ioFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, ioErr("open", name, fs.ErrInvalid)
	}
	h, err := v.fsys.openFile(name, os.O_RDONLY, 0, openOpts{base: ioBase(name)})
	if err != nil {
		return nil, ioErr("open", name, err)
	}
	return h, nil
}

func (v ioFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, ioErr("readfile", name, fs.ErrInvalid)
	}
	b, err := afero.ReadFile(v.fsys, name)
	return b, ioErr("readfile", name, err)
}

func (v ioFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, ioErr("readdir", name, fs.ErrInvalid)
	}
	h, err := v.fsys.Open(name)
	if err != nil {
		return nil, ioErr("readdir", name, err)
	}
	defer h.Close()
	entries, err := h.(*file).ReadDir(-1)
	return entries, ioErr("readdir", name, err)
}

func (v ioFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, ioErr("stat", name, fs.ErrInvalid)
	}
	info, err := v.fsys.Stat(name)
	return ioInfo(name, info), ioErr("stat", name, err)
}

func (v ioFS) Lstat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, ioErr("lstat", name, fs.ErrInvalid)
	}
	info, _, err := v.fsys.LstatIfPossible(name)
	return ioInfo(name, info), ioErr("lstat", name, err)
}

// ReadLink returns a link's target as written. An absolute target means a
// path from the root of the view.
func (v ioFS) ReadLink(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", ioErr("readlink", name, fs.ErrInvalid)
	}
	target, err := v.fsys.ReadlinkIfPossible(name)
	return target, ioErr("readlink", name, err)
}

// ioBase is the name Stat reports for an io/fs name: its last element, "."
// for the root.
func ioBase(name string) string { return path.Base(name) }

// ioInfo renames the root's info "." as io/fs has it.
func ioInfo(name string, info fs.FileInfo) fs.FileInfo {
	if fi, ok := info.(*fileInfo); ok && name == "." {
		root := *fi
		root.name = "."
		return &root
	}
	return info
}

// ioErr reports err under the io/fs name and op, keeping its cause.
func ioErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}
