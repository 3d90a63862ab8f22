package wasm

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wazerosys "github.com/tetratelabs/wazero/sys"

	"github.com/agentenkit/agentenkit/providers/wasm/internal/engine"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/vfs"
)

// The system folders in every program's view: the busybox shell shows
// /usr/bin (a file per command it runs itself, 0755, root's, a short
// script that runs it), /usr/sbin, /bin -> usr/bin and /sbin -> usr/sbin
// (posixfs.WithSystem, shell/posixfs/system.go). The other programs of a
// sandbox (python3, node) reach the files through WASI, not through the
// shell, so the WASI view the host mounts for every instance shows the
// same folders, from the same code: posixfs's system layer over the
// sandbox's files (systemFS), listing the commands the busybox image says
// it runs (`busybox --list`, shell.SystemCommands). Nothing of them is
// stored: they are in no snapshot and count against no quota.

// systemFS is a sandbox's WASI view (the base, vfs.FS.WASI) with the
// system folders of sys, posixfs.WithSystem over the same files: an
// operation on a path the system folders answer for (posixfs.SystemPath,
// or posixfs.SystemPathVia once the base failed on it) is sys's, turned
// into WASI's terms; any other is the base's, as it was.
type systemFS struct {
	experimentalsys.FS
	sys   afero.Fs
	files *vfs.FS
}

// withSystem is fsys's WASI view with the system folders listing cmds.
func withSystem(fsys *vfs.FS, cmds posixfs.Commands) *systemFS {
	return &systemFS{FS: fsys.WASI(), sys: posixfs.WithSystem(fsys, cmds), files: fsys}
}

// abs is the absolute path of p as wazero hands it over: relative to the
// mount at "/", cleaned, "." for the root.
func abs(p string) string {
	if p == "." || p == "" {
		return "/"
	}
	return "/" + p
}

// via reports whether the base's errno e on a is one after which a link
// of the base may lead into the system folders, and where. A missing path
// reached through no link (vfs.FS.Direct: the common miss, a module
// looked for in a real folder) leads nowhere else, without the walk.
func (s *systemFS) via(a string, follow bool, e experimentalsys.Errno) (string, bool) {
	var err error
	switch e {
	case experimentalsys.ENOENT:
		if s.files.Direct(a, follow) {
			return "", false
		}
		err = syscall.ENOENT
	case experimentalsys.ENOTDIR:
		err = syscall.ENOTDIR
	default:
		return "", false
	}
	return posixfs.SystemPathVia(s.sys, a, follow, err)
}

func (s *systemFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	a := abs(p)
	write := flag&(experimentalsys.O_WRONLY|experimentalsys.O_RDWR|experimentalsys.O_TRUNC) != 0
	follow := flag&experimentalsys.O_NOFOLLOW == 0 && flag&(experimentalsys.O_CREAT|experimentalsys.O_EXCL) != experimentalsys.O_CREAT|experimentalsys.O_EXCL
	if a == "/" && !write {
		return s.open(a, "/", flag)
	}
	if real, ok := posixfs.SystemPath(s.sys, a, follow); ok {
		return s.open(a, real, flag)
	}
	if flag&experimentalsys.O_CREAT != 0 {
		if err := posixfs.PrepareSystemBase(s.sys, a); err != nil {
			return nil, vfs.WASIErrno(err)
		}
	}
	f, e := s.FS.OpenFile(p, flag, perm)
	if real, ok := s.via(a, follow, e); ok {
		return s.open(a, real, flag)
	}
	return f, e
}

// open opens a, which leads to real, through the system folders.
func (s *systemFS) open(a, real string, flag experimentalsys.Oflag) (experimentalsys.File, experimentalsys.Errno) {
	osFlag, e := vfs.OSOpenFlags(flag)
	if e != 0 {
		return nil, e
	}
	if flag&experimentalsys.O_NOFOLLOW != 0 {
		if fi, err := posixfs.Lstat(s.sys, a); err == nil && posixfs.IsSymlink(fi) {
			return nil, experimentalsys.ELOOP
		}
	}
	f, err := s.sys.OpenFile(a, osFlag, 0o644)
	if err != nil {
		return nil, vfs.WASIErrno(err)
	}
	wf := vfs.WASIFile(f, real)
	if flag&experimentalsys.O_DIRECTORY != 0 {
		if dir, e := wf.IsDir(); e != 0 || !dir {
			_ = wf.Close()
			if e == 0 {
				e = experimentalsys.ENOTDIR
			}
			return nil, e
		}
	}
	return wf, 0
}

