package localsandbox

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Sandbox is one local sandbox: a folder under the provider's Root.
type Sandbox struct {
	p     *Provider
	id    string
	dir   string
	root  *os.Root
	files *files

	mu        sync.Mutex
	running   map[running]struct{} // commands in flight
	destroyed bool
}

var _ sandbox.Sandbox = (*Sandbox)(nil)

// ID returns the sandbox's id.
func (s *Sandbox) ID() string { return s.id }

// Provider returns "local".
func (s *Sandbox) Provider() string { return Name }

// FileSystem returns the sandbox's files, confined to its folder.
func (s *Sandbox) FileSystem() sandbox.FileSystem { return s.files }

// Dir returns the sandbox's folder on the host.
func (s *Sandbox) Dir() string { return s.dir }

// live returns the sandbox's state, or ErrGone.
func (s *Sandbox) live() (state, error) { return s.p.readState(s.id) }

// GetInfo reads the sandbox's state.
func (s *Sandbox) GetInfo(ctx context.Context) (sandbox.SandboxInfo, error) {
	st, err := s.live()
	if err != nil {
		return sandbox.SandboxInfo{}, err
	}
	return sandbox.SandboxInfo{
		ID:        s.id,
		Provider:  Name,
		Status:    sandbox.StatusRunning,
		Workdir:   s.dir,
		CreatedAt: st.CreatedAt,
		EndAt:     st.EndAt,
		Metadata:  st.Metadata,
	}, nil
}

// SetTimeout moves the end to now + d in the state file; any process that
// uses the sandbox after it finds it gone.
func (s *Sandbox) SetTimeout(ctx context.Context, d time.Duration) error {
	st, err := s.live()
	if err != nil {
		return err
	}
	st.EndAt = time.Now().Add(d)
	return s.p.writeState(st)
}

// GetURL returns http://127.0.0.1:PORT: a server in a local sandbox listens
// on the host itself.
func (s *Sandbox) GetURL(ctx context.Context, port int, protocol string) (string, error) {
	st, err := s.live()
	if err != nil {
		return "", err
	}
	if st.Network == sandbox.NetworkNone && s.p.netns {
		return "", sandbox.Unsupported(Name, "GetURL with network none", "create the sandbox with Network all to reach its ports")
	}
	if port <= 0 || port > 65535 {
		return "", fmt.Errorf("local: port %d out of range", port)
	}
	if protocol == "" {
		protocol = "http"
	}
	return fmt.Sprintf("%s://127.0.0.1:%d", protocol, port), nil
}

// Destroy kills every process of the commands this process runs in the
// sandbox (see RunCommand) and removes its folder and state.
func (s *Sandbox) Destroy(ctx context.Context) error {
	s.mu.Lock()
	s.destroyed = true
	runs := make([]running, 0, len(s.running))
	for r := range s.running {
		runs = append(runs, r)
	}
	s.mu.Unlock()
	for _, r := range runs {
		r.kill()
	}
	s.p.remove(s.id)
	return nil
}
