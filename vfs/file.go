package vfs

import (
	"io"
	"io/fs"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
	"github.com/spf13/afero/mem"
)

// file is an open handle of an FS. It fixes what MemMapFs's handle gets
// wrong: reading past the end is io.EOF, O_APPEND holds for every write,
// WriteAt and ReadAt leave the offset alone, the access mode is enforced,
// Seek refuses negative offsets, writes and truncates keep the quota, and a
// directory lists itself sorted, from the start again after Seek(0, 0).
type file struct {
	fs   *FS
	data *mem.FileData
	blob *blob  // a regular file's content; nil for a directory
	name string // clean absolute path as opened
	base string // the name Stat reports

	readable, writable, append, isDir bool

	mu     sync.Mutex // guards everything below
	h      *mem.File  // MemMapFs's handle: a directory's, and for mtimes
	off    int64      // a regular file's offset
	closed bool
	wrote  bool // a write or truncate happened: Close may touch the mtime
	list   []fs.FileInfo
	listed bool
	pos    int
}

var (
	_ afero.File     = (*file)(nil)
	_ fs.ReadDirFile = (*file)(nil)
)

// Name returns the clean absolute path the file was opened by.
func (h *file) Name() string { return h.name }

// Read reads from the offset. At or past the end it returns 0, io.EOF.
func (h *file) Read(b []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.canRead("read"); err != nil {
		return 0, err
	}
	if len(b) == 0 {
		return 0, nil
	}
	n := h.blob.ReadAt(b, h.off)
	h.off += int64(n)
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// ReadAt reads at off without moving the offset. Short of len(b) it
// returns io.EOF, as io.ReaderAt asks.
func (h *file) ReadAt(b []byte, off int64) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.canRead("read"); err != nil {
		return 0, err
	}
	if off < 0 {
		return 0, pathErr("read", h.name, syscall.EINVAL)
	}
	if len(b) == 0 {
		return 0, nil
	}
	n := h.blob.ReadAt(b, off)
	if n < len(b) {
		return n, io.EOF
	}
	return n, nil
}

// Write writes at the offset, or at the end with O_APPEND, and moves the
// offset past what it wrote. A write that would go over the byte quota (or
// past MaxFileSize) writes nothing.
func (h *file) Write(b []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.write("write", b, -1)
}

// WriteAt writes at off and leaves the offset where it was, as pwrite(2).
// On a file opened with O_APPEND it is EINVAL, as in package os.
func (h *file) WriteAt(b []byte, off int64) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.canWrite("write"); err != nil {
		return 0, err
	}
	if off < 0 || h.append {
		return 0, pathErr("write", h.name, syscall.EINVAL)
	}
	return h.write("write", b, off)
}

// WriteString is Write of s.
func (h *file) WriteString(s string) (int, error) { return h.Write([]byte(s)) }

// write writes b at at, or at the offset (the end with O_APPEND) when at is
// negative; only then does the offset move. The caller holds h.mu.
func (h *file) write(op string, b []byte, at int64) (int, error) {
	if err := h.canWrite(op); err != nil {
		return 0, err
	}
	if len(b) == 0 {
		return 0, nil
	}
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	size := h.blob.Size()
	off := at
	switch {
	case at >= 0:
	case h.append:
		off = size
	default:
		off = h.off
	}
	if off > MaxFileSize-int64(len(b)) {
		return 0, pathErr(op, h.name, syscall.EFBIG)
	}
	grow := max(0, off+int64(len(b))-size)
	if err := h.fs.room(grow, 0); err != nil {
		return 0, pathErr(op, h.name, err)
	}
	h.blob.WriteAt(b, off)
	if at < 0 {
		h.off = off + int64(len(b))
	}
	mem.SetModTime(h.data, time.Now())
	h.fs.markData(h.data)
	h.fs.usage.bytes += grow
	h.wrote = true
	return len(b), nil
}

// Seek sets the offset as lseek(2): a negative result or an unknown whence
// is EINVAL; past the end is allowed (a later write fills the gap with
// zeros). On a directory only Seek(0, io.SeekStart) is allowed: it rewinds
// the listing.
func (h *file) Seek(offset int64, whence int) (int64, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return 0, closedErr("seek", h.name)
	}
	if h.isDir {
		if offset != 0 || whence != io.SeekStart {
			return 0, pathErr("seek", h.name, syscall.EINVAL)
		}
		h.list, h.listed, h.pos = nil, false, 0
		return 0, nil
	}
	var base int64
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		base = h.off
	case io.SeekEnd:
		base = h.blob.Size()
	default:
		return 0, pathErr("seek", h.name, syscall.EINVAL)
	}
	next := base + offset
	if next < 0 || (offset > 0 && next < base) {
		return 0, pathErr("seek", h.name, syscall.EINVAL)
	}
	h.off = next
	return next, nil
}

