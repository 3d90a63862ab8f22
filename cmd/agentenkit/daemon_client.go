package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// The client's patience.
const (
	// daemonStartTimeout: how long run waits for a daemon it started (or
	// one another run started) to answer.
	daemonStartTimeout = time.Minute
	// daemonHelloTimeout: how long a connected daemon has to say hello.
	daemonHelloTimeout = 15 * time.Second
	// daemonStopTimeout: how long a stopped daemon has to end.
	daemonStopTimeout = 15 * time.Second
	// daemonCancelGrace: how long after an interrupt the client waits for
	// the daemon to end the command before it leaves without its answer.
	daemonCancelGrace = 10 * time.Second
	// daemonLogMax: past this size the log is moved to daemon.log.1 when a
	// daemon starts.
	daemonLogMax = 1 << 20
)

// errNoDaemon: nothing answers on the socket (no socket file, a stale
// one, or a daemon closing it).
var errNoDaemon = errors.New("no daemon answers")

// daemonConn is a connection to a daemon that said hello.
type daemonConn struct {
	conn  *net.UnixConn
	br    *bufio.Reader
	hello daemonHello
}

// dialDaemon connects to the daemon of files and reads its hello.
func dialDaemon(files daemonFiles) (*daemonConn, error) {
	c, err := net.DialUnix("unix", nil, &net.UnixAddr{Name: files.sock, Net: "unix"})
	if err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.ECONNREFUSED) {
			return nil, errNoDaemon
		}
		return nil, fmt.Errorf("daemon: connect to %s: %w", files.sock, err)
	}
	_ = c.SetReadDeadline(time.Now().Add(daemonHelloTimeout))
	br := bufio.NewReaderSize(c, 64<<10)
	kind, payload, err := readFrame(br)
	_ = c.SetReadDeadline(time.Time{})
	var hello daemonHello
	switch {
	case err != nil && (errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET)):
		c.Close()
		return nil, errNoDaemon // a daemon stopping
	case err != nil:
		c.Close()
		return nil, fmt.Errorf("daemon: the daemon on %s did not say hello: %w", files.sock, err)
	case kind != frameHello || json.Unmarshal(payload, &hello) != nil:
		c.Close()
		return nil, fmt.Errorf("daemon: what answers on %s is not an agentenkit daemon", files.sock)
	}
	return &daemonConn{conn: c, br: br, hello: hello}, nil
}

// ask sends op ("status" or "stop") and returns the daemon's answer.
func (dc *daemonConn) ask(op string) (daemonStatus, error) {
	var st daemonStatus
	req, _ := json.Marshal(daemonRequest{Op: op})
	if err := writeFrame(dc.conn, frameRequest, req); err != nil {
		return st, fmt.Errorf("daemon: %s: %w", op, err)
	}
	_ = dc.conn.SetReadDeadline(time.Now().Add(daemonHelloTimeout))
	kind, payload, err := readFrame(dc.br)
	if err != nil {
		return st, fmt.Errorf("daemon: %s: %w", op, err)
	}
	if kind != frameReply || json.Unmarshal(payload, &st) != nil {
		return st, fmt.Errorf("daemon: %s: not an answer (frame %q)", op, kind)
	}
	return st, nil
}

