package wasm

import (
	"context"
	"errors"
	"maps"
	"sync"
	"sync/atomic"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/agentenkit/agentenkit/providers/wasm/internal/engine"
)

// The clone pool: a few spare clones (engine.NewSpareShell,
// engine.NewSparePython) started ahead of need, so that a new sandbox's
// first shell and its first python3 take an instance that is already
// instantiated (about 1-2 ms of wazero's module set-up each) instead of
// starting one while the caller waits. A spare is bound to the taking
// sandbox's files when it is taken and never served another sandbox
// (engine/spare.go says why it is then the instance a start on those
// files would have made).
//
// Options.PooledClones spares of each kind are kept: shells from the
// first Create or Connect on (when the busybox template is made), Pythons
// once the provider knows which program name and environment to start
// them with (Warm with Options.Prewarm: a new sandbox's; else the first
// python3 command's, kept after). Spares are made one at a time on one
// goroutine, after a take, so that a burst of sandboxes is not slowed by
// more than one start for later. Every spare is capped at the memory of a
// sandbox made with the provider's defaults (Options.MemoryLimitMB); a
// sandbox with Resources.MemoryMB of its own starts its instances itself.
// There is no pool where clones are not made (memory cannot be mapped:
// not Linux), and Close ends it.

// clonePool is a provider's spares.
type clonePool struct {
	size  int    // spares of each kind kept; 0: no pool
	pages uint32 // every spare's memory cap

	mu      sync.Mutex
	shells  []*engine.Warm
	pythons []*engine.Warm
	py      *engine.Image     // the image of the Python spares
	pyArgv0 string            // their program name, "" until known
	pyEnv   map[string]string // their environment
	pyGen   int               // changes with py, pyArgv0 and pyEnv
	started bool
	closed  bool

	ctx  context.Context
	stop context.CancelFunc
	wake chan struct{} // one token: something to make may be missing
	done chan struct{} // closed when the filler has ended

	shellsTaken, pythonsTaken atomic.Int64 // for tests
}

