package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/agentenkit/agentenkit/runtime/bus"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/pricing"
	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/storage"
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

// Ports are what the runtime runs the sandbox on.
type Ports struct {
	// Sandbox makes the sandboxes. Required for sandbox calls.
	Sandbox sandbox.Provider
	// AfterSandboxCall runs after every tool call that used the sandbox.
	// Its error becomes the call's error unless the call already failed.
	AfterSandboxCall func(ctx context.Context, call SandboxCall) error
}

// Options sets up a Runtime.
type Options struct {
	// Kv keeps the bookkeeping; required.
	Kv kv.Store
	// Tools are the sandbox ports.
	Tools Ports
	// Config tunes the lifecycle.
	Config Config

	// Storage keeps threads, messages, runs (with what a parked run
	// resumes from) and usage rows. Default: in memory (SetupAgentCore's
	// default: a SQLite file in StateDir()).
	Storage storage.Storage
	// Bus carries runs' live events between runtimes. Default: in memory.
	Bus bus.Bus
	// Queue carries run jobs (resumes after approvals, retries) to
	// workers (Work). Default: in memory.
	Queue queue.Queue
	// ResolveModel returns the model an agent names (AgentOptions.Model).
	// Required to run agents.
	ResolveModel func(name string) (model.Model, error)
	// Pricer prices usage rows (Usage); nil prices nothing.
	Pricer pricing.Pricer
}

// Runtime keeps sandboxes per thread or run. It is safe for concurrent use;
// several Runtimes (workers, in one process or many) sharing a kv and a
// provider's backing store act as one.
type Runtime struct {
	kv    kv.Store
	ports Ports
	cfg   Config
	owner string // this runtime's name in run locks

	keysMu sync.Mutex
	keys   map[string]*sync.Mutex // one in-process lock per sandbox record

	runsMu sync.Mutex
	runs   map[*Run]struct{} // runs holding a lock through this runtime

	agents *agentCore // agents, runs and their ports
}

// New returns a Runtime.
func New(ctx context.Context, opts Options) (*Runtime, error) {
	if opts.Kv == nil {
		return nil, errors.New("runtime: Options.Kv is required")
	}
	cfg := opts.Config.withDefaults()
	switch cfg.SandboxScope {
	case ScopeThread, ScopeRun:
	default:
		return nil, fmt.Errorf("runtime: unknown SandboxScope %q (thread or run)", cfg.SandboxScope)
	}
	rt := &Runtime{kv: opts.Kv, ports: opts.Tools, cfg: cfg, owner: newID("worker"), keys: map[string]*sync.Mutex{}, runs: map[*Run]struct{}{}}
	rt.agents = newAgentCore(opts)
	return rt, nil
}

// Config returns the runtime's configuration, defaults filled in.
func (rt *Runtime) Config() Config { return rt.cfg }

// Provider returns the sandbox provider.
func (rt *Runtime) Provider() sandbox.Provider { return rt.ports.Sandbox }

// keyLock returns the in-process lock of one sandbox record.
func (rt *Runtime) keyLock(key string) *sync.Mutex {
	rt.keysMu.Lock()
	defer rt.keysMu.Unlock()
	m, ok := rt.keys[key]
	if !ok {
		m = &sync.Mutex{}
		rt.keys[key] = m
	}
	return m
}

// Abandon stops renewing every run lock this runtime holds, without
// releasing them, as a crashed worker would: another worker takes the
// threads over once RunLockTTL has passed. For tests of takeover, and for a
// worker that knows it is about to die.
func (rt *Runtime) Abandon() {
	rt.runsMu.Lock()
	defer rt.runsMu.Unlock()
	for r := range rt.runs {
		r.stop()
		delete(rt.runs, r)
	}
}
