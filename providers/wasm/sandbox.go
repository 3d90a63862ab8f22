package wasm

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"time"

	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	wazerosys "github.com/tetratelabs/wazero/sys"

	"github.com/agentenkit/agentenkit/providers/wasm/internal/engine"
	"github.com/agentenkit/agentenkit/providers/wasm/internal/hostnet"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/vfs"
)

// Sandbox is a handle on one wasm sandbox; its state is in the provider's
// copy and the kv, so handles are cheap and every method checks the kv
// first. Its methods are safe for concurrent use.
type Sandbox struct {
	p  *Provider
	id string
}

var _ sandbox.Sandbox = (*Sandbox)(nil)

// ID returns the sandbox's id.
func (s *Sandbox) ID() string { return s.id }

// Provider returns "wasm".
func (s *Sandbox) Provider() string { return Name }

// FileSystem returns the sandbox's files. Each call is a use (it pushes the
// end back); one that changes files writes a snapshot before it returns.
func (s *Sandbox) FileSystem() sandbox.FileSystem { return &files{s: s} }

// RunCommand runs command with bash (the busybox image) in the work folder
// or opts.Cwd. See the package doc for the limits.
func (s *Sandbox) RunCommand(ctx context.Context, command string, opts sandbox.RunCommandOptions) (sandbox.CommandResult, error) {
	// The time limit covers loading the files too.
	start := time.Now()
	runCtx, cancel := context.WithTimeout(ctx, opts.CommandTimeout())
	defer cancel()
	st, rec, err := s.p.open(runCtx, s.id, true)
	if err != nil {
		if ctx.Err() == nil && errors.Is(runCtx.Err(), context.DeadlineExceeded) {
			stderr := sandbox.NewOutput(opts.Stderr)
			fmt.Fprintf(stderr, "agentenkit: timed out after %s loading the sandbox's files\n", opts.CommandTimeout())
			return sandbox.NewResult(sandbox.NewOutput(opts.Stdout), stderr, 124, true, time.Since(start)), nil
		}
		return sandbox.CommandResult{}, err
	}
	// A command that removed the work folder finds it back, empty.
	if made, err := st.files().EnsureDir(rec.Workdir); err != nil {
		return sandbox.CommandResult{}, fmt.Errorf("wasm: make the work folder %s again: %w", rec.Workdir, err)
	} else if made {
		st.changed()
	}
	dir := sandbox.ResolvePath(rec.Workdir, opts.Cwd)
	if fi, err := st.files().Stat(dir); err != nil || !fi.IsDir() {
		return sandbox.CommandResult{}, fmt.Errorf("wasm: cwd %s: not a folder of the sandbox", dir)
	}
	memPages := rec.memPages()
	// The cancel (of runCtx, made above) is registered before anything
	// slow, and the sandbox checked once more after: a Destroy from now on
	// stops the command, and one that came before is ErrGone.
	st.mu.Lock()
	gone := st.gone
	if !gone {
		st.cancels[&cancel] = struct{}{}
	}
	st.mu.Unlock()
	defer func() {
		cancel()
		st.mu.Lock()
		delete(st.cancels, &cancel)
		st.mu.Unlock()
	}()
	if gone {
		return sandbox.CommandResult{}, sandbox.Gone(Name, s.id)
	}
	if _, err := s.p.readLive(ctx, s.id); err != nil {
		return sandbox.CommandResult{}, err
	}
	env, pyVersion := environ(rec, opts.Env), s.p.pythonVersion()
	// A plain python3 call runs without the shell (direct.go); the shell
	// gets PWD as the folder (engine.Warm.Run), and passes it on.
	withPWD := maps.Clone(env)
	withPWD["PWD"] = dir
	argv, direct := directArgs(command, withPWD, st.files(), pyVersion)
	var sh *shell
	var wfs experimentalsys.FS // the files every process of the command sees
	if direct {
		wfs = s.p.wasiFS(st, st.files())
	} else {
		if sh, err = s.p.takeShell(ctx, st, memPages); err != nil {
			if ctx.Err() != nil {
				return sandbox.CommandResult{}, ctx.Err()
			}
			if _, lerr := s.p.readLive(context.WithoutCancel(ctx), s.id); lerr != nil {
				return sandbox.CommandResult{}, lerr
			}
			return sandbox.CommandResult{}, fmt.Errorf("wasm: start the shell: %w", err)
		}
		wfs = sh.w.FS()
	}
	defer func() {
		if sh != nil {
			s.p.putShell(st, sh)
		}
		s.p.prewarm(st, memPages)
	}()

	defer st.netBegin(s.p.netConfig(rec), runCtx, s.p.opts.NetworkBytes)()

	budget := engine.NewMemoryBudgetWithin(s.p.budget, uint64(max(rec.CmdMemMB, rec.MemoryMB))<<20)
	host := &cmdHost{
		image:   s.p.image,
		shell:   func(ctx context.Context) (*shell, error) { return s.p.takeShell(ctx, st, memPages) },
		release: func(sh *shell) { s.p.putShell(st, sh) },
		python: func(ctx context.Context, img *engine.Image, args []string, env map[string]string) *shell {
			if sh := s.p.takePython(ctx, st, img, args, env); sh != nil {
				return sh
			}
			// None of the sandbox's own: a spare from the pool.
			if w := s.p.pool.takePython(img, wfs, budget, memPages, args, env); w != nil {
				return &shell{w: w, fsys: st.files()}
			}
			return nil
		},
		pythonRan: func(img *engine.Image, argv0 string, env map[string]string, cold time.Duration) {
			if cold > 0 {
				s.p.pyTimes.note(&s.p.pyTimes.run, cold)
			}
			s.p.prestartPython(st, img, memPages, argv0, env)
			s.p.pool.wantPython(img, argv0, env)
		},
		fs:        wfs,
		pyVersion: pyVersion,
		st:        st,
		memPages:  memPages,
		budget:    budget,
		maxProcs:  int32(rec.MaxProcs),
	}
	table := newProcTable(host, 0)
	stdout, stderr := sandbox.NewOutput(opts.Stdout), sandbox.NewOutput(opts.Stderr)
	changes := st.changes.Load()
	var code int
	var runErr error
	if direct {
		s.p.directRuns.Add(1)
		code, runErr = table.runDirect(withTable(runCtx, table), procSpec{Image: "python", Args: argv, Dir: dir, Env: envList(withPWD)}, stdout, stderr)
	} else {
		code, runErr = sh.w.Run(withTable(runCtx, table), engine.RunSpec{
			Args:   []string{"bash", "-c", command},
			Env:    withPythonVersion(env, pyVersion),
			Dir:    dir,
			Stdout: stdout,
			Stderr: stderr,
			Budget: host.budget,
		})
	}
	table.closeAll()
	took := time.Since(start)
	// The time limit, also when a child it killed made the shell exit by
	// itself just before its own end.
	timedOut := errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil

	var saveErr error
	if st.changes.Load() != changes {
		saveErr = s.p.save(ctx, st)
	}
	// A long command is a long use: push the end back once more.
	if now, err := s.p.readLive(context.WithoutCancel(ctx), s.id); err == nil {
		if _, err := s.p.use(context.WithoutCancel(ctx), s.id, now); err != nil && saveErr == nil && !errors.Is(err, sandbox.ErrGone) {
			saveErr = err
		}
	}

	if runErr != nil && ctx.Err() == nil && errors.Is(runCtx.Err(), context.Canceled) {
		// Not the caller, not the time limit: Destroy (or the end).
		if _, err := s.p.readLive(context.WithoutCancel(ctx), s.id); err != nil {
			return sandbox.CommandResult{}, err
		}
	}
	var re *engine.RunError
	switch {
	case timedOut:
		return sandbox.NewResult(stdout, stderr, code, true, took), saveErr
	case runErr == nil:
	case ctx.Err() != nil:
		return sandbox.NewResult(stdout, stderr, code, false, took), ctx.Err()
	case errors.Is(runErr, engine.ErrCanceled):
		// Not the caller: Destroy (or the end) stopped it.
		if _, err := s.p.readLive(context.WithoutCancel(ctx), s.id); err != nil {
			return sandbox.CommandResult{}, err
		}
		return sandbox.NewResult(stdout, stderr, code, false, took), saveErr
	case errors.As(runErr, &re):
		// Memory limit or trap: a failed command; the engine wrote why to
		// stderr.
	default:
		return sandbox.CommandResult{}, fmt.Errorf("wasm: run command: %w", runErr)
	}
	return sandbox.NewResult(stdout, stderr, code, false, took), saveErr
}