// stopDaemon asks dc's daemon to stop and waits until it has ended (its
// lock is free).
func stopDaemon(dc *daemonConn, files daemonFiles) (daemonStatus, error) {
	defer dc.conn.Close()
	st, err := dc.ask("stop")
	if err != nil {
		return st, err
	}
	deadline := time.Now().Add(daemonStopTimeout)
	for !lockFree(files.lock) {
		if time.Now().After(deadline) {
			return st, withHint(fmt.Errorf("daemon: the daemon (pid %d) did not stop within %s", st.PID, daemonStopTimeout), "its log is %s; `kill %d` ends it", files.log, st.PID)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return st, nil
}

// spawned is a daemon this client started.
type spawned struct {
	pid  int
	done chan struct{} // closed when it exited
	code int           // its exit status, once done
	err  error
}

// connectDaemon returns a connection to the state folder's daemon of this
// build (files prepared): the one that answers, else one it starts (replacing a daemon of
// another build, and waiting while another client starts one).
func connectDaemon(ctx context.Context, files daemonFiles, spec runSpec) (*daemonConn, error) {
	deadline := time.Now().Add(daemonStartTimeout)
	var child *spawned
	replaced := false
	for {
		dc, err := dialDaemon(files)
		switch {
		case err == nil && dc.hello.Build == buildID():
			return dc, nil
		case err == nil && replaced:
			dc.conn.Close()
			return nil, fmt.Errorf("daemon: a daemon of another build (pid %d, %s) answers again after it was stopped", dc.hello.PID, dc.hello.Version)
		case err == nil:
			// Another build (an upgrade, a rebuild): stop it, start ours.
			if _, err := stopDaemon(dc, files); err != nil {
				return nil, fmt.Errorf("daemon: stop the daemon of another build: %w", err)
			}
			replaced = true
			continue
		case !errors.Is(err, errNoDaemon):
			return nil, err
		}
		if child != nil {
			select {
			case <-child.done:
				if child.code != exitDaemonBusy {
					return nil, fmt.Errorf("daemon: the daemon it started (pid %d) exited (%v) before it answered:\n%s", child.pid, child.err, logTail(files.log, 15))
				}
				child = nil // another daemon had the lock: wait for it, or start again once it is gone
			default:
			}
		}
		if child == nil && lockFree(files.lock) {
			if child, err = spawnDaemon(files, spec); err != nil {
				return nil, err
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("daemon: no daemon answered on %s within %s", files.sock, daemonStartTimeout)
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// spawnDaemon starts `agentenkit daemon serve` detached: in a session of
// its own, in /, its stdin /dev/null and its output appended to the log.
// It compiles spec's images at start.
func spawnDaemon(files daemonFiles, spec runSpec) (*spawned, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("daemon: find this executable to start the daemon: %w", err)
	}
	if fi, err := os.Stat(files.log); err == nil && fi.Size() > daemonLogMax {
		_ = os.Rename(files.log, files.log+".1")
	}
	logf, err := os.OpenFile(files.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("daemon: open its log: %w", err)
	}
	defer logf.Close()
	args := []string{"daemon", "serve"}
	if spec.ImagesDir != "" {
		args = append(args, "--images", spec.ImagesDir, "--python-image", spec.PythonImage)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), "AGENTENKIT_STATE_DIR="+files.state)
	cmd.Dir = "/"
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("daemon: start %s daemon serve: %w", exe, err)
	}
	s := &spawned{pid: cmd.Process.Pid, done: make(chan struct{})}
	go func() {
		s.err = cmd.Wait()
		s.code = cmd.ProcessState.ExitCode()
		close(s.done)
	}()
	return s, nil
}

// logTail returns the last n lines of the log, indented.
func logTail(file string, n int) string {
	f, err := os.Open(file)
	if err != nil {
		return "\t(no log: " + err.Error() + ")"
	}
	defer f.Close()
	const window = 8 << 10
	if fi, err := f.Stat(); err == nil && fi.Size() > window {
		_, _ = f.Seek(fi.Size()-window, io.SeekStart)
	}
	b, _ := io.ReadAll(f)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "\t" + strings.Join(lines, "\n\t")
}

// daemonHint says what to do when the daemon cannot serve a run.
func daemonHint(err error, files daemonFiles) error {
	return withHint(err, "the daemon's log is %s; `agentenkit daemon stop` stops it, and `agentenkit run --no-daemon` (or $%s=0) runs without it", files.log, envDaemon)
}

// runInDaemon runs spec in the state folder's daemon (started when none
// answers), writing its output to e as it comes, and returns its exit
// code. An interrupt of ctx (Ctrl-C, SIGTERM) is passed on to the daemon,
// which ends the command and answers as runSandboxed does.
func runInDaemon(ctx context.Context, e *env, spec runSpec) int {
	files, err := daemonPaths()
	if err != nil {
		return fail(e, err)
	}
	if err := files.prepare(); err != nil {
		return fail(e, withHint(err, "set $AGENTENKIT_STATE_DIR to a folder you can write, or run with --no-daemon (or $%s=0)", envDaemon))
	}
	dc, err := connectDaemon(ctx, files, spec)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(e.stderr, "agentenkit: interrupted")
			return interruptedCode(ctx)
		}
		return fail(e, daemonHint(err, files))
	}
	defer dc.conn.Close()
	req, _ := json.Marshal(daemonRequest{Op: "run", Run: &spec})
	if err := writeFrame(dc.conn, frameRequest, req); err != nil {
		return fail(e, daemonHint(fmt.Errorf("daemon: send the command: %w", err), files))
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		sig := byte(syscall.SIGINT)
		var in interrupted
		if errors.As(context.Cause(ctx), &in) {
			if s, ok := in.sig.(syscall.Signal); ok {
				sig = byte(s)
			}
		}
		_ = writeFrame(dc.conn, frameCancel, []byte{sig})
		select {
		case <-done:
		case <-time.After(daemonCancelGrace):
			dc.conn.Close() // it does not answer: leave without it
		}
	}()
	for {
		kind, payload, err := readFrame(dc.br)
		if err != nil {
			if ctx.Err() != nil {
				fmt.Fprintln(e.stderr, "agentenkit: interrupted")
				return interruptedCode(ctx)
			}
			if errors.Is(err, io.EOF) {
				err = errors.New("it closed the connection")
			}
			return fail(e, withHint(fmt.Errorf("daemon: the daemon (pid %d) ended before the command did: %w", dc.hello.PID, err),
				"it may have crashed: its log is %s; the next run starts a new daemon, and `agentenkit run --no-daemon` runs without one", files.log))
		}
		switch kind {
		case frameStdout:
			_, _ = e.stdout.Write(payload)
		case frameStderr:
			_, _ = e.stderr.Write(payload)
		case frameExit:
			var x daemonExit
			if err := json.Unmarshal(payload, &x); err != nil {
				return fail(e, fmt.Errorf("daemon: a damaged exit frame: %w", err))
			}
			return x.Code
		}
	}
}

// daemonStatusCmd prints the daemon's status; exit 1 when none runs.
func daemonStatusCmd(e *env, files daemonFiles) int {
	dc, err := dialDaemon(files)
	if errors.Is(err, errNoDaemon) {
		fmt.Fprintf(e.stderr, "agentenkit: no daemon runs for %s (the next run on the wasm provider starts one)\n", files.state)
		return 1
	}
	if err != nil {
		return fail(e, daemonHint(err, files))
	}
	defer dc.conn.Close()
	st, err := dc.ask("status")
	if err != nil {
		return fail(e, daemonHint(err, files))
	}
	build := st.Build
	if build != buildID() {
		build += " (another build than this binary's: the next run replaces it)"
	}
	fmt.Fprintf(e.stdout, "pid: %d\nbuild: %s\nversion: %s\nstarted: %s (up %s)\nrunning: %d\nidle exit: after %s with no client\nrss: %d\npeak rss: %d\nimages: %s\nsocket: %s\nlog: %s\n",
		st.PID, build, st.Version, st.Started.Format(time.RFC3339), time.Since(st.Started).Round(time.Second), st.Running, st.IdleExit, st.RSS, st.PeakRSS, strings.Join(st.Images, " "), files.sock, files.log)
	return 0
}

// daemonStopCmd stops the daemon, whatever its build, and waits for it.
func daemonStopCmd(e *env, files daemonFiles) int {
	dc, err := dialDaemon(files)
	if errors.Is(err, errNoDaemon) {
		fmt.Fprintf(e.stderr, "agentenkit: no daemon runs for %s\n", files.state)
		return 0
	}
	if err != nil {
		return fail(e, daemonHint(err, files))
	}
	st, err := stopDaemon(dc, files)
	if err != nil {
		return fail(e, err)
	}
	fmt.Fprintf(e.stdout, "stopped the daemon (pid %d)\n", st.PID)
	return 0
}
