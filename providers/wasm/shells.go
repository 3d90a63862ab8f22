package wasm

import (
	"context"

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
				closeShells(stale)
				return sh, nil
			}
			stale = append(stale, sh)
		}
		warming := st.shells.warming
		st.mu.Unlock()
		closeShells(stale)
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
	w, err := bb.NewWarm(ctx, engine.WarmSpec{FS: &trackFS{FS: fsys.WASI(), st: st}, MemoryLimitPages: memPages})
	if err != nil {
		return nil, err
	}
	return &shell{w: w, fsys: fsys}, nil
}

// putShell keeps sh idle when it can run another command, else closes it.
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
		sh.w.Close()
	}
}

// prewarm starts a shell for st in the background when it has none idle
// and none starting, and the provider has room for one more.
func (p *Provider) prewarm(st *state, memPages uint32) {
	st.mu.Lock()
	if st.gone || st.fsys == nil || len(st.shells.idle) > 0 || st.shells.warming != nil ||
		p.idleShells.Load() >= int64(p.opts.WarmShells) {
		st.mu.Unlock()
		return
	}
	done := make(chan struct{})
	st.shells.warming = done
	st.mu.Unlock()
	go func() {
		defer close(done)
		sh, err := p.startShell(context.Background(), st, memPages)
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

// dropShellsLocked takes st's idle shells away, for closeShells once st.mu
// is released (the sandbox ended).
func (p *Provider) dropShellsLocked(st *state) []*shell {
	idle := st.shells.idle
	st.shells.idle = nil
	p.idleShells.Add(-int64(len(idle)))
	return idle
}

func closeShells(shells []*shell) {
	for _, sh := range shells {
		go sh.w.Close()
	}
}
