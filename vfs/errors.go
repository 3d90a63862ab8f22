package vfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// ErrNoSpace matches every error a quota gives: a write, truncate, create,
// mkdir or symlink that would take the filesystem past Options.MaxBytes or
// Options.MaxFiles. It also matches syscall.ENOSPC. The error returned is a
// *fs.PathError whose Err names the quota that was hit, for example
// "no space left on device (sandbox quota of 1048576 bytes)".
var ErrNoSpace error = &quotaError{}

// quotaError is the Err of a *fs.PathError from a quota. limit and unit say
// which quota was hit; the zero value is ErrNoSpace itself.
type quotaError struct {
	limit int64
	unit  string // "bytes" or "files"
}

func (e *quotaError) Error() string {
	if e.unit == "" {
		return "no space left on device (sandbox quota)"
	}
	return fmt.Sprintf("no space left on device (sandbox quota of %d %s)", e.limit, e.unit)
}

// Is makes every quota error match ErrNoSpace and syscall.ENOSPC.
func (e *quotaError) Is(target error) bool {
	return target == ErrNoSpace || target == syscall.ENOSPC
}

// isDirError is the error of reading a folder as a file through SandboxFS:
// it matches syscall.EISDIR and fs.ErrInvalid, as package sandbox asks.
type isDirError struct{}

func (isDirError) Error() string { return "is a directory, not a file" }

func (isDirError) Is(target error) bool {
	return target == syscall.EISDIR || target == fs.ErrInvalid
}

// pathErr wraps errno (or any error that is already typed) for op on name.
// An error that already is a *fs.PathError is returned unchanged, so an op
// never wraps twice.
func pathErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return err
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// linkErr wraps err for a two-path op (rename, symlink). A *fs.PathError
// from one of the two lookups gives up its Err, so the result names both
// paths once.
func linkErr(op, oldname, newname string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &os.LinkError{Op: op, Old: oldname, New: newname, Err: err}
}

// closedErr is the error of any use of a closed file.
func closedErr(op, name string) error {
	return &fs.PathError{Op: op, Path: name, Err: fs.ErrClosed}
}
