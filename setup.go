package agentenkit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/storage/sqlitestorage"
)

// The runtime, under the names the docs use.
type (
	Runtime              = runtime.Runtime
	RuntimeOptions       = runtime.Options
	RuntimeConfig        = lifecycle.Config
	BuiltinToolPorts     = lifecycle.Ports
	BuiltinToolOptions   = lifecycle.BuiltinToolOptions
	BashOptions          = lifecycle.BashOptions
	CodeExecutionOptions = lifecycle.CodeExecutionOptions
	TextEditorOptions    = lifecycle.TextEditorOptions
	SandboxCall          = lifecycle.SandboxCall
	ThreadSandbox        = lifecycle.ThreadSandbox
	SandboxScope         = lifecycle.Scope
	Tool                 = lifecycle.Tool
	ToolContext          = lifecycle.ToolContext
	ToolHandler          = lifecycle.ToolHandler
	RunState             = lifecycle.RunState
	Agent                = runtime.Agent
	AgentOptions         = runtime.AgentOptions
	ApprovalPolicy       = lifecycle.ApprovalPolicy
	Approval             = runtime.Approval
	RunHandle            = runtime.RunHandle
	Event                = runtime.Event
)

// Approval policies of a tool: ask every time, never, or a func of the input.
var (
	AskAlways ApprovalPolicy = lifecycle.AskAlways
	AskNever  ApprovalPolicy = lifecycle.AskNever
)

// Sandbox scopes.
const (
	SandboxScopeThread = lifecycle.ScopeThread
	SandboxScopeRun    = lifecycle.ScopeRun
)

// The notes a fresh sandbox's first result carries.
const (
	SandboxLostNote     = lifecycle.LostNote
	SandboxRestoredNote = lifecycle.RestoredNote
)

// SetupAgentCore returns the runtime. Ports left nil get the embedded
// defaults: the kv and the storage are SQLite files in StateDir()
// (kv.sqlite, storage.sqlite); the bus and the queue are in memory, for the
// runtimes of this process.
func SetupAgentCore(ctx context.Context, opts RuntimeOptions) (*Runtime, error) {
	if opts.Storage == nil {
		file := filepath.Join(StateDir(), "storage.sqlite")
		store, err := sqlitestorage.Open(file)
		if err != nil {
			return nil, fmt.Errorf("agentenkit: open the default storage %s: %w", file, err)
		}
		opts.Storage = store
	}
	if opts.Kv == nil {
		file := filepath.Join(StateDir(), "kv.sqlite")
		store, err := sqlitekv.Open(file)
		if err != nil {
			return nil, fmt.Errorf("agentenkit: open the default kv %s: %w", file, err)
		}
		opts.Kv = store
	}
	return runtime.New(ctx, opts)
}

// StateDir is where the embedded defaults keep their files:
// $AGENTENKIT_STATE_DIR, else $XDG_STATE_HOME/agentenkit, else
// ~/.local/state/agentenkit.
func StateDir() string {
	if d := os.Getenv("AGENTENKIT_STATE_DIR"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "agentenkit")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "state", "agentenkit")
	}
	return filepath.Join(os.TempDir(), "agentenkit-state")
}

// SandboxFor returns the sandbox of the thread (or run) of ctx, the ctx of a
// tool call or a run.
func SandboxFor(ctx context.Context) (ThreadSandbox, error) { return lifecycle.SandboxFor(ctx) }

// WithSandbox runs fn with the sandbox of the thread (or run) of ctx, the
// ctx of a tool call or a run, and returns what fn returns; once more on a
// fresh sandbox (Lost or Restored, with its Note) when it ended part way.
func WithSandbox[T any](ctx context.Context, fn func(ThreadSandbox) (T, error)) (T, error) {
	return lifecycle.WithSandbox(ctx, fn)
}

// AgentTool returns a custom tool whose handler gets the model's input
// object and the call's ToolContext; inside it, WithSandbox(ctx, ...) gives
// the thread's sandbox.
func AgentTool(name, description string, handler ToolHandler) Tool {
	return lifecycle.AgentTool(name, description, handler)
}
