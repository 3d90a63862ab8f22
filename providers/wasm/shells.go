package wasm

import (
	"context"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/providers/wasm/internal/engine"
	"github.com/agentenkit/agentenkit/vfs"
)

// Warm shells: a busybox instance is started once and runs many commands
// (engine.Warm), because starting one costs about 25 ms and a command in a
// warm one well under a millisecond. Each sandbox keeps up to
// maxIdlePerSandbox idle shells on its current files, and the provider
// Options.WarmShells of them in all; a shell is kept only when its command
// left nothing running in it (no background job) and did not end it (time,
// memory, crash). A sandbox made by Create gets one started at once, in the
// background, and a sandbox whose last shell was dropped gets a new one
// after the command.

// maxIdlePerSandbox bounds a sandbox's idle shells: the top-level shell and
// the busybox stages of a pipeline.
const maxIdlePerSandbox = 6

// shell is one warm busybox instance on a sandbox's files.
type shell struct {
	w    *engine.Warm
	fsys *vfs.FS // the files it was started on
}

// shellPool is a sandbox's idle shells (guarded by state.mu).
type shellPool struct {
	idle    []*shell
	warming chan struct{} // closed when the background start ends
	python  *pyWarm       // a prestarted Python, started or starting
	pythons int           // python3 commands run in the sandbox
}

