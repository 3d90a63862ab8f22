package wasm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/agentenkit/agentenkit/internal/procspec"
	"github.com/agentenkit/agentenkit/providers/wasm/internal/engine"
	"github.com/agentenkit/agentenkit/vfs"
)

// The host module "agentenkit": how the busybox guest starts other
// instances (python3, pipeline stages) on its sandbox's files. A host call
// that blocks freezes every goroutine of a Go guest, so each call returns at
// once and the guest polls; proc_poll sleeps until a process of the calling
// instance has news. The guest side is shell/wasip1_proc.go, which
// documents the ABI. Every instance has a procTable of its own, found
// through the context its host calls get; a child's table is a new one, so
// children start grandchildren the same way.

const hostModuleName = "agentenkit"

// Results of the process calls (shell/wasip1_proc.go has the same).
const (
	resWouldBlock = -1
	resClosed     = -2
	resBadHandle  = -3
	resRunning    = -1

	resErrSpec    = -1
	resErrImage   = -2
	resErrLimit   = -3
	resErrNoStart = -4
)

// SIGPIPEExitCode is the status of a process whose output's reader went
// away (`… | head -1`), as a shell reports a SIGPIPE kill.
const SIGPIPEExitCode = 141

// maxDepth bounds how deep processes may start processes.
const maxDepth = 16

// procSpec is proc_start's spec (and the control file's start): its
// strings travel as bytes, so names that are not UTF-8 arrive unchanged.
type procSpec = procspec.Spec

// defaultUmask is the umask a command starts with, as under a login shell.
const defaultUmask = 0o022

// cmdHost is what every process of one RunCommand shares: the images, the
// sandbox's files and the limits.
type cmdHost struct {
	image func(ctx context.Context, name string) (*engine.Image, error)
	// shell and release lend a warm busybox instance of the sandbox
	// (shells.go) for a busybox child; nil starts a new instance.
	shell   func(ctx context.Context) (*shell, error)
	release func(*shell)
	// python lends a prestarted Python that serves args with env, or nil;
	// pythonRan is told of every python command (and how long it took in
	// a new CPython, else 0), to prestart the next. Both or neither.
	python    func(ctx context.Context, img *engine.Image, args []string, env map[string]string) *shell
	pythonRan func(img *engine.Image, argv0 string, env map[string]string, cold time.Duration)
	fs        experimentalsys.FS
	pyVersion string // the python image's CPython version, for busybox children (pythonVersionEnv)
	st        *state // the sandbox: control files of its Pythons (pyproc.go)
	memPages  uint32
	budget    *engine.MemoryBudget
	maxProcs  int32
	live      atomic.Int32 // processes started and not yet ended
}

// procTable is one instance's children.
type procTable struct {
	host  *cmdHost
	depth int
	umask uint32 // the instance's umask at start (fs_umask)

	mu     sync.Mutex
	next   int32
	procs  map[int32]*proc
	closed bool
	wakeCh chan struct{} // one token: something changed
}

func newProcTable(host *cmdHost, depth int) *procTable {
	return &procTable{host: host, depth: depth, umask: defaultUmask, procs: map[int32]*proc{}, wakeCh: make(chan struct{}, 1)}
}

type tableKey struct{}

func withTable(ctx context.Context, t *procTable) context.Context {
	return context.WithValue(ctx, tableKey{}, t)
}

func tableFrom(ctx context.Context) *procTable {
	t, _ := ctx.Value(tableKey{}).(*procTable)
	return t
}

func (t *procTable) wake() {
	select {
	case t.wakeCh <- struct{}{}:
	default:
	}
}

// proc is one child.
type proc struct {
	stdin    *pipe // written by the guest; nil when fed by another child
	stdinSrc *pipe // what the child reads
	stdout   *pipe
	stderr   *pipe // nil with StderrToStdout
	consumed bool  // stdout is read by a later child, not the guest
	cancel   context.CancelFunc
	sigpipe  atomic.Bool
	killedBy atomic.Int32 // the signal a kill through the control file named
	done     chan struct{}
	code     int
}

func (t *procTable) get(h int32) *proc {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.procs[h]
}

