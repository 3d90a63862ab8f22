package tools

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/agentenkit/agentenkit/sandbox"
)

// store reads and writes the tools' own files in the state dir. It goes
// through the sandbox's FileSystem, and through commands where that refuses
// the path: the local adapter confines its file API to the sandbox's folder,
// while an absolute SandboxStateDir lies outside it on the same host.
type store struct{ sb sandbox.Sandbox }

// stateChunk is how many bytes one command writes when a file goes through
// commands: its base64 form stays well under Linux's 128 KiB limit on one
// argument.
const stateChunk = 48 << 10

func outside(err error) bool { return errors.Is(err, sandbox.ErrOutsideRoot) }

// read returns a file's content; a missing file matches fs.ErrNotExist.
func (s store) read(ctx context.Context, p string) ([]byte, error) {
	b, err := s.sb.FileSystem().ReadFileBytes(ctx, p)
	if !outside(err) {
		return b, err
	}
	r, err := s.run(ctx, "[ -f "+shq(p)+" ] || exit 3; base64 < "+shq(p))
	if err != nil {
		return nil, err
	}
	if r.ExitCode == 3 {
		return nil, &fs.PathError{Op: "read", Path: p, Err: fs.ErrNotExist}
	}
	if r.ExitCode != 0 {
		return nil, fmt.Errorf("tools: read %s: %s", p, strings.TrimSpace(r.Stderr))
	}
	return base64.StdEncoding.DecodeString(strings.Join(strings.Fields(r.Stdout), ""))
}

// write replaces a file, making its folder.
func (s store) write(ctx context.Context, p string, data []byte) error {
	err := s.sb.FileSystem().WriteFile(ctx, p, data)
	if !outside(err) {
		return err
	}
	tmp := p + ".part"
	cmd := "mkdir -p " + shq(path.Dir(p)) + " && : > " + shq(tmp)
	for len(data) > 0 || cmd != "" {
		n := min(len(data), stateChunk)
		if n > 0 {
			cmd = joinCmd(cmd, "printf '%s' "+shq(base64.StdEncoding.EncodeToString(data[:n]))+" | base64 -d >> "+shq(tmp))
			data = data[n:]
		}
		if len(data) == 0 {
			cmd = joinCmd(cmd, "mv -f "+shq(tmp)+" "+shq(p))
		}
		if err := s.must(ctx, "write", p, cmd); err != nil {
			return err
		}
		cmd = ""
	}
	return nil
}

// remove removes a file or folder; a missing one is fine.
func (s store) remove(ctx context.Context, p string) error {
	err := s.sb.FileSystem().Remove(ctx, p)
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist):
		return nil
	case !outside(err):
		return err
	}
	return s.must(ctx, "remove", p, "rm -rf "+shq(p))
}

// mkdir makes a folder and its parents.
func (s store) mkdir(ctx context.Context, p string) error {
	err := s.sb.FileSystem().Mkdir(ctx, p)
	if !outside(err) {
		return err
	}
	return s.must(ctx, "mkdir", p, "mkdir -p "+shq(p))
}

func (s store) run(ctx context.Context, cmd string) (sandbox.CommandResult, error) {
	return s.sb.RunCommand(ctx, cmd, sandbox.RunCommandOptions{})
}

// must runs cmd and turns a non-zero exit into an error.
func (s store) must(ctx context.Context, op, p, cmd string) error {
	r, err := s.run(ctx, cmd)
	if err != nil {
		return err
	}
	if r.ExitCode != 0 {
		return fmt.Errorf("tools: %s %s: exit status %d: %s", op, p, r.ExitCode, strings.TrimSpace(r.Stderr))
	}
	return nil
}

func joinCmd(a, b string) string {
	if a == "" {
		return b
	}
	return a + " && " + b
}
