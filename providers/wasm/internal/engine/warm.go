package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/sys"

	"github.com/agentenkit/agentenkit/internal/procspec"
)

// A Warm instance is one instance of an image that runs commands one after
// another instead of one instance per command: instantiating a Go guest
// (the busybox image, 30 MB) costs about 25 ms, a request to a warm one
// well under one. The image must serve (see WarmProtocol); busybox does.
// A Go reactor image's warm instances are clones of a template taken after
// its init (shellclone.go), ready in about 2 ms.
//
// The instance's files, memory cap and name are fixed when it starts; each
// Run gives the command's argv, environment, folder, stdio, time limit and
// memory budget. Nothing else carries over from one command to the next:
// the guest starts each from scratch (busybox: a new shell). The guest
// reports how many goroutines it has left after each command; more than it
// had before the first means something of that command still runs, and the
// instance is not Reusable. A command that ends by time, cancellation,
// memory or a crash ends the instance with it.
//
// # WarmProtocol
//
// The engine runs the image with only WarmEnv=1 in its environment and
// defines the host module "agentenkit_warm" (every result an i32):
//
//	next(buf, cap, goroutines)  the next request's length: written to buf when
//	                            it fits, else the guest calls again with a
//	                            larger buf; 0: exit. goroutines: the guest's
//	                            count before its first request.
//	done(code, goroutines)      the command ended with exit status code,
//	                            goroutines still running; 0.
//
// A request is JSON: {"args": [...], "env": ["K=V", ...], "dir": "/abs"}.
type Warm struct {
	img   *Image
	fs    experimentalsys.FS // for a spare: nil until Bind (guarded by mu)
	spare *spare             // set when started as a spare (spare.go)
	shell *shellTemplate     // set when started as a shell clone
	alloc *capAllocator
	base  context.Context
	kill  context.CancelFunc

	reqs    chan *warmCmd
	pending *warmCmd      // handed to next() but not yet fitted in its buffer
	back    chan struct{} // a Recycle waiting for the guest's next() (guest's goroutine only)

	// A prestarted Python (Prestart): one command, read from stdin.
	python  *prestart
	taken   *warmCmd // the request the guest's stdin took
	request []byte   // what of it the guest has not read yet
	cur     atomic.Pointer[warmCmd]

	ready    chan struct{} // the guest asked for its first request
	baseline atomic.Int32

	exited  chan struct{} // the instance ended; err says how
	exitErr error

	mu     sync.Mutex
	busy   bool
	broken bool // ended, or something of a command still runs
}

// WarmEnv is the environment variable that tells an image to serve
// requests (WarmProtocol) instead of running its argv.
const WarmEnv = "AGENTENKIT_WARM"

// warmModuleName is the host module of WarmProtocol.
const warmModuleName = "agentenkit_warm"

// WarmSpec is what a Warm instance keeps for all its commands.
type WarmSpec struct {
	// FS is mounted read-write at "/" (as RunSpec.FS).
	FS experimentalsys.FS
	// MemoryLimitPages caps the instance's memory; zero means the Engine's.
	MemoryLimitPages uint32
}

type warmCmd struct {
	recycle        chan struct{} // not a command: Recycle's, closed when the guest waits again
	ctx            context.Context
	req            []byte
	stdin          io.Reader
	stdout, stderr io.Writer
	done           chan warmDone
}

type warmDone struct{ code, goroutines int32 }

type warmKey struct{}

// CommandContext is, inside a host function, the context of the command a
// Warm instance runs (the one given to Warm.Run), so that per-command values
// reach host functions; for any other instance it is ctx itself.
func CommandContext(ctx context.Context) context.Context {
	if w, ok := ctx.Value(warmKey{}).(*Warm); ok {
		if c := w.cur.Load(); c != nil {
			return c.ctx
		}
	}
	return ctx
}

