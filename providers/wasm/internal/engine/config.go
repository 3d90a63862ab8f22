package engine

import (
	"context"
	"crypto/rand"
	"io"
	"io/fs"
	"maps"
	"runtime"
	"slices"
	"strings"
	"testing/fstest" // MapFS: a read-only in-memory fs.FS; it does not link package testing

	"github.com/tetratelabs/wazero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/sys"
)

// moduleConfig is the module config of every instance, one-shot or warm:
// argv, the whole environment env (nothing of the host's), stdio, the
// mounts, real clocks, crypto random, and sleeps that end when sleepCtx
// does.
func moduleConfig(args []string, env map[string]string, stdin io.Reader, stdout, stderr io.Writer, mounts wazero.FSConfig, sleepCtx context.Context) wazero.ModuleConfig {
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithArgs(args...).
		WithStdin(stdin).
		WithStdout(stdout).
		WithStderr(stderr).
		WithFSConfig(mounts).
		WithRandSource(rand.Reader).
		WithSysWalltime().
		WithNanotime(nanotime, 1000).
		WithNanosleep(nanosleep(sleepCtx)).
		WithOsyield(runtime.Gosched)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		cfg = cfg.WithEnv(k, env[k])
	}
	return cfg
}

// mounts is what an instance of img sees: fsys read-write at "/" (none
// when nil) and, for a Python image, site at PythonSiteDir, stdlib (when
// not nil) at img.stdlibDir, and fsys's PythonUsrMounts at their paths.
func (img *Image) mounts(fsys experimentalsys.FS, site, stdlib fs.FS) wazero.FSConfig {
	fsc := wazero.NewFSConfig()
	if fsys != nil {
		fsc = fsc.(sysfs.FSConfig).WithSysFSMount(fsys, "/")
	}
	if img.python {
		fsc = fsc.WithFSMount(site, PythonSiteDir)
		if stdlib != nil {
			fsc = fsc.WithFSMount(stdlib, img.stdlibDir)
		}
		if fsys != nil {
			for _, dir := range PythonUsrMounts {
				fsc = fsc.(sysfs.FSConfig).WithSysFSMount(&subFS{FS: fsys, dir: strings.TrimPrefix(dir, "/")}, dir)
			}
		}
	}
	return fsc
}

// allocator is an instance's memory: capped at pages (zero: the Engine's
// cap), counted in budget when not nil.
func (img *Image) allocator(pages uint32, budget *MemoryBudget) *capAllocator {
	if pages == 0 {
		pages = img.e.opts.MemoryLimitPages
	}
	return &capAllocator{limit: uint64(pages) << 16, data: img.data, budget: budget}
}

// PythonUsrMounts are the folders of the sandbox's files a Python image
// gets mounted at the same paths besides "/": the npm image keeps its
// standard library inside itself (wasi-vfs) in a tree it mounts at /usr,
// which hides the sandbox's /usr from CPython's own file calls, and
// wasi-libc takes the longest mount that holds a path. So /usr/bin and
// /usr/sbin (the system folders the wasm adapter shows) are the sandbox's
// there too; the rest of /usr stays the image's (/usr/local, and the
// listing of /usr: local only). The mounts are made for every instance of
// the image, the clone templates' too, so that the mount table a clone
// inherits is the one it is given. WASI renames nothing from one mount to
// another; the image's sitecustomize has the host do those.
var PythonUsrMounts = []string{"/usr/bin", "/usr/sbin"}

// subFS is the folder dir (relative to its root, clean) of an FS as an FS
// of its own: every path is dir joined with it. When the FS has no such
// folder, its root is an empty folder, read-only: wasi-libc stops taking
// the mounts at the first whose root it cannot open, and would lose the
// ones after it.
type subFS struct {
	experimentalsys.FS
	dir string
}

func (s *subFS) path(p string) string {
	if p == "." || p == "" {
		return s.dir
	}
	return s.dir + "/" + p
}

// missingRoot reports whether p is the root and e says the FS lacks it.
func missingRoot(p string, e experimentalsys.Errno) bool {
	return (p == "." || p == "") && (e == experimentalsys.ENOENT || e == experimentalsys.ENOTDIR)
}

// emptyRoot is the stat of the root of a subFS whose folder is missing.
var emptyRoot = sys.Stat_t{Mode: fs.ModeDir | 0o755, Nlink: 1, Ino: 1}

func (s *subFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	f, e := s.FS.OpenFile(s.path(p), flag, perm)
	if missingRoot(p, e) && flag&(experimentalsys.O_CREAT|experimentalsys.O_WRONLY|experimentalsys.O_RDWR|experimentalsys.O_TRUNC) == 0 {
		return (&sysfs.AdaptFS{FS: fstest.MapFS{}}).OpenFile(".", flag, perm)
	}
	return f, e
}

func (s *subFS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) {
	st, e := s.FS.Lstat(s.path(p))
	if missingRoot(p, e) {
		return emptyRoot, 0
	}
	return st, e
}

func (s *subFS) Stat(p string) (sys.Stat_t, experimentalsys.Errno) {
	st, e := s.FS.Stat(s.path(p))
	if missingRoot(p, e) {
		return emptyRoot, 0
	}
	return st, e
}

func (s *subFS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	return s.FS.Mkdir(s.path(p), perm)
}

func (s *subFS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	return s.FS.Chmod(s.path(p), perm)
}

func (s *subFS) Rename(from, to string) experimentalsys.Errno {
	return s.FS.Rename(s.path(from), s.path(to))
}

func (s *subFS) Rmdir(p string) experimentalsys.Errno { return s.FS.Rmdir(s.path(p)) }

func (s *subFS) Unlink(p string) experimentalsys.Errno { return s.FS.Unlink(s.path(p)) }

func (s *subFS) Link(oldPath, newPath string) experimentalsys.Errno {
	return s.FS.Link(s.path(oldPath), s.path(newPath))
}

func (s *subFS) Symlink(oldPath, linkName string) experimentalsys.Errno {
	return s.FS.Symlink(oldPath, s.path(linkName))
}

func (s *subFS) Readlink(p string) (string, experimentalsys.Errno) { return s.FS.Readlink(s.path(p)) }

func (s *subFS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	return s.FS.Utimens(s.path(p), atim, mtim)
}
