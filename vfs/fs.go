package vfs

import (
	"io/fs"
	"path"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
	"github.com/spf13/afero/mem"
)

// Options sets the quotas of a new FS. The zero value has none.
type Options struct {
	// MaxBytes caps the sum of the sizes of all regular files. Zero (or
	// less) means no cap.
	MaxBytes int64
	// MaxFiles caps the number of files, directories and links, the root
	// not counted. Zero (or less) means no cap.
	MaxFiles int
}

// FS is one sandbox's filesystem: an afero.Fs with POSIX semantics inside a
// root jail, symbolic links and quotas, kept in memory.
//
// Every name is made clean and absolute first (see the package doc), so "a",
// "/a", "./a" and "../../a" are the same file. Errors are *fs.PathError
// values (*os.LinkError for Rename and SymlinkIfPossible) whose Err is a
// syscall.Errno, so errors.Is works with the io/fs sentinels and with the
// errnos themselves; the exceptions are quota errors, which match
// ErrNoSpace and syscall.ENOSPC, and use of a closed file, fs.ErrClosed.
// Paths in errors are clean and absolute.
//
// Permission bits are kept and reported but not enforced: inside a sandbox
// everyone is root. No umask applies.
//
// An FS is safe for concurrent use; so is each of its files, though
// concurrent reads of one file share its offset as they would in POSIX.
type FS struct {
	mem      *afero.MemMapFs
	maxBytes int64
	maxFiles int

	// mu orders every operation: those that change the tree, a file's size
	// or the usage hold it for writing, lookups for reading. Lock order:
	// file.mu, then mu, then MemMapFs's own locks.
	mu      sync.RWMutex
	usage   usage
	changes changes                    // what changed when, for snapshots
	writers map[*mem.FileData]int      // open writable handles per file
	orphans map[*mem.FileData]struct{} // removed while open for writing

	// bmu guards blobs, the content of every regular file (MemMapFs keeps
	// only links' targets and the tree). A leaf lock.
	bmu   sync.Mutex
	blobs map[*mem.FileData]*blob
}

var (
	_ afero.Fs        = (*FS)(nil)
	_ afero.Symlinker = (*FS)(nil)
)

// New returns an empty FS (only the root directory "/") with the given
// quotas.
func New(opts Options) *FS {
	return &FS{
		mem:      new(afero.MemMapFs),
		maxBytes: max(opts.MaxBytes, 0),
		maxFiles: max(opts.MaxFiles, 0),
		writers:  make(map[*mem.FileData]int),
		orphans:  make(map[*mem.FileData]struct{}),
		blobs:    make(map[*mem.FileData]*blob),
	}
}

// Name returns "vfs".
func (*FS) Name() string { return "vfs" }

// Stat returns what name leads to, following symbolic links.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.stat("stat", name, true)
}

// stat looks name up and describes what is there, named as name's last
// element. The caller holds f.mu.
func (f *FS) stat(op, name string, follow bool) (fs.FileInfo, error) {
	n, _, err := f.lookupName(name, follow)
	if err == nil && !n.exists() {
		err = syscall.ENOENT
	}
	if err != nil {
		return nil, pathErr(op, displayPath(name), err)
	}
	return f.newFileInfo(path.Base(displayPath(name)), n.info), nil
}

// Mkdir makes the directory name. Its parent must exist (ENOENT) and be a
// directory (ENOTDIR); anything already at name, a dangling link too, is
// EEXIST.
func (f *FS) Mkdir(name string, perm fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return pathErr("mkdir", displayPath(name), f.mkdir(name, perm))
}

// mkdir is Mkdir with f.mu held for writing.
func (f *FS) mkdir(name string, perm fs.FileMode) error {
	clean, _, err := cleanPath(name)
	if err != nil {
		return err
	}
	n, err := f.lookup(clean, false)
	if err != nil {
		return err
	}
	if n.exists() {
		return syscall.EEXIST
	}
	if err := f.room(0, 1); err != nil {
		return err
	}
	if err := f.mem.Mkdir(n.path, perm&fs.ModePerm); err != nil {
		return err
	}
	f.markTree(n.path)
	f.usage.files++
	return nil
}

