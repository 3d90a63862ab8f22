package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentenkit/agentenkit"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/storage/memstorage"
	"github.com/agentenkit/agentenkit/sandbox"
)

// envDaemonIdle sets how long the daemon stays up with no client.
const envDaemonIdle = "AGENTENKIT_DAEMON_IDLE"

// defaultDaemonIdle is how long the daemon stays up with no client when
// $AGENTENKIT_DAEMON_IDLE does not say.
const defaultDaemonIdle = 10 * time.Minute

// exitDaemonBusy is serve's exit status when another daemon holds the
// state folder's lock: the client that started it keeps waiting for that
// one to answer.
const exitDaemonBusy = 3

// Causes a daemon's command ends for, other than a client's signal.
var (
	errClientGone     = errors.New("the client went away")
	errDaemonStopping = errors.New("the daemon is stopping")
)

func cmdDaemon(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "daemon", "daemon status | stop | serve [--idle D]", `
run on the wasm provider (the default) is served by a daemon per state
folder: the first run starts it (the same binary, detached, its own
session), later runs connect to it, and it keeps the engine, the compiled
images and the threads' sandboxes warm. It ends by itself after --idle with
no client (default 10m, $`+envDaemonIdle+`), when stopped, and when a run of
another build of agentenkit replaces it. Its socket (0600, in a 0700
folder: only this user) and its log are in the state folder's daemon/
folder; run --no-daemon or $AGENTENKIT_DAEMON=0 goes without it.

  status   say whether it runs: pid, build, uptime, memory, socket and log
  stop     stop it (its running commands are interrupted)
  serve    be the daemon, in the foreground (what run starts)`)
	idle := fs.Duration("idle", 0, "serve: exit after this long with no client (default 10m, or $"+envDaemonIdle+")")
	imagesDir := fs.String("images", "", "serve: the wasm images folder to compile at start, before the first run asks")
	pythonImage := fs.String("python-image", "", "serve: the python image to prepare at start (with --images)")
	var sub string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		sub, args = args[0], args[1:]
	}
	if code, ok := parse(fs, args); !ok {
		return code
	}
	rest := fs.Args()
	if sub == "" && len(rest) > 0 {
		sub, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		return usageError(e, fs, fmt.Sprintf("unknown arguments %q", strings.Join(rest, " ")))
	}
	files, err := daemonPaths()
	if err != nil {
		return fail(e, err)
	}
	switch sub {
	case "status":
		return daemonStatusCmd(e, files)
	case "stop":
		return daemonStopCmd(e, files)
	case "serve":
		d := *idle
		if d <= 0 {
			d = defaultDaemonIdle
			if v := os.Getenv(envDaemonIdle); v != "" {
				parsed, err := time.ParseDuration(v)
				if err != nil || parsed <= 0 {
					return fail(e, withHint(fmt.Errorf("$%s=%q is not a duration", envDaemonIdle, v), "set it to a duration such as 10m or 1h"))
				}
				d = parsed
			}
		}
		return serveDaemon(ctx, e, files, serveOptions{idle: d, imagesDir: *imagesDir, pythonImage: *pythonImage})
	case "":
		return usageError(e, fs, "say what to do: agentenkit daemon status, stop or serve")
	}
	return usageError(e, fs, fmt.Sprintf("unknown subcommand %q (status, stop or serve)", sub))
}

type serveOptions struct {
	idle        time.Duration
	imagesDir   string // compiled at start when set
	pythonImage string
}

// daemonServer serves runs from its socket, keeping one wasm provider set
// per images folder and python image, and the state folder's kv, open.
type daemonServer struct {
	files daemonFiles
	log   *log.Logger
	hello daemonHello
	idle  time.Duration

	base     context.Context // cancelled when the daemon stops
	stopping context.CancelCauseFunc
	stop     chan string // a reason to stop, from a client or a watcher
	wg       sync.WaitGroup

	mu       sync.Mutex
	active   int // connections being served
	running  int // commands running
	lastUsed time.Time
	kv       kv.Store
	sets     map[wasmKey]*wasmSet
}

// wasmKey names one configuration of the wasm provider.
type wasmKey struct{ imagesDir, pythonImage string }