// environ is a command's whole environment: nothing of the host.
func environ(rec *liveRecord, extra map[string]string) map[string]string {
	env := map[string]string{
		"HOME": rec.Workdir,
		"PATH": "/usr/local/bin:/usr/bin:/bin",
		"USER": "user",
		"LANG": "C.UTF-8",
	}
	maps.Copy(env, rec.Envs)
	maps.Copy(env, extra)
	return env
}

// withPythonVersion adds pythonVersionEnv (py, when not "") to a busybox
// run's env and returns env.
func withPythonVersion(env map[string]string, py string) map[string]string {
	if py != "" {
		env[pythonVersionEnv] = py
	}
	return env
}

// GetURL is not offered: a wasm sandbox has no network.
func (s *Sandbox) GetURL(ctx context.Context, port int, protocol string) (string, error) {
	if _, err := s.p.readLive(ctx, s.id); err != nil {
		return "", err
	}
	return "", sandbox.Unsupported(Name, "GetURL", "a wasm sandbox has no network; the docker, e2b and local adapters offer URLs")
}

// GetInfo describes the sandbox (it is not a use).
func (s *Sandbox) GetInfo(ctx context.Context) (sandbox.SandboxInfo, error) {
	rec, err := s.p.readLive(ctx, s.id)
	if err != nil {
		return sandbox.SandboxInfo{}, err
	}
	return sandbox.SandboxInfo{
		ID:        s.id,
		Provider:  Name,
		Status:    sandbox.StatusRunning,
		Workdir:   rec.Workdir,
		CreatedAt: rec.CreatedAt,
		EndAt:     rec.EndAt,
		Metadata:  maps.Clone(rec.Metadata),
	}, nil
}

