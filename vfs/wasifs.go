package vfs

import (
	"errors"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// WASI returns f as wazero's experimental sys.FS, to mount read-write into
// WebAssembly guests:
//
//	cfg := wazero.NewFSConfig().(sysfs.FSConfig).WithSysFSMount(fsys.WASI(), "/")
//
// Mounted at "/", a guest sees exactly this tree. wazero hands over paths
// relative to the mount, already cleaned, "." for the root, a trailing "/"
// kept; this FS resolves them as any other name, symbolic links included.
//
// What the guest sees:
//
//   - Errors are sys.Errno values. WASI has no ENOSPC, so a quota error is
//     EIO, as are EFBIG and anything without an errno of its own; EBUSY
//     (removing the root) is EPERM.
//   - Inodes are non-zero, an FNV-64a hash of the node's real path (so a
//     rename gives a new one); without them wasi-libc lstats every entry.
//   - Directory listings are sorted and Seek(0, io.SeekStart) rewinds them;
//     "." and ".." are wazero's own.
//   - Unlink of a directory is EISDIR, Rmdir of anything else ENOTDIR.
//   - Hard links are ENOSYS. Times other than the modification time are not
//     kept: Stat reports it as atime and ctime too.
//   - Modes: WASI preview 1 has neither a mode argument (wazero asks for
//     0o600 on every create, 0o700 on every mkdir) nor a mode in its
//     filestat, nor chmod. So a file a guest creates gets 0o644 and a folder
//     0o755, as under Linux's default umask 022; and a node's mode travels in
//     the filestat's st_dev, which means nothing inside a sandbox: st_dev is
//     WASIDevTag | the mode's Unix bits (07777, see UnixMode), with
//     WASIRootOwned for a node of root's. The guests that
//     know it (the busybox shell, the python image's sitecustomize) read the
//     mode from there and report a constant st_dev. Changing a mode is the
//     host's business (FS.Chmod, reached through the adapter's own calls).
//
// Every call goes through f and its lock, so guests, the host and other
// sandboxes' views of the same FS see one another's changes at once.
func (f *FS) WASI() experimentalsys.FS { return &wasiFS{fsys: f} }

// WASIDevTag marks a WASI st_dev that carries a mode: the high 32 bits of
// every st_dev the WASI view reports, the low 12 the mode's Unix bits.
const WASIDevTag uint64 = 0x6165_6b6d << 32 // "aekm"

// The permissions WASI guests create with (see WASI).
const (
	wasiFilePerm fs.FileMode = 0o644
	wasiDirPerm  fs.FileMode = 0o755
)

// UnixMode is mode's permission bits as stat(2)'s st_mode has them:
// rwxrwxrwx with setuid (04000), setgid (02000) and sticky (01000).
func UnixMode(mode fs.FileMode) uint32 {
	bits := uint32(mode.Perm())
	if mode&fs.ModeSetuid != 0 {
		bits |= 0o4000
	}
	if mode&fs.ModeSetgid != 0 {
		bits |= 0o2000
	}
	if mode&fs.ModeSticky != 0 {
		bits |= 0o1000
	}
	return bits
}

// FileMode is UnixMode's inverse: the permission bits (with setuid,
// setgid, sticky) of the Unix mode bits, no type.
func FileMode(bits uint32) fs.FileMode {
	m := fs.FileMode(bits & 0o777)
	for _, b := range []struct {
		unix uint32
		mode fs.FileMode
	}{{0o4000, fs.ModeSetuid}, {0o2000, fs.ModeSetgid}, {0o1000, fs.ModeSticky}} {
		if bits&b.unix != 0 {
			m |= b.mode
		}
	}
	return m
}

type wasiFS struct {
	experimentalsys.UnimplementedFS
	fsys *FS
}

var _ experimentalsys.FS = (*wasiFS)(nil)

// OSOpenFlags is the os.OpenFile flag of WASI's open flag: its access mode
// and O_APPEND, O_CREAT, O_EXCL and O_TRUNC (the others are the caller's);
// EINVAL for an access mode that is none of read, write or both.
func OSOpenFlags(flag experimentalsys.Oflag) (int, experimentalsys.Errno) {
	var osFlag int
	switch flag & (experimentalsys.O_RDONLY | experimentalsys.O_RDWR | experimentalsys.O_WRONLY) {
	case experimentalsys.O_RDONLY:
		osFlag = os.O_RDONLY
	case experimentalsys.O_RDWR:
		osFlag = os.O_RDWR
	case experimentalsys.O_WRONLY:
		osFlag = os.O_WRONLY
	default:
		return 0, experimentalsys.EINVAL
	}
	for from, to := range map[experimentalsys.Oflag]int{
		experimentalsys.O_APPEND: os.O_APPEND,
		experimentalsys.O_CREAT:  os.O_CREATE,
		experimentalsys.O_EXCL:   os.O_EXCL,
		experimentalsys.O_TRUNC:  os.O_TRUNC,
	} {
		if flag&from != 0 {
			osFlag |= to
		}
	}
	return osFlag, 0
}

// OpenFile opens p; a file it creates gets mode 0o644, whatever perm says
// (see WASI).
func (w *wasiFS) OpenFile(p string, flag experimentalsys.Oflag, _ fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	osFlag, e := OSOpenFlags(flag)
	if e != 0 {
		return nil, e
	}
	wantDir := flag&experimentalsys.O_DIRECTORY != 0
	if wantDir && flag&experimentalsys.O_CREAT != 0 {
		return nil, experimentalsys.EINVAL
	}
	h, err := w.fsys.openFile(p, osFlag, wasiFilePerm, openOpts{noFollow: flag&experimentalsys.O_NOFOLLOW != 0})
	if err != nil {
		return nil, errno(err)
	}
	if wantDir && !h.isDir {
		_ = h.Close()
		return nil, experimentalsys.ENOTDIR
	}
	return newWASIFile(h), 0
}

func (w *wasiFS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) { return w.stat(p, false) }

func (w *wasiFS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) { return w.stat(p, true) }

func (w *wasiFS) stat(p string, follow bool) (sys.Stat_t, experimentalsys.Errno) {
	w.fsys.mu.RLock()
	defer w.fsys.mu.RUnlock()
	n, _, err := w.fsys.lookupName(p, follow)
	if err == nil && !n.exists() {
		err = syscall.ENOENT
	}
	if err != nil {
		return sys.Stat_t{}, errno(err)
	}
	return statT(n.path, w.fsys.newFileInfo("", n.info)), 0
}

// Mkdir makes a folder with mode 0o755, whatever perm says (see WASI).
func (w *wasiFS) Mkdir(p string, _ fs.FileMode) experimentalsys.Errno {
	return errno(w.fsys.Mkdir(p, wasiDirPerm))
}

func (w *wasiFS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	return errno(w.fsys.Chmod(p, perm))
}

func (w *wasiFS) Rename(from, to string) experimentalsys.Errno {
	return errno(w.fsys.Rename(from, to))
}

func (w *wasiFS) Rmdir(p string) experimentalsys.Errno {
	w.fsys.mu.Lock()
	defer w.fsys.mu.Unlock()
	return errno(w.fsys.remove(p, dirKind))
}

func (w *wasiFS) Unlink(p string) experimentalsys.Errno {
	w.fsys.mu.Lock()
	defer w.fsys.mu.Unlock()
	return errno(w.fsys.remove(p, fileKind))
}

func (w *wasiFS) Symlink(oldPath, linkName string) experimentalsys.Errno {
	return errno(w.fsys.SymlinkIfPossible(oldPath, linkName))
}

func (w *wasiFS) Readlink(p string) (string, experimentalsys.Errno) {
	target, err := w.fsys.ReadlinkIfPossible(p)
	return target, errno(err)
}

// Utimens sets the modification time (atim is not kept), following links.
// UTIME_OMIT leaves it; wazero has already turned UTIME_NOW into a time.
func (w *wasiFS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	if mtim == experimentalsys.UTIME_OMIT {
		_, e := w.stat(p, true)
		return e
	}
	t := timeOf(mtim)
	return errno(w.fsys.Chtimes(p, t, t))
}

func timeOf(nanos int64) time.Time { return time.Unix(0, nanos) }

// statT is the sys.Stat_t of a node whose real path is p.
func statT(p string, info fs.FileInfo) sys.Stat_t {
	mtim := info.ModTime().UnixNano()
	dev := WASIDevTag | uint64(UnixMode(info.Mode()))
	if r, ok := info.(interface{ RootOwned() bool }); ok && r.RootOwned() {
		dev |= WASIRootOwned
	}
	return sys.Stat_t{
		Dev:   dev,
		Ino:   inode(p),
		Mode:  info.Mode(),
		Nlink: 1,
		Size:  info.Size(),
		Atim:  mtim,
		Mtim:  mtim,
		Ctim:  mtim,
	}
}

// inode is the synthetic inode of the node at the real path p: FNV-64a of
// the path, never 0.
func inode(p string) sys.Inode {
	h := fnv.New64a()
	_, _ = io.WriteString(h, p)
	if ino := h.Sum64(); ino != 0 {
		return ino
	}
	return 1
}

// errno maps an error of this package to the sys.Errno a guest gets.
func errno(err error) experimentalsys.Errno {
	switch {
	case err == nil, errors.Is(err, io.EOF):
		return 0
	case errors.Is(err, ErrNoSpace):
		return experimentalsys.EIO // WASI has no ENOSPC
	case errors.Is(err, syscall.EBUSY):
		return experimentalsys.EPERM
	}
	return experimentalsys.UnwrapOSError(err)
}
