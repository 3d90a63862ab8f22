package vfs

import (
	"errors"
	"io"
	"io/fs"
	"sync"

	"github.com/spf13/afero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/sys"
)

// WASIRootOwned is the bit of a WASI st_dev (with WASIDevTag) that says the
// node belongs to root, uid and gid 0, and not to the sandbox's user: a
// FileInfo with a method RootOwned() bool that reports true (the system
// folders of the shell's posixfs.WithSystem) is reported with it. The
// guests that read modes from st_dev read it too.
const WASIRootOwned uint64 = 1 << 16

// WASIStat is the stat a WASI guest gets for info, a node whose real path
// (every link resolved) is realPath: as the WASI view reports its own nodes
// (see WASI: the mode in st_dev, the inode from the real path).
func WASIStat(realPath string, info fs.FileInfo) sys.Stat_t { return statT(realPath, info) }

// WASIErrno is the error a WASI guest gets for err, as the WASI view maps
// its own (see WASI).
func WASIErrno(err error) experimentalsys.Errno { return errno(err) }

// WASIFile returns f, open at the real path realPath, as a file of the WASI
// view: what another front end over the same files (the wasm adapter's
// system folders) opened through afero, with the WASI view's stats,
// inodes, listings (up to n entries; fewer means the end) and errors.
// Setting its times is EPERM: it is for the system folders' nodes, root's.
func WASIFile(f afero.File, realPath string) experimentalsys.File {
	a := &aferoWASIFile{f: f, real: realPath}
	adapted, e := (&sysfs.AdaptFS{FS: aferoSeekerFS{f}}).OpenFile(".", experimentalsys.O_RDONLY, 0)
	if e != 0 {
		adapted = experimentalsys.UnimplementedFile{} // cannot happen: Open never fails
	}
	a.File = adapted
	return a
}

// aferoWASIFile is WASIFile's file. Seek is the embedded adapted file's,
// which calls f's (see wasiseek.go for why).
type aferoWASIFile struct {
	experimentalsys.File
	f    afero.File
	real string

	mu     sync.Mutex
	append bool
}

var _ experimentalsys.File = (*aferoWASIFile)(nil)

func (a *aferoWASIFile) Dev() (uint64, experimentalsys.Errno) { return 0, 0 }

func (a *aferoWASIFile) Ino() (sys.Inode, experimentalsys.Errno) { return inode(a.real), 0 }

func (a *aferoWASIFile) IsDir() (bool, experimentalsys.Errno) {
	fi, err := a.f.Stat()
	if err != nil {
		return false, errno(err)
	}
	return fi.IsDir(), 0
}

func (a *aferoWASIFile) IsAppend() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.append
}

func (a *aferoWASIFile) SetAppend(enable bool) experimentalsys.Errno {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.append = enable
	return 0
}

func (a *aferoWASIFile) Stat() (sys.Stat_t, experimentalsys.Errno) {
	fi, err := a.f.Stat()
	if err != nil {
		return sys.Stat_t{}, errno(err)
	}
	return statT(a.real, fi), 0
}

func (a *aferoWASIFile) Read(buf []byte) (int, experimentalsys.Errno) {
	n, err := a.f.Read(buf)
	return n, errno(err)
}

func (a *aferoWASIFile) Pread(buf []byte, off int64) (int, experimentalsys.Errno) {
	n, err := a.f.ReadAt(buf, off)
	return n, errno(err)
}

func (a *aferoWASIFile) Readdir(n int) ([]experimentalsys.Dirent, experimentalsys.Errno) {
	infos, err := a.f.Readdir(n)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, errno(err)
	}
	return dirents(a.real, infos), 0
}

func (a *aferoWASIFile) Write(buf []byte) (int, experimentalsys.Errno) {
	n, err := a.f.Write(buf)
	return n, errno(err)
}

func (a *aferoWASIFile) Pwrite(buf []byte, off int64) (int, experimentalsys.Errno) {
	n, err := a.f.WriteAt(buf, off)
	return n, errno(err)
}

func (a *aferoWASIFile) Truncate(size int64) experimentalsys.Errno {
	return errno(a.f.Truncate(size))
}

func (a *aferoWASIFile) Sync() experimentalsys.Errno     { return errno(a.f.Sync()) }
func (a *aferoWASIFile) Datasync() experimentalsys.Errno { return errno(a.f.Sync()) }

func (a *aferoWASIFile) Utimens(int64, int64) experimentalsys.Errno { return experimentalsys.EPERM }

func (a *aferoWASIFile) Close() experimentalsys.Errno { return errno(a.f.Close()) }

// aferoSeekerFS is an fs.FS of one file whose Seek is an afero.File's.
type aferoSeekerFS struct{ f afero.File }

func (s aferoSeekerFS) Open(string) (fs.File, error) { return aferoSeeker(s), nil }

type aferoSeeker struct{ f afero.File }

func (s aferoSeeker) Seek(offset int64, whence int) (int64, error) { return s.f.Seek(offset, whence) }
func (s aferoSeeker) Stat() (fs.FileInfo, error)                   { return seekerInfo{}, nil }
func (s aferoSeeker) Read([]byte) (int, error)                     { return 0, fs.ErrInvalid }
func (s aferoSeeker) Close() error                                 { return nil }