// wasmSet is the wasm provider of thread-less runs (its sandboxes in this
// process's memory, as a run without the daemon has them) and the state of
// threads' runs (the kv of the state folder, a provider over it, a
// runtime), made on first use.
type wasmSet struct {
	ephemeral *wasm.Provider
	threads   *state
	// spare is the next thread-less run's sandbox, made ahead (refill).
	spare   chan sandbox.Sandbox
	filling bool // a spare is being made
}

// daemonLock is the daemon's lock file, kept open (and locked) until the
// process exits, so that a client waiting for it to end (lockFree) sees
// the lock free only then.
var daemonLock *os.File

// serveDaemon is the daemon: it takes the state folder's lock (or leaves
// it to the daemon that has it), listens on the socket and serves until
// it is stopped, idle for opts.idle, or its socket is taken away.
func serveDaemon(ctx context.Context, e *env, files daemonFiles, opts serveOptions) int {
	logger := log.New(e.stderr, fmt.Sprintf("agentenkit daemon[%d]: ", os.Getpid()), log.LstdFlags|log.Lmsgprefix)
	if err := files.prepare(); err != nil {
		return fail(e, err)
	}
	lock, ok, err := lockFile(files.lock)
	if err != nil {
		return fail(e, err)
	}
	if !ok {
		logger.Printf("another daemon serves %s (it holds %s): leaving it to that one", files.state, files.lock)
		return exitDaemonBusy
	}
	daemonLock = lock // held until the process exits, not collected before
	// Holding the lock, no other daemon lives: a socket file is a dead one's.
	if err := os.Remove(files.sock); err == nil {
		logger.Printf("removed the stale socket %s of a daemon that ended without cleaning up", files.sock)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: files.sock, Net: "unix"})
	if err != nil {
		return fail(e, fmt.Errorf("daemon: listen on %s: %w", files.sock, err))
	}
	ln.SetUnlinkOnClose(false) // removed below, only while still ours
	if err := os.Chmod(files.sock, 0o600); err != nil {
		ln.Close()
		os.Remove(files.sock)
		return fail(e, fmt.Errorf("daemon: %w", err))
	}
	sockInfo, err := os.Lstat(files.sock)
	if err != nil {
		ln.Close()
		return fail(e, fmt.Errorf("daemon: %w", err))
	}
	base, stopping := context.WithCancelCause(context.Background())
	s := &daemonServer{
		files:    files,
		log:      logger,
		hello:    daemonHello{Build: buildID(), Version: buildVersion(), PID: os.Getpid(), Started: time.Now()},
		idle:     opts.idle,
		base:     base,
		stopping: stopping,
		stop:     make(chan string, 1),
		lastUsed: time.Now(),
		sets:     map[wasmKey]*wasmSet{},
	}
	logger.Printf("serving %s on %s (build %s, version %s); exits after %s with no client", files.state, files.sock, s.hello.Build, s.hello.Version, opts.idle)
	if opts.imagesDir != "" {
		go s.prewarm(wasmKey{opts.imagesDir, opts.pythonImage})
	}
	go s.accept(ln)
	go s.watch(sockInfo)

	var why string
	select {
	case why = <-s.stop:
	case <-ctx.Done():
		why = context.Cause(ctx).Error()
	}
	logger.Printf("stopping: %s", why)
	ln.Close()
	if sameFile(files.sock, sockInfo) {
		os.Remove(files.sock)
	}
	stopping(errDaemonStopping)
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		logger.Printf("gave up waiting for the running commands to end")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.kv != nil {
		if err := s.kv.Close(); err != nil {
			logger.Printf("close the kv: %v", err)
		}
	}
	logger.Printf("stopped; %s is unlocked as the process exits", daemonLock.Name())
	return 0
}

// requestStop asks the daemon to stop (once; later asks are dropped).
func (s *daemonServer) requestStop(why string) {
	select {
	case s.stop <- why:
	default:
	}
}

