package vfs

import "syscall"

// Remove removes the file, link or empty directory name, as remove(3). It
// does not follow a last link: the link goes, not its target. A missing name
// is ENOENT, a directory with entries ENOTEMPTY (MemMapFs would orphan
// them), the root EBUSY. What the node held goes back to the quotas.
func (f *FS) Remove(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("remove", displayPath(name), f.remove(name, anyKind))
}

// removeKind says what remove may remove.
type removeKind int

const (
	anyKind  removeKind = iota // remove(3)
	dirKind                    // rmdir(2): anything else is ENOTDIR
	fileKind                   // unlink(2): a directory is EISDIR
)

func (f *FS) remove(name string, kind removeKind) error {
	clean, dirOnly, err := cleanPath(name)
	if err != nil {
		return err
	}
	n, err := f.lookup(clean, false)
	switch {
	case err != nil:
		return err
	case !n.exists():
		return syscall.ENOENT
	case n.path == "/":
		return syscall.EBUSY
	case (dirOnly || kind == dirKind) && !n.isDir():
		return syscall.ENOTDIR
	case kind == fileKind && n.isDir():
		return syscall.EISDIR
	case n.isDir() && len(children(n.info)) > 0:
		return syscall.ENOTEMPTY
	}
	if err := f.mem.Remove(n.path); err != nil {
		return err
	}
	f.moved(n.path, "")
	f.markTree(n.path)
	f.forget(n.info)
	return nil
}

// RemoveAll removes name and, for a directory, everything under it, as
// os.RemoveAll. It does not follow a last link. A missing name is no error.
// The root is refused (EBUSY) and left whole, as rm -rf / refuses it.
func (f *FS) RemoveAll(name string) error {
	if name == "" {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("removeall", displayPath(name), f.removeAll(name))
}

func (f *FS) removeAll(name string) error {
	clean, dirOnly, err := cleanPath(name)
	if err != nil {
		return err
	}
	n, err := f.lookup(clean, false)
	switch {
	case err == syscall.ENOENT || (err == nil && !n.exists()):
		return nil
	case err != nil:
		return err
	case n.path == "/":
		return syscall.EBUSY
	case dirOnly && !n.isDir():
		return syscall.ENOTDIR
	}
	f.forgetTree(n.info)
	f.moved(n.path, "")
	f.markTree(n.path)
	return f.mem.RemoveAll(n.path)
}
