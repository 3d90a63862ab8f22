package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// DefaultMemoryLimitPages is the per-instance memory cap when none is given:
// 8192 pages of 64 KiB, 512 MiB.
const DefaultMemoryLimitPages = 8192

// Options for New.
type Options struct {
	// CacheDir holds wazero's compilation cache, in a subfolder per wazero
	// version (made when missing). New removes the other versions' folders
	// and trims this one to CacheLimit, oldest files first. A warm cache
	// cuts python.wasm's compile from seconds to about 0.15 s. Empty means
	// compile in memory only, every process.
	CacheDir string
	// MemoryLimitPages caps each instance's linear memory, in 64 KiB pages.
	// Zero means DefaultMemoryLimitPages.
	MemoryLimitPages uint32
	// CompileWorkers is how many goroutines compile one module. Zero means
	// the number of CPUs.
	CompileWorkers int
	// NoClones starts every prestarted Python with CPython's own start
	// instead of cloning a template's memory (clone.go), which is the
	// default where memory can be mapped (Linux).
	NoClones bool

	// cancel is how a run's end is enforced; tests compare the modes.
	cancel cancelMode
}

// cancelMode is how runs end when their context does.
type cancelMode int

const (
	cancelChecks      cancelMode = iota // countdown checks in loops (addChecks): the default
	cancelNone                          // uninstrumented, never ended (benchmarks only)
	cancelCloseOnDone                   // wazero's WithCloseOnContextDone (benchmarks only)
)

// ErrClosed: the Engine was closed.
var ErrClosed = errors.New("engine: closed")

// ErrHostModuleExists: AddHostModule was given a name already defined.
var ErrHostModuleExists = errors.New("engine: host module already defined")

// Engine compiles and runs WASI images. It is safe for concurrent use.
type Engine struct {
	rt       wazero.Runtime
	cache    wazero.CompilationCache
	opts     Options
	pollOrig api.GoModuleFunction
	prepared string // folder of rewritten modules (prepare), or ""

	mu     sync.Mutex
	images map[string]*loading
	hosts  map[string]bool
	closed bool
}

type loading struct {
	path string
	done chan struct{}
	img  *Image
	err  error
}

// New makes an Engine: a wazero runtime with the compiler backend,
// termination checks when a context ends, no DWARF (so a kill takes
// milliseconds, not seconds) and WASI.
func New(ctx context.Context, opts Options) (*Engine, error) {
	if opts.MemoryLimitPages == 0 {
		opts.MemoryLimitPages = DefaultMemoryLimitPages
	}
	if opts.MemoryLimitPages > 65536 {
		return nil, fmt.Errorf("engine: MemoryLimitPages %d is over the 65536 a 32-bit memory can have", opts.MemoryLimitPages)
	}
	if opts.CompileWorkers <= 0 {
		opts.CompileWorkers = runtime.NumCPU()
	}
	// No WithCloseOnContextDone: images are instrumented instead (addChecks).
	cfg := wazero.NewRuntimeConfig().WithDebugInfoEnabled(false)
	if opts.cancel == cancelCloseOnDone {
		cfg = cfg.WithCloseOnContextDone(true)
	}
	e := &Engine{opts: opts, images: map[string]*loading{}, hosts: map[string]bool{}}
	if opts.CacheDir != "" {
		dir := cacheDir(opts.CacheDir)
		e.prepared = filepath.Join(dir, "prepared")
		pruneCache(opts.CacheDir, dir, CacheLimit)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("engine: compilation cache: %w", err)
		}
		c, err := wazero.NewCompilationCacheWithDir(dir)
		if err != nil {
			return nil, fmt.Errorf("engine: compilation cache %s: %w", dir, err)
		}
		e.cache = c
		cfg = cfg.WithCompilationCache(c)
	}
	e.rt = wazero.NewRuntimeWithConfig(ctx, cfg)
	err := e.instantiateWASI(ctx)
	if err == nil {
		err = e.instantiateWarm(ctx)
	}
	if err != nil {
		e.Close(ctx)
		return nil, err
	}
	return e, nil
}

