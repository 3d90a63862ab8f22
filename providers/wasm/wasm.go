// Package wasm is the WebAssembly adapter, the embedded default: a sandbox
// is a virtual filesystem (package vfs) in this process, and its commands
// run in WebAssembly with wazero — the project's own shell compiled for
// WASI (the busybox image, built from ./images/busybox by `make images`)
// and CPython for WASI (the python image). Nothing of the host is visible
// to a command: no host file, no host environment variable, and no network
// but what the sandbox's policy lets the host open for it (network.go).
//
//	p := wasm.New(wasm.Options{})                 // in-process kv
//	p := wasm.New(wasm.Options{Kv: sqliteStore})  // shared by the workers of one machine
//
// # Commands
//
// RunCommand runs `bash -c COMMAND` in a busybox instance with the
// sandbox's files mounted at "/", in the work folder (or Cwd), with only the
// sandbox's Envs, the call's Env and HOME, PATH, PWD, USER, LANG. The
// instance is a warm shell (shells.go): started once, in the background when
// the sandbox is made, and given the next command with a new shell each
// time, so that a command starts in well under a millisecond instead of the
// 25 ms a Go guest takes to start (a new sandbox's first shell, and its
// first python3, are spares the provider started ahead: pool.go, Close
// ends them); nothing but the files carries over, and
// a shell where a background job still runs, or that a limit ended, is
// dropped. After a python3 command the sandbox also gets a prestarted
// CPython in the background, through its start, which runs the next
// `python3 -c`, `-m` or script command whose environment CPython would
// read at start the same (about 20 ms instead of 150). python3
// (python, python3.X for the image's version), pipeline stages and `bash -c` in a pipeline run as
// further instances that the host starts on the same files, joined by host
// pipes of 64 KiB, so `python3 x.py > out.txt`, `echo 'print(2+2)' |
// python3` and `python3 -c 'while True: print(1)' | head -1` behave as in
// bash (the last stage's reader gone, a writer ends with status 141).
// A command that is one python3 call in plain words (`python3 -c '...'`,
// `python3 x.py a b`) runs without the shell, as bash -c execs such a
// command in its place: the host starts the Python with what the shell
// would have given it (direct.go).
//
// Every program sees the system folders the shell shows (system.go):
// /usr/bin with a file per command the shell runs itself (0755, root's, a
// short script that runs it), /usr/sbin, /bin -> usr/bin and /sbin ->
// usr/sbin, which the sandbox's user cannot change, as on Debian; so
// Python's shutil.which('ls') is /usr/bin/ls and opening /usr/bin/x for
// writing is a PermissionError. They are stored nowhere (no snapshot, no
// quota); /usr/local and the rest of /usr are the sandbox's own files,
// but the python image keeps /usr/local to itself (its standard library).
//
// # Limits
//
//   - Time: past the command's Timeout every instance it started is closed;
//     the result is TimedOut with exit 124 and the output printed so far.
//   - Memory: each instance may grow to Options.MemoryLimitMB, and all the
//     instances of one command (pipeline stages, python, background jobs)
//     together to Options.CommandMemoryMB; Resources.MemoryMB sets both.
//     Past it the command fails with a message saying so (Python raises
//     MemoryError), the host untouched.
//   - Output: 4 MiB kept per stream, Truncated past it.
//   - Files: Resources.DiskMB and MaxFiles (default Options.MaxBytes and
//     MaxFiles) cap the sandbox's filesystem; a write past them fails in the
//     guest (EIO: WASI has no ENOSPC) and changes nothing.
//   - Processes: Resources.Pids (default Options.MaxProcs) instances at once
//     per command.
//   - A guest crash (a wasm trap) is a failed command with the trap's
//     message, never a host panic.
//
// # Network
//
// CreateSandboxOptions.Network is none (the default), all, or an allow list
// of hosts ("api.example.com", "*.example.org", either with ":port"). The
// host opens every connection a command asks for (curl, wget, pip, node's
// fetch and http, Python's socket, http.client and urllib): it checks the
// name against the list, refuses loopback, private, link-local, CGNAT,
// multicast and reserved addresses even under all, dials the address it
// checked, does TLS for https (always verified), adds
// Options.NetworkHeaders, and tells Options.OnNetwork. A refused connection
// is an error in the guest that says "blocked by the sandbox's network
// policy" and why. Each command's connections end with it and share
// Options.NetworkBytes.
//
// Not offered, with ErrUnsupported: GetURL (docker, e2b and local give
// URLs), CPU caps, images and templates.
//
// # State
//
// A sandbox lives in the kv: a live record wasm/ID/live (its end, Envs,
// metadata, work folder, quotas) whose TTL is the idle timeout, pushed back
// by every use and set by SetTimeout, never past the hard end
// (MaxLifetime); and its files as content-addressed incremental snapshots
// under wasm/ID/ (package vfs), written after every call that changed
// files, kept until the hard end plus RestoreWindow. Connect from another
// process sharing the kv loads the snapshot; a provider's cached copy is
// used only while its generation is the kv's. Create with RestoreFrom
// starts from an ended sandbox's work folder (RestoresWorkdir is true).
package wasm

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/providers/wasm/internal/engine"
	"github.com/agentenkit/agentenkit/providers/wasm/internal/hostnet"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/vfs"
)

