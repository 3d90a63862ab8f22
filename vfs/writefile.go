package vfs

import (
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"

	"github.com/spf13/afero/mem"
)

// WriteFile replaces the content of name with data, creating the file with
// perm when missing, as os.WriteFile; links are followed. Unlike a
// truncate-then-write it is all or nothing: when the new content (or the new
// file) would go over a quota it is ErrNoSpace and the old content stays.
func (f *FS) WriteFile(name string, data []byte, perm fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.writeFile(name, data, perm, false)
}

// writeFile is WriteFile with f.mu held for writing; with parents it also
// makes missing parent directories (0755), counted in the same quota check.
func (f *FS) writeFile(name string, data []byte, perm fs.FileMode, parents bool) error {
	display := displayPath(name)
	clean, dirOnly, err := cleanPath(name)
	if err != nil {
		return pathErr("open", display, err)
	}
	var missing []string
	if parents && clean != "/" {
		if missing, err = f.missingDirs(path.Dir(clean)); err != nil {
			return err
		}
	}
	var n node
	if len(missing) == 0 {
		if n, err = f.lookup(clean, true); err != nil {
			return pathErr("open", display, err)
		}
	}
	switch {
	case n.isDir() || (dirOnly && !n.exists()):
		return pathErr("open", display, syscall.EISDIR)
	case dirOnly:
		return pathErr("open", display, syscall.ENOTDIR)
	case int64(len(data)) > MaxFileSize:
		return pathErr("write", display, syscall.EFBIG)
	}
	grow, files := int64(len(data)), len(missing)
	if n.exists() {
		grow -= f.sizeOf(n.info)
	} else {
		files++
	}
	if err := f.room(grow, files); err != nil {
		return pathErr("write", display, err)
	}
	for _, dir := range missing {
		if err := f.mkdir(dir, 0o755); err != nil {
			return pathErr("mkdir", dir, err)
		}
	}
	var fd *mem.FileData
	if n.exists() {
		fd = n.info.FileData
	} else {
		if n, err = f.lookup(clean, true); err != nil {
			return pathErr("open", display, err)
		}
		created, err := f.mem.OpenFile(n.path, os.O_RDWR|os.O_CREATE, perm&fs.ModePerm)
		if err != nil {
			return pathErr("open", display, err)
		}
		f.usage.files++
		fd = created.(*mem.File).Data()
		_ = created.Close()
	}
	b := f.blobOf(fd)
	b.Truncate(0)
	b.WriteAt(data, 0)
	mem.SetModTime(fd, time.Now())
	f.markEntry(n.path)
	f.usage.bytes += grow
	return nil
}
