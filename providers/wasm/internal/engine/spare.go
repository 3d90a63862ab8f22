package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"sync/atomic"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// A spare is a clone started before the files it will serve are known, so
// that a new sandbox's first shell or first python3 takes an instance
// already through wazero's instantiation (about 1-2 ms of table and module
// set-up per clone) instead of waiting for one. NewSpareShell starts a
// shell clone (shellclone.go), NewSparePython a prestarted Python clone
// (clone.go), each on a spareFS mounted at "/" in place of the files; Bind
// gives it its files and memory budget once, and from then on it is the
// Warm instance NewWarm or Prestart would have started on them. A spare
// shell its files' sandbox is done with can be made an unbound spare
// again by Recycle, without a new instantiation.
//
// Why a spare is the same instance as one started on its files:
//
//   - Nothing of "/" is read before Bind. wazero opens a preopen lazily, at
//     the guest's first use of it, and a spare's guest has run nothing that
//     uses it: a shell clone waits for its first request in
//     WarmProtocol's next(), a Python clone for its request on stdin
//     (prestart.py's serve, which reseeds random first and touches no
//     file). Until Bind every call on the spareFS fails with ENOENT (which
//     wazero's preopen does not keep), and Run refuses an unbound spare.
//   - Bind binds once: a spare serves one set of files until Recycle,
//     which unbinds it only once its guest is back in the template's state
//     (memory, globals, random state, WASI's open files, the preopen's
//     own folder: see Recycle), and nothing of the files bound before can
//     be reached from it.
//   - The template's start looked up paths in its "/"; Bind refuses files
//     where one of them does not look as it did there (a shell template's:
//     missing; a Python template's: missing or of the same type, see
//     pyTemplate.serves), where NewWarm and Prestart start otherwise too
//     (the caller then starts an instance itself).
//   - Each spare's random state is its own, made at its start: a shell
//     clone's runtime generator is reseeded from crypto/rand as it is
//     instantiated, a Python clone's random module in serve(); a spare
//     shares no state with another spare or with the template beyond what
//     every clone shares (the Python str hash seed, addresses).
//   - Its memory cap is fixed at its start (the pages it was made for);
//     Bind moves its memory to the budget it is given, all or nothing.
//
// A spare that waits costs its memory (the template's pages are shared
// until written) and one parked goroutine; Close ends it.

// ErrNotRecyclable: Recycle cannot make the instance a spare again (see
// Recycle); the caller closes it.
var ErrNotRecyclable = errors.New("engine: spare: the instance cannot be recycled")

// ErrNoSpare: a spare cannot be made here (clones are off, memory cannot
// be mapped, the image has no template of that kind).
var ErrNoSpare = errors.New("engine: no spare clones for this image")

// Errors of Bind.
var (
	ErrSpareBound   = errors.New("engine: spare: already bound to files")
	ErrSpareServes  = errors.New("engine: spare: a path the template's start looked up is not the same in the files")
	ErrSpareBudget  = errors.New("engine: spare: its memory is over the budget")
	ErrSpareUnbound = errors.New("engine: warm run: a spare not bound to files yet")
)

// spareFS is a spare's "/": no files until bound, then the bound files.
//
// For Recycle it keeps apart the first file opened through it, which is
// the preopen's own: wazero opens "/" (fd 3) lazily at the first use of
// the descriptor, and every path the guest names is resolved under fd 3
// after a check that it is a folder, so nothing else can be opened
// before it. That file (root) follows the bound files: Recycle closes
// what it had open, and its next use opens "." of the files bound then,
// as the preopen of a new clone would. Every other file is counted until
// closed (open).
type spareFS struct {
	target atomic.Pointer[fsRef]
	root   *rootFile // guest's goroutine, or with the guest parked (Recycle)
	open   atomic.Int64
}

type fsRef struct{ fs experimentalsys.FS }

func (s *spareFS) get() experimentalsys.FS {
	if r := s.target.Load(); r != nil {
		return r.fs
	}
	return noFS{}
}

func (s *spareFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	f, errno := s.get().OpenFile(p, flag, perm)
	if errno != 0 {
		return nil, errno
	}
	if s.root == nil {
		s.root = &rootFile{File: f, flag: flag}
		return s.root, 0
	}
	s.open.Add(1)
	return &spareFile{File: f, fs: s}, 0
}

// spareFile is a file opened through a spareFS, counted there until closed.
type spareFile struct {
	experimentalsys.File
	fs     *spareFS
	closed atomic.Bool
}

