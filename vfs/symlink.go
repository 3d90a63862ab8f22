package vfs

import (
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/spf13/afero/mem"
)

// A symbolic link is a node of its own in MemMapFs: a file whose mode has
// fs.ModeSymlink and whose content is the target as written. Rename,
// Remove and listing treat it like any node; lookup follows it.

// isLink reports whether a node is a symbolic link.
func isLink(info *mem.FileInfo) bool { return info.Mode()&fs.ModeSymlink != 0 }

// SymlinkIfPossible makes newname a symbolic link to oldname, as
// symlink(2). oldname is kept as written and not checked: it may dangle. An
// absolute target is resolved against the root of this FS, a relative one
// against the link's directory, so no link leads outside. Anything at
// newname is EEXIST; an empty target ENOENT. The link counts against the
// file quota (its target not against the byte quota). Errors are
// *os.LinkError.
func (f *FS) SymlinkIfPossible(oldname, newname string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return linkErr("symlink", oldname, displayPath(newname), f.symlink(oldname, newname))
}

func (f *FS) symlink(target, name string) error {
	switch {
	case target == "":
		return syscall.ENOENT
	case strings.IndexByte(target, 0) >= 0:
		return syscall.EINVAL
	case len(target) > maxPath:
		return syscall.ENAMETOOLONG
	}
	clean, dirOnly, err := cleanPath(name)
	if err != nil {
		return err
	}
	n, err := f.lookup(clean, false)
	switch {
	case err != nil:
		return err
	case n.exists():
		return syscall.EEXIST
	case dirOnly:
		return syscall.ENOENT
	}
	if err := f.room(0, 1); err != nil {
		return err
	}
	h, err := f.mem.OpenFile(n.path, os.O_RDWR|os.O_CREATE, 0o777)
	if err != nil {
		return err
	}
	_, _ = h.WriteString(target)
	_ = h.Close()
	mem.SetMode(h.(*mem.File).Data(), fs.ModeSymlink|0o777)
	f.markEntry(n.path)
	f.usage.files++
	return nil
}

// ReadlinkIfPossible returns the target of the link name, as written. The
// last element is not followed (unless name ends in "/"); something that is
// not a link is EINVAL.
func (f *FS) ReadlinkIfPossible(name string) (string, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	n, _, err := f.lookupName(name, false)
	switch {
	case err != nil:
	case !n.exists():
		err = syscall.ENOENT
	case !n.isLink():
		err = syscall.EINVAL
	default:
		return readTarget(n.info), nil
	}
	return "", pathErr("readlink", displayPath(name), err)
}

// LstatIfPossible describes name without following a last link, as
// lstat(2). The bool is always true: this FS has links.
func (f *FS) LstatIfPossible(name string) (fs.FileInfo, bool, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	info, err := f.stat("lstat", name, false)
	return info, true, err
}