// watch stops the daemon when it has had no client for s.idle, or when
// its socket file is gone or another's (its state folder removed, or
// taken over): no daemon outlives its state folder.
func (s *daemonServer) watch(sock os.FileInfo) {
	tick := time.NewTicker(max(10*time.Millisecond, min(time.Second, s.idle/4)))
	defer tick.Stop()
	for {
		select {
		case <-s.base.Done():
			return
		case <-tick.C:
		}
		if !sameFile(s.files.sock, sock) {
			s.requestStop("its socket " + s.files.sock + " is gone or another's")
			return
		}
		s.mu.Lock()
		idle := s.active == 0 && time.Since(s.lastUsed) >= s.idle
		s.mu.Unlock()
		if idle {
			s.requestStop(fmt.Sprintf("no client for %s", s.idle))
			return
		}
	}
}

func (s *daemonServer) accept(ln *net.UnixListener) {
	for {
		c, err := ln.AcceptUnix()
		if err != nil {
			if s.base.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			s.log.Printf("accept: %v", err)
			time.Sleep(50 * time.Millisecond)
			continue
		}
		s.mu.Lock()
		if s.base.Err() != nil {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.active++
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				s.active--
				s.lastUsed = time.Now()
				s.mu.Unlock()
			}()
			s.serve(c)
		}()
	}
}

// serve answers one connection: the hello, then its one request.
func (s *daemonServer) serve(c *net.UnixConn) {
	defer c.Close()
	if uid, ok := peerUID(c); ok && uid != os.Getuid() {
		s.log.Printf("refused a client of user %d", uid)
		return
	}
	hello, _ := json.Marshal(s.hello)
	if err := writeFrame(c, frameHello, hello); err != nil {
		return
	}
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(time.Minute))
	kind, payload, err := readFrame(br)
	_ = c.SetReadDeadline(time.Time{})
	if err != nil {
		if !errors.Is(err, io.EOF) {
			s.log.Printf("read a request: %v", err)
		}
		return
	}
	var req daemonRequest
	if kind != frameRequest || json.Unmarshal(payload, &req) != nil {
		s.log.Printf("not a request: frame %q", kind)
		return
	}
	switch req.Op {
	case "run":
		if req.Run == nil {
			s.log.Printf("a run request without its command")
			return
		}
		s.run(c, br, *req.Run)
	case "status", "stop":
		st := s.status()
		b, _ := json.Marshal(st)
		_ = writeFrame(c, frameReply, b)
		if req.Op == "stop" {
			s.requestStop("asked to by `agentenkit daemon stop` or a client of another build")
		}
	default:
		s.log.Printf("unknown request %q", req.Op)
	}
}

func (s *daemonServer) status() daemonStatus {
	s.mu.Lock()
	running := s.running
	s.mu.Unlock()
	rss, peak := procMemory()
	return daemonStatus{daemonHello: s.hello, Running: running, IdleExit: s.idle, RSS: rss, PeakRSS: peak, Images: wasm.LoadedImages()}
}

// run runs one command for the client on c, as runSandboxed does in the
// client's own process, and sends its exit code. A cancel frame (the
// client's Ctrl-C or SIGTERM) or the client's going away interrupts it.
func (s *daemonServer) run(c *net.UnixConn, br *bufio.Reader, spec runSpec) {
	s.mu.Lock()
	s.running++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.running--
		s.mu.Unlock()
	}()
	ctx, cancel := context.WithCancelCause(s.base)
	defer cancel(nil)
	go func() {
		for {
			kind, p, err := readFrame(br)
			if err != nil {
				cancel(errClientGone)
				return
			}
			if kind == frameCancel && len(p) == 1 {
				cancel(interrupted{syscall.Signal(p[0])})
			}
		}
	}()
	var mu sync.Mutex
	stdout := &frameWriter{mu: &mu, w: c, kind: frameStdout}
	stderr := &frameWriter{mu: &mu, w: c, kind: frameStderr}
	e := &env{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr}
	code := func() (code int) {
		defer func() {
			if r := recover(); r != nil {
				s.log.Printf("panic in a run of %q: %v\n%s", spec.Command, r, debug.Stack())
				fmt.Fprintf(stderr, "agentenkit: the daemon failed on this command: %v (its log: %s)\n", r, s.files.log)
				code = 1
			}
		}()
		return runSandboxed(ctx, e, spec, s)
	}()
	b, _ := json.Marshal(daemonExit{Code: code})
	mu.Lock()
	_ = writeFrame(c, frameExit, b)
	mu.Unlock()
}