// NewWarm starts a Warm instance of img and waits until it asks for its
// first request. The instance lives until Close (or a command that ends
// it); ctx only bounds the start.
func (img *Image) NewWarm(ctx context.Context, spec WarmSpec) (*Warm, error) {
	w := img.newWarm(ctx, spec, nil)
	cfg := w.config([]string{img.name}, warmStartEnv(), img.mounts(spec.FS, nil, nil))
	if img.reactor {
		return w.startReactor(ctx, cfg, spec.FS)
	}
	return w.start(ctx, cfg)
}

// newWarm is a Warm instance not started yet, whose memory counts against
// budget (nil: none) from its start.
func (img *Image) newWarm(ctx context.Context, spec WarmSpec, budget *MemoryBudget) *Warm {
	base, kill := context.WithCancel(context.WithoutCancel(ctx))
	w := &Warm{
		img:    img,
		fs:     spec.FS,
		alloc:  img.allocator(spec.MemoryLimitPages, budget),
		kill:   kill,
		reqs:   make(chan *warmCmd),
		ready:  make(chan struct{}),
		exited: make(chan struct{}),
	}
	w.base = context.WithValue(base, warmKey{}, w)
	return w
}

// config is a warm instance's module config: stdio switched to the current
// command's, sleeps that end with the instance.
func (w *Warm) config(args []string, env map[string]string, mounts wazero.FSConfig) wazero.ModuleConfig {
	return moduleConfig(args, env, warmStdin{w}, warmOut{w, 1}, warmOut{w, 2}, mounts, w.base)
}

// start runs the instance on its own goroutine and waits until it is ready
// for a request.
func (w *Warm) start(ctx context.Context, cfg wazero.ModuleConfig) (*Warm, error) {
	return w.run0(ctx, cfg, nil)
}

// run0 is start, with entry (when not nil) run on the instance instead of
// its start functions, which cfg must then leave out.
func (w *Warm) run0(ctx context.Context, cfg wazero.ModuleConfig, entry func(api.Module) error) (*Warm, error) {
	w.alloc.start()
	go func() {
		defer close(w.exited)
		defer w.alloc.done()
		defer func() { // a bug in a host function must not take the process down
			if r := recover(); r != nil {
				//lint:ignore ST1005 the guest's stack trace follows the colon
				w.exitErr = fmt.Errorf("host panic: %v\nwasm stack trace:", r)
			}
		}()
		mod, err := w.img.e.rt.InstantiateModule(experimental.WithMemoryAllocator(w.base, w.alloc), w.img.compiled, cfg)
		if err == nil && entry != nil {
			err = entry(mod)
		}
		if mod != nil {
			mod.Close(context.Background())
		}
		w.exitErr = err
	}()
	select {
	case <-w.ready:
		return w, nil
	case <-w.exited:
		err := w.exitErr
		if err == nil {
			err = errors.New("it exited before its first request")
		}
		return nil, fmt.Errorf("engine: warm %s: %w", w.img.name, err)
	case <-ctx.Done():
		w.Close()
		return nil, ctx.Err()
	}
}