// MkdirAll makes the directory name and any missing parents, following
// links on the way. An existing directory is no error; an element that is
// not a directory is ENOTDIR. When the directories to make would go over the
// file quota it makes none of them.
func (f *FS) MkdirAll(name string, perm fs.FileMode) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.mkdirAll(name, perm)
}

// mkdirAll is MkdirAll with f.mu held for writing.
func (f *FS) mkdirAll(name string, perm fs.FileMode) error {
	missing, err := f.missingDirs(name)
	if err != nil {
		return err
	}
	if err := f.room(0, len(missing)); err != nil {
		return pathErr("mkdir", displayPath(name), err)
	}
	for _, dir := range missing {
		if err := f.mkdir(dir, perm); err != nil {
			return pathErr("mkdir", dir, err)
		}
	}
	return nil
}

// missingDirs returns, shallowest first, the clean paths MkdirAll(name)
// would have to make.
func (f *FS) missingDirs(name string) ([]string, error) {
	clean, _, err := cleanPath(name)
	if err != nil {
		return nil, pathErr("mkdir", displayPath(name), err)
	}
	var missing []string
	prefix := ""
	for _, elem := range splitPath(clean) {
		if elem == "" {
			break // clean is "/"
		}
		prefix += "/" + elem
		if len(missing) > 0 {
			missing = append(missing, prefix)
			continue
		}
		n, err := f.lookup(prefix, true)
		switch {
		case err != nil:
			return nil, pathErr("mkdir", prefix, err)
		case n.isDir():
			continue
		case n.exists():
			return nil, pathErr("mkdir", prefix, syscall.ENOTDIR)
		}
		if l, _ := f.lookup(prefix, false); l.exists() {
			return nil, pathErr("mkdir", prefix, syscall.EEXIST) // a dangling link
		}
		missing = append(missing, prefix)
	}
	return missing, nil
}

// Chmod sets the permission bits (and setuid, setgid, sticky) of what name
// leads to.
func (f *FS) Chmod(name string, mode fs.FileMode) error {
	return f.change("chmod", name, func(p string) error { return f.mem.Chmod(p, mode) })
}

// Chown records uid and gid on what name leads to. They are not enforced.
func (f *FS) Chown(name string, uid, gid int) error {
	return f.change("chown", name, func(p string) error { return f.mem.Chown(p, uid, gid) })
}

// Chtimes sets the modification time of what name leads to. The access
// time is not kept.
func (f *FS) Chtimes(name string, atime, mtime time.Time) error {
	return f.change("chtimes", name, func(p string) error { return f.mem.Chtimes(p, atime, mtime) })
}

// change runs do on the real path name leads to.
func (f *FS) change(op, name string, do func(p string) error) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, _, err := f.lookupName(name, true)
	if err == nil && !n.exists() {
		err = syscall.ENOENT
	}
	if err == nil {
		err = do(n.path)
		f.markEntry(n.path)
	}
	return pathErr(op, displayPath(name), err)
}

// EnsureDir makes the folder name, with missing parents (0755), when it is
// not there, replacing a file or link in its place; it reports whether it
// changed anything. Adapters use it to give a sandbox its work folder back
// at the start of a command after one removed it.
func (f *FS) EnsureDir(name string) (bool, error) {
	if fi, err := f.Stat(name); err == nil && fi.IsDir() {
		return false, nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if n, _, err := f.lookupName(name, false); err == nil && n.exists() && !n.isDir() {
		if err := f.remove(n.path, anyKind); err != nil {
			return false, pathErr("remove", n.path, err)
		}
	}
	return true, f.mkdirAll(name, 0o755)
}
