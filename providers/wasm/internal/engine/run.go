package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"
)

// Exit codes the engine gives runs it ended.
const (
	ExitTimeout  = 124 // as timeout(1)
	ExitCanceled = 130 // as a shell after SIGINT
	ExitTrap     = 134 // as a shell after SIGABRT
)

// Sentinels a *RunError matches.
var (
	ErrTimeout     = errors.New("time limit exceeded")
	ErrCanceled    = errors.New("run cancelled")
	ErrMemoryLimit = errors.New("memory limit exceeded")
	ErrTrap        = errors.New("guest crashed (wasm trap)")
)

// RunError is a run the engine ended or that crashed. It is still a result:
// Code is the exit code Run returned. See the package doc for the table.
type RunError struct {
	Code   int
	Kind   error  // ErrTimeout, ErrCanceled, ErrMemoryLimit or ErrTrap
	Detail string // for a trap, wazero's message
}

func (e *RunError) Error() string {
	if e.Detail != "" {
		return fmt.Sprintf("%v: %s (exit %d)", e.Kind, e.Detail, e.Code)
	}
	return fmt.Sprintf("%v (exit %d)", e.Kind, e.Code)
}

// Unwrap makes errors.Is see Kind, and the context error for a timeout or a
// cancellation.
func (e *RunError) Unwrap() []error {
	switch e.Kind {
	case ErrTimeout:
		return []error{e.Kind, context.DeadlineExceeded}
	case ErrCanceled:
		return []error{e.Kind, context.Canceled}
	}
	return []error{e.Kind}
}

// RunSpec is one command's instance.
type RunSpec struct {
	// Args is argv, argv[0] first (the program name the guest sees).
	Args []string
	// Env is the whole environment; nothing of the host's is added. PWD is
	// set to Dir.
	Env map[string]string
	// Dir is the working folder, absolute in FS. Empty means "/".
	Dir string
	// FS is mounted read-write at "/". Nil means the guest sees no files.
	FS experimentalsys.FS
	// Stdin is read as the guest reads; nil is empty. A blocked read gets
	// end of file when the run's context ends.
	Stdin io.Reader
	// Stdout and Stderr get each write as the guest makes it; nil discards.
	// They are called from the run's goroutine only.
	Stdout, Stderr io.Writer
	// Timeout ends the run with ExitTimeout; zero means only ctx's deadline.
	Timeout time.Duration
	// MemoryLimitPages caps the instance's memory; zero means the Engine's.
	MemoryLimitPages uint32
	// Budget, when set, also caps the memory of this instance and the
	// others given the same budget together.
	Budget *MemoryBudget
}

// Image is a compiled module. Its methods are safe for concurrent use.
type Image struct {
	name, path  string
	e           *Engine
	compiled    wazero.CompiledModule
	python      bool
	site        fs.FS        // Python: mounted at PythonSiteDir
	stdlib      fs.FS        // Python: mounted at stdlibDir when not nil
	stdlibDir   string       // Python: PythonStdlibDir, or the image's own (stdlibBeside)
	ownStdlib   bool         // Python: the stdlib is the image's own, found by CPython without PYTHONPATH
	data        *dataImage   // the data segments, when taken out of the module (dataimage.go)
	tmpl        templates    // Python: clone templates by start (clone.go)
	cloneRuns   atomic.Int64 // Runs started from a clone (clonerun.go)
	reactor     bool         // a Go reactor with the image's entry points (shellclone.go)
	shellTmpl   shellSlot    // reactor: the template warm instances are cloned from
	shellClones atomic.Int64 // reactor: warm instances started from its template
	attached    sync.Map     // Attach's values, by key
}

// Attach returns the value kept with the image under key, made by mk at the
// first call: concurrent first calls may each run mk, and all get the one
// value stored, so mk only makes a value (no side effect). Callers
// keep state about the image there, so that it lives as long as the image
// (its Engine) and no longer; key is a comparable value of the caller's own
// type, as for context keys.
func (img *Image) Attach(key any, mk func() any) any {
	if v, ok := img.attached.Load(key); ok {
		return v
	}
	v, _ := img.attached.LoadOrStore(key, mk())
	return v
}