// Truncate sets the size, as ftruncate(2): growing fills with zeros and
// takes from the byte quota (nothing changes when it does not fit),
// shrinking gives back. It needs a handle open for writing (EINVAL
// otherwise, a directory's too).
func (h *file) Truncate(size int64) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.closed:
		return closedErr("truncate", h.name)
	case !h.writable || size < 0: // a directory is never writable
		return pathErr("truncate", h.name, syscall.EINVAL)
	case size > MaxFileSize:
		return pathErr("truncate", h.name, syscall.EFBIG)
	}
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	grow := size - h.blob.Size()
	if err := h.fs.room(grow, 0); err != nil {
		return pathErr("truncate", h.name, err)
	}
	h.blob.Truncate(size)
	mem.SetModTime(h.data, time.Now())
	h.fs.markData(h.data)
	h.fs.usage.bytes += grow
	h.wrote = true
	return nil
}

// Stat describes the open file now, under the name it was opened by.
func (h *file) Stat() (fs.FileInfo, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, closedErr("stat", h.name)
	}
	info := mem.GetFileInfo(h.data)
	if h.blob != nil {
		return newFileInfoSized(h.base, info, h.blob.Size()), nil
	}
	return h.fs.newFileInfo(h.base, info), nil
}

// Sync does nothing: there is nothing below memory to sync to.
func (h *file) Sync() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return closedErr("sync", h.name)
	}
	return nil
}

// Close closes the handle; a second Close is fs.ErrClosed. Closing the last
// writable handle of a removed file gives its bytes back to the quota.
func (h *file) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return closedErr("close", h.name)
	}
	h.closed = true
	if !h.writable {
		return h.h.Close()
	}
	h.fs.mu.Lock()
	defer h.fs.mu.Unlock()
	mtime := mem.GetFileInfo(h.data).ModTime()
	err := h.h.Close()
	if !h.wrote {
		mem.SetModTime(h.data, mtime) // MemMapFs touches it on every close
	} else {
		h.fs.markData(h.data)
	}
	h.fs.closeWriter(h.data)
	return err
}

// Readdir lists the directory's entries, sorted by name, without following
// links, as os.File.Readdir: with count > 0 at most count of them and
// io.EOF when none are left; otherwise all that are left and a nil error.
func (h *file) Readdir(count int) ([]fs.FileInfo, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, closedErr("readdir", h.name)
	}
	if !h.isDir {
		return nil, pathErr("readdir", h.name, syscall.ENOTDIR)
	}
	if !h.listed {
		h.list, h.listed = h.fs.listing(h.data), true
	}
	rest := h.list[h.pos:]
	if count > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(count, len(rest))]
	}
	h.pos += len(rest)
	return rest, nil
}

// Readdirnames is Readdir's names.
func (h *file) Readdirnames(count int) ([]string, error) {
	infos, err := h.Readdir(count)
	names := make([]string, len(infos))
	for i, info := range infos {
		names[i] = info.Name()
	}
	return names, err
}

// ReadDir is Readdir as fs.ReadDirFile wants it.
func (h *file) ReadDir(count int) ([]fs.DirEntry, error) {
	infos, err := h.Readdir(count)
	entries := make([]fs.DirEntry, len(infos))
	for i, info := range infos {
		entries[i] = fs.FileInfoToDirEntry(info)
	}
	return entries, err
}

func (h *file) canRead(op string) error {
	switch {
	case h.closed:
		return closedErr(op, h.name)
	case h.isDir:
		return pathErr(op, h.name, syscall.EISDIR)
	case !h.readable:
		return pathErr(op, h.name, syscall.EBADF)
	}
	return nil
}

// canWrite: a directory is never open for writing, so writing one is
// EBADF, as write(2).
func (h *file) canWrite(op string) error {
	switch {
	case h.closed:
		return closedErr(op, h.name)
	case !h.writable:
		return pathErr(op, h.name, syscall.EBADF)
	}
	return nil
}

// listing snapshots a directory's entries, or none when the directory is
// no longer in the tree.
func (f *FS) listing(dir *mem.FileData) []fs.FileInfo {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if now := f.memStat(dir.Name()); now == nil || now.FileData != dir {
		return nil
	}
	kids := children(mem.GetFileInfo(dir))
	list := make([]fs.FileInfo, len(kids))
	for i, kid := range kids {
		list[i] = f.newFileInfo(kid.Name(), kid)
	}
	return list
}