// set returns the wasm provider set of key, made on first use.
func (s *daemonServer) set(key wasmKey) (*wasmSet, error) {
	if !filepath.IsAbs(key.imagesDir) {
		return nil, fmt.Errorf("daemon: the images folder %q is not an absolute path", key.imagesDir)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if set := s.sets[key]; set != nil {
		return set, nil
	}
	set := &wasmSet{
		// node loads on its first command: most runs never need its 34 MiB
		ephemeral: wasm.New(wasm.Options{ImagesDir: key.imagesDir, PythonImage: key.pythonImage, Prewarm: true, LazyNode: true}),
		spare:     make(chan sandbox.Sandbox, 1),
	}
	s.sets[key] = set
	return set, nil
}

// prewarm compiles the images of key (and prepares its Python template)
// before the first run asks.
func (s *daemonServer) prewarm(key wasmKey) {
	start := time.Now()
	set, err := s.set(key)
	if err == nil {
		err = set.ephemeral.Warm(s.base)
	}
	if err != nil {
		s.log.Printf("prewarm %s: %v", key.imagesDir, err)
		return
	}
	s.log.Printf("compiled the images of %s in %s", key.imagesDir, time.Since(start).Round(time.Millisecond))
	s.refill(set)
}

// create returns the sandbox of a thread-less run: the spare one made
// after the last such run (empty, its first shell started) when there is
// one, else a new one; either way a spare is made for the next run.
func (s *daemonServer) create(ctx context.Context, _ *env, spec runSpec) (sandbox.Sandbox, error) {
	if spec.Provider != "wasm" {
		return nil, fmt.Errorf("daemon: it runs the wasm provider only, not %q", spec.Provider)
	}
	set, err := s.set(wasmKey{spec.ImagesDir, spec.PythonImage})
	if err != nil {
		return nil, err
	}
	defer s.refill(set)
	select {
	case sb := <-set.spare:
		if err := sb.SetTimeout(ctx, oneCommandSandbox(spec).Timeout); err == nil {
			return sb, nil
		}
		_ = sb.Destroy(context.WithoutCancel(ctx)) // ended meanwhile: make one
	default:
	}
	return set.ephemeral.Create(ctx, oneCommandSandbox(spec))
}

// refill makes, in the background, the spare sandbox of set when it has
// none and is not making one.
func (s *daemonServer) refill(set *wasmSet) {
	s.mu.Lock()
	if set.filling || len(set.spare) > 0 || s.base.Err() != nil {
		s.mu.Unlock()
		return
	}
	set.filling = true
	s.mu.Unlock()
	go func() {
		sb, err := set.ephemeral.Create(s.base, sandbox.CreateSandboxOptions{})
		s.mu.Lock()
		set.filling = false
		s.mu.Unlock()
		if err != nil {
			if s.base.Err() == nil {
				s.log.Printf("make a spare sandbox: %v", err)
			}
			return
		}
		select {
		case set.spare <- sb:
		default:
			_ = sb.Destroy(context.Background())
		}
	}()
}

// state is the kv, provider and runtime of threads' runs, kept from the
// first such run on; a kv that does not open is tried again by the next.
func (s *daemonServer) state(ctx context.Context, _ *env, spec runSpec) (*state, func(), error) {
	if spec.Provider != "wasm" {
		return nil, nil, fmt.Errorf("daemon: it runs the wasm provider only, not %q", spec.Provider)
	}
	set, err := s.set(wasmKey{spec.ImagesDir, spec.PythonImage})
	if err != nil {
		return nil, nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if set.threads == nil {
		if s.kv == nil {
			store, err := openKv()
			if err != nil {
				return nil, nil, err
			}
			s.kv = store
		}
		p := wasm.New(wasm.Options{Kv: s.kv, ImagesDir: spec.ImagesDir, PythonImage: spec.PythonImage})
		rt, err := agentenkit.SetupAgentCore(context.WithoutCancel(ctx), agentenkit.RuntimeOptions{
			Kv:      s.kv,
			Storage: memstorage.New(memstorage.Options{}),
			Tools:   agentenkit.BuiltinToolPorts{Sandbox: p},
		})
		if err != nil {
			return nil, nil, err
		}
		set.threads = &state{kv: s.kv, provider: p, rt: rt}
	}
	return set.threads, func() {}, nil
}
