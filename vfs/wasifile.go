package vfs

import (
	"errors"
	"io"
	"io/fs"
	"path"

	"github.com/spf13/afero/mem"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// wasiFile is an open file of the WASI view: a *file with Errno results.
// Seek comes from the embedded File (see wasiseek.go); every other method is
// declared here, and any later addition to sys.File is the embedded file's
// (ENOSYS).
type wasiFile struct {
	experimentalsys.File
	h *file
}

func newWASIFile(h *file) *wasiFile { return &wasiFile{File: newSeekFile(h), h: h} }

var _ experimentalsys.File = (*wasiFile)(nil)

func (w *wasiFile) Dev() (uint64, experimentalsys.Errno) { return 0, 0 }

// Ino is the synthetic inode of the file's current real path, as Stat of
// that path reports it.
func (w *wasiFile) Ino() (sys.Inode, experimentalsys.Errno) {
	return inode(w.h.data.Name()), 0
}

func (w *wasiFile) IsDir() (bool, experimentalsys.Errno) { return w.h.isDir, 0 }

func (w *wasiFile) IsAppend() bool {
	w.h.mu.Lock()
	defer w.h.mu.Unlock()
	return w.h.append
}

func (w *wasiFile) SetAppend(enable bool) experimentalsys.Errno {
	w.h.mu.Lock()
	defer w.h.mu.Unlock()
	switch {
	case w.h.closed:
		return experimentalsys.EBADF
	case w.h.isDir:
		return experimentalsys.EISDIR
	}
	w.h.append = enable
	return 0
}

func (w *wasiFile) Stat() (sys.Stat_t, experimentalsys.Errno) {
	info, err := w.h.Stat()
	if err != nil {
		return sys.Stat_t{}, errno(err)
	}
	return statT(w.h.data.Name(), info), 0
}

func (w *wasiFile) Read(buf []byte) (int, experimentalsys.Errno) {
	n, err := w.h.Read(buf)
	return n, errno(err)
}

func (w *wasiFile) Pread(buf []byte, off int64) (int, experimentalsys.Errno) {
	n, err := w.h.ReadAt(buf, off)
	return n, errno(err)
}

// Readdir returns up to n entries (fewer means the end, with no error), in
// name order, from a listing taken at the first call after opening or
// rewinding.
func (w *wasiFile) Readdir(n int) ([]experimentalsys.Dirent, experimentalsys.Errno) {
	infos, err := w.h.Readdir(n)
	if errors.Is(err, io.EOF) {
		return nil, 0
	}
	if err != nil {
		return nil, errno(err)
	}
	return dirents(w.h.data.Name(), infos), 0
}

// dirents are the WASI entries of infos, listed in the folder whose real
// path is dir: each entry's inode is its real path's.
func dirents(dir string, infos []fs.FileInfo) []experimentalsys.Dirent {
	out := make([]experimentalsys.Dirent, len(infos))
	for i, info := range infos {
		out[i] = experimentalsys.Dirent{
			Ino:  inode(path.Join(dir, info.Name())),
			Name: info.Name(),
			Type: info.Mode().Type(),
		}
	}
	return out
}

func (w *wasiFile) Write(buf []byte) (int, experimentalsys.Errno) {
	n, err := w.h.Write(buf)
	return n, errno(err)
}

func (w *wasiFile) Pwrite(buf []byte, off int64) (int, experimentalsys.Errno) {
	n, err := w.h.WriteAt(buf, off)
	return n, errno(err)
}

func (w *wasiFile) Truncate(size int64) experimentalsys.Errno {
	return errno(w.h.Truncate(size))
}

func (w *wasiFile) Sync() experimentalsys.Errno     { return errno(w.h.Sync()) }
func (w *wasiFile) Datasync() experimentalsys.Errno { return errno(w.h.Sync()) }

// Utimens sets the modification time of the open file; atim is not kept.
func (w *wasiFile) Utimens(atim, mtim int64) experimentalsys.Errno {
	if err := w.h.Sync(); err != nil { // closed?
		return errno(err)
	}
	if mtim != experimentalsys.UTIME_OMIT {
		w.h.fs.mu.Lock()
		mem.SetModTime(w.h.data, timeOf(mtim))
		w.h.fs.markAll() // where the file is now is not known here
		w.h.fs.mu.Unlock()
	}
	return 0
}

func (w *wasiFile) Close() experimentalsys.Errno { return errno(w.h.Close()) }
