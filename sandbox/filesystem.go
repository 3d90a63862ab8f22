package sandbox

import (
	"context"
	"time"
)

// FileSystem reads and writes a sandbox's files.
//
// Paths are slash-separated. A relative path resolves against the sandbox's
// work folder; an absolute path is a path inside the sandbox. A path that
// would leave the sandbox's root (by "..", an absolute host path, or a
// symbolic link pointing out) is an error that matches ErrOutsideRoot.
//
// Errors are *fs.PathError values (or wrap one) whose Err matches the io/fs
// sentinels: fs.ErrNotExist for a missing file, fs.ErrExist, fs.ErrInvalid
// for reading a folder as a file. A gone sandbox gives ErrGone.
type FileSystem interface {
	// ReadFile returns a file's content as text (the bytes unchanged).
	ReadFile(ctx context.Context, path string) (string, error)
	// ReadFileBytes returns a file's content.
	ReadFileBytes(ctx context.Context, path string) ([]byte, error)
	// WriteFile creates or replaces a file, making missing parent folders.
	WriteFile(ctx context.Context, path string, data []byte) error
	// ReadDir lists a folder's entries, sorted by name.
	ReadDir(ctx context.Context, path string) ([]FileEntry, error)
	// Mkdir makes a folder and any missing parents. An existing folder is
	// not an error.
	Mkdir(ctx context.Context, path string) error
	// Exists reports whether a file or folder exists at path.
	Exists(ctx context.Context, path string) (bool, error)
	// Remove removes a file, or a folder with everything in it. A missing
	// path is an error that matches fs.ErrNotExist. The work folder, or a
	// folder holding it, is not removed: an error that matches
	// fs.ErrInvalid (see CheckRemove).
	Remove(ctx context.Context, path string) error
}

// FileEntry is one entry of a folder listing.
type FileEntry struct {
	// Name is the entry's base name.
	Name string
	// Path is the entry's absolute path inside the sandbox.
	Path    string
	IsDir   bool
	Size    int64
	ModTime time.Time
}