// takeShell returns an idle shell on the sandbox's current files, waiting
// for one being started in the background, or starts one.
func (p *Provider) takeShell(ctx context.Context, st *state, memPages uint32) (*shell, error) {
	for {
		st.mu.Lock()
		fsys := st.fsys
		var stale []*shell
		for len(st.shells.idle) > 0 {
			sh := st.shells.idle[len(st.shells.idle)-1]
			st.shells.idle = st.shells.idle[:len(st.shells.idle)-1]
			p.idleShells.Add(-1)
			if sh.fsys == fsys && sh.w.Reusable() {
				st.mu.Unlock()
				p.retireShells(stale)
				return sh, nil
			}
			stale = append(stale, sh)
		}
		warming := st.shells.warming
		st.mu.Unlock()
		p.retireShells(stale)
		if warming == nil {
			break
		}
		select {
		case <-warming:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		st.mu.Lock()
		if st.shells.warming == warming {
			st.shells.warming = nil
		}
		st.mu.Unlock()
	}
	return p.startShell(ctx, st, memPages)
}

// startShell starts a shell on st's current files.
func (p *Provider) startShell(ctx context.Context, st *state, memPages uint32) (*shell, error) {
	bb, err := p.image(ctx, "busybox")
	if err != nil {
		return nil, err
	}
	p.shellsStarted.Add(1)
	fsys := st.files()
	wfs := p.wasiFS(st, fsys)
	if w := p.pool.takeShell(wfs, memPages, true); w != nil {
		return &shell{w: w, fsys: fsys}, nil
	}
	if w := p.pool.startShell(ctx, bb, wfs, memPages); w != nil {
		return &shell{w: w, fsys: fsys}, nil
	}
	w, err := bb.NewWarm(ctx, engine.WarmSpec{FS: wfs, MemoryLimitPages: memPages})
	if err != nil {
		return nil, err
	}
	return &shell{w: w, fsys: fsys}, nil
}

// putShell keeps sh idle when it can run another command, else retires
// it.
func (p *Provider) putShell(st *state, sh *shell) {
	if !sh.w.Reusable() {
		sh.w.Close()
		return
	}
	st.mu.Lock()
	keep := !st.gone && sh.fsys == st.fsys && len(st.shells.idle) < maxIdlePerSandbox &&
		p.idleShells.Load() < int64(p.opts.WarmShells)
	if keep {
		st.shells.idle = append(st.shells.idle, sh)
		p.idleShells.Add(1)
	}
	st.mu.Unlock()
	if !keep {
		p.retireShells([]*shell{sh})
	}
}

// prewarm gives st a shell when it has none idle and none starting, and
// the provider has room for one more: a spare from the pool at once, else
// one started in the background. The shells being started count against
// Options.WarmShells with the idle ones. (Not counted, a burst of 100
// sandboxes made at once started 100, of which putShell kept 32 and closed
// the rest as they became ready, and 45 of those sandboxes' first commands
// then started a shell of their own.)
func (p *Provider) prewarm(st *state, memPages uint32) {
	st.mu.Lock()
	if st.gone || st.fsys == nil || len(st.shells.idle) > 0 || st.shells.warming != nil {
		st.mu.Unlock()
		return
	}
	if p.warmingShells.Add(1)+p.idleShells.Load() > int64(p.opts.WarmShells) {
		p.warmingShells.Add(-1)
		st.mu.Unlock()
		return
	}
	fsys := st.fsys
	st.mu.Unlock()
	if w := p.pool.takeShell(p.wasiFS(st, fsys), memPages, false); w != nil {
		p.shellsStarted.Add(1)
		p.warmingShells.Add(-1)
		p.putShell(st, &shell{w: w, fsys: fsys})
		return
	}
	st.mu.Lock()
	if st.gone || st.fsys != fsys || len(st.shells.idle) > 0 || st.shells.warming != nil {
		p.warmingShells.Add(-1)
		st.mu.Unlock()
		return
	}
	done := make(chan struct{})
	st.shells.warming = done
	st.mu.Unlock()
	go func() {
		defer close(done)
		sh, err := p.startShell(context.Background(), st, memPages)
		p.warmingShells.Add(-1)
		st.mu.Lock()
		if st.shells.warming == done {
			st.shells.warming = nil
		}
		st.mu.Unlock()
		if err == nil {
			p.putShell(st, sh)
		}
	}()
}

// dropShellsLocked takes st's idle shells away, for retireShells once
// st.mu is released (the sandbox ended).
func (p *Provider) dropShellsLocked(st *state) []*shell {
	idle := st.shells.idle
	st.shells.idle = nil
	p.idleShells.Add(-int64(len(idle)))
	if pw := st.shells.python; pw != nil {
		st.shells.python = nil
		p.idlePythons.Add(-1)
		go pw.close()
	}
	return idle
}

// retireShells ends shells a sandbox is done with: the pool's spares go
// back to it (clonePool.recycle), the others are closed.
func (p *Provider) retireShells(shells []*shell) {
	for _, sh := range shells {
		p.pool.recycle(sh.w)
	}
}

// Prestarted Pythons: after a python3 command a sandbox gets, in the
// background, a CPython already through its start (engine.Prestart: about
// 100 ms of every `python3 -c ...`), started with that command's program
// name and environment; the next python3 command it serves exactly as a new
// CPython would runs in it, once. One per sandbox, Options.WarmPythons in
// all, and one starting at a time in the provider, so that a burst of
// sandboxes running python is not slowed by starts for later.
//
// Not after a sandbox's first python3 command when the image has a
// template that serves the next one (engine.Image.TemplateReady): that
// command then starts from a clone in about 2 ms, all a prestarted Python
// would save it, while many sandboxes run python once (100 sandboxes made
// at once, each running one python3, prestarted 15 Pythons none of them
// used, each an instance to make, ~6k table entries and its pages). From
// the second on, the sandbox is one that runs python again.

// pyWarm is a prestarted Python being started or idle.
type pyWarm struct {
	argv0   string
	env     map[string]string
	started time.Time
	done    chan struct{} // closed when started (or failed)
	sh      *shell        // nil until started, or when it failed
}

// pyTimes are a provider's running estimates of how long a prestart and a
// new CPython's command take, so that a command waits for a Python still
// starting only when that is sooner than starting its own.
type pyTimes struct {
	mu            sync.Mutex
	prestart, run time.Duration
}

func (pt *pyTimes) note(d *time.Duration, took time.Duration) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if *d == 0 {
		*d = took
	} else {
		*d = (*d*3 + took) / 4
	}
}