// Close closes every instance still running, the compiled images and the
// runtime. Later calls return nil.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	err := e.rt.Close(ctx)
	if e.cache != nil {
		err = errors.Join(err, e.cache.Close(ctx))
	}
	return err
}

// Load compiles the module at wasmPath as the image name, once per Engine:
// later calls with the same name return the same *Image without reading the
// file again, and concurrent calls wait for the one compile. A failed
// compile is not kept, so the next Load tries again. The name Python, or one
// starting with "python:" (IsPython), selects CPython's conventions (see the
// package doc).
//
// # Errors
//
//   - the same name with another path is an error;
//   - ctx ending while this call waits for another's compile returns ctx's
//     error (that compile goes on).
func (e *Engine) Load(ctx context.Context, name, wasmPath string) (*Image, error) {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil, ErrClosed
	}
	l, ok := e.images[name]
	if ok && l.path != wasmPath {
		e.mu.Unlock()
		return nil, fmt.Errorf("engine: image %q is already loaded from %s, not %s", name, l.path, wasmPath)
	}
	if !ok {
		l = &loading{path: wasmPath, done: make(chan struct{})}
		e.images[name] = l
		go e.compile(context.WithoutCancel(ctx), name, l)
	}
	e.mu.Unlock()

	select {
	case <-l.done:
		return l.img, l.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Loaded lists the names of the images Load has compiled, or is
// compiling, in no order.
func (e *Engine) Loaded() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	names := make([]string, 0, len(e.images))
	for name := range e.images {
		names = append(names, name)
	}
	return names
}

func (e *Engine) compile(ctx context.Context, name string, l *loading) {
	defer close(l.done)
	l.img, l.err = e.compileImage(ctx, name, l.path)
	if l.err != nil {
		e.mu.Lock()
		if e.images[name] == l {
			delete(e.images, name)
		}
		e.mu.Unlock()
	}
}

func (e *Engine) compileImage(ctx context.Context, name, path string) (*Image, error) {
	python := IsPython(name)
	l, err := e.loadModule(path, python)
	if err != nil {
		return nil, fmt.Errorf("engine: image %q (%s): %w", name, path, err)
	}
	ctx = experimental.WithCompilationWorkers(ctx, e.opts.CompileWorkers)
	cm, err := e.rt.CompileModule(ctx, l.module)
	if err != nil {
		return nil, fmt.Errorf("engine: compile image %q (%s): %w", name, path, err)
	}
	img := &Image{name: name, path: path, e: e, compiled: cm, python: python, data: l.data, reactor: !python && isReactor(cm)}
	if img.python {
		img.stdlibDir = PythonStdlibDir
		z, dir, ok, err := stdlibBeside(path)
		if err != nil {
			return nil, fmt.Errorf("engine: image %q (%s): %w", name, path, err)
		}
		if ok {
			img.stdlib, img.stdlibDir, img.ownStdlib = z, dir, true
		}
		site, stdlib := img.pythonSite(ctx, l.sum)
		img.site = site
		if !img.ownStdlib {
			img.stdlib = stdlib
		}
	}
	return img, nil
}

// AddHostModule defines a host module every later instance may import.
// define adds the functions to b. Host functions run on the calling guest's
// goroutine and get the context given to Run, so per-sandbox state travels
// as context values; one host module serves every sandbox.
//
// A name already defined is an error matching ErrHostModuleExists.
func (e *Engine) AddHostModule(ctx context.Context, name string, define func(b wazero.HostModuleBuilder) wazero.HostModuleBuilder) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return ErrClosed
	}
	if e.hosts[name] || name == wasiModuleName || name == warmModuleName {
		return fmt.Errorf("%w: %q", ErrHostModuleExists, name)
	}
	if _, err := define(e.rt.NewHostModuleBuilder(name)).Instantiate(ctx); err != nil {
		return fmt.Errorf("engine: host module %q: %w", name, err)
	}
	e.hosts[name] = true
	return nil
}

// MemoryLimitPages is the default per-instance memory cap, in 64 KiB pages.
func (e *Engine) MemoryLimitPages() uint32 { return e.opts.MemoryLimitPages }
