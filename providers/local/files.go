package localsandbox

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/google/uuid"

	"github.com/agentenkit/agentenkit/sandbox"
)

// files is the sandbox's FileSystem: every call goes through an os.Root of
// the sandbox folder, so neither ".." nor a link can lead outside it.
type files struct{ sb *Sandbox }

var _ sandbox.FileSystem = (*files)(nil)

// rel turns a sandbox path into one relative to the folder, refusing paths
// outside it.
func (s *Sandbox) rel(op, p string) (string, error) {
	if p == "" {
		return ".", nil
	}
	if filepath.IsAbs(p) {
		r, err := filepath.Rel(s.dir, filepath.Clean(p))
		if err != nil {
			return "", sandbox.OutsideRoot(op, p)
		}
		p = r
	}
	p = filepath.Clean(p)
	if p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) {
		return "", sandbox.OutsideRoot(op, p)
	}
	return p, nil
}

// do checks the sandbox is live, resolves p and runs fn with the relative
// path, translating escapes into ErrOutsideRoot.
func (f *files) do(ctx context.Context, op, p string, fn func(rel string) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if _, err := f.sb.live(); err != nil {
		return err
	}
	rel, err := f.sb.rel(op, p)
	if err != nil {
		return err
	}
	return escapes(op, p, fn(rel))
}

// escapes maps os.Root's refusal to follow a path out of the root (an error
// the os package does not export) to ErrOutsideRoot.
func escapes(op, p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && (strings.Contains(pe.Err.Error(), "escapes from parent") || strings.Contains(pe.Err.Error(), "outside")) {
		return sandbox.OutsideRoot(op, p)
	}
	return err
}

func (f *files) ReadFile(ctx context.Context, p string) (string, error) {
	b, err := f.ReadFileBytes(ctx, p)
	return string(b), err
}

func (f *files) ReadFileBytes(ctx context.Context, p string) ([]byte, error) {
	var out []byte
	err := f.do(ctx, "read", p, func(rel string) error {
		fi, err := f.sb.root.Stat(rel)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			return &fs.PathError{Op: "read", Path: p, Err: fmt.Errorf("is a folder: %w", fs.ErrInvalid)}
		}
		out, err = f.sb.root.ReadFile(rel)
		return err
	})
	return out, err
}

func (f *files) WriteFile(ctx context.Context, p string, data []byte) error {
	return f.do(ctx, "write", p, func(rel string) error {
		if dir := filepath.Dir(rel); dir != "." {
			if err := f.sb.root.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		return f.writeFile(rel, data)
	})
}

// writeFile writes data to rel, replacing a file with more than one link
// instead of writing through it: a hard link a command made to a host file
// outside the folder must not let the API overwrite that file. A folder,
// FIFO or device is refused.
func (f *files) writeFile(rel string, data []byte) error {
	if fi, err := f.sb.root.Stat(rel); err == nil && !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "write", Path: rel, Err: fmt.Errorf("not a regular file (%s): %w", fi.Mode().Type(), fs.ErrInvalid)}
	}
	fh, err := f.sb.root.OpenFile(rel, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	fi, err := fh.Stat()
	if err != nil {
		fh.Close()
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && st.Nlink > 1 {
		fh.Close()
		return f.replace(rel, data, fi.Mode().Perm())
	}
	err = fh.Truncate(0)
	if err == nil {
		_, err = fh.Write(data)
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// replace puts a new file with data and perm at rel, through a temporary
// file in the same folder renamed over it.
func (f *files) replace(rel string, data []byte, perm fs.FileMode) error {
	tmp := filepath.Join(filepath.Dir(rel), ".agentenkit-write-"+uuid.NewString())
	fh, err := f.sb.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = fh.Write(data)
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = f.sb.root.Chmod(tmp, perm)
	}
	if err == nil {
		err = f.sb.root.Rename(tmp, rel)
	}
	if err != nil {
		_ = f.sb.root.Remove(tmp)
	}
	return err
}

func (f *files) ReadDir(ctx context.Context, p string) ([]sandbox.FileEntry, error) {
	var out []sandbox.FileEntry
	err := f.do(ctx, "readdir", p, func(rel string) error {
		d, err := f.sb.root.Open(rel)
		if err != nil {
			return err
		}
		defer d.Close()
		entries, err := d.ReadDir(-1)
		if err != nil {
			return err
		}
		base := path.Join(filepath.ToSlash(f.sb.dir), filepath.ToSlash(rel))
		for _, e := range entries {
			fe := sandbox.FileEntry{Name: e.Name(), Path: path.Join(base, e.Name()), IsDir: e.IsDir()}
			if info, err := e.Info(); err == nil {
				fe.Size, fe.ModTime = info.Size(), info.ModTime()
				if info.IsDir() {
					fe.Size = 0
				}
			}
			out = append(out, fe)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return nil
	})
	return out, err
}

func (f *files) Mkdir(ctx context.Context, p string) error {
	return f.do(ctx, "mkdir", p, func(rel string) error { return f.sb.root.MkdirAll(rel, 0o755) })
}

func (f *files) Exists(ctx context.Context, p string) (bool, error) {
	var ok bool
	err := f.do(ctx, "stat", p, func(rel string) error {
		_, err := f.sb.root.Lstat(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		ok = err == nil
		return err
	})
	return ok, err
}

func (f *files) Remove(ctx context.Context, p string) error {
	return f.do(ctx, "remove", p, func(rel string) error {
		if rel == "." {
			return &fs.PathError{Op: "remove", Path: p, Err: fmt.Errorf("the work folder itself: %w", fs.ErrInvalid)}
		}
		if _, err := f.sb.root.Lstat(rel); err != nil {
			return err
		}
		return f.sb.root.RemoveAll(rel)
	})
}
