package engine

import (
	"context"
	"maps"
)

// A python3 command run with Image.Run starts from a clone of a template
// (clone.go) when the image already has a template for its program name
// and environment, the template serves the command's files and the command
// is one a prestarted Python serves (Serves): the same instance as a new
// CPython's, at about 2 ms instead of 100-160 ms of CPython's start. Run
// never waits for a template to be made; PrewarmPython makes one ahead.

// readyTemplate is img's template for ps when it is made already, nil
// otherwise (also when it is being made or failed).
func (img *Image) readyTemplate(ps *prestart) *pyTemplate {
	img.tmpl.mu.Lock()
	s := img.tmpl.m[ps.key()]
	img.tmpl.mu.Unlock()
	if s == nil || !s.made.Load() {
		return nil
	}
	return s.t
}

// runClone runs spec in a clone when one serves it (see above); ok is
// false where it did not start one, and the caller starts CPython itself.
func (img *Image) runClone(ctx context.Context, spec RunSpec) (code int, err error, ok bool) {
	if !img.python || !canMapData || img.e.opts.NoClones || len(spec.Args) < 2 {
		return 0, nil, false
	}
	dir, err := runDir(spec.Dir)
	if err != nil {
		return 0, nil, false
	}
	ps := img.prestartFor(spec.Args[0], spec.Env)
	t := img.readyTemplate(ps)
	if t == nil || !t.serves(spec.FS) {
		return 0, nil, false
	}
	env := maps.Clone(spec.Env)
	if env == nil {
		env = map[string]string{}
	}
	env["PWD"] = dir
	if _, ok := ps.request(spec.Args, env, dir); !ok {
		return 0, nil, false
	}
	// The clone is the command's own process: its memory, the template's
	// laid in at once, counts against the command's budget from its
	// start, as a new CPython's would as it grows. Made without the
	// budget and moved to it at w.Run, it took the template's whole
	// memory in one step there, and when the budget could not hold it
	// the run failed as a shell over its budget ("the shell alone is
	// over the command's ...") where a new CPython raises MemoryError
	// (TestMemoryExhaustion). A clone that cannot start within the
	// budget gives way to a new CPython, which fails as one does.
	w := img.newWarm(ctx, WarmSpec{FS: spec.FS, MemoryLimitPages: spec.MemoryLimitPages}, spec.Budget)
	w.python = ps
	start := maps.Clone(ps.env)
	start["PWD"] = "/"
	cfg := w.config([]string{ps.argv0, "-c", prestartProgram, "agentenkit-template"}, start, img.mounts(spec.FS, img.site, img.stdlib))
	if _, err := w.startClone(ctx, cfg, t); err != nil {
		w.Close()
		if ctx.Err() != nil {
			code, err := ctxResult(ctx.Err())
			return code, err, true
		}
		return 0, nil, false
	}
	defer w.Close()
	img.cloneRuns.Add(1)
	code, err = w.Run(ctx, spec)
	return code, err, true
}

// PrewarmPython makes, now, the template that python3 commands run as
// argv0 (python3 when empty) with env are cloned from, so that even a
// sandbox's first python3 command starts from a clone: a long-lived
// process calls it once at start. It does nothing where clones are off
// (Options.NoClones, or memory cannot be mapped here).
func (img *Image) PrewarmPython(ctx context.Context, argv0 string, env map[string]string) error {
	if !img.python {
		return ErrNotPython
	}
	if !canMapData || img.e.opts.NoClones {
		return nil
	}
	env = maps.Clone(env)
	delete(env, "PWD")
	_, err := img.template(ctx, img.prestartFor(argv0, env))
	return err
}

// CloneRuns is how many Runs of img started from a clone so far.
func (img *Image) CloneRuns() int64 { return img.cloneRuns.Load() }
