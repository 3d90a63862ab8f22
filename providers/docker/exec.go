package docker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"
	"github.com/google/uuid"

	"github.com/agentenkit/agentenkit/sandbox"
)

// drainAfterKill is how long a timed-out command's stream may take to end
// after its group was killed before the connection is closed regardless.
const drainAfterKill = 3 * time.Second

// inContainerGrace is how long after the host's limit the watchdog kills a
// command whose host has gone away.
const inContainerGrace = 3 * time.Second

// RunCommand runs command through the wrapper, as the sandbox's user. At the
// time limit the host kills every process the command started — its process
// group, and those that left it but carry its token — and reports 124; the
// watchdog kills the group a little later should this process die first.
func (s *Sandbox) RunCommand(ctx context.Context, command string, opts sandbox.RunCommandOptions) (sandbox.CommandResult, error) {
	limit := opts.CommandTimeout()
	token := uuid.NewString()
	env := s.userEnv()
	for k, v := range opts.Env {
		env = append(env, k+"="+v)
	}
	env = append(env, commandEnv+"="+token)
	cmd := []string{"/bin/sh", "-c", limitLine(seconds(limit+inContainerGrace)) + wrapperScript, "agentenkit", token, command}
	stdout, stderr := sandbox.NewOutput(opts.Stdout), sandbox.NewOutput(opts.Stderr)
	start := time.Now()
	s.touch()
	code, timedOut, err := s.exec(ctx, s.user, cmd, env, sandbox.ResolvePath(s.workdir, opts.Cwd), stdout, stderr, limit, token)
	if err != nil {
		return sandbox.CommandResult{}, s.goneOr(ctx, err)
	}
	// The watchdog sees a command while it runs; one shorter than its
	// one-second look may slip between two looks, so the end is pushed
	// back from here too, at the start and the end.
	s.touch()
	if code == 137 && !timedOut {
		// Killed: maybe with the whole container, whose end came. The engine
		// reports the container exited a moment after its processes die.
		for range 15 {
			if _, err := s.p.inspect(ctx, s.id); isGone(err) {
				return sandbox.CommandResult{}, err
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return sandbox.NewResult(stdout, stderr, code, timedOut, time.Since(start)), nil
}

// userEnv is the environment of the sandbox user's commands: HOME and USER.
func (s *Sandbox) userEnv() []string {
	if s.user == rootUser {
		return []string{"HOME=/root", "USER=root", "LOGNAME=root"}
	}
	return []string{"HOME=" + s.workdir, "USER=user", "LOGNAME=user"}
}

// script runs a short helper script (no wrapper, a 30 s limit) and returns its
// stdout; a non-zero exit is an error carrying stderr.
// It runs as user (rootUser or the sandbox's user).
func (s *Sandbox) script(ctx context.Context, user, script string, args ...string) (string, error) {
	var out, errb bytes.Buffer
	cmd := append([]string{"/bin/sh", "-c", limitLine(60) + script, "agentenkit"}, args...)
	var env []string
	if user == s.user {
		env = s.userEnv()
	}
	code, timedOut, err := s.exec(ctx, user, cmd, env, "/", &out, &errb, 30*time.Second, "")
	switch {
	case err != nil:
		return "", err
	case timedOut:
		return "", fmt.Errorf("docker: helper script timed out")
	case code != 0:
		return out.String(), &scriptError{code: code, stderr: errb.String()}
	}
	return out.String(), nil
}

type scriptError struct {
	code   int
	stderr string
}

func (e *scriptError) Error() string {
	return fmt.Sprintf("docker: helper exited %d: %s", e.code, e.stderr)
}

// exec creates, attaches (which starts) and drains one exec, then reads its
// exit code. The hijacked connection is closed on every path. With a token,
// the limit kills the token's process group in the container.
func (s *Sandbox) exec(ctx context.Context, user string, cmd, env []string, dir string, stdout, stderr io.Writer, limit time.Duration, token string) (code int, timedOut bool, err error) {
	created, err := s.p.api.ContainerExecCreate(ctx, s.id, container.ExecOptions{
		User:         user,
		Cmd:          cmd,
		Env:          env,
		WorkingDir:   dir,
		AttachStdout: true,
		AttachStderr: true,
	})
	if err != nil {
		return 0, false, classify(s.id, "exec", err)
	}
	att, err := s.p.api.ContainerExecAttach(ctx, created.ID, container.ExecAttachOptions{})
	if err != nil {
		return 0, false, classify(s.id, "attach", err)
	}
	defer att.Close()

	drained := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(stdout, stderr, att.Reader)
		drained <- err
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case err = <-drained:
	case <-timer.C:
		timedOut = true
	case <-ctx.Done():
		err = ctx.Err()
	}
	if timedOut || ctx.Err() != nil {
		if token != "" {
			s.kill(token)
		}
		select {
		case <-drained:
		case <-time.After(drainAfterKill):
		}
		att.Close()
		if ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
		return sandbox.TimeoutExitCode, true, nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, false, fmt.Errorf("docker: read output: %w", err)
	}
	// The daemon marks the exec finished a moment after the stream ends.
	for i := 0; ; i++ {
		ins, err := s.p.api.ContainerExecInspect(ctx, created.ID)
		if err != nil {
			return 0, false, classify(s.id, "exec inspect", err)
		}
		if !ins.Running {
			return ins.ExitCode, false, nil
		}
		if i > 200 {
			return 0, false, fmt.Errorf("docker: exec still running after its output ended")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// kill ends every process of the command with token. While a fork bomb
// holds every pid the kill's exec cannot start: the pids limit is then
// raised a little for the kill and set back.
func (s *Sandbox) kill(token string) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := s.script(ctx, s.user, killScript, token)
	if err == nil || isGone(err) || ctx.Err() != nil {
		return
	}
	info, ierr := s.p.api.ContainerInspect(ctx, s.id)
	if ierr != nil || info.HostConfig == nil || info.HostConfig.PidsLimit == nil || *info.HostConfig.PidsLimit <= 0 {
		return
	}
	limit := *info.HostConfig.PidsLimit
	raised := limit + 16
	if _, err := s.p.api.ContainerUpdate(ctx, s.id, container.UpdateConfig{Resources: container.Resources{PidsLimit: &raised}}); err != nil {
		return
	}
	defer func() {
		_, _ = s.p.api.ContainerUpdate(context.Background(), s.id, container.UpdateConfig{Resources: container.Resources{PidsLimit: &limit}})
	}()
	for range 5 {
		if _, err := s.script(ctx, s.user, killScript, token); err == nil || ctx.Err() != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// classify turns the engine's not-found and conflict answers about the
// container into ErrGone.
func classify(id, op string, err error) error {
	if isNotFound(err) || isConflict(err) {
		return fmt.Errorf("docker: %s on %s: %v: %w", op, short(id), err, sandbox.ErrGone)
	}
	return fmt.Errorf("docker: %s on %s: %w", op, short(id), err)
}

func isGone(err error) bool { return errors.Is(err, sandbox.ErrGone) }
