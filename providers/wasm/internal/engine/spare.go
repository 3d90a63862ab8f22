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
// Warm instance NewWarm or Prestart would have started on them.
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
//   - Bind binds once: a spare never served other files, and nothing of
//     another sandbox can be reached from it.
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
type spareFS struct {
	target atomic.Pointer[fsRef]
}

type fsRef struct{ fs experimentalsys.FS }

func (s *spareFS) get() experimentalsys.FS {
	if r := s.target.Load(); r != nil {
		return r.fs
	}
	return noFS{}
}

func (s *spareFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	return s.get().OpenFile(p, flag, perm)
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
	w.fs = fsys
	w.spare.fs.target.Store(&fsRef{fs: fsys})
	return nil
}