// Name is the adapter's name.
const Name = "wasm"

// Defaults of Options.
const (
	DefaultWorkdir       = "/home/user"
	DefaultLifetime      = time.Hour
	DefaultMaxLifetime   = 24 * time.Hour
	DefaultRestoreWindow = 24 * time.Hour
	DefaultMemoryLimitMB = 512
	DefaultCommandMemMB  = 2048
	DefaultMaxBytes      = 1 << 30
	DefaultMaxFiles      = 100_000
	DefaultMaxProcs      = 64
	DefaultWarmShells    = 32
	DefaultWarmPythons   = 16
	DefaultPooledClones  = 2
)

// BusyboxFile is the busybox image's file name in the images folder.
const BusyboxFile = "busybox.wasm"

// NodeFile is the node image's file name in the images folder: node on
// its own (./images/node), loaded only when a command runs node.
const NodeFile = "node.wasm"

// Options tunes the wasm adapter. The zero value is usable once the images
// are fetched (`make images`).
type Options struct {
	// Kv keeps the sandboxes' records and snapshots; providers sharing one
	// (an SQLite file, a Redis server) see the same sandboxes. Nil means a
	// store in this process's memory, shared by every provider without one.
	Kv kv.Store
	// ImagesDir holds busybox.wasm, node.wasm and the python image;
	// default images.DefaultDir(). node.wasm is looked for only when a
	// command runs node.
	ImagesDir string
	// MemoryLimitMB caps each instance's memory; default 512.
	MemoryLimitMB int
	// CommandMemoryMB caps the memory of one command's instances together
	// (the shell, pipeline stages, python, background jobs); default 2048.
	// Resources.MemoryMB sets both caps per sandbox.
	CommandMemoryMB int
	// MemoryBudgetMB caps the memory of all the commands the provider runs
	// at once, over all its sandboxes: past it a command's next allocation
	// fails and the command ends with a "memory limit exceeded" message
	// naming the budget. Default: half the machine's memory (MemTotal in
	// /proc/meminfo; 4096 where that cannot be read); negative: no budget.
	MemoryBudgetMB int
	// MaxBytes and MaxFiles are the default quotas of a sandbox's
	// filesystem (Resources.DiskMB and MaxFiles override them); defaults
	// 1 GiB and 100 000.
	MaxBytes int64
	MaxFiles int
	// MaxProcs caps the instances one command runs at once (pipeline
	// stages, python); default 64. Resources.Pids overrides it.
	MaxProcs int
	// Workdir is the work folder; default /home/user.
	Workdir string
	// Lifetime is how long an unused sandbox lives when
	// CreateSandboxOptions.Timeout is zero; default 1 h.
	Lifetime time.Duration
	// MaxLifetime is the hard end after creation; SetTimeout and use never
	// move the end past it. Default 24 h.
	MaxLifetime time.Duration
	// RestoreWindow is how long after its hard end a sandbox's snapshot is
	// kept for RestoreFrom; default 24 h.
	RestoreWindow time.Duration
	// WarmShells caps the idle warm shells the provider keeps, over all its
	// sandboxes (see shells.go: a command in a warm shell starts in well
	// under a millisecond instead of about 25 ms); each holds its guest's
	// memory, about 14 MiB resident. Default DefaultWarmShells (32);
	// negative keeps none.
	WarmShells int
	// WarmPythons caps the prestarted Pythons the provider keeps (one per
	// sandbox at most, after it ran python3: shells.go); each holds an
	// initialised CPython, about 7 MiB resident (its image's pages are
	// shared). Default DefaultWarmPythons (16); negative keeps none.
	WarmPythons int
	// PooledClones is how many spare shells, and how many spare Pythons,
	// the provider keeps started ahead of need (pool.go), so that a new
	// sandbox's first command and first python3 do not wait for an
	// instance to start (about 1-2 ms each). Each holds an instance
	// waiting for its first request (its template's pages shared until
	// written, and one goroutine) until a sandbox takes it or Close.
	// Default DefaultPooledClones (2); negative keeps none.
	PooledClones int
	// NetworkBytes caps the bytes one command's connections move, both
	// ways together; default DefaultNetworkBytes (1 GiB).
	NetworkBytes int64
	// NetworkHeaders returns the request headers the host adds to every
	// HTTP request a sandbox makes to host (lower case, as the guest named
	// it), or nil: credentials the guest never sees. They are set over any
	// the guest wrote under the same names.
	NetworkHeaders func(host string) http.Header
	// OnNetwork is told of every connection a command asked for, opened
	// or refused; default: refused ones are logged with slog.
	OnNetwork func(NetworkEvent)
	// TestNetwork is for tests only (loopback servers, names and a CA of
	// their own); nil in any real use.
	TestNetwork *TestNetwork
	// Prewarm makes, in the background from New on, what a new sandbox's
	// first commands would otherwise wait for: the images compiled (as
	// Warm) and the Python template that python3 commands are cloned from,
	// so that even a sandbox's first `python3 -c ...` starts in a few
	// milliseconds instead of a CPython start (100-200 ms of CPU). For
	// long-lived processes: it costs one CPython start at once and keeps
	// the template's memory (about 10 MiB). Warm waits for it too.
	Prewarm bool
	// LazyNode leaves the node image to the first command that runs node:
	// Warm (and so Prewarm) load busybox and python only. For a
	// long-lived process whose commands seldom run node (the CLI's
	// daemon): the node image's compiled code is about 83 MB resident
	// (anonymous executable mappings 202 -> 120 MB with it left out),
	// and its first node command waits for the load (well under a second
	// from the compilation cache, seconds without it).
	LazyNode bool
	// PythonImage chooses the python image: images.PythonImageBuilt (the
	// default: the project's own CPython 3.11.2 -O2 build, `make
	// python-image`, where it was built, else the fetched one) or
	// images.PythonImageNPM (the fetched CPython 3.12.0 build, -O0, about
	// half as fast on CPU-bound code). Empty means $AGENTENKIT_PYTHON_IMAGE,
	// else the built one; any other value is an error of the first command
	// that runs python3 (images.Paths.PythonFor). The shell follows the
	// image's version (images.Paths.PythonVersionFor): python3.X, and pip's
	// user site folder and markers, so packages a thread installed with
	// pip under one version are not on the other's sys.path.
	PythonImage string
}

