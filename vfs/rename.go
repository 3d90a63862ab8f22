package vfs

import (
	"strings"
	"syscall"
)

// Rename moves oldname to newname, as rename(2). Neither last link is
// followed: a link moves as itself. The new parent must exist (ENOENT) and
// be a directory (ENOTDIR). Over an existing newname:
//
//   - a file or link replaces a file or link (its bytes go back to the
//     quota), and is EISDIR over a directory;
//   - a directory replaces an empty directory, is ENOTEMPTY over one with
//     entries and ENOTDIR over a file or link.
//
// Moving a directory into its own subtree is EINVAL, moving the root (or
// onto it) EBUSY; oldname and newname naming the same node is a no-op.
// Errors are *os.LinkError.
func (f *FS) Rename(oldname, newname string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return linkErr("rename", displayPath(oldname), displayPath(newname), f.rename(oldname, newname))
}

func (f *FS) rename(oldname, newname string) error {
	oldClean, oldDirOnly, err := cleanPath(oldname)
	if err != nil {
		return err
	}
	newClean, newDirOnly, err := cleanPath(newname)
	if err != nil {
		return err
	}
	from, err := f.lookup(oldClean, false)
	if err != nil {
		return err
	}
	if !from.exists() {
		return syscall.ENOENT
	}
	to, err := f.lookup(newClean, false)
	if err != nil {
		return err
	}
	switch {
	case (oldDirOnly || newDirOnly) && !from.isDir():
		return syscall.ENOTDIR
	case from.path == "/" || to.path == "/":
		return syscall.EBUSY
	case from.path == to.path:
		return nil
	case from.isDir() && strings.HasPrefix(to.path, from.path+"/"):
		return syscall.EINVAL
	case from.isDir() && to.exists() && !to.isDir():
		return syscall.ENOTDIR
	case from.isDir() && to.isDir() && len(children(to.info)) > 0:
		return syscall.ENOTEMPTY
	case !from.isDir() && to.isDir():
		return syscall.EISDIR
	}
	if to.exists() {
		if err := f.mem.Remove(to.path); err != nil {
			return err
		}
		f.moved(to.path, "")
		f.markTree(to.path)
		f.forget(to.info)
	}
	if err := f.mem.Rename(from.path, to.path); err != nil {
		return err
	}
	f.moved(from.path, to.path)
	f.markTree(from.path)
	f.markTree(to.path)
	return nil
}