// worthWaiting reports whether a prestart begun at started likely ends
// before a new CPython would have run the command.
func (pt *pyTimes) worthWaiting(started time.Time) bool {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	return pt.prestart-time.Since(started) < pt.run
}

// takePython returns the sandbox's prestarted Python when it serves args
// with env, waiting for one being started, or nil.
func (p *Provider) takePython(ctx context.Context, st *state, img *engine.Image, args []string, env map[string]string) *shell {
	st.mu.Lock()
	pw := st.shells.python
	if pw == nil || !img.PrestartServes(pw.argv0, pw.env, args, env) {
		st.mu.Unlock()
		return nil
	}
	st.mu.Unlock()
	select {
	case <-pw.done:
	default:
		if !p.pyTimes.worthWaiting(pw.started) {
			return nil
		}
		select {
		case <-pw.done:
		case <-ctx.Done():
			return nil
		}
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.shells.python != pw || pw.sh == nil || pw.sh.fsys != st.fsys || !pw.sh.w.Serves(args, env) {
		return nil
	}
	st.shells.python = nil
	p.idlePythons.Add(-1)
	p.pythonsUsed.Add(1)
	return pw.sh
}

// prestartPython starts a prestarted Python for st in the background as
// argv0 with env, unless it has one that serves the same, the provider has
// no room, or another is being started.
func (p *Provider) prestartPython(st *state, img *engine.Image, memPages uint32, argv0 string, env map[string]string) {
	if !img.PrestartServes(argv0, env, []string{argv0, "-c", ""}, env) {
		return // it would serve nothing (PYTHONHASHSEED=random)
	}
	st.mu.Lock()
	st.shells.pythons++
	first, cur := st.shells.pythons == 1, st.fsys
	st.mu.Unlock()
	if first && cur != nil && img.TemplateReady(argv0, env, p.wasiFS(st, cur)) {
		return
	}
	st.mu.Lock()
	if old := st.shells.python; old != nil && img.PrestartServes(old.argv0, old.env, append([]string{argv0}, "-c", ""), env) {
		st.mu.Unlock()
		return
	}
	if st.gone || st.fsys == nil || p.idlePythons.Load() >= int64(p.opts.WarmPythons) {
		st.mu.Unlock()
		return
	}
	select {
	case p.prestarting <- struct{}{}:
	default:
		st.mu.Unlock()
		return
	}
	pw := &pyWarm{argv0: argv0, env: env, started: time.Now(), done: make(chan struct{})}
	old := st.shells.python
	st.shells.python = pw
	p.idlePythons.Add(1)
	fsys := st.fsys
	st.mu.Unlock()
	if old != nil {
		p.idlePythons.Add(-1)
		go old.close()
	}
	go func() {
		defer func() { <-p.prestarting }()
		w, err := img.Prestart(context.Background(), engine.WarmSpec{FS: p.wasiFS(st, fsys), MemoryLimitPages: memPages}, argv0, env)
		if err == nil {
			p.pyTimes.note(&p.pyTimes.prestart, time.Since(pw.started))
		}
		// Whether to keep it is decided, and pw.done closed, under st.mu:
		// takePython waits for pw.done and then takes pw under st.mu, so
		// no command can have taken it before this decision. (Closing
		// pw.done first let a command take the Python here and this
		// goroutine then close it under the command: exit 130 or no
		// output, about one python3 in a thousand back to back.)
		st.mu.Lock()
		if err == nil {
			pw.sh = &shell{w: w, fsys: fsys}
		}
		keep := st.shells.python == pw && pw.sh != nil && !st.gone
		if !keep && st.shells.python == pw {
			st.shells.python = nil
			p.idlePythons.Add(-1)
		}
		close(pw.done)
		st.mu.Unlock()
		if !keep && pw.sh != nil {
			pw.sh.w.Close() // replaced or gone, so nobody took it; a second Close (old.close) does nothing
		}
	}()
}

// close closes the Python once it is started.
func (pw *pyWarm) close() {
	<-pw.done
	if pw.sh != nil {
		pw.sh.w.Close()
	}
}