// Name is the name the image was loaded under.
func (img *Image) Name() string { return img.name }

// Run instantiates the image once with spec and waits for it to end. The
// context's values reach host functions the guest calls. See the package
// doc for what the returned code and error mean.
func (img *Image) Run(ctx context.Context, spec RunSpec) (code int, err error) {
	if code, err, ok := img.runClone(ctx, spec); ok {
		return code, err
	}
	return img.run(ctx, spec, img.site, img.stdlib)
}

// stdlibPath is what pythonEnv appends to PYTHONPATH for a run with stdlib
// mounted: PythonStdlibDir, or "" when none is mounted or CPython finds it
// by itself (ownStdlib).
func (img *Image) stdlibPath(stdlib fs.FS) string {
	if stdlib == nil || img.ownStdlib {
		return ""
	}
	return img.stdlibDir
}

// run is Run with site mounted at PythonSiteDir and stdlib (when not nil)
// at img.stdlibDir for a Python image.
func (img *Image) run(ctx context.Context, spec RunSpec, site, stdlib fs.FS) (code int, err error) {
	if len(spec.Args) == 0 {
		spec.Args = []string{img.name}
	}
	dir, err := runDir(spec.Dir)
	if err != nil {
		return -1, err
	}
	stdout, stderr := orDiscard(spec.Stdout), orDiscard(spec.Stderr)

	if spec.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, spec.Timeout)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return ctxResult(err)
	}

	alloc := img.allocator(spec.MemoryLimitPages, spec.Budget)
	env := make(map[string]string, len(spec.Env)+4)
	maps.Copy(env, spec.Env)
	env["PWD"] = dir
	args := spec.Args
	if img.python {
		pythonEnv(env, img.stdlibPath(stdlib))
		var i int
		if args, i = pythonArgs(args, dir); i > 0 {
			env[pythonScriptEnv] = strconv.Itoa(i) + ":" + spec.Args[i]
		}
		if i == 1 { // no option that could print before
			if msg, ok := missingScript(spec.FS, args[0], args[1]); ok {
				_, _ = io.WriteString(stderr, msg)
				return 2, nil
			}
		}
	}
	cfg := moduleConfig(args, env, stdinFor(ctx, spec.Stdin), stdout, stderr, img.mounts(spec.FS, site, stdlib), ctx)

	defer func() { // a bug in a host function must not take the process down
		if r := recover(); r != nil {
			if alloc.hit.Load() {
				// wazero panics when the first memory is refused (a
				// budget that cannot hold even the module's start):
				// the memory limit is the reason.
				//lint:ignore ST1005 result tells a trap by the stack trace's header
				code, err = img.result(ctx, fmt.Errorf("host panic: %v\nwasm stack trace:", r), alloc, stderr)
				return
			}
			code, err = ExitTrap, &RunError{Code: ExitTrap, Kind: ErrTrap, Detail: fmt.Sprint("host panic: ", r)}
			fmt.Fprintf(stderr, "wasm: %v\n", err)
		}
	}()

	alloc.start()
	defer alloc.done()
	if img.reactor {
		cfg = cfg.WithStartFunctions(reactorInit)
	}
	mod, err := img.e.rt.InstantiateModule(experimental.WithMemoryAllocator(ctx, alloc), img.compiled, cfg)
	if err == nil && img.reactor {
		err = callMain(ctx, mod)
	}
	if mod != nil {
		mod.Close(context.WithoutCancel(ctx))
	}
	return img.result(ctx, err, alloc, stderr)
}