// Run runs one command in the instance and waits for it to end. spec.FS
// must be nil or the instance's; spec.MemoryLimitPages is ignored (the
// instance's cap holds). The code and error mean what they mean for
// Image.Run. One command at a time: a Run while another runs, or after the
// instance ended, is an error with code -1.
func (w *Warm) Run(ctx context.Context, spec RunSpec) (code int, err error) {
	w.mu.Lock()
	own := w.fs
	w.mu.Unlock()
	if w.spare != nil && own == nil {
		return -1, ErrSpareUnbound
	}
	if spec.FS != nil && spec.FS != own {
		return -1, errors.New("engine: warm run: another FS than the instance's")
	}
	dir, err := runDir(spec.Dir)
	if err != nil {
		return -1, err
	}
	if len(spec.Args) == 0 {
		spec.Args = []string{w.img.name}
	}
	w.mu.Lock()
	switch {
	case w.busy:
		w.mu.Unlock()
		return -1, errors.New("engine: warm run: the instance is running another command")
	case w.broken:
		w.mu.Unlock()
		return -1, errors.New("engine: warm run: the instance ended")
	}
	w.busy = true
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		w.busy = false
		w.mu.Unlock()
	}()

	if spec.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, spec.Timeout)
		defer cancel()
	}
	if err := ctx.Err(); err != nil {
		return ctxResult(err)
	}
	stderr := orDiscard(spec.Stderr)
	if !w.alloc.rebudget(spec.Budget) {
		w.markBroken()
		fmt.Fprintf(stderr, "wasm: memory limit exceeded: the shell alone is over the command's %d MiB\n", spec.Budget.Limit()>>20)
		return ExitTrap, &RunError{Code: ExitTrap, Kind: ErrMemoryLimit, Detail: "the shell alone is over the budget"}
	}
	env := make(map[string]string, len(spec.Env)+1)
	maps.Copy(env, spec.Env)
	env["PWD"] = dir
	if w.python != nil {
		raw, ok := w.python.request(spec.Args, env, dir)
		if !ok {
			return -1, errors.New("engine: prestarted python: a command it does not serve (Serves)")
		}
		return w.run(ctx, raw, spec, stderr)
	}
	// its strings as bytes: names that are not UTF-8 arrive unchanged
	req := procspec.Spec{Args: spec.Args, Dir: dir}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		req.Env = append(req.Env, k+"="+env[k])
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return -1, fmt.Errorf("engine: warm run: %w", err)
	}
	return w.run(ctx, raw, spec, stderr)
}

// run hands the request raw to the guest and waits for its end.
func (w *Warm) run(ctx context.Context, raw []byte, spec RunSpec, stderr io.Writer) (int, error) {
	c := &warmCmd{
		ctx:    ctx,
		req:    raw,
		stdin:  stdinFor(ctx, spec.Stdin),
		stdout: orDiscard(spec.Stdout),
		stderr: stderr,
		done:   make(chan warmDone, 1),
	}
	w.cur.Store(c)
	defer w.cur.Store(nil)
	stop := context.AfterFunc(ctx, w.markBrokenAndKill)

	select {
	case w.reqs <- c:
	case <-w.exited:
	}
	if w.python != nil { // its end is the command's
		<-w.exited
		stop()
		w.markBroken()
		if ctx.Err() != nil {
			return ctxResult(ctx.Err())
		}
		return w.img.result(w.base, w.exitErr, w.alloc, stderr)
	}
	select {
	case d := <-c.done:
		if !stop() {
			// ctx ended at the very end: the instance is being closed,
			// but the command had finished.
			w.markBroken()
		}
		if d.goroutines > w.baseline.Load() || w.alloc.hit.Load() {
			w.markBroken()
		}
		if d.code != 0 && w.alloc.hit.Load() {
			return w.img.result(ctx, sys.NewExitError(uint32(d.code)), w.alloc, stderr)
		}
		return int(d.code), nil
	case <-w.exited:
		stop()
		w.markBroken()
		if ctx.Err() != nil {
			return ctxResult(ctx.Err())
		}
		if w.exitErr == nil {
			return -1, errors.New("engine: warm run: the instance exited")
		}
		return w.img.result(w.base, w.exitErr, w.alloc, stderr)
	}
}

// FS is the instance's filesystem, for the processes its commands start.
func (w *Warm) FS() experimentalsys.FS {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fs
}

// Reusable reports whether the instance can run another command: it did
// not end, and nothing of the last command still runs in it.
func (w *Warm) Reusable() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return !w.broken && !w.busy
}

// Close ends the instance and waits until it is gone. Later calls do
// nothing.
func (w *Warm) Close() {
	w.markBrokenAndKill()
	<-w.exited
}

// isReady and signalReady: whether the guest has asked for its first
// request, and saying it has. Called on the guest's goroutine only.
func (w *Warm) isReady() bool {
	select {
	case <-w.ready:
		return true
	default:
		return false
	}
}

