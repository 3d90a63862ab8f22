package wasm

import (
	"context"
	"errors"
	"maps"
	"sync"
	"sync/atomic"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/agentenkit/agentenkit/providers/wasm/internal/engine"
)

// The clone pool: a few spare clones (engine.NewSpareShell,
// engine.NewSparePython) started ahead of need, so that a new sandbox's
// first shell and its first python3 take an instance that is already
// instantiated (about 1-2 ms of wazero's module set-up each) instead of
// starting one while the caller waits. A spare is bound to the taking
// sandbox's files when it is taken, and serves that sandbox only until it
// is recycled (engine/spare.go says why it is then the instance a start
// on those files would have made).
//
// Options.PooledClones spares of each kind are kept: shells from the
// first Create or Connect on (when the busybox template is made), Pythons
// once the provider knows which program name and environment to start
// them with (Warm with Options.Prewarm: a new sandbox's; else the first
// python3 command's, kept after). Spares are made one at a time on one
// goroutine, so that a burst of sandboxes is not slowed by more than one
// start for later: Pythons after each take, shells at once when the pool
// has none left, else once no shell was taken or given back for
// fillQuiet.
//
// A spare shell whose sandbox ended (or dropped it) goes back to the pool
// when there is room, recycled (engine.Warm.Recycle: its memory laid
// again from the template, unbound) instead of closed: that costs about a
// fifth of a new spare's start, most of which is wazero's set-up of the
// instance's function table. So sandboxes made and ended one after
// another keep being served by the same few instances, and the filler,
// which waits for a quiet moment unless the pool is empty, starts none
// meanwhile (starting one after each take made the filler compete for the
// CPU with the very sandboxes it serves: create + first echo took 1.1 ms
// alone but about 2.8 ms back to back on 2 cores). A shell started
// because the pool had none is started as a spare too (startShell), so
// that it can be recycled as well. Every spare is capped at the memory of a
// sandbox made with the provider's defaults (Options.MemoryLimitMB); a
// sandbox with Resources.MemoryMB of its own starts its instances itself.
// There is no pool where clones are not made (memory cannot be mapped:
// not Linux), and Close ends it.

// fillQuiet is how long no spare shell must have been taken or given back
// before the filler starts one while the pool still has some: sandboxes
// made and ended one after another are served by recycled ones meanwhile.
const fillQuiet = 20 * time.Millisecond

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
	quiet   time.Duration // fillQuiet (a test's own)
	wait    time.Duration // backWait (a test's own)
	back    int           // shells being recycled, to be put back
	backCh  chan struct{} // closed (and replaced) when one of them ends its recycle
	backs   sync.WaitGroup
	lastUse atomic.Int64 // when a shell was last taken or given back (unix ns)

	ctx  context.Context
	stop context.CancelFunc
	wake chan struct{} // one token: something to make may be missing
	done chan struct{} // closed when the filler has ended

	shellsTaken, pythonsTaken atomic.Int64 // for tests
	recycled, shellsMade      atomic.Int64 // shells put back by recycle, and started by the filler, for tests
	recycleRefused            atomic.Int64 // recycles the engine refused (a spare grew), for tests
}

