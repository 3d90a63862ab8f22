package docker

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/go-connections/nat"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Sandbox is one sandbox container.
type Sandbox struct {
	p       *Provider
	id      string
	workdir string
	created time.Time
	hardEnd time.Time
	network string
	user    string // the exec user of commands: defaultUser or rootUser
	meta    map[string]string
	files   *files

	touchMu   sync.Mutex
	touching  bool
	lastTouch time.Time
}

var _ sandbox.Sandbox = (*Sandbox)(nil)

func newSandbox(p *Provider, info container.InspectResponse) *Sandbox {
	l := info.Config.Labels
	s := &Sandbox{p: p, id: info.ID, workdir: info.Config.WorkingDir, network: l[labelNetwork], user: l[labelUser], meta: map[string]string{}}
	if s.user != rootUser {
		s.user = defaultUser
	}
	if ms, err := strconv.ParseInt(l[labelCreated], 10, 64); err == nil {
		s.created = time.UnixMilli(ms)
	}
	if sec, err := strconv.ParseInt(l[labelHardEnd], 10, 64); err == nil {
		s.hardEnd = time.Unix(sec, 0)
	}
	for k, v := range l {
		if name, ok := strings.CutPrefix(k, labelMeta); ok {
			s.meta[name] = v
		}
	}
	if s.workdir == "" {
		s.workdir = "/"
	}
	s.files = &files{s: s}
	return s
}

// ids returns the uid and gid of the sandbox's user.
func (s *Sandbox) ids() (uid, gid int) {
	if s.user == rootUser {
		return 0, 0
	}
	return 1000, 1000
}

// ID returns the container's full id.
func (s *Sandbox) ID() string { return s.id }

// Provider returns "docker".
func (s *Sandbox) Provider() string { return Name }

// FileSystem returns the container's files.
func (s *Sandbox) FileSystem() sandbox.FileSystem { return s.files }

// GetInfo reads the container's state and its deadline.
func (s *Sandbox) GetInfo(ctx context.Context) (sandbox.SandboxInfo, error) {
	info, err := s.p.inspect(ctx, s.id)
	if err != nil {
		return sandbox.SandboxInfo{}, err
	}
	end := s.hardEnd
	// The watchdog writes the deadline once it runs: right after Create
	// there may be none yet, which is no deadline before the hard end.
	if d, _, ok := s.p.deadline(ctx, s.id); ok && d.Before(end) {
		end = d
	}
	return sandbox.SandboxInfo{
		ID:        s.id,
		Provider:  Name,
		Status:    sandbox.StatusRunning,
		Workdir:   s.workdir,
		CreatedAt: s.created,
		EndAt:     end,
		Template:  info.Config.Image,
		Metadata:  s.meta,
	}, nil
}

// SetTimeout makes the watchdog end the container d after now (pushed back
// by each later use by d again), never past the hard end.
func (s *Sandbox) SetTimeout(ctx context.Context, d time.Duration) error {
	if _, err := s.script(ctx, rootUser, touchScript, stateDir, strconv.Itoa(seconds(d))); err != nil {
		return s.goneOr(ctx, err)
	}
	return nil
}

// touch pushes the deadline back after a command or a file operation,
// without waiting for it: one push at a time, at most four a second.
func (s *Sandbox) touch() {
	s.touchMu.Lock()
	if s.touching || time.Since(s.lastTouch) < 250*time.Millisecond {
		s.touchMu.Unlock()
		return
	}
	s.touching, s.lastTouch = true, time.Now()
	s.touchMu.Unlock()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, _ = s.script(ctx, rootUser, touchScript, stateDir)
		s.touchMu.Lock()
		s.touching = false
		s.touchMu.Unlock()
	}()
}

// GetURL returns the 127.0.0.1 address the engine published port on.
func (s *Sandbox) GetURL(ctx context.Context, port int, protocol string) (string, error) {
	info, err := s.p.inspect(ctx, s.id)
	if err != nil {
		return "", err
	}
	if s.network == "none" {
		return "", sandbox.Unsupported(Name, "GetURL with network none", "create the sandbox with Network all and the port in Ports")
	}
	if protocol == "" {
		protocol = "http"
	}
	if info.NetworkSettings != nil {
		for _, b := range info.NetworkSettings.Ports[nat.Port(fmt.Sprintf("%d/tcp", port))] {
			if b.HostPort != "" && !strings.Contains(b.HostIP, ":") {
				return fmt.Sprintf("%s://127.0.0.1:%s", protocol, b.HostPort), nil
			}
		}
	}
	return "", fmt.Errorf("docker: port %d was not published: list it in CreateSandboxOptions.Ports when creating the sandbox", port)
}

// Destroy removes the container. A container already gone is fine.
func (s *Sandbox) Destroy(ctx context.Context) error {
	err := s.p.api.ContainerRemove(ctx, s.id, container.RemoveOptions{Force: true, RemoveVolumes: true})
	if err == nil || isNotFound(err) || isConflict(err) {
		return nil
	}
	return fmt.Errorf("docker: remove %s: %w", short(s.id), err)
}

// goneOr returns ErrGone when the container has ended, else err.
func (s *Sandbox) goneOr(ctx context.Context, err error) error {
	if _, ierr := s.p.inspect(ctx, s.id); ierr != nil && isGone(ierr) {
		return ierr
	}
	return err
}
