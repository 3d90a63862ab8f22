package vfs

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"syscall"

	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/spf13/afero"
)

// SandboxFSOptions tunes SandboxFS. The zero value adds nothing.
type SandboxFSOptions struct {
	// Check, when set, is called before every operation; a non-nil error is
	// returned as is and the operation is not done. An adapter uses it to
	// say its sandbox is gone (an error matching sandbox.ErrGone).
	Check func() error
}

// SandboxFS returns the port's sandbox.FileSystem over fsys. Relative paths
// resolve against workdir (itself taken from "/"); ".." stops at "/", so no
// path leaves the sandbox: there is nothing outside. opts, at most one, adds
// a check before every operation.
//
// Each method first returns ctx.Err() when ctx is done, then the Check's
// error, then does its work:
//
//   - ReadFile and ReadFileBytes of a directory is an error matching both
//     fs.ErrInvalid and syscall.EISDIR;
//   - WriteFile makes missing parents (0755) and the file (0644), all or
//     nothing under the quotas;
//   - ReadDir lists sorted by name, each entry with its absolute Path; links
//     are listed as themselves;
//   - Mkdir is mkdir -p;
//   - Exists follows links: a dangling link does not exist;
//   - Remove removes recursively; a missing path is fs.ErrNotExist; the
//     work folder or a folder above it is refused (sandbox.CheckRemove).
func SandboxFS(fsys *FS, workdir string, opts ...SandboxFSOptions) sandbox.FileSystem {
	s := &sandboxFS{fsys: fsys, workdir: sandbox.ResolvePath("/", workdir)}
	if len(opts) > 0 {
		s.check = opts[0].Check
	}
	return s
}

type sandboxFS struct {
	fsys    *FS
	workdir string
	check   func() error
}

// begin returns ctx's error or the check's, and the absolute path p means.
func (s *sandboxFS) begin(ctx context.Context, p string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if s.check != nil {
		if err := s.check(); err != nil {
			return "", err
		}
	}
	return sandbox.ResolvePath(s.workdir, p), nil
}

func (s *sandboxFS) ReadFile(ctx context.Context, p string) (string, error) {
	b, err := s.ReadFileBytes(ctx, p)
	return string(b), err
}

func (s *sandboxFS) ReadFileBytes(ctx context.Context, p string) ([]byte, error) {
	abs, err := s.begin(ctx, p)
	if err != nil {
		return nil, err
	}
	b, err := afero.ReadFile(s.fsys, abs)
	if errors.Is(err, syscall.EISDIR) {
		return nil, &fs.PathError{Op: "read", Path: abs, Err: isDirError{}}
	}
	return b, err
}

func (s *sandboxFS) WriteFile(ctx context.Context, p string, data []byte) error {
	abs, err := s.begin(ctx, p)
	if err != nil {
		return err
	}
	s.fsys.mu.Lock()
	defer s.fsys.mu.Unlock()
	return s.fsys.writeFile(abs, data, 0o644, true)
}

func (s *sandboxFS) ReadDir(ctx context.Context, p string) ([]sandbox.FileEntry, error) {
	abs, err := s.begin(ctx, p)
	if err != nil {
		return nil, err
	}
	h, err := s.fsys.Open(abs)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	infos, err := h.Readdir(-1)
	if err != nil {
		return nil, err
	}
	entries := make([]sandbox.FileEntry, len(infos))
	for i, info := range infos {
		entries[i] = sandbox.FileEntry{
			Name:    info.Name(),
			Path:    path.Join(abs, info.Name()),
			IsDir:   info.IsDir(),
			Size:    info.Size(),
			ModTime: info.ModTime(),
		}
	}
	return entries, nil
}

func (s *sandboxFS) Mkdir(ctx context.Context, p string) error {
	abs, err := s.begin(ctx, p)
	if err != nil {
		return err
	}
	return s.fsys.MkdirAll(abs, 0o755)
}

func (s *sandboxFS) Exists(ctx context.Context, p string) (bool, error) {
	abs, err := s.begin(ctx, p)
	if err != nil {
		return false, err
	}
	_, err = s.fsys.Stat(abs)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		return false, nil
	}
	return false, err
}

func (s *sandboxFS) Remove(ctx context.Context, p string) error {
	abs, err := s.begin(ctx, p)
	if err != nil {
		return err
	}
	if err := sandbox.CheckRemove(s.workdir, abs); err != nil {
		return err
	}
	s.fsys.mu.Lock()
	defer s.fsys.mu.Unlock()
	if _, err := s.fsys.stat("remove", abs, false); err != nil {
		return err
	}
	return pathErr("remove", abs, s.fsys.removeAll(abs))
}
