package localsandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/google/uuid"

	"github.com/agentenkit/agentenkit/sandbox"
)

// markerEnv carries a token unique to each command into its processes
// where there is no PID namespace, so that the ones that left its process
// group and session (setsid) are found and killed with it.
const markerEnv = "AGENTENKIT_COMMAND_ID"

// RunCommand runs command with the provider's shell in its own process
// group and, where the host allows, its own PID namespace with its own
// /proc (unshare --pid --fork --mount-proc): the command sees none of the
// app's processes (nor their environment), and every process it started
// ends with it, as in the wasm adapter. At the time limit, at the end of
// ctx and at Destroy every process the command started is killed: the
// namespace, or else its process group and every process holding its
// marker.
func (s *Sandbox) RunCommand(ctx context.Context, command string, opts sandbox.RunCommandOptions) (sandbox.CommandResult, error) {
	st, err := s.live()
	if err != nil {
		return sandbox.CommandResult{}, err
	}
	dir, err := s.hostPath("chdir", opts.Cwd)
	if err != nil {
		return sandbox.CommandResult{}, err
	}
	args := []string{s.p.shell, "-c", command}
	var ns []string
	if s.p.pidns != nil {
		ns = append(ns, s.p.pidns...)
	}
	if st.Network == sandbox.NetworkNone && s.p.netns {
		ns = append(ns, "-n")
	}
	if len(ns) > 0 {
		args = append(append(ns, "--"), args...)
	}
	env := s.environ(st, opts.Env, dir)
	token := ""
	if s.p.pidns == nil {
		token = strings.ReplaceAll(uuid.NewString(), "-", "")
		env = append(env, markerEnv+"="+token)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, stderr := sandbox.NewOutput(opts.Stdout), sandbox.NewOutput(opts.Stderr)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// Background children that keep the output pipes open must not hold the
	// result back once the command itself has exited. In a PID namespace
	// there are none (the namespace's processes end with its first), so
	// the pipes close at the command's end and the delay only bounds the
	// copy of what is left in them: a second cut that short on a loaded
	// host (100 commands at once, load 25 on 2 cores: `echo hi` came back
	// empty with exit 0, bench's 100-concurrent row).
	cmd.WaitDelay = time.Second
	if s.p.pidns != nil {
		cmd.WaitDelay = 30 * time.Second
	}

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sandbox.CommandResult{}, fmt.Errorf("local: start %s: %w", args[0], err)
	}
	run := running{pgid: cmd.Process.Pid, token: token}
	if !s.track(run, true) {
		// Destroyed while starting.
		run.kill()
		_ = cmd.Wait()
		return sandbox.CommandResult{}, sandbox.Gone(Name, s.id)
	}
	defer s.track(run, false)

	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	timer := time.NewTimer(opts.CommandTimeout())
	defer timer.Stop()

	var timedOut bool
	var waitErr error
	select {
	case waitErr = <-waited:
	case <-timer.C:
		timedOut = true
		run.kill()
		waitErr = <-waited
	case <-ctx.Done():
		run.kill()
		<-waited
		return sandbox.NewResult(stdout, stderr, -1, false, time.Since(start)), ctx.Err()
	}
	if timedOut {
		// Children that left the group's pipes open are gone with the group.
		run.kill()
	}
	s.mu.Lock()
	destroyed := s.destroyed
	s.mu.Unlock()
	if destroyed {
		return sandbox.CommandResult{}, sandbox.Gone(Name, s.id)
	}
	if _, err := s.live(); err != nil {
		return sandbox.CommandResult{}, err // ended meanwhile
	}
	code, err := exitCode(waitErr)
	if err != nil {
		return sandbox.CommandResult{}, fmt.Errorf("local: run command: %w", err)
	}
	return sandbox.NewResult(stdout, stderr, code, timedOut, time.Since(start)), nil
}

// running is a command in flight: its process group and, without a PID
// namespace, its marker token.
type running struct {
	pgid  int
	token string
}

// kill kills every process of the command: its process group (in a PID
// namespace the group's init, whose end ends the namespace), then, with a
// token, every process whose environment holds the marker, twice, for the
// ones forked meanwhile.
func (r running) kill() {
	_ = syscall.Kill(-r.pgid, syscall.SIGKILL)
	if r.token == "" {
		return
	}
	for range 2 {
		killMarked(markerEnv + "=" + r.token)
	}
}

// killMarked kills every process of this user whose environment holds
// marker (NAME=TOKEN).
func killMarked(marker string) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(data, []byte{0}) {
			if string(kv) == marker {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				break
			}
		}
	}
}

// track notes a command in flight (on) or done; false when the sandbox
// was destroyed, and the command must not run.
func (s *Sandbox) track(r running, on bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !on {
		delete(s.running, r)
		return true
	}
	if s.destroyed {
		return false
	}
	s.running[r] = struct{}{}
	return true
}

// exitCode turns Wait's error into a shell-style status: the exit code, or
// 128+N for a signal.
func exitCode(err error) (int, error) {
	if err == nil || errors.Is(err, exec.ErrWaitDelay) {
		return 0, nil
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return 0, err
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), nil
	}
	return ee.ExitCode(), nil
}

// environ is the whole environment of a command: PATH, HOME and LANG, then the
// sandbox's Envs, then the call's Env. Nothing else of the app's.
func (s *Sandbox) environ(st state, extra map[string]string, dir string) []string {
	env := map[string]string{
		"PATH": os.Getenv("PATH"),
		"HOME": s.dir,
		"LANG": os.Getenv("LANG"),
		"PWD":  dir,
	}
	if env["PATH"] == "" {
		env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
	}
	if env["LANG"] == "" {
		env["LANG"] = "C.UTF-8"
	}
	for k, v := range st.Envs {
		env[k] = v
	}
	for k, v := range extra {
		env[k] = v
	}
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// hostPath returns the host path of a path inside the sandbox (relative to
// its folder, or absolute within it). Anything outside is ErrOutsideRoot.
func (s *Sandbox) hostPath(op, p string) (string, error) {
	rel, err := s.rel(op, p)
	if err != nil {
		return "", err
	}
	return filepath.Join(s.dir, rel), nil
}