// closeAll kills every child still running (their own children with
// them): the instance that started them ended.
func (t *procTable) closeAll() {
	t.mu.Lock()
	t.closed = true
	procs := t.procs
	t.procs = map[int32]*proc{}
	t.mu.Unlock()
	for _, p := range procs {
		p.kill()
	}
}

func (p *proc) kill() {
	p.cancel()
	if p.stdin != nil {
		p.stdin.closeWrite()
	}
	p.stdout.closeRead()
	if p.stderr != nil {
		p.stderr.closeRead()
	}
}

// start starts a child and returns its handle, or a res* error.
func (t *procTable) start(ctx context.Context, spec procSpec) int32 {
	switch spec.Image {
	case "python", "busybox", "node":
	default:
		return resErrImage
	}
	if len(spec.Args) == 0 {
		return resErrSpec
	}
	if t.depth >= maxDepth {
		return resErrLimit
	}
	if t.host.live.Add(1) > t.host.maxProcs {
		t.host.live.Add(-1)
		return resErrLimit
	}
	p := &proc{stdout: newPipe(t.wake), done: make(chan struct{})}
	if !spec.StderrToStdout {
		p.stderr = newPipe(t.wake)
	}
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		t.host.live.Add(-1)
		return resErrNoStart
	}
	if spec.StdinFrom != 0 {
		src := t.procs[spec.StdinFrom]
		if src == nil || src.consumed {
			t.mu.Unlock()
			t.host.live.Add(-1)
			return resErrSpec
		}
		src.consumed = true
		p.stdinSrc = src.stdout
	} else {
		p.stdin = newPipe(t.wake)
		p.stdinSrc = p.stdin
	}
	t.next++
	h := t.next
	t.procs[h] = p
	childCtx, cancel := context.WithCancel(ctx)
	p.cancel = cancel
	t.mu.Unlock()

	child := newProcTable(t.host, t.depth+1)
	if spec.Umask != nil {
		child.umask = *spec.Umask & 0o777
	}
	childCtx = withTable(childCtx, child)
	go t.run(childCtx, p, child, spec)
	return h
}

// runImage runs a child of img; a python3 child in a prestarted CPython
// when the sandbox has one that serves it (and then prestarts the next).
func (h *cmdHost) runImage(ctx context.Context, img *engine.Image, spec procSpec, env map[string]string, rs engine.RunSpec) (int, error) {
	if spec.Image != "python" || h.python == nil {
		return img.Run(ctx, rs)
	}
	var code int
	var err error
	var cold time.Duration
	if pre := h.python(ctx, img, spec.Args, env); pre != nil {
		rs.FS = nil // its own: the same files
		code, err = pre.w.Run(ctx, rs)
		pre.w.Close()
	} else {
		began := time.Now()
		code, err = img.Run(ctx, rs)
		cold = time.Since(began)
	}
	h.pythonRan(img, spec.Args[0], env, cold)
	return code, err
}

// run runs one child to its end.
func (t *procTable) run(ctx context.Context, p *proc, child *procTable, spec procSpec) {
	defer func() {
		child.closeAll()
		p.stdout.closeWrite()
		if p.stderr != nil {
			p.stderr.closeWrite()
		}
		p.stdinSrc.closeRead() // a writer feeding it gets EPIPE
		p.cancel()
		t.host.live.Add(-1)
		close(p.done)
		t.wake()
	}()
	stderr := p.stderr
	if stderr == nil {
		stderr = p.stdout
	}
	outW := &childWriter{ctx: ctx, p: p.stdout, proc: p}
	errW := &childWriter{ctx: ctx, p: stderr, proc: p}
	code, _ := t.runChild(ctx, child, spec, pipeReader{ctx: ctx, p: p.stdinSrc}, outW, errW)
	if p.sigpipe.Load() {
		code = SIGPIPEExitCode
	}
	p.code = code
}

