package memory

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sort"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/shell"
	"github.com/agentenkit/agentenkit/vfs"
)

// Sandbox is one memory sandbox. Its methods are safe for concurrent use.
type Sandbox struct {
	p       *Provider
	id      string
	workdir string
	fsys    *vfs.FS
	files   sandbox.FileSystem
	envs    map[string]string
	meta    map[string]string
	created time.Time

	mu       sync.Mutex
	endAt    time.Time
	gone     bool
	handlers map[string]Handler
	cancels  map[*context.CancelFunc]struct{} // commands in flight
}

var _ sandbox.Sandbox = (*Sandbox)(nil)

func newSandbox(p *Provider, id string, opts sandbox.CreateSandboxOptions, handlers map[string]Handler) (*Sandbox, error) {
	now := p.opts.Now()
	life := opts.Timeout
	if life <= 0 {
		life = DefaultLifetime
	}
	sb := &Sandbox{
		p:        p,
		id:       id,
		workdir:  p.opts.Workdir,
		fsys:     vfs.New(vfs.Options{MaxBytes: int64(opts.Resources.DiskMB) << 20, MaxFiles: opts.Resources.MaxFiles}),
		envs:     maps.Clone(opts.Envs),
		meta:     maps.Clone(opts.Metadata),
		created:  now,
		endAt:    now.Add(life),
		handlers: handlers,
		cancels:  map[*context.CancelFunc]struct{}{},
	}
	sb.files = vfs.SandboxFS(sb.fsys, sb.workdir, vfs.SandboxFSOptions{Check: sb.live})
	ctx := context.Background()
	if err := sb.files.Mkdir(ctx, sb.workdir); err != nil {
		return nil, fmt.Errorf("memory: make work folder: %w", err)
	}
	if err := sb.files.Mkdir(ctx, "/tmp"); err != nil {
		return nil, fmt.Errorf("memory: make /tmp: %w", err)
	}
	names := make([]string, 0, len(p.opts.Files))
	for name := range p.opts.Files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := sb.files.WriteFile(ctx, name, []byte(p.opts.Files[name])); err != nil {
			return nil, fmt.Errorf("memory: seed file %s: %w", name, err)
		}
	}
	return sb, nil
}

// ID returns the sandbox's id.
func (s *Sandbox) ID() string { return s.id }

// Provider returns "memory".
func (s *Sandbox) Provider() string { return Name }

// FileSystem returns the sandbox's files.
func (s *Sandbox) FileSystem() sandbox.FileSystem { return s.files }

// FS returns the sandbox's filesystem itself, for tests that look inside.
func (s *Sandbox) FS() *vfs.FS { return s.fsys }

// Handle adds or replaces a fake program in this sandbox.
func (s *Sandbox) Handle(name string, h Handler) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handlers = maps.Clone(s.handlers)
	if s.handlers == nil {
		s.handlers = map[string]Handler{}
	}
	s.handlers[name] = h
}

// live returns ErrGone once the sandbox was destroyed or its end passed.
func (s *Sandbox) live() error {
	s.mu.Lock()
	expired := !s.gone && !s.p.opts.Now().Before(s.endAt)
	gone := s.gone
	s.mu.Unlock()
	if expired {
		_ = s.Destroy(context.Background())
		return fmt.Errorf("memory sandbox %q ended at %s: %w", s.id, s.endAt.Format(time.RFC3339), sandbox.ErrGone)
	}
	if gone {
		return sandbox.Gone(Name, s.id)
	}
	return nil
}

