// Package memory is the in-memory adapter, for tests: files live in a
// vfs.FS in this process and commands run through the project's shell
// (package shell) natively, with scriptable handlers that fake programs.
//
//	sb := memory.NewSandbox(memory.Options{Files: map[string]string{"go.mod": "module x\n"}})
//	sb.Handle("pytest", func(ctx context.Context, c *memory.Call, args []string) error {
//		fmt.Fprintln(c.Stdout, "3 passed")
//		return nil
//	})
//
// It does not isolate hostile code: the shell and its builtins run as Go code
// in the app's process, with no memory cap per command. The shell never
// reads the host's files or environment, and has no network; but a command
// that allocates without bound takes the app's memory. Use the wasm adapter
// for untrusted code.
//
// A Provider's sandboxes live in a Store; providers sharing a Store see the
// same sandboxes (Connect works across them), as workers of one process.
package memory

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/shell"
)

// Name is the adapter's name.
const Name = "memory"

// DefaultWorkdir is the work folder of a memory sandbox.
const DefaultWorkdir = "/home/user"

// DefaultLifetime is how long a sandbox lives without SetTimeout.
const DefaultLifetime = time.Hour

// Handler fakes a program: it is run for a command of its name, with the
// command's stdio, folder, environment and files (c.FS). It returns nil for
// exit status 0 or Exit(n).
type Handler = shell.Builtin

// Call is what a Handler gets.
type Call = shell.Call

// Exit returns the error a Handler returns to exit with status n.
func Exit(n int) error { return shell.Exit(n) }

// Options tunes a memory provider or a standalone sandbox.
type Options struct {
	// Store holds the sandboxes; providers sharing one see the same
	// sandboxes. Nil means a new Store of the provider's own.
	Store *Store
	// Workdir is the work folder; default DefaultWorkdir.
	Workdir string
	// Files seeds every new sandbox: path (relative to Workdir, or
	// absolute) to content.
	Files map[string]string
	// Handlers fake programs in every new sandbox.
	Handlers map[string]Handler
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Store holds memory sandboxes by id. It is safe for concurrent use.
type Store struct {
	mu        sync.Mutex
	sandboxes map[string]*Sandbox
}

// NewStore returns an empty Store.
func NewStore() *Store { return &Store{sandboxes: map[string]*Sandbox{}} }

// Provider makes memory sandboxes.
type Provider struct {
	opts  Options
	store *Store
}

var _ sandbox.Provider = (*Provider)(nil)

// New returns a memory provider.
func New(opts Options) *Provider {
	if opts.Store == nil {
		opts.Store = NewStore()
	}
	if opts.Workdir == "" {
		opts.Workdir = DefaultWorkdir
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Provider{opts: opts, store: opts.Store}
}

// NewSandbox returns a standalone sandbox made with opts, for a test that
// needs just one. It panics only if opts.Files cannot be written (a test's
// own mistake, such as a quota too small for its seed).
func NewSandbox(opts Options) *Sandbox {
	sb, err := New(opts).create(sandbox.CreateSandboxOptions{})
	if err != nil {
		panic("memory.NewSandbox: " + err.Error())
	}
	return sb
}

// Name returns "memory".
func (p *Provider) Name() string { return Name }

// Handle adds or replaces a fake program in every sandbox this provider makes
// from now on.
func (p *Provider) Handle(name string, h Handler) {
	p.store.mu.Lock()
	defer p.store.mu.Unlock()
	if p.opts.Handlers == nil {
		p.opts.Handlers = map[string]Handler{}
	} else {
		p.opts.Handlers = maps.Clone(p.opts.Handlers)
	}
	p.opts.Handlers[name] = h
}

// Create makes a sandbox.
func (p *Provider) Create(ctx context.Context, opts sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sb, err := p.create(opts)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return sb, nil
}

func (p *Provider) create(opts sandbox.CreateSandboxOptions) (*Sandbox, error) {
	if err := check(opts); err != nil {
		return nil, err
	}
	p.store.mu.Lock()
	handlers := maps.Clone(p.opts.Handlers)
	p.store.mu.Unlock()
	sb, err := newSandbox(p, "mem-"+uuid.NewString(), opts, handlers)
	if err != nil {
		return nil, err
	}
	p.store.mu.Lock()
	p.store.sandboxes[sb.id] = sb
	p.store.mu.Unlock()
	return sb, nil
}

func check(opts sandbox.CreateSandboxOptions) error {
	if opts.Network.Mode != sandbox.NetworkNone {
		return sandbox.Unsupported(Name, "network "+opts.Network.String(), "the memory adapter has no network; the docker and e2b adapters offer one")
	}
	r := opts.Resources
	if r.CPUs != 0 || r.MemoryMB != 0 || r.Pids != 0 {
		return sandbox.Unsupported(Name, "CPU, memory and process limits", "the wasm adapter caps memory per command, the docker adapter CPU, memory and processes")
	}
	if opts.Image != "" || opts.Template != "" {
		return sandbox.Unsupported(Name, "images and templates", "the docker and e2b adapters take them")
	}
	if len(opts.Ports) > 0 {
		return sandbox.Unsupported(Name, "ports", "the docker, e2b and local adapters offer URLs")
	}
	if opts.RestoreFrom != "" {
		return sandbox.Unsupported(Name, "restoring a work folder", "the wasm adapter restores work folders")
	}
	for k := range opts.Extra {
		return fmt.Errorf("memory: unknown Extra option %q (the memory adapter takes none)", k)
	}
	return nil
}

// Connect finds a sandbox of the provider's Store.
func (p *Provider) Connect(ctx context.Context, id string) (sandbox.Sandbox, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p.store.mu.Lock()
	sb, ok := p.store.sandboxes[id]
	p.store.mu.Unlock()
	if !ok {
		return nil, sandbox.Gone(Name, id)
	}
	if err := sb.live(); err != nil {
		return nil, err
	}
	return sb, nil
}

// forget drops a sandbox from the store.
func (p *Provider) forget(id string) {
	p.store.mu.Lock()
	delete(p.store.sandboxes, id)
	p.store.mu.Unlock()
}
