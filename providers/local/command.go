package localsandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// RunCommand runs command with the provider's shell in its own process
// group. At the time limit the whole group is killed.
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
	if st.Network == sandbox.NetworkNone && s.p.netns {
		args = append([]string{"unshare", "-n", "--"}, args...)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = s.environ(st, opts.Env, dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, stderr := sandbox.NewOutput(opts.Stdout), sandbox.NewOutput(opts.Stderr)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// Background children that keep the output pipes open must not hold the
	// result back once the command itself has exited.
	cmd.WaitDelay = time.Second

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sandbox.CommandResult{}, fmt.Errorf("local: start %s: %w", s.p.shell, err)
	}
	pgid := cmd.Process.Pid
	s.track(pgid, true)
	defer s.track(pgid, false)

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
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		waitErr = <-waited
	case <-ctx.Done():
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-waited
		return sandbox.NewResult(stdout, stderr, -1, false, time.Since(start)), ctx.Err()
	}
	if timedOut {
		// Children that left the group's pipes open are gone with the group.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
	code, err := exitCode(waitErr)
	if err != nil {
		return sandbox.CommandResult{}, fmt.Errorf("local: run command: %w", err)
	}
	return sandbox.NewResult(stdout, stderr, code, timedOut, time.Since(start)), nil
}

func (s *Sandbox) track(pgid int, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if on {
		s.running[pgid] = struct{}{}
	} else {
		delete(s.running, pgid)
	}
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
