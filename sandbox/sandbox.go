package sandbox

import (
	"context"
	"time"
)

// Provider makes sandboxes and finds them again.
//
// A Provider value is safe for concurrent use. Two Provider values built with
// the same options and backing store (the same root folder, kv, Docker engine
// or E2B account) see the same sandboxes, as two worker processes would.
type Provider interface {
	// Name is the adapter's short name: "wasm", "e2b", "docker", "local" or
	// "memory". It is also Sandbox.Provider() of every sandbox it makes.
	Name() string
	// Create makes a new sandbox and returns it running.
	Create(ctx context.Context, opts CreateSandboxOptions) (Sandbox, error)
	// Connect finds a sandbox by id. A sandbox that was destroyed, expired or
	// never existed is an error that matches ErrGone.
	Connect(ctx context.Context, sandboxID string) (Sandbox, error)
}

// Sandbox is one sandbox. Its methods are safe for concurrent use: several
// commands may run at once.
//
// Once the sandbox is gone every method but ID and Provider returns an error
// that matches ErrGone; Destroy then returns nil.
type Sandbox interface {
	// ID is the sandbox's id, stable across processes: Provider.Connect(ID())
	// finds it again.
	ID() string
	// Provider is the Name of the provider that made it.
	Provider() string
	// FileSystem gives the sandbox's files.
	FileSystem() FileSystem
	// RunCommand runs command with sh -c semantics (bash where the sandbox has
	// it) and waits for it. A non-zero exit is a result, not an error; an
	// error means the command could not be run or the sandbox is gone.
	RunCommand(ctx context.Context, command string, opts RunCommandOptions) (CommandResult, error)
	// GetURL returns the URL at which a server listening on port inside the
	// sandbox is reached from the host. protocol is "http" (the default when
	// empty) or "https". Adapters without reachable ports return ErrUnsupported.
	GetURL(ctx context.Context, port int, protocol string) (string, error)
	// GetInfo describes the sandbox.
	GetInfo(ctx context.Context) (SandboxInfo, error)
	// SetTimeout makes the sandbox end by itself d after now, replacing any
	// earlier end (it may shorten or extend it). The end holds even when no
	// process of the app is running. Adapters may clamp d to a maximum
	// lifetime fixed at creation.
	SetTimeout(ctx context.Context, d time.Duration) error
	// Destroy ends the sandbox and removes its files. Destroying a sandbox
	// that is already gone returns nil.
	Destroy(ctx context.Context) error
}

// WorkdirRestorer is implemented by providers whose fresh sandbox, made after
// the old one ended, gets the old work folder back (the wasm adapter restores
// it from its snapshot). The runtime then tells the model the files are back
// instead of lost.
type WorkdirRestorer interface {
	// RestoresWorkdir reports whether a fresh sandbox of this provider gets
	// the work folder of the one that ended before it back.
	RestoresWorkdir() bool
}

// SandboxInfo describes a sandbox.
type SandboxInfo struct {
	ID       string
	Provider string
	// Status is "running" for a live sandbox.
	Status string
	// Workdir is the absolute path of the work folder inside the sandbox.
	Workdir   string
	CreatedAt time.Time
	// EndAt is when the sandbox ends by itself unless SetTimeout moves it.
	EndAt time.Time
	// Template or image the sandbox was made from, when the adapter has one.
	Template string
	Metadata map[string]string
}

// StatusRunning is SandboxInfo.Status of a live sandbox.
const StatusRunning = "running"
