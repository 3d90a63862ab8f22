package vfs

import (
	"io/fs"
	"os"
	"path"
	"syscall"
	"time"

	"github.com/spf13/afero"
	"github.com/spf13/afero/mem"
)

// accessMode masks the O_RDONLY / O_WRONLY / O_RDWR part of a flag.
const accessMode = os.O_RDONLY | os.O_WRONLY | os.O_RDWR

// Open opens name for reading, following links. A directory opens too, for
// Readdir.
func (f *FS) Open(name string) (afero.File, error) {
	return f.OpenFile(name, os.O_RDONLY, 0)
}

// Create creates or truncates name, as os.Create: O_RDWR|O_CREATE|O_TRUNC
// with mode 0666.
func (f *FS) Create(name string) (afero.File, error) {
	return f.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// OpenFile opens name as open(2) does, following links:
//
//   - O_RDONLY, O_WRONLY or O_RDWR says what the handle may do; the other
//     is EBADF on the handle.
//   - O_CREATE makes a missing file with perm's permission bits. Its parent
//     must exist (ENOENT) and be a directory (ENOTDIR); MemMapFs's habit of
//     making missing parents is gone. A dangling link is followed and its
//     target made.
//   - O_CREATE|O_EXCL fails with EEXIST when anything is at name, a link
//     too, which it does not follow.
//   - O_TRUNC empties a file opened for writing (its bytes go back to the
//     quota). O_APPEND makes every write go to the end of the file.
//   - A directory opens only read-only and without O_CREATE (EISDIR).
//
// A new file over the file quota is ErrNoSpace.
func (f *FS) OpenFile(name string, flag int, perm fs.FileMode) (afero.File, error) {
	h, err := f.openFile(name, flag, perm, openOpts{})
	if err != nil {
		return nil, err // not a typed nil
	}
	return h, nil
}

// openOpts are what the views need beyond OpenFile.
type openOpts struct {
	// base, when set, is the name the handle's Stat reports (the io/fs view
	// names the root ".").
	base string
	// noFollow refuses a last element that is a link with ELOOP, as
	// open(2) with O_NOFOLLOW.
	noFollow bool
}

// openFile is OpenFile with opts.
func (f *FS) openFile(name string, flag int, perm fs.FileMode, opts openOpts) (*file, error) {
	display := displayPath(name)
	base := opts.base
	if base == "" {
		base = path.Base(display)
	}
	acc := flag & accessMode
	if acc == accessMode {
		return nil, pathErr("open", display, syscall.EINVAL)
	}
	writable := acc != os.O_RDONLY
	if writable || flag&os.O_CREATE != 0 {
		f.mu.Lock()
		defer f.mu.Unlock()
	} else {
		f.mu.RLock()
		defer f.mu.RUnlock()
	}
	excl := flag&os.O_CREATE != 0 && flag&os.O_EXCL != 0
	n, dirOnly, err := f.lookupName(name, !excl && !opts.noFollow)
	if err != nil {
		return nil, pathErr("open", display, err)
	}
	var data *mem.FileData
	switch {
	case n.exists() && excl:
		return nil, pathErr("open", display, syscall.EEXIST)
	case n.isLink(): // only with noFollow
		return nil, pathErr("open", display, syscall.ELOOP)
	case n.isDir():
		if writable || flag&os.O_CREATE != 0 {
			return nil, pathErr("open", display, syscall.EISDIR)
		}
		data = n.info.FileData
	case n.exists():
		data = n.info.FileData
		if flag&os.O_TRUNC != 0 && writable {
			b := f.blobOf(data)
			f.usage.bytes -= b.Size()
			b.Truncate(0)
			mem.SetModTime(data, time.Now())
			f.markEntry(n.path)
		}
	case flag&os.O_CREATE == 0:
		return nil, pathErr("open", display, syscall.ENOENT)
	case dirOnly:
		return nil, pathErr("open", display, syscall.EISDIR)
	default:
		if err := f.room(0, 1); err != nil {
			return nil, pathErr("open", display, err)
		}
		created, err := f.mem.OpenFile(n.path, os.O_RDWR|os.O_CREATE, perm&fs.ModePerm)
		if err != nil {
			return nil, pathErr("open", display, err)
		}
		f.usage.files++
		f.markEntry(n.path)
		data = created.(*mem.File).Data()
	}
	h := &file{
		fs:       f,
		name:     display,
		base:     base,
		data:     data,
		readable: acc != os.O_WRONLY,
		writable: writable,
		append:   flag&os.O_APPEND != 0,
		isDir:    mem.GetFileInfo(data).IsDir(),
	}
	if !h.isDir {
		h.blob = f.blobOf(data)
	}
	if writable {
		h.h = mem.NewFileHandle(data)
		f.openWriter(data, n.path)
	} else {
		h.h = mem.NewReadOnlyFileHandle(data)
	}
	return h, nil
}
