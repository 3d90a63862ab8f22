//go:build wasip1

package shell

// Standard input in the busybox image. On wasip1 mvdan.cc/sh's interpreter
// takes stdin only as an *os.File: any other reader (given to a nested
// shell by xargs or `bash -s`, or the device file of `< /dev/null`) it
// would copy through an os.Pipe, which is ENOSYS. An in-guest pipe could
// not work anyway: a read that waits blocks every goroutine of the guest,
// the writer's too. So a finite reader is spooled into a temporary file of
// the sandbox, opened and unlinked at once, and that file is the stdin;
// /dev/stdin is the shell's own stdin; reading an endless device (/dev/zero,
// /dev/urandom) as stdin is refused with a message saying to pipe it.

import (
	"errors"
	"io"
	"os"
	"syscall"

	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/interp"
)

func init() {
	platformStdin = wasiStdin
	platformOpen = wasiOpen
}

// errEndlessDevice: an endless device as stdin.
var errEndlessDevice = errors.New("an endless device cannot be standard input in the wasm sandbox; pipe it instead (head -c N /dev/zero | command)")

// wasiStdin makes r an *os.File for a Runner.
func wasiStdin(s *session, r io.Reader) io.Reader {
	switch v := r.(type) {
	case nil, *os.File:
		return r
	case *posixfs.DevFile:
		switch v.Kind() {
		case "null":
			r = nil
		case "stdin":
			return wasiStdin(s, v.Input())
		default:
			return nil // no stdin rather than a run that cannot start
		}
	}
	var data []byte
	if r != nil {
		data, _ = io.ReadAll(r)
	}
	f, err := wasiSpool(s, data)
	if err != nil {
		return nil
	}
	return f
}

// wasiOpen is the open handler's last step: a file opened for reading
// that is not an *os.File (a device) becomes one.
func wasiOpen(s *session, hc interp.HandlerContext, name string, flag int, f afero.File) (io.ReadWriteCloser, error) {
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		return f, nil
	}
	switch v := f.(type) {
	case *os.File:
		return f, nil
	case *wasiFile:
		if of, ok := v.File.(*os.File); ok {
			return of, nil
		}
	case *posixfs.DevFile:
		switch v.Kind() {
		case "null":
			return wasiSpool(s, nil)
		case "stdin":
			if of, ok := hc.Stdin.(*os.File); ok {
				return of, nil
			}
		default:
			return nil, s.shPathError(name, errEndlessDevice)
		}
	case *posixfs.DirFile:
		f.Close()
		return nil, s.shPathError(name, syscall.EISDIR)
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, s.shPathError(name, err)
	}
	return wasiSpool(s, data)
}

// wasiSpool returns an open, already unlinked temporary file of the
// sandbox holding data.
func wasiSpool(s *session, data []byte) (*os.File, error) {
	name := s.procSubstPath()
	w, err := s.base.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	_, err = w.Write(data)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = s.base.Remove(name)
		return nil, err
	}
	r, err := s.base.Open(name)
	_ = s.base.Remove(name)
	if err != nil {
		return nil, err
	}
	if wf, isWASI := r.(*wasiFile); isWASI {
		r = wf.File
	}
	f, ok := r.(*os.File)
	if !ok {
		r.Close()
		return nil, errors.New("shell: the spooled stdin is not an *os.File")
	}
	return f, nil
}
