package e2b

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"sort"

	"github.com/agentenkit/agentenkit/providers/e2b/internal/connectrpc"
	"github.com/agentenkit/agentenkit/sandbox"
)

// files is the sandbox's FileSystem: envd's /files for content, its
// Filesystem service for the rest.
type files struct{ s *Sandbox }

var _ sandbox.FileSystem = (*files)(nil)

// pathError wraps err for op on p, adding the io/fs sentinel that envd's
// answer means.
func pathError(op, p string, err error) error {
	if errors.Is(err, sandbox.ErrGone) {
		return err
	}
	var sentinel error
	switch code, status := apiCode(err), apiStatus(err); {
	case code == connectrpc.CodeNotFound || (code == "" && status == http.StatusNotFound):
		sentinel = fs.ErrNotExist
	case code == connectrpc.CodeAlreadyExists:
		sentinel = fs.ErrExist
	case code == connectrpc.CodeInvalidArgument || (code == "" && status == http.StatusBadRequest):
		sentinel = fs.ErrInvalid
	case code == connectrpc.CodePermissionDenied || (code == "" && status == http.StatusForbidden):
		sentinel = fs.ErrPermission
	}
	if sentinel != nil {
		err = fmt.Errorf("%w: %w", sentinel, err)
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

func (f *files) query(abs string) url.Values {
	q := url.Values{"path": {abs}}
	if u := f.s.p.opts.User; u != "" {
		q.Set("username", u)
	}
	return q
}

func (f *files) ReadFile(ctx context.Context, p string) (string, error) {
	b, err := f.ReadFileBytes(ctx, p)
	return string(b), err
}

// ReadFileBytes is GET /files?path=. A folder is fs.ErrInvalid.
func (f *files) ReadFileBytes(ctx context.Context, p string) ([]byte, error) {
	abs, err := f.s.resolve(ctx, p)
	if err != nil {
		return nil, err
	}
	c := f.s.envdCall(http.MethodGet, "/files", f.query(abs), nil, true)
	resp, err := f.s.p.do(ctx, c)
	if err != nil {
		return nil, pathError("read", p, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, pathError("read", p, fmt.Errorf("e2b: GET /files: reading the content: %w", err))
	}
	return b, nil
}

// WriteFile is POST /files?path= with the raw content (envd makes the
// parent folders).
func (f *files) WriteFile(ctx context.Context, p string, data []byte) error {
	abs, err := f.s.resolve(ctx, p)
	if err != nil {
		return err
	}
	if data == nil {
		data = []byte{}
	}
	c := f.s.envdCall(http.MethodPost, "/files", f.query(abs), data, true)
	c.header.Set("Content-Type", "application/octet-stream")
	resp, err := f.s.p.do(ctx, c)
	if err != nil {
		return pathError("write", p, err)
	}
	return readJSON(resp, c, nil)
}

// ReadDir is Filesystem/ListDir with depth 1, sorted by name.
func (f *files) ReadDir(ctx context.Context, p string) ([]sandbox.FileEntry, error) {
	abs, err := f.s.resolve(ctx, p)
	if err != nil {
		return nil, err
	}
	var resp struct {
		Entries []entryInfo `json:"entries"`
	}
	req := map[string]any{"path": abs, "depth": 1}
	if err := f.s.rpc(ctx, "/filesystem.Filesystem/ListDir", req, &resp, true); err != nil {
		return nil, pathError("readdir", p, err)
	}
	out := make([]sandbox.FileEntry, 0, len(resp.Entries))
	for _, e := range resp.Entries {
		fe := sandbox.FileEntry{Name: e.Name, Path: e.Path, IsDir: e.Type == typeDir, Size: int64(e.Size), ModTime: e.modTime()}
		if fe.Name == "" {
			fe.Name = path.Base(e.Path)
		}
		if fe.Path == "" {
			fe.Path = path.Join(abs, fe.Name)
		}
		if fe.IsDir {
			fe.Size = 0
		}
		out = append(out, fe)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Mkdir is Filesystem/MakeDir (which makes parents); an existing folder is
// fine.
func (f *files) Mkdir(ctx context.Context, p string) error {
	abs, err := f.s.resolve(ctx, p)
	if err != nil {
		return err
	}
	err = f.s.rpc(ctx, "/filesystem.Filesystem/MakeDir", map[string]string{"path": abs}, nil, true)
	if err != nil && apiCode(err) != connectrpc.CodeAlreadyExists {
		return pathError("mkdir", p, err)
	}
	return nil
}

// stat is Filesystem/Stat.
func (f *files) stat(ctx context.Context, abs string) (entryInfo, error) {
	var resp statResponse
	err := f.s.rpc(ctx, "/filesystem.Filesystem/Stat", map[string]string{"path": abs}, &resp, true)
	return resp.Entry, err
}

// Exists is Filesystem/Stat; not_found is false.
func (f *files) Exists(ctx context.Context, p string) (bool, error) {
	abs, err := f.s.resolve(ctx, p)
	if err != nil {
		return false, err
	}
	_, err = f.stat(ctx, abs)
	if err == nil {
		return true, nil
	}
	if err = pathError("stat", p, err); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return false, err
}

// Remove stats the path (envd's Remove takes a missing path silently, the
// port wants fs.ErrNotExist), then Filesystem/Remove, which is recursive.
func (f *files) Remove(ctx context.Context, p string) error {
	abs, err := f.s.resolve(ctx, p)
	if err != nil {
		return err
	}
	wd, err := f.s.workdir(ctx)
	if err != nil {
		return err
	}
	if err := sandbox.CheckRemove(wd, abs); err != nil {
		return err
	}
	if _, err := f.stat(ctx, abs); err != nil {
		return pathError("remove", p, err)
	}
	if err := f.s.rpc(ctx, "/filesystem.Filesystem/Remove", map[string]string{"path": abs}, nil, true); err != nil {
		return pathError("remove", p, err)
	}
	return nil
}