func (s *systemFS) Stat(p string) (wazerosys.Stat_t, experimentalsys.Errno) {
	return s.stat(p, true)
}

func (s *systemFS) Lstat(p string) (wazerosys.Stat_t, experimentalsys.Errno) {
	return s.stat(p, false)
}

func (s *systemFS) stat(p string, follow bool) (wazerosys.Stat_t, experimentalsys.Errno) {
	a := abs(p)
	real, ok := posixfs.SystemPath(s.sys, a, follow)
	if !ok {
		var st wazerosys.Stat_t
		var e experimentalsys.Errno
		if follow {
			st, e = s.FS.Stat(p)
		} else {
			st, e = s.FS.Lstat(p)
		}
		if real, ok = s.via(a, follow, e); !ok {
			return st, e
		}
	}
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = s.sys.Stat(a)
	} else {
		fi, err = posixfs.Lstat(s.sys, a)
	}
	if err != nil {
		return wazerosys.Stat_t{}, vfs.WASIErrno(err)
	}
	return vfs.WASIStat(real, fi), 0
}

func (s *systemFS) Readlink(p string) (string, experimentalsys.Errno) {
	a := abs(p)
	_, ok := posixfs.SystemPath(s.sys, a, false)
	if !ok {
		target, e := s.FS.Readlink(p)
		if _, ok = s.via(a, false, e); !ok {
			return target, e
		}
	}
	target, err := posixfs.Readlink(s.sys, a)
	return target, vfs.WASIErrno(err)
}

func (s *systemFS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	a := abs(p)
	if _, ok := posixfs.SystemPath(s.sys, a, false); ok {
		return vfs.WASIErrno(s.sys.Mkdir(a, 0o755))
	}
	if err := posixfs.PrepareSystemBase(s.sys, a); err != nil {
		return vfs.WASIErrno(err)
	}
	e := s.FS.Mkdir(p, perm)
	if _, ok := s.via(a, false, e); ok {
		return vfs.WASIErrno(s.sys.Mkdir(a, 0o755))
	}
	return e
}

func (s *systemFS) Rmdir(p string) experimentalsys.Errno {
	return s.remove(p, true)
}

func (s *systemFS) Unlink(p string) experimentalsys.Errno {
	return s.remove(p, false)
}

// remove is rmdir(2) (dir) or unlink(2) of p: in the system folders
// posixfs.WithSystem's Remove, EACCES for what is there, as Linux checks
// the folder's permission before the kind.
func (s *systemFS) remove(p string, dir bool) experimentalsys.Errno {
	a := abs(p)
	if _, ok := posixfs.SystemPath(s.sys, a, false); !ok {
		var e experimentalsys.Errno
		if dir {
			e = s.FS.Rmdir(p)
		} else {
			e = s.FS.Unlink(p)
		}
		if _, ok = s.via(a, false, e); !ok {
			return e
		}
	}
	return vfs.WASIErrno(s.sys.Remove(a))
}

func (s *systemFS) Rename(from, to string) experimentalsys.Errno {
	af, at := abs(from), abs(to)
	_, fromSys := posixfs.SystemPath(s.sys, af, false)
	_, toSys := posixfs.SystemPath(s.sys, at, false)
	if fromSys || toSys {
		return vfs.WASIErrno(s.sys.Rename(af, at))
	}
	if err := posixfs.PrepareSystemBase(s.sys, at); err != nil {
		return vfs.WASIErrno(err)
	}
	return s.FS.Rename(from, to)
}

func (s *systemFS) Symlink(oldPath, linkName string) experimentalsys.Errno {
	a := abs(linkName)
	if _, ok := posixfs.SystemPath(s.sys, a, false); ok {
		return vfs.WASIErrno(posixfs.Symlink(s.sys, oldPath, a))
	}
	if err := posixfs.PrepareSystemBase(s.sys, a); err != nil {
		return vfs.WASIErrno(err)
	}
	e := s.FS.Symlink(oldPath, linkName)
	if _, ok := s.via(a, false, e); ok {
		return vfs.WASIErrno(posixfs.Symlink(s.sys, oldPath, a))
	}
	return e
}

func (s *systemFS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	return s.change(p, func(base experimentalsys.FS) experimentalsys.Errno { return base.Chmod(p, perm) },
		func(a string) error { return s.sys.Chmod(a, perm) })
}

