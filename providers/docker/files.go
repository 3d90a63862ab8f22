package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/docker/docker/api/types/container"

	"github.com/agentenkit/agentenkit/sandbox"
)

// files is the container's FileSystem: reads and writes as tar streams,
// listings and removals through short scripts.
type files struct{ s *Sandbox }

var _ sandbox.FileSystem = (*files)(nil)

func (f *files) abs(p string) string { return sandbox.ResolvePath(f.s.workdir, p) }

// missing returns the error for a path the engine did not find: ErrGone when
// the container itself is gone, else fs.ErrNotExist.
func (f *files) missing(ctx context.Context, op, p string, err error) error {
	if gone := f.s.goneOr(ctx, nil); gone != nil {
		return gone
	}
	return &fs.PathError{Op: op, Path: p, Err: fs.ErrNotExist}
}

func (f *files) ReadFile(ctx context.Context, p string) (string, error) {
	b, err := f.ReadFileBytes(ctx, p)
	return string(b), err
}

func (f *files) ReadFileBytes(ctx context.Context, p string) ([]byte, error) {
	abs := f.abs(p)
	rc, st, err := f.s.p.api.CopyFromContainer(ctx, f.s.id, abs)
	if isNotFound(err) {
		return nil, f.missing(ctx, "read", abs, err)
	}
	if err != nil {
		return nil, f.s.goneOr(ctx, classify(f.s.id, "read "+abs, err))
	}
	defer rc.Close()
	defer f.s.touch()
	if st.Mode.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: abs, Err: fmt.Errorf("is a folder: %w", fs.ErrInvalid)}
	}
	tr := tar.NewReader(rc)
	for {
		hdr, err := tr.Next()
		if err != nil {
			return nil, fmt.Errorf("docker: read %s: %w", abs, err)
		}
		switch hdr.Typeflag {
		case tar.TypeReg:
			return io.ReadAll(tr)
		case tar.TypeSymlink:
			// CopyFromContainer of a link gives the link; read its target.
			target := hdr.Linkname
			if !path.IsAbs(target) {
				target = path.Join(path.Dir(abs), target)
			}
			return f.ReadFileBytes(ctx, target)
		}
	}
}

func (f *files) WriteFile(ctx context.Context, p string, data []byte) error {
	abs := f.abs(p)
	if abs == "/" {
		return &fs.PathError{Op: "write", Path: abs, Err: fs.ErrInvalid}
	}
	// A file it replaces keeps its mode, as a write to it would.
	mode := int64(0o644)
	if st, err := f.s.p.api.ContainerStatPath(ctx, f.s.id, abs); err == nil && st.Mode.IsRegular() {
		mode = int64(st.Mode.Perm())
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	hdr := &tar.Header{Name: strings.TrimPrefix(abs, "/"), Mode: mode, Size: int64(len(data)), ModTime: time.Now(), Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if _, err := tw.Write(data); err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	// The engine makes missing parent folders of the entries it unpacks.
	err := f.s.p.api.CopyToContainer(ctx, f.s.id, "/", &buf, container.CopyToContainerOptions{})
	if err != nil {
		return f.s.goneOr(ctx, classify(f.s.id, "write "+abs, err))
	}
	f.s.touch()
	return nil
}

func (f *files) ReadDir(ctx context.Context, p string) ([]sandbox.FileEntry, error) {
	abs := f.abs(p)
	out, err := f.s.script(ctx, listScript, abs)
	var se *scriptError
	if errors.As(err, &se) && se.code == 2 {
		st, serr := f.s.p.api.ContainerStatPath(ctx, f.s.id, abs)
		if serr != nil {
			return nil, f.missing(ctx, "readdir", abs, serr)
		}
		if !st.Mode.IsDir() {
			return nil, &fs.PathError{Op: "readdir", Path: abs, Err: syscall.ENOTDIR}
		}
	}
	if err != nil {
		return nil, f.s.goneOr(ctx, err)
	}
	var entries []sandbox.FileEntry
	for _, rec := range strings.Split(out, "\x00") {
		parts := strings.SplitN(rec, " ", 4)
		if len(parts) != 4 {
			continue
		}
		size, _ := strconv.ParseInt(parts[1], 10, 64)
		mtime, _ := strconv.ParseInt(parts[2], 10, 64)
		entries = append(entries, sandbox.FileEntry{
			Name: parts[3], Path: path.Join(abs, parts[3]), IsDir: parts[0] == "d",
			Size: size, ModTime: time.Unix(mtime, 0),
		})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name < entries[j].Name })
	return entries, nil
}

func (f *files) Mkdir(ctx context.Context, p string) error {
	if _, err := f.s.script(ctx, `mkdir -p -- "$1"`, f.abs(p)); err != nil {
		return f.s.goneOr(ctx, &fs.PathError{Op: "mkdir", Path: f.abs(p), Err: err})
	}
	return nil
}

func (f *files) Exists(ctx context.Context, p string) (bool, error) {
	_, err := f.s.p.api.ContainerStatPath(ctx, f.s.id, f.abs(p))
	if isNotFound(err) {
		if gone := f.s.goneOr(ctx, nil); gone != nil {
			return false, gone
		}
		return false, nil
	}
	if err != nil {
		return false, f.s.goneOr(ctx, classify(f.s.id, "stat", err))
	}
	f.s.touch()
	return true, nil
}

func (f *files) Remove(ctx context.Context, p string) error {
	abs := f.abs(p)
	if abs == "/" {
		return &fs.PathError{Op: "remove", Path: abs, Err: fs.ErrInvalid}
	}
	if _, err := f.s.p.api.ContainerStatPath(ctx, f.s.id, abs); err != nil {
		if isNotFound(err) {
			return f.missing(ctx, "remove", abs, err)
		}
		return f.s.goneOr(ctx, classify(f.s.id, "stat", err))
	}
	if _, err := f.s.script(ctx, `rm -rf -- "$1"`, abs); err != nil {
		return f.s.goneOr(ctx, &fs.PathError{Op: "remove", Path: abs, Err: err})
	}
	return nil
}