// SetTimeout makes the sandbox end d after now (never past its hard end),
// and makes d the idle time each later use pushes the end back by.
func (s *Sandbox) SetTimeout(ctx context.Context, d time.Duration) error {
	d = max(d, time.Millisecond)
	_, err := s.p.update(ctx, s.id, func(rec *liveRecord) bool {
		rec.Idle = d
		rec.EndAt = minTime(time.Now().Add(d), rec.HardEnd)
		return true
	})
	return err
}

// Destroy stops the sandbox's commands here and deletes its record and
// snapshot. A sandbox already gone is fine.
func (s *Sandbox) Destroy(ctx context.Context) error { return s.p.DestroySandbox(ctx, s.id) }

// DestroySandbox ends the sandbox id as its Destroy does, without reading
// anything of it first: it ends a sandbox whose record or snapshot is
// damaged too (Connect fails on those). An id that is not there is fine.
func (p *Provider) DestroySandbox(ctx context.Context, id string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("wasm: destroy %q: not a wasm sandbox id: %w", id, sandbox.ErrGone)
	}
	ctx = context.WithoutCancel(ctx)
	if err := p.kv.Delete(ctx, liveKey(id)); err != nil {
		return fmt.Errorf("wasm: destroy %s: %w", id, err)
	}
	p.forget(id)
	// The manifest first: a snapshot without it is no snapshot.
	if err := p.kv.Delete(ctx, prefixKey(id)+"manifest"); err != nil {
		return fmt.Errorf("wasm: destroy %s: %w", id, err)
	}
	keys, err := p.kv.Keys(ctx, prefixKey(id))
	if err != nil {
		return fmt.Errorf("wasm: destroy %s: %w", id, err)
	}
	for _, k := range keys {
		_ = p.kv.Delete(ctx, k)
	}
	return nil
}

// files is the sandbox's FileSystem: vfs.SandboxFS over the current copy,
// with a snapshot after each change.
type files struct{ s *Sandbox }

func (f *files) fs(ctx context.Context) (*state, sandbox.FileSystem, error) {
	st, rec, err := f.s.p.open(ctx, f.s.id, true)
	if err != nil {
		return nil, nil, err
	}
	return st, vfs.SandboxFS(st.files(), rec.Workdir), nil
}

func (f *files) ReadFile(ctx context.Context, p string) (string, error) {
	_, fsys, err := f.fs(ctx)
	if err != nil {
		return "", err
	}
	return fsys.ReadFile(ctx, p)
}

func (f *files) ReadFileBytes(ctx context.Context, p string) ([]byte, error) {
	_, fsys, err := f.fs(ctx)
	if err != nil {
		return nil, err
	}
	return fsys.ReadFileBytes(ctx, p)
}