// Provider makes wasm sandboxes. It is safe for concurrent use.
type Provider struct {
	opts Options
	kv   kv.Store

	warmOnce      sync.Once
	idleShells    atomic.Int64 // warm shells idle in all sandboxes (shells.go)
	warmingShells atomic.Int64 // shells prewarm is starting (shells.go)
	shellsStarted atomic.Int64 // warm shells ever started, for tests
	directRuns    atomic.Int64 // commands run without the shell (direct.go), for tests
	idlePythons   atomic.Int64 // prestarted Pythons held (shells.go)
	pythonsUsed   atomic.Int64 // prestarted Pythons that ran a command, for tests
	pythonAsked   atomic.Bool  // the python image was asked for, for tests
	prestarting   chan struct{}
	pyTimes       pyTimes
	pool          *clonePool // spare clones (pool.go)
	closed        atomic.Bool

	budget *engine.MemoryBudget // every running command's, together; nil: none

	sysCmds lazyCommands // what /usr/bin lists (system.go)

	mu      sync.Mutex
	cache   map[string]*state // by id: this provider's copies
	found   bool              // the images were found at paths and busybox
	paths   images.Paths
	busybox string
}

var (
	_ sandbox.Provider        = (*Provider)(nil)
	_ sandbox.WorkdirRestorer = (*Provider)(nil)
)

