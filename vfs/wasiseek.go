package vfs

import (
	"io/fs"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
)

// Why Seek goes through wazero's AdaptFS:
//
// sys.File wants Seek(int64, int) (int64, sys.Errno). go vet's stdmethods
// check reports any method so named that does not return error, and the
// module's CI runs go vet ./... (wazero's own internal/sysfs fails the same
// check). So wasiFile declares no Seek: it embeds a file from
// sysfs.AdaptFS, whose Seek validates whence and calls an io.Seeker, and
// that io.Seeker is seeker below, with the io signature, over the *file.
// Every other sys.File method is wasiFile's own.

// newSeekFile returns wazero's adapted file that seeks h.
func newSeekFile(h *file) experimentalsys.File {
	f, errno := (&sysfs.AdaptFS{FS: seekerFS{seeker{h}}}).OpenFile(".", experimentalsys.O_RDONLY, 0)
	if errno != 0 {
		return experimentalsys.UnimplementedFile{} // cannot happen: seekerFS.Open never fails
	}
	return f
}

// seekerFS is an fs.FS of one file, the seeker.
type seekerFS struct{ s seeker }

func (f seekerFS) Open(string) (fs.File, error) { return f.s, nil }

// seeker is the fs.File AdaptFS wraps: only its Seek is used. Its Stat
// calls everything a regular file, so AdaptFS always passes Seek on; a
// directory's Seek(0, io.SeekStart) then rewinds the listing in *file.
type seeker struct{ h *file }

func (s seeker) Seek(offset int64, whence int) (int64, error) { return s.h.Seek(offset, whence) }
func (s seeker) Stat() (fs.FileInfo, error)                   { return seekerInfo{}, nil }
func (s seeker) Read([]byte) (int, error)                     { return 0, fs.ErrInvalid }
func (s seeker) Close() error                                 { return nil }

type seekerInfo struct{}

func (seekerInfo) Name() string       { return "." }
func (seekerInfo) Size() int64        { return 0 }
func (seekerInfo) Mode() fs.FileMode  { return 0 }
func (seekerInfo) ModTime() time.Time { return time.Time{} }
func (seekerInfo) IsDir() bool        { return false }
func (seekerInfo) Sys() any           { return nil }