func (s *systemFS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	return s.change(p, func(base experimentalsys.FS) experimentalsys.Errno { return base.Utimens(p, atim, mtim) },
		func(a string) error { return s.sys.Chtimes(a, time.Unix(0, atim), time.Unix(0, mtim)) })
}

// change is a change of p's metadata (links followed): the base's, or
// the system folders' refusal.
func (s *systemFS) change(p string, base func(experimentalsys.FS) experimentalsys.Errno, sys func(a string) error) experimentalsys.Errno {
	a := abs(p)
	if _, ok := posixfs.SystemPath(s.sys, a, true); ok {
		return vfs.WASIErrno(sys(a))
	}
	e := base(s.FS)
	if _, ok := s.via(a, true, e); ok {
		return vfs.WASIErrno(sys(a))
	}
	return e
}

// imageCommands are the commands a busybox image runs itself, as it lists
// them (`busybox --list`), asked for once, at the first need.
type imageCommands struct {
	load func(ctx context.Context) ([]string, error)

	mu     sync.Mutex
	loaded bool
	warned bool
	names  []string
	set    map[string]bool
}

var _ posixfs.Commands = (*imageCommands)(nil)

// imageCommandsKey is the key of an image's *imageCommands for CPython
// version py (its python3.X, pythonVersionEnv), attached to the image
// (engine.Image.Attach): the list lives as long as the image, and every
// provider of the process that runs the image with that python shares it.
type imageCommandsKey struct{ py string }

// wasiFS is the WASI view of fsys that every instance of the sandbox st
// mounts: the system folders listing the provider's busybox image's
// commands, and st's change count kept.
func (p *Provider) wasiFS(st *state, fsys *vfs.FS) *trackFS {
	return &trackFS{FS: withSystem(fsys, &p.sysCmds), st: st}
}

// lazyCommands are the commands of the provider's busybox image, found at
// the first need: what /usr/bin lists in every program's view of its
// sandboxes.
type lazyCommands struct {
	p     *Provider
	once  sync.Once
	c     *imageCommands
	early sync.Once
}

// prefetch asks for the list in the background, once: CPython's start
// looks up /usr/bin/python3 (its $PATH search), and the list costs one
// busybox run (10-100 ms) the first time in a process.
func (l *lazyCommands) prefetch() {
	l.early.Do(func() { go l.get().ensure() })
}

func (l *lazyCommands) get() *imageCommands {
	l.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		bb, err := l.p.image(ctx, "busybox")
		if err != nil {
			l.c = &imageCommands{load: func(context.Context) ([]string, error) { return nil, err }}
			return
		}
		py := l.p.pythonVersion()
		l.c = bb.Attach(imageCommandsKey{py}, func() any {
			return &imageCommands{load: func(ctx context.Context) ([]string, error) {
				return listCommands(ctx, bb, py)
			}}
		}).(*imageCommands)
	})
	return l.c
}

func (l *lazyCommands) Has(name string) bool { return l.get().Has(name) }
func (l *lazyCommands) Names() []string      { return l.get().Names() }

// ensure loads the list unless it is loaded. A failure leaves the list
// empty this time (logged once); the next need asks again.
func (c *imageCommands) ensure() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.loaded {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	names, err := c.load(ctx)
	if err != nil {
		if !c.warned {
			c.warned = true
			slog.Warn("wasm: the busybox image's command list: /usr/bin stays empty until it can be had", "err", err)
		}
		return
	}
	c.names, c.set, c.loaded = names, make(map[string]bool, len(names)), true
	for _, n := range names {
		c.set[n] = true
	}
}

func (c *imageCommands) Has(name string) bool {
	c.ensure()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.set[name]
}

func (c *imageCommands) Names() []string {
	c.ensure()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.names
}

// listCommands runs `busybox --list` in bb, on no files, for CPython
// version py (pythonVersionEnv; "" the image's default).
func listCommands(ctx context.Context, bb *engine.Image, py string) ([]string, error) {
	var out, errb bytes.Buffer
	code, err := bb.Run(ctx, engine.RunSpec{Args: []string{"busybox", "--list"}, Env: withPythonVersion(map[string]string{}, py), Stdout: &out, Stderr: &errb, Timeout: time.Minute})
	if err == nil && code != 0 {
		err = fmt.Errorf("exit %d: %s", code, strings.TrimSpace(errb.String()))
	}
	if err != nil {
		return nil, fmt.Errorf("busybox --list: %w", err)
	}
	names := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(names) == 0 || names[0] == "" {
		return nil, fmt.Errorf("busybox --list: no commands")
	}
	return names, nil
}