// RunCommand runs command through the project's shell over the sandbox's
// files. At the time limit the command and every job it started in the
// background stop.
func (s *Sandbox) RunCommand(ctx context.Context, command string, opts sandbox.RunCommandOptions) (sandbox.CommandResult, error) {
	if err := s.live(); err != nil {
		return sandbox.CommandResult{}, err
	}
	// A command that removed the work folder finds it back, empty.
	if _, err := s.fsys.EnsureDir(s.workdir); err != nil {
		return sandbox.CommandResult{}, fmt.Errorf("memory: make the work folder %s again: %w", s.workdir, err)
	}
	dir := sandbox.ResolvePath(s.workdir, opts.Cwd)
	if fi, err := s.fsys.Stat(dir); err != nil || !fi.IsDir() {
		return sandbox.CommandResult{}, fmt.Errorf("memory: cwd %s: not a folder", dir)
	}
	runCtx, cancel := context.WithTimeout(ctx, opts.CommandTimeout())
	s.mu.Lock()
	if s.gone { // destroyed since the check above
		s.mu.Unlock()
		cancel()
		return sandbox.CommandResult{}, sandbox.Gone(Name, s.id)
	}
	s.cancels[&cancel] = struct{}{}
	handlers := s.handlers
	s.mu.Unlock()
	defer func() {
		cancel()
		s.mu.Lock()
		delete(s.cancels, &cancel)
		s.mu.Unlock()
	}()

	stdout, stderr := sandbox.NewOutput(opts.Stdout), sandbox.NewOutput(opts.Stderr)
	start := time.Now()
	code, err := shell.Run(runCtx, command, shell.Options{
		FS:       s.fsys,
		Dir:      dir,
		Env:      s.environ(opts.Env),
		Stdout:   stdout,
		Stderr:   stderr,
		Handlers: handlers,
	})
	took := time.Since(start)
	switch {
	case err == nil:
		return sandbox.NewResult(stdout, stderr, code, false, took), nil
	case errors.Is(runCtx.Err(), context.DeadlineExceeded) && ctx.Err() == nil:
		return sandbox.NewResult(stdout, stderr, code, true, took), nil
	case ctx.Err() != nil:
		return sandbox.NewResult(stdout, stderr, code, false, took), ctx.Err()
	default:
		if gone := s.live(); gone != nil {
			return sandbox.CommandResult{}, gone
		}
		return sandbox.CommandResult{}, fmt.Errorf("memory: run command: %w", err)
	}
}

// environ is a command's whole environment.
func (s *Sandbox) environ(extra map[string]string) map[string]string {
	env := map[string]string{
		"HOME": s.workdir,
		"PATH": "/usr/local/bin:/usr/bin:/bin",
		"USER": "user",
		"LANG": "C.UTF-8",
	}
	maps.Copy(env, s.envs)
	maps.Copy(env, extra)
	return env
}

// GetURL is not offered: a memory sandbox has no network.
func (s *Sandbox) GetURL(ctx context.Context, port int, protocol string) (string, error) {
	if err := s.live(); err != nil {
		return "", err
	}
	return "", sandbox.Unsupported(Name, "GetURL", "a memory sandbox has no network; the docker, e2b and local adapters offer URLs")
}

// GetInfo describes the sandbox.
func (s *Sandbox) GetInfo(ctx context.Context) (sandbox.SandboxInfo, error) {
	if err := s.live(); err != nil {
		return sandbox.SandboxInfo{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return sandbox.SandboxInfo{
		ID:        s.id,
		Provider:  Name,
		Status:    sandbox.StatusRunning,
		Workdir:   s.workdir,
		CreatedAt: s.created,
		EndAt:     s.endAt,
		Metadata:  maps.Clone(s.meta),
	}, nil
}

// SetTimeout moves the sandbox's end to now + d.
func (s *Sandbox) SetTimeout(ctx context.Context, d time.Duration) error {
	if err := s.live(); err != nil {
		return err
	}
	s.mu.Lock()
	s.endAt = s.p.opts.Now().Add(d)
	s.mu.Unlock()
	return nil
}

// Destroy stops the sandbox's commands and drops it.
func (s *Sandbox) Destroy(ctx context.Context) error {
	s.mu.Lock()
	s.gone = true
	for c := range s.cancels {
		(*c)()
	}
	s.mu.Unlock()
	s.p.forget(s.id)
	return nil
}