func (f *spareFile) Close() experimentalsys.Errno {
	if f.closed.CompareAndSwap(false, true) {
		f.fs.open.Add(-1)
	}
	return f.File.Close()
}
func (s *spareFS) Lstat(p string) (sys.Stat_t, experimentalsys.Errno) { return s.get().Lstat(p) }
func (s *spareFS) Stat(p string) (sys.Stat_t, experimentalsys.Errno)  { return s.get().Stat(p) }
func (s *spareFS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	return s.get().Mkdir(p, perm)
}
func (s *spareFS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	return s.get().Chmod(p, perm)
}
func (s *spareFS) Rename(from, to string) experimentalsys.Errno { return s.get().Rename(from, to) }
func (s *spareFS) Rmdir(p string) experimentalsys.Errno         { return s.get().Rmdir(p) }
func (s *spareFS) Unlink(p string) experimentalsys.Errno        { return s.get().Unlink(p) }
func (s *spareFS) Link(oldPath, newPath string) experimentalsys.Errno {
	return s.get().Link(oldPath, newPath)
}
func (s *spareFS) Symlink(oldPath, linkName string) experimentalsys.Errno {
	return s.get().Symlink(oldPath, linkName)
}
func (s *spareFS) Readlink(p string) (string, experimentalsys.Errno) { return s.get().Readlink(p) }
func (s *spareFS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	return s.get().Utimens(p, atim, mtim)
}

// rootFile is the preopen's own "/" (see spareFS): the root folder of the
// files bound now. Recycle closes it; Bind opens "." of the new files.
type rootFile struct {
	experimentalsys.File // nil between Recycle and Bind
	flag                 experimentalsys.Oflag
	closed               bool // the guest closed it: no Recycle
}

func (r *rootFile) Close() experimentalsys.Errno {
	r.closed = true
	if r.File == nil {
		return 0
	}
	return r.File.Close()
}

// noFS is an unbound spare's "/": nothing there.
type noFS struct{}

func (noFS) OpenFile(string, experimentalsys.Oflag, fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	return nil, experimentalsys.ENOENT
}
func (noFS) Lstat(string) (sys.Stat_t, experimentalsys.Errno) {
	return sys.Stat_t{}, experimentalsys.ENOENT
}
func (noFS) Stat(string) (sys.Stat_t, experimentalsys.Errno) {
	return sys.Stat_t{}, experimentalsys.ENOENT
}
func (noFS) Mkdir(string, fs.FileMode) experimentalsys.Errno    { return experimentalsys.ENOENT }
func (noFS) Chmod(string, fs.FileMode) experimentalsys.Errno    { return experimentalsys.ENOENT }
func (noFS) Rename(string, string) experimentalsys.Errno        { return experimentalsys.ENOENT }
func (noFS) Rmdir(string) experimentalsys.Errno                 { return experimentalsys.ENOENT }
func (noFS) Unlink(string) experimentalsys.Errno                { return experimentalsys.ENOENT }
func (noFS) Link(string, string) experimentalsys.Errno          { return experimentalsys.ENOENT }
func (noFS) Symlink(string, string) experimentalsys.Errno       { return experimentalsys.ENOENT }
func (noFS) Readlink(string) (string, experimentalsys.Errno)    { return "", experimentalsys.ENOENT }
func (noFS) Utimens(string, int64, int64) experimentalsys.Errno { return experimentalsys.ENOENT }

// spare is what a Warm instance started as a spare keeps until Bind.
type spare struct {
	fs     *spareFS
	serves func(experimentalsys.FS) bool // its template serves these files
}

// NewSpareShell starts a spare warm shell of img (a reactor image whose
// warm instances are clones: ClonesShells), its memory capped at pages
// (zero: the Engine's cap), and waits until it is ready for a request.
// It makes img's template first when there is none yet. ErrNoSpare where
// shells are not cloned here.
func (img *Image) NewSpareShell(ctx context.Context, pages uint32) (*Warm, error) {
	if !img.ClonesShells() {
		return nil, ErrNoSpare
	}
	t, err := img.shellTemplate(ctx)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoSpare, err)
	}
	sp := &spare{fs: &spareFS{}, serves: func(fsys experimentalsys.FS) bool { return missingAll(fsys, t.looked) }}
	w := img.newWarm(ctx, WarmSpec{MemoryLimitPages: pages}, nil)
	w.spare = sp
	cfg := w.config([]string{img.name}, warmStartEnv(), img.mounts(sp.fs, nil, nil))
	return w.startShellClone(ctx, cfg, t)
}

// NewSparePython starts a spare prestarted Python of img, as Prestart
// would as argv0 (python3 when empty) with env, from a clone of the
// template for them (made first when there is none yet), its memory
// capped at pages (zero: the Engine's cap), and waits until it is ready
// for its request. ErrNoSpare where Python is not cloned here.
func (img *Image) NewSparePython(ctx context.Context, pages uint32, argv0 string, env map[string]string) (*Warm, error) {
	if !img.python {
		return nil, ErrNotPython
	}
	if !canMapData || img.e.opts.NoClones {
		return nil, ErrNoSpare
	}
	ps := img.prestartFor(argv0, env)
	t, err := img.template(ctx, ps)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNoSpare, err)
	}
	sp := &spare{fs: &spareFS{}, serves: t.serves}
	w := img.newWarm(ctx, WarmSpec{MemoryLimitPages: pages}, nil)
	w.spare = sp
	w.python = ps
	start := maps.Clone(ps.env)
	start["PWD"] = "/"
	cfg := w.config([]string{ps.argv0, "-c", prestartProgram, "agentenkit-template"}, start, img.mounts(sp.fs, img.site, img.stdlib))
	return w.startClone(ctx, cfg, t)
}