func (f *files) ReadDir(ctx context.Context, p string) ([]sandbox.FileEntry, error) {
	_, fsys, err := f.fs(ctx)
	if err != nil {
		return nil, err
	}
	return fsys.ReadDir(ctx, p)
}

func (f *files) Exists(ctx context.Context, p string) (bool, error) {
	_, fsys, err := f.fs(ctx)
	if err != nil {
		return false, err
	}
	return fsys.Exists(ctx, p)
}

// change runs a changing operation and saves the snapshot after it.
func (f *files) change(ctx context.Context, op func(fsys sandbox.FileSystem) error) error {
	st, fsys, err := f.fs(ctx)
	if err != nil {
		return err
	}
	st.changed()
	opErr := op(fsys)
	if err := f.s.p.save(ctx, st); err != nil && opErr == nil {
		return err
	}
	return opErr
}

func (f *files) WriteFile(ctx context.Context, p string, data []byte) error {
	return f.change(ctx, func(fsys sandbox.FileSystem) error { return fsys.WriteFile(ctx, p, data) })
}

func (f *files) Mkdir(ctx context.Context, p string) error {
	return f.change(ctx, func(fsys sandbox.FileSystem) error { return fsys.Mkdir(ctx, p) })
}

func (f *files) Remove(ctx context.Context, p string) error {
	return f.change(ctx, func(fsys sandbox.FileSystem) error { return fsys.Remove(ctx, p) })
}

// trackFS is the sandbox's WASI filesystem as a shell and the processes it
// starts see it, noting any change (a file opened for writing, a folder
// made, a rename, ...) in the sandbox's change count.
type trackFS struct {
	experimentalsys.FS
	st *state
}

func (t *trackFS) mark() { t.st.changed() }

const writeFlags = experimentalsys.O_WRONLY | experimentalsys.O_RDWR | experimentalsys.O_CREAT | experimentalsys.O_TRUNC | experimentalsys.O_APPEND

func (t *trackFS) OpenFile(p string, flag experimentalsys.Oflag, perm fs.FileMode) (experimentalsys.File, experimentalsys.Errno) {
	if hostnet.IsChannel(p) {
		if ns := t.st.netCurrent(); ns != nil {
			return hostnet.Open(ns.cfg, ns.sess), 0
		}
		return hostnet.Open(&hostnet.Config{}, nil), 0
	}
	if f, errno, ok := openCtl(t.st, p); ok {
		return f, errno
	}
	if flag&writeFlags != 0 {
		t.mark()
	}
	return t.FS.OpenFile(p, flag, perm)
}

// Stat and Lstat show the network channel as a file that is there.
func (t *trackFS) Stat(p string) (wazerosys.Stat_t, experimentalsys.Errno) {
	if hostnet.IsChannel(p) {
		return hostnet.ChannelStat, 0
	}
	return t.FS.Stat(p)
}

func (t *trackFS) Lstat(p string) (wazerosys.Stat_t, experimentalsys.Errno) {
	if hostnet.IsChannel(p) {
		return hostnet.ChannelStat, 0
	}
	return t.FS.Lstat(p)
}

func (t *trackFS) Mkdir(p string, perm fs.FileMode) experimentalsys.Errno {
	t.mark()
	return t.FS.Mkdir(p, perm)
}

func (t *trackFS) Chmod(p string, perm fs.FileMode) experimentalsys.Errno {
	t.mark()
	return t.FS.Chmod(p, perm)
}

func (t *trackFS) Rename(from, to string) experimentalsys.Errno {
	t.mark()
	return t.FS.Rename(from, to)
}

func (t *trackFS) Rmdir(p string) experimentalsys.Errno {
	t.mark()
	return t.FS.Rmdir(p)
}

func (t *trackFS) Unlink(p string) experimentalsys.Errno {
	t.mark()
	return t.FS.Unlink(p)
}

func (t *trackFS) Link(oldPath, newPath string) experimentalsys.Errno {
	t.mark()
	return t.FS.Link(oldPath, newPath)
}

func (t *trackFS) Symlink(oldPath, linkName string) experimentalsys.Errno {
	t.mark()
	return t.FS.Symlink(oldPath, linkName)
}

func (t *trackFS) Utimens(p string, atim, mtim int64) experimentalsys.Errno {
	t.mark()
	return t.FS.Utimens(p, atim, mtim)
}
