package posixfs

// Helpers shared by the file coreutils (fs_*.go): GNU-style option parsing,
// the error texts coreutils print (strerror's wording), and small walks
// over an afero.Fs.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"syscall"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/spf13/afero"
)

func AllDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ErrText is strerror's text for an error from the filesystem, as GNU
// tools print it after the file name: "No such file or directory".
func ErrText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		if s, ok := fsErrnoText[errno]; ok {
			return s
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, afero.ErrNoSymlink), errors.Is(err, afero.ErrNoReadlink), errors.Is(err, errors.ErrUnsupported):
		return "Operation not supported"
	case errors.Is(err, fs.ErrInvalid):
		return "Invalid argument"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return "Interrupted system call"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err.Error()
	}
	return err.Error()
}

var fsErrnoText = map[syscall.Errno]string{
	syscall.ENOENT:       "No such file or directory",
	syscall.ENOTDIR:      "Not a directory",
	syscall.EISDIR:       "Is a directory",
	syscall.EEXIST:       "File exists",
	syscall.ENOTEMPTY:    "Directory not empty",
	syscall.EACCES:       "Permission denied",
	syscall.EPERM:        "Operation not permitted",
	syscall.EINVAL:       "Invalid argument",
	syscall.ELOOP:        "Too many levels of symbolic links",
	syscall.ENOSPC:       "No space left on device",
	syscall.EXDEV:        "Invalid cross-device link",
	syscall.EBUSY:        "Device or resource busy",
	syscall.ENAMETOOLONG: "File name too long",
	syscall.EROFS:        "Read-only file system",
	syscall.ENOTSUP:      "Operation not supported",
	syscall.ENXIO:        "No such device or address",
	syscall.EBADF:        "Bad file descriptor",
	syscall.EDQUOT:       "Disk quota exceeded",
	syscall.EFBIG:        "File too large",
	syscall.EMLINK:       "Too many links",
}

// PathErr builds the *fs.PathError the POSIX layer returns.
func PathErr(op, name string, errno syscall.Errno) error {
	return &fs.PathError{Op: op, Path: name, Err: errno}
}

// Lstat is Lstat when fsys has it, else Stat.
func Lstat(fsys afero.Fs, name string) (fs.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(name)
		return fi, err
	}
	return fsys.Stat(name)
}

// Readlink reads a symbolic link, or fails with EINVAL for anything
// else (and ENOTSUP where fsys has no links).
func Readlink(fsys afero.Fs, name string) (string, error) {
	if r, ok := fsys.(afero.LinkReader); ok {
		return r.ReadlinkIfPossible(name)
	}
	if _, err := fsys.Stat(name); err != nil {
		return "", err
	}
	return "", PathErr("readlink", name, syscall.EINVAL)
}

// Symlink makes newname a symbolic link to target.
func Symlink(fsys afero.Fs, target, newname string) error {
	if l, ok := fsys.(afero.Linker); ok {
		return l.SymlinkIfPossible(target, newname)
	}
	return &os.LinkError{Op: "symlink", Old: target, New: newname, Err: syscall.ENOTSUP}
}

// ReadDir lists a folder sorted by name.
func ReadDir(fsys afero.Fs, name string) ([]fs.FileInfo, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	list, err := f.Readdir(-1)
	if err != nil && err != io.EOF {
		return nil, err
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	return list, nil
}

// IsSymlink tells whether fi describes a symbolic link.
func IsSymlink(fi fs.FileInfo) bool { return fi.Mode()&fs.ModeSymlink != 0 }

// Exists tells whether name exists (not following a final link).
func Exists(fsys afero.Fs, name string) bool {
	_, err := Lstat(fsys, name)
	return err == nil
}

// Join joins a folder and a name as a user typed them: "." and "dir/"
// keep their form, so "find ." prints "./a" and "ls dir/" lists "dir/a".
func Join(dir, name string) string {
	if dir == "" {
		return name
	}
	if strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + "/" + name
}

// CopyCtx copies src to dst, checking ctx between chunks.
func CopyCtx(ctx context.Context, dst io.Writer, src io.Reader) (int64, error) {
	buf := make([]byte, 32<<10)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		k, rerr := src.Read(buf)
		if k > 0 {
			w, werr := dst.Write(buf[:k])
			n += int64(w)
			if werr != nil {
				return n, werr
			}
			if w < k {
				return n, io.ErrShortWrite
			}
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			return n, rerr
		}
	}
}

// ContextReader returns a reader of r that fails with ctx's error once
// ctx is done (checked before each Read).
func ContextReader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (r ctxReader) Read(p []byte) (int, error) {
	if err := r.ctx.Err(); err != nil {
		return 0, err
	}
	return r.r.Read(p)
}

// Warn prints "name: message" on stderr.
func Warn(c *command.Call, name, format string, a ...any) {
	fmt.Fprintf(c.Stderr, "%s: %s\n", name, fmt.Sprintf(format, a...))
}

// ErrTextOr is ErrText(err), or text when err is nil.
func ErrTextOr(err error, text string) string {
	if err != nil {
		return ErrText(err)
	}
	return text
}