// IsSpare reports whether w was started as a spare (NewSpareShell,
// NewSparePython), bound or not.
func (w *Warm) IsSpare() bool { return w.spare != nil }

// Bind gives w, a spare, its files (mounted at "/" from now on, as
// WarmSpec.FS) and moves its memory to budget (nil: none), once. It
// fails, changing nothing, with ErrSpareBound when w is bound already or
// is not a spare, ErrSpareServes when fsys has a path the template's start
// looked up (an instance started on fsys would not be a clone), and
// ErrSpareBudget when budget cannot hold w's memory. A spare that failed
// to bind for the latter two can still be bound to other files.
func (w *Warm) Bind(fsys experimentalsys.FS, budget *MemoryBudget) error {
	if w.spare == nil || fsys == nil {
		if fsys == nil {
			return errors.New("engine: spare: bind to no files")
		}
		return ErrSpareBound
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.fs != nil:
		return ErrSpareBound
	case w.broken || w.busy:
		return errors.New("engine: spare: the instance ended")
	case !w.spare.serves(fsys):
		return ErrSpareServes
	case !w.alloc.rebudget(budget):
		return ErrSpareBudget
	}
	if r := w.spare.fs.root; r != nil { // a recycled spare's
		f, errno := fsys.OpenFile(".", r.flag, 0)
		if errno != 0 {
			w.alloc.rebudget(nil)
			return fmt.Errorf("engine: spare: open the files' root: %w", errno)
		}
		r.File = f
	}
	w.fs = fsys
	w.spare.fs.target.Store(&fsRef{fs: fsys})
	return nil
}

// errRecycle unwinds a shell clone's guest for Recycle (warmNext panics
// with it; startShellClone's loop catches it).
var errRecycle = errors.New("engine: spare: recycled")

// Recycle makes w, a spare shell (NewSpareShell) whose files' sandbox is
// done with it, an unbound spare again, the same instance a new
// NewSpareShell would start, without wazero's instantiation (about 1.5 ms
// of CPU, most of it the function table's set-up): the guest's stack is
// unwound from its wait for a request, its memory laid again from the
// template (the pages it wrote are dropped), its globals set and its
// runtime's random state given a new seed as a new clone's are, and it
// waits for a request in WarmProtocol's next() again; "/" has no files
// until the next Bind, and the memory no budget.
//
// What lives outside the guest's memory and globals must be as a new
// clone's, so Recycle refuses (ErrNotRecyclable; nothing changed, the
// caller closes w) an instance that is not a spare shell, is running a
// command or ended (Reusable false: a command that left goroutines, closed
// its stdio, or hit its memory cap ends its reuse), was never bound (it
// is a spare as it is), has a file open through its "/" (WASI's table
// of open files would then differ: a new clone's next file gets the
// lowest free descriptor), or whose memory grew past the template's.
// Other WASI state (stdio, the preopen, clocks, argv, environment) a
// command cannot change. An error after the checks means w ended.
func (w *Warm) Recycle(ctx context.Context) error {
	if w.spare == nil || w.shell == nil {
		return ErrNotRecyclable
	}
	w.mu.Lock()
	m := w.alloc.mem
	why := ""
	switch {
	case w.busy:
		why = "a command runs"
	case w.broken:
		why = "the instance is broken"
	case w.fs == nil:
		why = "not bound to files"
	case w.spare.fs.open.Load() != 0:
		why = "a file is open"
	case w.spare.fs.root != nil && w.spare.fs.root.closed:
		why = "the root folder was closed"
	case m == nil || len(m.buf) != len(w.shell.image.bytes) || w.alloc.peak.Load() > uint64(len(w.shell.image.bytes)) || w.alloc.hit.Load():
		why = "the memory grew past the template's"
	}
	if why != "" {
		w.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrNotRecyclable, why)
	}
	w.busy = true
	if r := w.spare.fs.root; r != nil && r.File != nil {
		_ = r.File.Close()
		r.File = nil
	}
	w.spare.fs.target.Store(nil)
	w.fs = nil
	w.alloc.rebudget(nil)
	w.mu.Unlock()
	back := make(chan struct{})
	select {
	case w.reqs <- &warmCmd{recycle: back}:
	case <-w.exited:
		return fmt.Errorf("engine: spare: recycle: the instance ended: %w", w.exitErr)
	case <-ctx.Done():
		w.Close()
		return ctx.Err()
	}
	select {
	case <-back:
	case <-w.exited:
		return fmt.Errorf("engine: spare: recycle: the instance ended: %w", w.exitErr)
	case <-ctx.Done():
		w.Close()
		return ctx.Err()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.alloc.over.Store(false)
	w.alloc.refused.Store(nil)
	w.busy = false
	w.img.shellClones.Add(1)
	return nil
}
