package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// SandboxCall describes one tool call that used the sandbox, for the
// AfterSandboxCall hook.
type SandboxCall struct {
	Tool string
	// ToolCallID is the call's id: the model's, or the one CallTool made
	// up for a direct call.
	ToolCallID string
	ThreadID   string
	RunID      string
	Sandbox    sandbox.Sandbox
	// Err is the call's own error, if it failed.
	Err error
}

// Ports are what the sandboxes run on.
type Ports struct {
	// Sandbox makes the sandboxes. Required for sandbox calls.
	Sandbox sandbox.Provider
	// AfterSandboxCall runs after every tool call that used the sandbox.
	// Its error becomes the call's error unless the call already failed.
	AfterSandboxCall func(ctx context.Context, call SandboxCall) error
}

// Options sets up a Manager.
type Options struct {
	// Kv keeps the bookkeeping; required.
	Kv kv.Store
	// Tools are the sandbox ports.
	Tools Ports
	// Config tunes the lifecycle.
	Config Config
}

// Manager keeps one sandbox per thread (or per run) and runs the tools
// that use it. It is safe for concurrent use; several Managers (workers,
// in one process or many) sharing a kv and a provider's backing store act
// as one.
type Manager struct {
	kv    kv.Store
	ports Ports
	cfg   Config
	owner string // this manager's name in run locks

	keysMu sync.Mutex
	keys   map[string]*sync.Mutex // one in-process lock per sandbox record

	runsMu sync.Mutex
	runs   map[*Run]struct{} // runs holding a lock through this manager
}

// New returns a Manager.
func New(opts Options) (*Manager, error) {
	if opts.Kv == nil {
		return nil, errors.New("runtime: Options.Kv is required")
	}
	cfg := opts.Config.withDefaults()
	switch cfg.SandboxScope {
	case ScopeThread, ScopeRun:
	default:
		return nil, fmt.Errorf("runtime: unknown SandboxScope %q (thread or run)", cfg.SandboxScope)
	}
	return &Manager{kv: opts.Kv, ports: opts.Tools, cfg: cfg, owner: newID("worker"), keys: map[string]*sync.Mutex{}, runs: map[*Run]struct{}{}}, nil
}

// Config returns the configuration, defaults filled in.
func (m *Manager) Config() Config { return m.cfg }

// Provider returns the sandbox provider.
func (m *Manager) Provider() sandbox.Provider { return m.ports.Sandbox }

// keyLock returns the in-process lock of one sandbox record.
func (m *Manager) keyLock(key string) *sync.Mutex {
	m.keysMu.Lock()
	defer m.keysMu.Unlock()
	l, ok := m.keys[key]
	if !ok {
		l = &sync.Mutex{}
		m.keys[key] = l
	}
	return l
}

// Abandon stops renewing every run lock this manager holds, without
// releasing them, as a crashed worker would: another worker takes the
// threads over once RunLockTTL has passed. For tests of takeover, and for a
// worker that knows it is about to die.
func (m *Manager) Abandon() {
	m.runsMu.Lock()
	defer m.runsMu.Unlock()
	for r := range m.runs {
		r.stop()
		delete(m.runs, r)
	}
}
