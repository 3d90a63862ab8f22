package vfs

import (
	"io/fs"
	"os"
	"time"

	"github.com/spf13/afero/mem"
)

// fileInfo is a snapshot of a node, taken when it was asked for: unlike
// MemMapFs's live FileInfo it does not change under the caller.
type fileInfo struct {
	name    string
	size    int64
	mode    fs.FileMode
	modTime time.Time
}

// newFileInfo describes info under the given name (a base name).
func (f *FS) newFileInfo(name string, info *mem.FileInfo) *fileInfo {
	return newFileInfoSized(name, info, f.sizeOf(info))
}

// newFileInfoSized is newFileInfo with the size known.
func newFileInfoSized(name string, info *mem.FileInfo, size int64) *fileInfo {
	return &fileInfo{
		name:    name,
		size:    size,
		mode:    info.Mode() &^ os.ModeTemporary,
		modTime: info.ModTime(),
	}
}

func (i *fileInfo) Name() string       { return i.name }
func (i *fileInfo) Size() int64        { return i.size }
func (i *fileInfo) Mode() fs.FileMode  { return i.mode }
func (i *fileInfo) ModTime() time.Time { return i.modTime }
func (i *fileInfo) IsDir() bool        { return i.mode.IsDir() }
func (i *fileInfo) Sys() any           { return nil }
func (i *fileInfo) String() string     { return fs.FormatFileInfo(i) }

// sizeOf is a node's size as this package reports it: a regular file's
// length, a link's target length, 0 for a directory.
func (f *FS) sizeOf(info *mem.FileInfo) int64 {
	switch {
	case info.IsDir():
		return 0
	case info.Mode().IsRegular():
		return f.blobSize(info.FileData)
	}
	return info.Size()
}

// children lists a directory node's entries, sorted by name.
func children(dir *mem.FileInfo) []*mem.FileInfo {
	list, _ := mem.NewReadOnlyFileHandle(dir.FileData).Readdir(-1)
	out := make([]*mem.FileInfo, 0, len(list))
	for _, fi := range list {
		if info, ok := fi.(*mem.FileInfo); ok {
			out = append(out, info)
		}
	}
	return out
}
