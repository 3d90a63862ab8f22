package runtime

import (
	"context"
	"encoding/json"

	"github.com/agentenkit/agentenkit/runtime/bus"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/pricing"
	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

// Options sets up a Runtime.
type Options struct {
	// Kv keeps the bookkeeping; required.
	Kv kv.Store
	// Tools are the sandbox ports.
	Tools lifecycle.Ports
	// Config tunes the sandbox lifecycle.
	Config lifecycle.Config

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

// sandboxes is what the agent loop needs of the sandbox lifecycle.
type sandboxes interface {
	Config() lifecycle.Config
	BeginRun(ctx context.Context, threadID string, opts lifecycle.BeginRunOptions) (*lifecycle.Run, context.Context, error)
	RunLockHeld(ctx context.Context, threadID, runID string) (bool, error)
	CallTool(ctx context.Context, tool lifecycle.Tool, input json.RawMessage) (any, error)
	EndThread(ctx context.Context, threadID string) error
}

var _ sandboxes = (*lifecycle.Manager)(nil)

// Runtime runs agents over threads, on the sandbox lifecycle it embeds (a
// lifecycle.Manager: SandboxFor, CallTool, BuiltinTools, BeginRun, ...).
// It is safe for concurrent use; several Runtimes (workers, in one process
// or many) sharing a kv, a storage, a bus, a queue and a provider's backing
// store act as one.
type Runtime struct {
	*lifecycle.Manager
	sb     sandboxes // the same Manager, as the agent loop uses it
	agents *agentCore
}

// New returns a Runtime.
func New(ctx context.Context, opts Options) (*Runtime, error) {
	m, err := lifecycle.New(lifecycle.Options{Kv: opts.Kv, Tools: opts.Tools, Config: opts.Config})
	if err != nil {
		return nil, err
	}
	return &Runtime{Manager: m, sb: m, agents: newAgentCore(opts)}, nil
}