func newClonePool(size int, pages uint32) *clonePool {
	ctx, stop := context.WithCancel(context.Background())
	return &clonePool{size: size, pages: pages, quiet: fillQuiet, wait: backWait, backCh: make(chan struct{}), ctx: ctx, stop: stop, wake: make(chan struct{}, 1), done: make(chan struct{})}
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
		have := len(cp.shells) + cp.back
		needShell := !shellFailed && have < cp.size
		var shellWait time.Duration // until the shells' quiet time has passed
		if needShell && have > 0 {
			shellWait = cp.quiet - time.Since(time.Unix(0, cp.lastUse.Load()))
		}
		py, argv0, env, gen := cp.py, cp.pyArgv0, cp.pyEnv, cp.pyGen
		needPy := !pyFailed && py != nil && argv0 != "" && len(cp.pythons) < cp.size
		cp.mu.Unlock()
		switch {
		case needShell && shellWait <= 0:
			bb, err := image(cp.ctx, "busybox")
			var w *engine.Warm
			if err == nil {
				w, err = bb.NewSpareShell(cp.ctx, cp.pages)
			}
			if err != nil {
				shellFailed = true
				continue
			}
			cp.shellsMade.Add(1)
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
		case needShell:
			select {
			case <-time.After(shellWait):
			case <-cp.wake:
			case <-cp.ctx.Done():
				return
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

// recycle puts w, a shell its sandbox is done with, back in the pool as
// an unbound spare when it is one of the pool's (engine.Warm.IsSpare) and
// there is room, recycled in the background; else it closes w.
func (cp *clonePool) recycle(w *engine.Warm) {
	cp.mu.Lock()
	room := cp.size > 0 && !cp.closed && w.IsSpare() && len(cp.shells)+cp.back < cp.size
	if room {
		cp.back++
		cp.backs.Add(1)
		cp.lastUse.Store(time.Now().UnixNano())
	}
	cp.mu.Unlock()
	if !room {
		go w.Close()
		return
	}
	go func() {
		defer cp.backs.Done()
		err := w.Recycle(cp.ctx)
		cp.mu.Lock()
		cp.back--
		keep := err == nil && !cp.closed && len(cp.shells) < cp.size
		if keep {
			cp.shells = append(cp.shells, w)
			cp.recycled.Add(1)
		} else if err != nil {
			cp.recycleRefused.Add(1)
		}
		close(cp.backCh)
		cp.backCh = make(chan struct{})
		cp.mu.Unlock()
		if !keep {
			w.Close()
			cp.signal()
		}
	}()
}

// takeShell returns a spare shell bound to fsys, for an instance capped
// at pages, or nil when there is none that can serve it. With wait, when
// the pool has none but some are being recycled, it waits for one (at
// most backWait): a recycle is a fraction of the start the caller would
// make instead. (Create's prewarm does not wait: its background start of
// a shell for the sandbox, which the first command waits for, does.)
func (cp *clonePool) takeShell(fsys experimentalsys.FS, pages uint32, wait bool) *engine.Warm {
	w := cp.take(&cp.shells, pages, func(*engine.Warm) bool { return true })
	if w == nil && wait && cp.waitBack() {
		w = cp.take(&cp.shells, pages, func(*engine.Warm) bool { return true })
	}
	if w == nil {
		return nil
	}
	cp.lastUse.Store(time.Now().UnixNano())
	return cp.bind(w, fsys, nil, &cp.shells, &cp.shellsTaken)
}

// backWait bounds how long a take waits for a shell being recycled.
const backWait = 10 * time.Millisecond

// waitBack waits, when the pool has no shell but some are being recycled,
// until one of them is back or given up, at most backWait; it reports
// whether it waited.
func (cp *clonePool) waitBack() bool {
	cp.mu.Lock()
	if len(cp.shells) > 0 || cp.back == 0 || cp.closed {
		cp.mu.Unlock()
		return false
	}
	ch, wait := cp.backCh, cp.wait
	cp.mu.Unlock()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
	return true
}

// startShell starts a spare shell of bb now and binds it to fsys, for an
// instance capped at pages when the pool had none to take: the same clone
// NewWarm would start, which the pool can then recycle when its sandbox is
// done with it. Nil where the pool's spares are not for such an instance
// (no pool, another cap) or a spare cannot serve fsys: the caller starts
// one itself.
func (cp *clonePool) startShell(ctx context.Context, bb *engine.Image, fsys experimentalsys.FS, pages uint32) *engine.Warm {
	if cp.size <= 0 || pages != cp.pages {
		return nil
	}
	w, err := bb.NewSpareShell(ctx, pages)
	if err != nil {
		return nil
	}
	if err := w.Bind(fsys, nil); err != nil {
		w.Close()
		return nil
	}
	return w
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
	cp.backs.Wait()
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