// result is a run's code and error (see the package doc) from what the
// instance's call returned; ctx is the context the instance ran under: its
// end, and only that, makes wazero's context exit codes the engine's.
func (img *Image) result(ctx context.Context, err error, alloc *capAllocator, stderr io.Writer) (int, error) {
	memNote := func(code int) (int, error) {
		if refused := alloc.refused.Load(); alloc.over.Load() && refused != nil && refused != alloc.budget {
			limit := refused.Limit() >> 20
			fmt.Fprintf(stderr, "wasm: memory limit exceeded: the commands running in all sandboxes of this provider together hold %d MiB, its memory budget (wasm.Options.MemoryBudgetMB); try again when fewer run\n", limit)
			return code, &RunError{Code: code, Kind: ErrMemoryLimit, Detail: fmt.Sprintf("over the provider's %d MiB", limit)}
		}
		if alloc.over.Load() {
			limit := alloc.budget.Limit() >> 20
			fmt.Fprintf(stderr, "wasm: memory limit exceeded: the command and the processes it started asked for more than %d MiB together\n", limit)
			return code, &RunError{Code: code, Kind: ErrMemoryLimit, Detail: fmt.Sprintf("over %d MiB together", limit)}
		}
		limit := alloc.limit >> 20
		fmt.Fprintf(stderr, "wasm: memory limit exceeded: the command asked for more than %d MiB\n", limit)
		return code, &RunError{Code: code, Kind: ErrMemoryLimit, Detail: fmt.Sprintf("over %d MiB", limit)}
	}
	var exit *sys.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &exit):
		// wazero's codes for an instance closed because its context
		// ended (schedYield closes with them) are also what a guest's
		// exit(-1) or exit(-268435457) passes to proc_exit: only an
		// ended context makes them the engine's.
		switch c := exit.ExitCode(); {
		case ctx.Err() == nil:
		case c == sys.ExitCodeDeadlineExceeded:
			return ExitTimeout, &RunError{Code: ExitTimeout, Kind: ErrTimeout}
		case c == sys.ExitCodeContextCanceled:
			return ExitCanceled, &RunError{Code: ExitCanceled, Kind: ErrCanceled}
		}
		code := int(exit.ExitCode())
		if code != 0 && alloc.hit.Load() {
			return memNote(code)
		}
		return code, nil
	case ctx.Err() != nil:
		// Ended with an error of its own while the context was ending (a
		// host function saw ctx done): the context decides.
		return ctxResult(ctx.Err())
	case !strings.Contains(err.Error(), "\nwasm stack trace:") && !wasmRuntimeError(err):
		// It never ran: instantiation failed (a missing import, a bad
		// config).
		return -1, fmt.Errorf("engine: run %s: %w", img.name, err)
	default:
		// A trap ("wasm error: …") or a panic in a host function
		// ("… (recovered by wazero)").
		if alloc.hit.Load() {
			return memNote(ExitTrap)
		}
		detail, _, _ := strings.Cut(err.Error(), "\n") // drop the stack trace
		// The image's name without what follows a colon (a host path for
		// busybox): the guest sees this message.
		name, _, _ := strings.Cut(img.name, ":")
		fmt.Fprintf(stderr, "wasm: %s crashed: %s\n", name, detail)
		return ExitTrap, &RunError{Code: ExitTrap, Kind: ErrTrap, Detail: detail}
	}
}

// wasmRuntimeError tells whether err is one of wazero's runtime errors: a
// trap of the guest. wazero returns one without a stack trace for a stack
// overflow (to spare unwinding a deep stack), and does not export its type.
func wasmRuntimeError(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if fmt.Sprintf("%T", e) == "*wasmruntime.Error" {
			return true
		}
	}
	return false
}

// runDir is RunSpec.Dir checked and cleaned: "/" when empty, an error
// when not absolute.
func runDir(dir string) (string, error) {
	if dir == "" {
		return "/", nil
	}
	if !path.IsAbs(dir) {
		return "", fmt.Errorf("engine: Dir %q is not absolute", dir)
	}
	return path.Clean(dir), nil
}

func ctxResult(err error) (int, error) {
	if errors.Is(err, context.DeadlineExceeded) {
		return ExitTimeout, &RunError{Code: ExitTimeout, Kind: ErrTimeout}
	}
	return ExitCanceled, &RunError{Code: ExitCanceled, Kind: ErrCanceled}
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