var (
	defaultKvOnce sync.Once
	defaultKv     kv.Store
)

// New returns a wasm provider. It checks nothing: a missing image is an
// error of Create and Connect naming `make images`.
func New(opts Options) *Provider {
	if opts.Kv == nil {
		defaultKvOnce.Do(func() { defaultKv = memkv.New(memkv.Options{}) })
		opts.Kv = defaultKv
	}
	if opts.ImagesDir == "" {
		opts.ImagesDir = images.DefaultDir()
	}
	if opts.PythonImage == "" {
		opts.PythonImage = os.Getenv(images.EnvPythonImage)
	}
	if opts.MemoryLimitMB <= 0 {
		opts.MemoryLimitMB = DefaultMemoryLimitMB
	}
	if opts.CommandMemoryMB <= 0 {
		opts.CommandMemoryMB = max(DefaultCommandMemMB, opts.MemoryLimitMB)
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	if opts.MaxFiles <= 0 {
		opts.MaxFiles = DefaultMaxFiles
	}
	if opts.MaxProcs <= 0 {
		opts.MaxProcs = DefaultMaxProcs
	}
	if opts.NetworkBytes <= 0 {
		opts.NetworkBytes = DefaultNetworkBytes
	}
	if opts.Workdir == "" {
		opts.Workdir = DefaultWorkdir
	}
	opts.Workdir = sandbox.ResolvePath("/", opts.Workdir)
	if opts.Lifetime <= 0 {
		opts.Lifetime = DefaultLifetime
	}
	if opts.MaxLifetime <= 0 {
		opts.MaxLifetime = DefaultMaxLifetime
	}
	if opts.RestoreWindow <= 0 {
		opts.RestoreWindow = DefaultRestoreWindow
	}
	switch {
	case opts.WarmPythons == 0:
		opts.WarmPythons = DefaultWarmPythons
	case opts.WarmPythons < 0:
		opts.WarmPythons = 0
	}
	switch {
	case opts.WarmShells == 0:
		opts.WarmShells = DefaultWarmShells
	case opts.WarmShells < 0:
		opts.WarmShells = 0
	}
	switch {
	case opts.PooledClones == 0:
		opts.PooledClones = DefaultPooledClones
	case opts.PooledClones < 0:
		opts.PooledClones = 0
	}
	if opts.MemoryBudgetMB == 0 {
		opts.MemoryBudgetMB = defaultMemoryBudgetMB()
	}
	var budget *engine.MemoryBudget
	if opts.MemoryBudgetMB > 0 {
		budget = engine.NewMemoryBudget(uint64(opts.MemoryBudgetMB) << 20)
	}
	p := &Provider{opts: opts, kv: opts.Kv, budget: budget, cache: map[string]*state{}, prestarting: make(chan struct{}, 1),
		pool: newClonePool(opts.PooledClones, uint32(opts.MemoryLimitMB)*16)}
	p.sysCmds.p = p
	if opts.Prewarm {
		go func() { _ = p.Warm(context.Background()) }()
	}
	return p
}

// Name returns "wasm".
func (p *Provider) Name() string { return Name }

// RestoresWorkdir reports true: Create with RestoreFrom brings an ended
// sandbox's work folder back.
func (p *Provider) RestoresWorkdir() bool { return true }

// The engine: one per process, shared by every provider, each image
// compiled once.
var shared struct {
	mu  sync.Mutex
	eng *engine.Engine
	err error
}

func sharedEngine(cacheDir string) (*engine.Engine, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.eng != nil || shared.err != nil {
		return shared.eng, shared.err
	}
	ctx := context.Background()
	eng, err := engine.New(ctx, engine.Options{CacheDir: cacheDir})
	if err == nil {
		err = eng.AddHostModule(ctx, hostModuleName, defineHostModule)
	}
	if err != nil {
		shared.err = fmt.Errorf("wasm: engine: %w", err)
		return nil, shared.err
	}
	shared.eng = eng
	return eng, nil
}

// imagePaths finds the images, or an error matching images.ErrMissing that
// names `make images`.
// Once found, they are kept: the folder is not looked at again.
func (p *Provider) imagePaths() (images.Paths, string, error) {
	p.mu.Lock()
	found, paths, bb := p.found, p.paths, p.busybox
	p.mu.Unlock()
	if found {
		return paths, bb, nil
	}
	paths, err := images.Find(p.opts.ImagesDir)
	if err != nil {
		return paths, "", fmt.Errorf("wasm: %w", err)
	}
	bb = filepath.Join(paths.Dir, BusyboxFile)
	if fi, err := os.Stat(bb); err != nil || fi.Size() == 0 {
		return paths, "", fmt.Errorf("wasm: the busybox image %s: %w (run `%s`)", bb, images.ErrMissing, images.FetchCommand)
	}
	p.mu.Lock()
	p.found, p.paths, p.busybox = true, paths, bb
	p.mu.Unlock()
	return paths, bb, nil
}

// pythonVersionEnv gives the busybox image the CPython version of the
// provider's python image ("3.11.2"; images.Paths.PythonVersionFor) in the
// environment of every shell the provider starts: the image takes it out
// before the shell sees its environment, and answers python3.X for that
// version and installs with its pip (shell/pip.WithPython) for it. Without
// it the image assumes pip.DefaultPython.
const pythonVersionEnv = "AGENTENKIT_PYTHON_VERSION"

// pythonVersion is the CPython version of the python image the provider
// runs (its Options.PythonImage, the fallback's when the built one is not
// there), or "" when the images are not found or the choice is unknown
// (python3 then fails saying why).
func (p *Provider) pythonVersion() string {
	paths, _, err := p.imagePaths()
	if err != nil {
		return ""
	}
	v, err := paths.PythonVersionFor(p.opts.PythonImage)
	if err != nil {
		return ""
	}
	return v
}

// image returns the compiled image "busybox", "python" or "node",
// compiling it on first use (once per process). A missing node image is an
// error of the command that runs node, naming `make images`.
func (p *Provider) image(ctx context.Context, name string) (*engine.Image, error) {
	paths, bb, err := p.imagePaths()
	if err != nil {
		return nil, err
	}
	eng, err := sharedEngine(paths.CompileCache)
	if err != nil {
		return nil, err
	}
	switch name {
	case "busybox":
		return eng.Load(ctx, "busybox:"+bb, bb)
	case "python":
		p.pythonAsked.Store(true)
		py, err := paths.PythonFor(p.opts.PythonImage)
		if err != nil {
			return nil, fmt.Errorf("wasm: %w", err)
		}
		img, err := eng.Load(ctx, engine.Python+":"+py, py)
		if err == nil {
			// the templates' start sees the system folders, as a
			// sandbox's Python does, so that their clones serve it
			img.SetTemplateFiles(withSystem(vfs.New(vfs.Options{}), &p.sysCmds))
			p.sysCmds.prefetch()
		}
		return img, err
	case "node":
		file := filepath.Join(paths.Dir, NodeFile)
		if fi, err := os.Stat(file); err != nil || fi.Size() == 0 {
			return nil, fmt.Errorf("wasm: the node image %s: %w (run `%s`)", file, images.ErrMissing, images.FetchCommand)
		}
		return eng.Load(ctx, "node:"+file, file)
	}
	return nil, fmt.Errorf("wasm: no image %q", name)
}

// Warm compiles the images now, busybox, python and node (not node with
// Options.LazyNode; once per process; seconds cold, well under a second
// each from the compilation cache), so that no command waits for it, and
// the template every warm shell is cloned from
// (engine.Image.PrewarmShell). It returns an error matching
// images.ErrMissing, naming `make images`, when an image is not there.
//
// With Options.Prewarm it also makes the Python template a sandbox's
// python3 commands are cloned from, for the default environment of a new
// sandbox (engine.Image.PrewarmPython).
func (p *Provider) Warm(ctx context.Context) error {
	names := []string{"busybox", "python", "node"}
	if p.opts.LazyNode {
		names = names[:2]
	}
	for _, name := range names {
		img, err := p.image(ctx, name)
		if err != nil {
			return err
		}
		if name == "busybox" {
			_ = img.PrewarmShell(ctx) // without a template, shells run Go's init
			p.pool.start(p.image)
		}
		if name == "python" && p.opts.Prewarm {
			rec, err := p.check(sandbox.CreateSandboxOptions{})
			if err != nil {
				return err
			}
			env := environ(rec, nil)
			if err := img.PrewarmPython(ctx, "python3", env); err != nil {
				return fmt.Errorf("wasm: prewarm python: %w", err)
			}
			p.pool.wantPython(img, "python3", env)
		}
	}
	return nil
}

// LoadedImages lists the images ("busybox", "python", "node") this
// process has loaded or is loading, sorted: the engine and its images
// are shared by every Provider of the process.
func LoadedImages() []string {
	shared.mu.Lock()
	eng := shared.eng
	shared.mu.Unlock()
	if eng == nil {
		return nil
	}
	var names []string
	for _, n := range eng.Loaded() {
		n, _, _ = strings.Cut(n, ":")
		if !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// warm starts compiling the busybox image in the background, once per
// provider (a compile that fails is tried again by the next command). The
// python image is loaded by the first command that runs python3: a process
// that runs only shell commands (`agentenkit run -- echo hi`) never pays
// for it, in time or memory.
func (p *Provider) warm() {
	p.warmOnce.Do(func() {
		go func() {
			// The shell template too: every warm shell, the first
			// sandbox's included, then starts as its clone.
			if bb, err := p.image(context.Background(), "busybox"); err == nil {
				_ = bb.PrewarmShell(context.Background())
			}
			p.pool.start(p.image)
		}()
	})
}

// idPattern is what Create makes; Connect refuses anything else.
var idPattern = regexp.MustCompile(`^wasm-[0-9a-f]{32}$`)

func newID() string { return "wasm-" + strings.ReplaceAll(uuid.NewString(), "-", "") }

// Create makes a sandbox: an empty work folder (or RestoreFrom's), saved to
// the kv before it returns.
func (p *Provider) Create(ctx context.Context, opts sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.closed.Load() {
		return nil, ErrClosed
	}
	rec, err := p.check(opts)
	if err != nil {
		return nil, err
	}
	if _, _, err := p.imagePaths(); err != nil {
		return nil, err
	}
	p.warm()
	p.sweep(ctx)
	id := newID()
	st := p.newState(id)
	fsys := vfs.New(vfs.Options{MaxBytes: rec.MaxBytes, MaxFiles: rec.MaxFiles})
	if opts.RestoreFrom != "" {
		if fsys, err = p.restore(ctx, opts.RestoreFrom, rec); err != nil {
			return nil, err
		}
	}
	for _, d := range []string{rec.Workdir, "/tmp"} {
		if err := fsys.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("wasm: make %s: %w", d, err)
		}
	}
	_ = fsys.Chmod("/tmp", os.ModeDir|os.ModeSticky|0o777)
	st.fsys = fsys
	if _, err := st.snap.Save(ctx, fsys, p.objectTTL(rec)); err != nil {
		_ = st.snap.Delete(context.WithoutCancel(ctx))
		return nil, fmt.Errorf("wasm: save the new sandbox: %w", err)
	}
	if _, err := p.writeLive(ctx, id, rec, true); err != nil {
		_ = st.snap.Delete(context.WithoutCancel(ctx))
		return nil, err
	}
	st.rec = rec
	p.mu.Lock()
	p.cache[id] = st
	p.mu.Unlock()
	p.prewarm(st, rec.memPages())
	return &Sandbox{p: p, id: id}, nil
}

// check validates create options into the new sandbox's live record.
func (p *Provider) check(opts sandbox.CreateSandboxOptions) (*liveRecord, error) {
	if _, err := hostnet.Parse(opts.Network); err != nil {
		return nil, fmt.Errorf("wasm: %w", err)
	}
	if len(opts.Ports) > 0 {
		return nil, sandbox.Unsupported(Name, "ports", "a wasm sandbox has no network; the docker, e2b and local adapters offer URLs")
	}
	if opts.Image != "" || opts.Template != "" {
		return nil, sandbox.Unsupported(Name, "images and templates", "the wasm adapter has one image set (busybox and python); the docker and e2b adapters take images and templates")
	}
	r := opts.Resources
	if r.CPUs != 0 {
		return nil, sandbox.Unsupported(Name, "CPU limits", "the wasm adapter caps time, memory, disk, files and processes; the docker adapter caps CPUs")
	}
	if r.MemoryMB < 0 || r.DiskMB < 0 || r.MaxFiles < 0 || r.Pids < 0 {
		return nil, fmt.Errorf("wasm: negative resource limits %+v", r)
	}
	if r.MemoryMB > 4096 {
		return nil, fmt.Errorf("wasm: MemoryMB %d is over the 4096 MiB a WebAssembly instance can address", r.MemoryMB)
	}
	for k := range opts.Extra {
		return nil, fmt.Errorf("wasm: unknown Extra option %q (the wasm adapter takes none)", k)
	}
	now := time.Now()
	idle := opts.Timeout
	if idle <= 0 {
		idle = p.opts.Lifetime
	}
	rec := &liveRecord{
		CreatedAt: now,
		HardEnd:   now.Add(p.opts.MaxLifetime),
		Idle:      idle,
		Envs:      maps.Clone(opts.Envs),
		Metadata:  maps.Clone(opts.Metadata),
		Workdir:   p.opts.Workdir,
		MaxBytes:  p.opts.MaxBytes,
		MaxFiles:  p.opts.MaxFiles,
		MemoryMB:  p.opts.MemoryLimitMB,
		CmdMemMB:  p.opts.CommandMemoryMB,
		MaxProcs:  p.opts.MaxProcs,
		Network:   opts.Network,
	}
	rec.EndAt = minTime(now.Add(idle), rec.HardEnd)
	if r.DiskMB > 0 {
		rec.MaxBytes = int64(r.DiskMB) << 20
	}
	if r.MaxFiles > 0 {
		rec.MaxFiles = r.MaxFiles
	}
	if r.MemoryMB > 0 {
		rec.MemoryMB, rec.CmdMemMB = r.MemoryMB, r.MemoryMB
	}
	if r.Pids > 0 {
		rec.MaxProcs = r.Pids
	}
	return rec, nil
}

// Connect finds a sandbox by id in the kv, loading its files when this
// provider has no current copy.
func (p *Provider) Connect(ctx context.Context, id string) (sandbox.Sandbox, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if p.closed.Load() {
		return nil, ErrClosed
	}
	if !idPattern.MatchString(id) {
		return nil, sandbox.Gone(Name, id)
	}
	if _, _, err := p.imagePaths(); err != nil {
		return nil, err
	}
	p.warm()
	if _, _, err := p.open(ctx, id, false); err != nil {
		return nil, err
	}
	return &Sandbox{p: p, id: id}, nil
}

// sweep drops cached copies of sandboxes whose end has passed, checking the
// kv (another process may have pushed the end back).
func (p *Provider) sweep(ctx context.Context) {
	now := time.Now()
	p.mu.Lock()
	var stale []string
	for id, st := range p.cache {
		if st.endHint().Before(now) {
			stale = append(stale, id)
		}
	}
	p.mu.Unlock()
	for _, id := range stale {
		if _, err := p.readLive(ctx, id); errors.Is(err, sandbox.ErrGone) {
			p.forget(id)
		}
	}
}

// Evict drops this provider's copy of sandbox id (its files in memory,
// its warm shells and Pythons) after stopping its commands here; the
// sandbox lives on in the kv, and its next use loads the snapshot again,
// as another process would. It frees the host memory of a sandbox that is
// not in use.
func (p *Provider) Evict(id string) { p.forget(id) }

// ErrClosed: Create or Connect on a provider after Close.
var ErrClosed = errors.New("wasm: the provider is closed")

// Close frees what the provider holds in this process and waits for it:
// its spare clones (pool.go) and its copies of sandboxes, their warm
// shells and prestarted Pythons (their commands here are stopped, as by
// Evict). The sandboxes live on in the kv, for another provider sharing
// it. Create and Connect then fail with ErrClosed; Close again does
// nothing. The images compiled stay, shared by the process's providers.
func (p *Provider) Close() error {
	if p.closed.Swap(true) {
		return nil
	}
	p.pool.close()
	p.mu.Lock()
	ids := slices.Collect(maps.Keys(p.cache))
	p.mu.Unlock()
	for _, id := range ids {
		p.forget(id)
	}
	return nil
}

func (p *Provider) forget(id string) {
	p.mu.Lock()
	st := p.cache[id]
	delete(p.cache, id)
	p.mu.Unlock()
	if st != nil {
		p.end(st)
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// defaultMemoryBudgetMB is half the machine's memory, as /proc/meminfo's
// MemTotal says, or 4096 where it cannot be read.
func defaultMemoryBudgetMB() int {
	raw, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 4096
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb int
			if _, err := fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb); err == nil && kb > 0 {
				return max(256, kb>>11)
			}
		}
	}
	return 4096
}