// runChild runs spec, a child whose processes are child's, with the given
// stdio, and returns its exit status as a shell sees it (0-255: a code
// past them is taken modulo 256, as by wait(2); a child that could not
// start is 127 or 126, with a line on stderr saying why) and, when the
// engine ended it (time, cancellation, memory, trap), the *engine.RunError.
func (t *procTable) runChild(ctx context.Context, child *procTable, spec procSpec, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	env := make(map[string]string, len(spec.Env))
	for _, kv := range spec.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			env[k] = v
		}
	}
	dir := spec.Dir
	if dir == "" || !strings.HasPrefix(dir, "/") {
		dir = "/"
	}
	if spec.Image == "python" && t.host.st != nil {
		tok, unregister := registerCtl(ctx, t.host.st, child)
		defer unregister()
		env[ctlEnv] = tok
	}
	if spec.Image == "busybox" {
		withPythonVersion(env, t.host.pyVersion)
	}
	rs := engine.RunSpec{
		Args:             spec.Args,
		Env:              env,
		Dir:              dir,
		FS:               t.host.fs,
		Stdin:            stdin,
		Stdout:           stdout,
		Stderr:           stderr,
		MemoryLimitPages: t.host.memPages,
		Budget:           t.host.budget,
	}
	var code int
	var err, startErr error
	if spec.Image == "busybox" && t.host.shell != nil {
		var sh *shell
		if sh, startErr = t.host.shell(ctx); startErr == nil {
			rs.FS = nil // the shell's own: the same files
			code, err = sh.w.Run(ctx, rs)
			t.host.release(sh)
		}
	} else {
		var img *engine.Image
		if img, startErr = t.host.image(ctx, spec.Image); startErr == nil {
			code, err = t.host.runImage(ctx, img, spec, env, rs)
		}
	}
	if startErr != nil {
		fmt.Fprintf(stderr, "%s: %v\n", spec.Args[0], startErr)
		return 127, nil
	}
	var re *engine.RunError
	switch {
	case err == nil:
	case errors.As(err, &re):
		return code & 0xff, err
	default:
		fmt.Fprintf(stderr, "%s: cannot start: %v\n", spec.Args[0], err)
		return 126, nil
	}
	return code & 0xff, nil
}

// childWriter is a child's stdout or stderr. When the reader is gone the
// child is ended, as SIGPIPE would end it: its context is cancelled, and
// until the instance stops (at its next check) its writes are taken and
// dropped, so that it never sees an error to report.
type childWriter struct {
	ctx  context.Context
	p    *pipe
	proc *proc
}

func (w *childWriter) Write(b []byte) (int, error) {
	if w.proc.sigpipe.Load() {
		return len(b), nil
	}
	n, err := w.p.write(w.ctx, b)
	if errors.Is(err, errPipeClosed) {
		w.proc.sigpipe.Store(true)
		w.proc.cancel()
		return len(b), nil
	}
	return n, err
}

// defineHostModule adds the process calls to b.
func defineHostModule(b wazero.HostModuleBuilder) wazero.HostModuleBuilder {
	i32 := api.ValueTypeI32
	def := func(name string, f func(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32, params ...api.ValueType) {
		b.NewFunctionBuilder().
			WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, m api.Module, stack []uint64) {
				ctx = engine.CommandContext(ctx) // a warm shell's: the command's
				t := tableFrom(ctx)
				if t == nil {
					stack[0] = api.EncodeI32(resBadHandle)
					return
				}
				stack[0] = api.EncodeI32(f(ctx, t, m, stack))
			}), params, []api.ValueType{i32}).
			Export(name)
	}
	def("proc_start", hostStart, i32, i32)
	def("proc_write", hostWrite, i32, i32, i32)
	def("proc_stdin_wanted", hostStdinWanted, i32)
	def("proc_close_stdin", hostCloseStdin, i32)
	def("proc_read", hostRead, i32, i32, i32, i32)
	def("proc_wait", hostWait, i32)
	def("proc_free", hostFree, i32)
	def("proc_poll", hostPoll, i32)
	def("fs_chmod", hostChmod, i32, i32, i32)
	def("fs_umask", hostUmask)
	return b
}

func hostStart(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	raw, ok := m.Memory().Read(api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	if !ok {
		return resErrSpec
	}
	var spec procSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return resErrSpec
	}
	return t.start(ctx, spec)
}

