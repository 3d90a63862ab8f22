package vfs

import "github.com/spf13/afero/mem"

// MaxFileSize is the largest size one file may reach, quota or not: writing
// or truncating past it is EFBIG. It keeps a stray offset from asking the
// host for more memory than it has.
const MaxFileSize = 4 << 30

// usage is what the tree holds. Both counts are kept by the operations
// themselves, under FS.mu held for writing.
type usage struct {
	// bytes is the sum of the sizes of regular files, including removed
	// files that are still open for writing (they can still grow).
	bytes int64
	// files counts files, directories and links, the root not counted.
	files int
}

// Usage returns the bytes held by regular files and the number of files,
// directories and links (the root not counted), the two things the quotas
// cap. A file removed while open for writing keeps its bytes counted until
// its last writable handle is closed.
func (f *FS) Usage() (bytes int64, files int) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.usage.bytes, f.usage.files
}

// room returns a quota error when growing by bytes and files would go past
// a quota, and nil when it fits. It changes nothing. Callers hold f.mu for
// writing and charge the usage themselves once the change is made.
func (f *FS) room(bytes int64, files int) error {
	if f.maxBytes > 0 && bytes > 0 && f.usage.bytes+bytes > f.maxBytes {
		return &quotaError{limit: f.maxBytes, unit: "bytes"}
	}
	if f.maxFiles > 0 && files > 0 && f.usage.files+files > f.maxFiles {
		return &quotaError{limit: int64(f.maxFiles), unit: "files"}
	}
	return nil
}

// forget gives back what a node removed from the tree held: its file count,
// and its bytes unless it is open for writing (then they go back when the
// last writer closes it). Callers hold f.mu for writing.
func (f *FS) forget(info *mem.FileInfo) {
	f.usage.files--
	if !info.Mode().IsRegular() {
		return
	}
	if f.writers[info.FileData] > 0 {
		f.orphans[info.FileData] = struct{}{}
		return
	}
	f.usage.bytes -= f.blobSize(info.FileData)
	f.dropBlob(info.FileData)
}

// forgetTree forgets n and, for a directory, everything under it.
func (f *FS) forgetTree(info *mem.FileInfo) {
	if info.IsDir() {
		for _, child := range children(info) {
			f.forgetTree(child)
		}
	}
	f.forget(info)
}

// openWriter records a writable handle on data.
func (f *FS) openWriter(data *mem.FileData, p string) {
	f.writers[data]++
	if _, orphan := f.orphans[data]; orphan {
		return
	}
	if f.changes.paths == nil {
		f.changes.paths = map[*mem.FileData]string{}
	}
	f.changes.paths[data] = p
}

// closeWriter drops a writable handle on data; the last one of a removed
// file gives its bytes back.
func (f *FS) closeWriter(data *mem.FileData) {
	f.writers[data]--
	if f.writers[data] > 0 {
		return
	}
	delete(f.writers, data)
	delete(f.changes.paths, data)
	if _, ok := f.orphans[data]; ok {
		delete(f.orphans, data)
		f.usage.bytes -= f.blobSize(data)
		f.dropBlob(data)
	}
}