func newClonePool(size int, pages uint32) *clonePool {
	ctx, stop := context.WithCancel(context.Background())
	return &clonePool{size: size, pages: pages, ctx: ctx, stop: stop, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// signal wakes the filler.
func (cp *clonePool) signal() {
	select {
	case cp.wake <- struct{}{}:
	default:
	}
}

// start starts the filler once, with img giving the busybox image.
func (cp *clonePool) start(image func(ctx context.Context, name string) (*engine.Image, error)) {
	if cp.size <= 0 {
		return
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	if cp.started || cp.closed {
		return
	}
	cp.started = true
	go cp.fill(image)
}

// fill makes spares while some are missing, one at a time, until Close.
// A kind whose start failed is tried again after the next take or change.
func (cp *clonePool) fill(image func(ctx context.Context, name string) (*engine.Image, error)) {
	defer close(cp.done)
	shellFailed, pyFailed := false, false
	for {
		cp.mu.Lock()
		needShell := !shellFailed && len(cp.shells) < cp.size
		py, argv0, env, gen := cp.py, cp.pyArgv0, cp.pyEnv, cp.pyGen
		needPy := !pyFailed && py != nil && argv0 != "" && len(cp.pythons) < cp.size
		cp.mu.Unlock()
		switch {
		case needShell:
			bb, err := image(cp.ctx, "busybox")
			var w *engine.Warm
			if err == nil {
				w, err = bb.NewSpareShell(cp.ctx, cp.pages)
			}
			if err != nil {
				shellFailed = true
				continue
			}
			cp.mu.Lock()
			keep := !cp.closed && len(cp.shells) < cp.size
			if keep {
				cp.shells = append(cp.shells, w)
			}
			cp.mu.Unlock()
			if !keep {
				w.Close()
			}
		case needPy:
			w, err := py.NewSparePython(cp.ctx, cp.pages, argv0, env)
			if err != nil {
				pyFailed = true
				continue
			}
			cp.mu.Lock()
			keep := !cp.closed && cp.pyGen == gen && len(cp.pythons) < cp.size
			if keep {
				cp.pythons = append(cp.pythons, w)
			}
			cp.mu.Unlock()
			if !keep {
				w.Close()
			}
		default:
			select {
			case <-cp.wake:
				shellFailed, pyFailed = false, false
			case <-cp.ctx.Done():
				return
			}
		}
	}
}

// wantPython makes the Python spares img's, started as argv0 with env
// (the startup part of env is what matters: engine.Image.PrestartServes),
// unless they are already: the spares of another start are closed.
func (cp *clonePool) wantPython(img *engine.Image, argv0 string, env map[string]string) {
	if cp.size <= 0 || !img.PrestartServes(argv0, env, []string{argv0, "-c", ""}, env) {
		return // none to make, or they would serve nothing (PYTHONHASHSEED=random)
	}
	cp.mu.Lock()
	if cp.closed || (cp.py == img && cp.pyArgv0 != "" && img.PrestartServes(cp.pyArgv0, cp.pyEnv, []string{argv0, "-c", ""}, env)) {
		cp.mu.Unlock()
		return
	}
	old := cp.pythons
	cp.pythons = nil
	cp.py, cp.pyArgv0, cp.pyEnv = img, argv0, maps.Clone(env)
	cp.pyGen++
	cp.mu.Unlock()
	closeWarms(old)
	cp.signal()
}

// takeShell returns a spare shell bound to fsys, for an instance capped
// at pages, or nil when there is none that can serve it.
func (cp *clonePool) takeShell(fsys experimentalsys.FS, pages uint32) *engine.Warm {
	w := cp.take(&cp.shells, pages, func(*engine.Warm) bool { return true })
	if w == nil {
		return nil
	}
	return cp.bind(w, fsys, nil, &cp.shells, &cp.shellsTaken)
}

// takePython returns a spare Python of img bound to fsys and budget that
// serves args with env, for an instance capped at pages, or nil.
func (cp *clonePool) takePython(img *engine.Image, fsys experimentalsys.FS, budget *engine.MemoryBudget, pages uint32, args []string, env map[string]string) *engine.Warm {
	w := cp.take(&cp.pythons, pages, func(w *engine.Warm) bool { return cp.py == img && w.Serves(args, env) })
	if w == nil {
		return nil
	}
	return cp.bind(w, fsys, budget, &cp.pythons, &cp.pythonsTaken)
}

// take removes and returns the last spare of *list when the pool's spares
// are capped at pages and serves (called under cp.mu) says it serves, or
// nil.
func (cp *clonePool) take(list *[]*engine.Warm, pages uint32, serves func(*engine.Warm) bool) *engine.Warm {
	if cp.size <= 0 || pages != cp.pages {
		return nil
	}
	cp.mu.Lock()
	defer cp.mu.Unlock()
	n := len(*list)
	if n == 0 || cp.closed || !serves((*list)[n-1]) {
		return nil
	}
	w := (*list)[n-1]
	*list = (*list)[:n-1]
	return w
}

// bind binds w, just taken from *list, to fsys and budget, and wakes the
// filler. A spare those files or that budget cannot take goes back to
// *list (another sandbox may take it); one that ended is closed.
func (cp *clonePool) bind(w *engine.Warm, fsys experimentalsys.FS, budget *engine.MemoryBudget, list *[]*engine.Warm, taken *atomic.Int64) *engine.Warm {
	err := w.Bind(fsys, budget)
	if err == nil {
		taken.Add(1)
		cp.signal()
		return w
	}
	if errors.Is(err, engine.ErrSpareServes) || errors.Is(err, engine.ErrSpareBudget) {
		cp.mu.Lock()
		back := !cp.closed && len(*list) < cp.size
		if back {
			*list = append(*list, w)
		}
		cp.mu.Unlock()
		if back {
			return nil
		}
	}
	w.Close()
	cp.signal()
	return nil
}

// close ends the filler and every spare, and waits for them; later takes
// get none.
func (cp *clonePool) close() {
	cp.mu.Lock()
	if cp.closed {
		cp.mu.Unlock()
		return
	}
	cp.closed = true
	started := cp.started
	spares := append(cp.shells, cp.pythons...)
	cp.shells, cp.pythons = nil, nil
	cp.mu.Unlock()
	cp.stop()
	if started {
		<-cp.done
	}
	var wg sync.WaitGroup
	for _, w := range spares {
		wg.Go(w.Close)
	}
	wg.Wait()
}

// spares is how many spare shells and Pythons the pool holds now.
func (cp *clonePool) spares() (shells, pythons int) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	return len(cp.shells), len(cp.pythons)
}

func closeWarms(ws []*engine.Warm) {
	for _, w := range ws {
		go w.Close()
	}
}