func hostWrite(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	p := t.get(api.DecodeI32(stack[0]))
	if p == nil || p.stdin == nil {
		return resBadHandle
	}
	b, ok := m.Memory().Read(api.DecodeU32(stack[1]), api.DecodeU32(stack[2]))
	if !ok {
		return resBadHandle
	}
	n, closed := p.stdin.tryWrite(b)
	switch {
	case closed:
		return resClosed
	case n == 0 && len(b) > 0:
		return resWouldBlock
	}
	return int32(n)
}

func hostStdinWanted(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	p := t.get(api.DecodeI32(stack[0]))
	if p == nil || p.stdin == nil {
		return resBadHandle
	}
	want, gone := p.stdin.wanted()
	select {
	case <-p.done:
		gone = true
	default:
	}
	switch {
	case gone:
		return resClosed
	case want:
		return 1
	}
	return 0
}

func hostCloseStdin(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	p := t.get(api.DecodeI32(stack[0]))
	if p == nil || p.stdin == nil {
		return resBadHandle
	}
	p.stdin.closeWrite()
	return 0
}

func hostRead(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	p := t.get(api.DecodeI32(stack[0]))
	if p == nil {
		return resBadHandle
	}
	var src *pipe
	switch api.DecodeI32(stack[1]) {
	case 1:
		if p.consumed {
			return resBadHandle
		}
		src = p.stdout
	case 2:
		src = p.stderr
	}
	if src == nil {
		return resBadHandle
	}
	b, ok := m.Memory().Read(api.DecodeU32(stack[2]), api.DecodeU32(stack[3]))
	if !ok {
		return resBadHandle
	}
	n, eof := src.tryRead(b)
	switch {
	case n > 0:
		return int32(n)
	case eof:
		return 0
	}
	return resWouldBlock
}

func hostWait(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	p := t.get(api.DecodeI32(stack[0]))
	if p == nil {
		return resBadHandle
	}
	select {
	case <-p.done:
		return int32(p.code)
	default:
		return resRunning
	}
}

func hostFree(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	h := api.DecodeI32(stack[0])
	t.mu.Lock()
	p := t.procs[h]
	delete(t.procs, h)
	t.mu.Unlock()
	if p != nil {
		select {
		case <-p.done:
		default:
			p.kill()
		}
	}
	return 0
}

func hostPoll(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	ms := api.DecodeI32(stack[0])
	if ms <= 0 {
		return 0
	}
	timer := time.NewTimer(time.Duration(min(ms, 1000)) * time.Millisecond)
	defer timer.Stop()
	select {
	case <-t.wakeCh:
	case <-timer.C:
	case <-ctx.Done():
	}
	return 0
}

// hostChmod is fs_chmod(path, len, mode): it sets the permission bits
// (07777, as chmod(2) takes them) of what the absolute path leads to, and
// returns 0 or wazero's experimental/sys Errno (ENOENT is 12, ENOTDIR 14,
// ELOOP 10, EPERM 19). WASI preview 1 has no chmod of its own.
func hostChmod(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	raw, ok := m.Memory().Read(api.DecodeU32(stack[0]), api.DecodeU32(stack[1]))
	if !ok {
		return int32(experimentalsys.EFAULT)
	}
	return int32(t.host.chmod(string(raw), api.DecodeU32(stack[2])))
}

// rename renames from to to (absolute, in the sandbox) as rename(2) does,
// for a Python whose own rename would cross its mounts (WASI renames
// nothing from one mount to another: engine.PythonUsrMounts), and returns
// the errno.
func (h *cmdHost) rename(from, to string) experimentalsys.Errno {
	rel := func(p string) string { return strings.TrimPrefix(path.Clean("/"+p), "/") }
	return h.fs.Rename(rel(from), rel(to))
}

// chmod sets the mode of p (absolute, in the sandbox) to the Unix bits
// mode.
func (h *cmdHost) chmod(p string, mode uint32) experimentalsys.Errno {
	return h.fs.Chmod(strings.TrimPrefix(path.Clean("/"+p), "/"), vfs.FileMode(mode))
}

// hostUmask is fs_umask(): the umask the calling instance was started
// with (022, or what its parent passed in procSpec.Umask).
func hostUmask(ctx context.Context, t *procTable, m api.Module, stack []uint64) int32 {
	return int32(t.umask)
}