func (w *Warm) signalReady() {
	if !w.isReady() {
		close(w.ready)
	}
}

func (w *Warm) markBroken() {
	w.mu.Lock()
	w.broken = true
	w.mu.Unlock()
}

func (w *Warm) markBrokenAndKill() {
	w.markBroken()
	w.kill()
}

// warmStdin and warmOut are the instance's stdio: the current command's,
// nothing between commands.
type warmStdin struct{ w *Warm }

func (s warmStdin) Read(p []byte) (int, error) {
	w := s.w
	if w.python != nil {
		if w.taken == nil { // CPython is up and asks for its request
			w.signalReady()
			select {
			case w.taken = <-w.reqs:
				w.request = w.taken.req
			case <-w.base.Done():
				return 0, io.EOF
			}
		}
		if len(w.request) > 0 {
			n := copy(p, w.request)
			w.request = w.request[n:]
			return n, nil
		}
	}
	c := w.cur.Load()
	if c == nil || c.stdin == nil {
		return 0, io.EOF
	}
	return c.stdin.Read(p)
}

type warmOut struct {
	w  *Warm
	fd int
}

func (o warmOut) Write(p []byte) (int, error) {
	c := o.w.cur.Load()
	if c == nil {
		return len(p), nil
	}
	if o.fd == 1 {
		return c.stdout.Write(p)
	}
	return c.stderr.Write(p)
}

// instantiateWarm defines WarmProtocol's host module.
func (e *Engine) instantiateWarm(ctx context.Context) error {
	i32 := api.ValueTypeI32
	b := e.rt.NewHostModuleBuilder(warmModuleName)
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(warmNext), []api.ValueType{i32, i32, i32}, []api.ValueType{i32}).
		WithParameterNames("buf", "cap", "goroutines").
		Export("next")
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(warmDoneCall), []api.ValueType{i32, i32}, []api.ValueType{i32}).
		WithParameterNames("code", "goroutines").
		Export("done")
	if _, err := b.Instantiate(ctx); err != nil {
		return fmt.Errorf("engine: %s: %w", warmModuleName, err)
	}
	return nil
}

func warmNext(ctx context.Context, m api.Module, stack []uint64) {
	buf, size, goroutines := api.DecodeU32(stack[0]), api.DecodeU32(stack[1]), api.DecodeI32(stack[2])
	stack[0] = 0
	w, ok := ctx.Value(warmKey{}).(*Warm)
	if !ok {
		return // not a Warm instance: exit
	}
	if !w.isReady() {
		w.baseline.Store(goroutines)
		w.signalReady()
	}
	if w.back != nil { // back from a Recycle: waiting as a new clone does
		close(w.back)
		w.back = nil
	}
	c := w.pending
	if c == nil {
		select {
		case c = <-w.reqs:
		case <-w.base.Done():
			return
		}
	}
	if c.recycle != nil {
		// Unwinds the guest's stack to startShellClone, which lays the
		// template in again and calls serve anew.
		w.back = c.recycle
		panic(errRecycle)
	}
	if uint32(len(c.req)) > size {
		w.pending = c
		stack[0] = api.EncodeI32(int32(len(c.req)))
		return
	}
	w.pending = nil
	if !m.Memory().Write(buf, c.req) {
		c.done <- warmDone{code: 126, goroutines: 1 << 30}
		return
	}
	stack[0] = api.EncodeI32(int32(len(c.req)))
}

func warmDoneCall(ctx context.Context, m api.Module, stack []uint64) {
	code, goroutines := api.DecodeI32(stack[0]), api.DecodeI32(stack[1])
	stack[0] = 0
	w, ok := ctx.Value(warmKey{}).(*Warm)
	if !ok {
		return
	}
	if c := w.cur.Load(); c != nil {
		select {
		case c.done <- warmDone{code: code, goroutines: goroutines}:
		default:
		}
	}
}
