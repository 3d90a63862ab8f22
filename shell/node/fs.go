package node

import (
	"crypto/rand"
	"errors"
	"hash/fnv"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/dop251/goja"
	"github.com/spf13/afero"
)

// nodeErrno is a system error as node reports it (Linux numbers).
type nodeErrno struct {
	errno syscall.Errno
	code  string
	num   int
	desc  string
}

var nodeErrnos = []nodeErrno{
	{syscall.ENOENT, "ENOENT", 2, "no such file or directory"},
	{syscall.EEXIST, "EEXIST", 17, "file already exists"},
	{syscall.EISDIR, "EISDIR", 21, "illegal operation on a directory"},
	{syscall.ENOTDIR, "ENOTDIR", 20, "not a directory"},
	{syscall.ENOTEMPTY, "ENOTEMPTY", 39, "directory not empty"},
	{syscall.EACCES, "EACCES", 13, "permission denied"},
	{syscall.EPERM, "EPERM", 1, "operation not permitted"},
	{syscall.EINVAL, "EINVAL", 22, "invalid argument"},
	{syscall.EBADF, "EBADF", 9, "bad file descriptor"},
	{syscall.ELOOP, "ELOOP", 40, "too many symbolic links encountered"},
	{syscall.ENOSPC, "ENOSPC", 28, "no space left on device"},
	{syscall.EXDEV, "EXDEV", 18, "cross-device link not permitted"},
	{syscall.EBUSY, "EBUSY", 16, "resource busy or locked"},
	{syscall.ENAMETOOLONG, "ENAMETOOLONG", 36, "name too long"},
	{syscall.EROFS, "EROFS", 30, "read-only file system"},
	{syscall.ENOTSUP, "ENOTSUP", 95, "operation not supported on socket"},
	{syscall.ENXIO, "ENXIO", 6, "no such device or address"},
	{syscall.EFBIG, "EFBIG", 27, "file too large"},
	{syscall.EMLINK, "EMLINK", 31, "too many links"},
	{syscall.EDQUOT, "EDQUOT", 122, "disk quota exceeded"},
	{syscall.EIO, "EIO", 5, "i/o error"},
}

var (
	errENOTDIR = syscall.ENOTDIR
	errEISDIR  = syscall.EISDIR
	errEBADF   = syscall.EBADF
)

// nodeErrnoOf classifies err (EIO when nothing fits).
func nodeErrnoOf(err error) nodeErrno {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		for _, e := range nodeErrnos {
			if e.errno == errno {
				return e
			}
		}
	}
	pick := func(code string) nodeErrno {
		for _, e := range nodeErrnos {
			if e.code == code {
				return e
			}
		}
		return nodeErrnos[len(nodeErrnos)-1]
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return pick("ENOENT")
	case errors.Is(err, fs.ErrExist):
		return pick("EEXIST")
	case errors.Is(err, fs.ErrPermission):
		return pick("EACCES")
	case errors.Is(err, fs.ErrInvalid), errors.Is(err, afero.ErrNoReadlink):
		return pick("EINVAL")
	case errors.Is(err, afero.ErrNoSymlink), errors.Is(err, errors.ErrUnsupported):
		return pick("ENOTSUP")
	case errors.Is(err, fs.ErrClosed):
		return pick("EBADF")
	}
	return pick("EIO")
}

// fsError is the Error node throws for a failed system call:
// "ENOENT: no such file or directory, open 'x'" with errno, code, syscall,
// path and dest.
func (r *nodeRT) fsError(err error, sc, p, dest, _ string) *goja.Object {
	e := nodeErrnoOf(err)
	msg := e.code + ": " + e.desc + ", " + sc
	if p != "" {
		msg += " '" + p + "'"
	}
	if dest != "" {
		msg += " -> '" + dest + "'"
	}
	o, cerr := r.vm.New(r.vm.Get("Error"), r.vm.ToValue(msg))
	if cerr != nil {
		o = r.vm.NewGoError(errors.New(msg))
	}
	o.Set("errno", -e.num)
	o.Set("code", e.code)
	o.Set("syscall", sc)
	if p != "" {
		o.Set("path", p)
	}
	if dest != "" {
		o.Set("dest", dest)
	}
	return o
}

// nodeFD is a file the script opened with fs.openSync.
type nodeFD struct {
	f    afero.File
	path string
}

// nodeOpenFlags turns node's flags ("r", "w+", "ax" or a number) into
// os.OpenFile's.
func nodeOpenFlags(v goja.Value) (int, bool) {
	if n, ok := v.Export().(int64); ok {
		f := 0
		switch n & 3 {
		case 1:
			f = os.O_WRONLY
		case 2:
			f = os.O_RDWR
		default:
			f = os.O_RDONLY
		}
		if n&64 != 0 {
			f |= os.O_CREATE
		}
		if n&128 != 0 {
			f |= os.O_EXCL
		}
		if n&512 != 0 {
			f |= os.O_TRUNC
		}
		if n&1024 != 0 {
			f |= os.O_APPEND
		}
		return f, true
	}
	s := "r"
	if !goja.IsUndefined(v) && !goja.IsNull(v) {
		s = v.String()
	}
	switch s {
	case "r", "rs", "sr":
		return os.O_RDONLY, true
	case "r+", "rs+", "sr+":
		return os.O_RDWR, true
	case "w":
		return os.O_WRONLY | os.O_CREATE | os.O_TRUNC, true
	case "wx", "xw":
		return os.O_WRONLY | os.O_CREATE | os.O_EXCL, true
	case "w+":
		return os.O_RDWR | os.O_CREATE | os.O_TRUNC, true
	case "wx+", "xw+":
		return os.O_RDWR | os.O_CREATE | os.O_EXCL, true
	case "a", "as", "sa":
		return os.O_WRONLY | os.O_CREATE | os.O_APPEND, true
	case "ax", "xa":
		return os.O_WRONLY | os.O_CREATE | os.O_APPEND | os.O_EXCL, true
	case "a+", "as+", "sa+":
		return os.O_RDWR | os.O_CREATE | os.O_APPEND, true
	case "ax+", "xa+":
		return os.O_RDWR | os.O_CREATE | os.O_APPEND | os.O_EXCL, true
	}
	return 0, false
}

// nodeMode is a FileInfo's mode as stat(2) gives it.
func nodeMode(m fs.FileMode) int64 {
	mode := int64(m.Perm())
	switch {
	case m&fs.ModeSymlink != 0:
		mode |= 0o120000
	case m.IsDir():
		mode |= 0o040000
	case m&fs.ModeCharDevice != 0:
		mode |= 0o020000
	case m&fs.ModeDevice != 0:
		mode |= 0o060000
	case m&fs.ModeNamedPipe != 0:
		mode |= 0o010000
	case m&fs.ModeSocket != 0:
		mode |= 0o140000
	default:
		mode |= 0o100000
	}
	if m&fs.ModeSetuid != 0 {
		mode |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		mode |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		mode |= 0o1000
	}
	return mode
}

// nodeKind names a FileInfo's type for Dirent.
func nodeKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "link"
	case m.IsDir():
		return "dir"
	case m&fs.ModeCharDevice != 0:
		return "char"
	case m.IsRegular():
		return "file"
	}
	return "other"
}

// statObject is the plain object fs.Stats is made from.
func (r *nodeRT) statObject(abs string, fi fs.FileInfo) *goja.Object {
	o := r.vm.NewObject()
	h := fnv.New64a()
	h.Write([]byte(abs))
	o.Set("dev", 2049)
	o.Set("ino", int64(h.Sum64()>>12))
	o.Set("mode", nodeMode(fi.Mode()))
	nlink := 1
	if fi.IsDir() {
		nlink = 2
	}
	o.Set("nlink", nlink)
	o.Set("uid", nodeUID)
	o.Set("gid", nodeGID)
	size := fi.Size()
	if fi.IsDir() && size == 0 {
		size = 4096
	}
	o.Set("size", size)
	o.Set("mtimeMs", float64(fi.ModTime().UnixNano())/1e6)
	return o
}

// nodeDevStream names the standard stream a path or fd stands for (""
// for none).
func nodeDevStream(v goja.Value, abs string) string {
	if n, ok := v.Export().(int64); ok {
		switch n {
		case 0:
			return "stdin"
		case 1:
			return "stdout"
		case 2:
			return "stderr"
		}
		return ""
	}
	switch abs {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return "stdin"
	case "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1":
		return "stdout"
	case "/dev/stderr", "/dev/fd/2", "/proc/self/fd/2":
		return "stderr"
	}
	return ""
}

// fsNatives is native.fs: the file system calls, over r.fs.
func (r *nodeRT) fsNatives() *goja.Object {
	vm := r.vm
	o := vm.NewObject()
	set := func(name string, f nodeFn) { o.Set(name, f) }
	str := func(call goja.FunctionCall, i int) string { return call.Argument(i).String() }
	undef := goja.Undefined()
	throw := func(err error, sc, p, dest string) { panic(r.fsError(err, sc, p, dest, "")) }

	set("kind", func(call goja.FunctionCall) goja.Value {
		fi, err := r.fs.Stat(r.abs(str(call, 0)))
		if err != nil {
			return vm.ToValue("")
		}
		if fi.IsDir() {
			return vm.ToValue("dir")
		}
		return vm.ToValue("file")
	})
	set("exists", func(call goja.FunctionCall) goja.Value {
		p := r.abs(str(call, 0))
		if nodeDevStream(call.Argument(0), p) != "" {
			return vm.ToValue(true)
		}
		_, err := r.fs.Stat(p)
		return vm.ToValue(err == nil)
	})
	set("access", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		fi, err := r.fs.Stat(r.abs(p))
		if err != nil {
			throw(err, "access", p, "")
		}
		mode := call.Argument(1).ToInteger()
		if mode&1 != 0 && fi.Mode().Perm()&0o111 == 0 && !fi.IsDir() {
			throw(syscall.EACCES, "access", p, "")
		}
		return undef
	})
	set("readFile", func(call goja.FunctionCall) goja.Value {
		arg := call.Argument(0)
		if fd, ok := arg.Export().(int64); ok && fd > 2 {
			f := r.fdOf(int(fd), "read")
			b, err := io.ReadAll(f.f)
			if err != nil {
				throw(err, "read", "", "")
			}
			return vm.ToValue(vm.NewArrayBuffer(b))
		}
		p := arg.String()
		abs := r.abs(p)
		switch nodeDevStream(arg, abs) {
		case "stdin":
			r.stdout.flush()
			r.stderr.flush()
			b, _ := io.ReadAll(r.stdin)
			return vm.ToValue(vm.NewArrayBuffer(b))
		case "stdout", "stderr":
			return vm.ToValue(vm.NewArrayBuffer(nil))
		}
		flags, ok := nodeOpenFlags(call.Argument(1))
		if !ok {
			flags = os.O_RDONLY
		}
		f, err := r.fs.OpenFile(abs, flags, 0o666)
		if err != nil {
			throw(err, "open", p, "")
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			throw(errEISDIR, "read", "", "")
		}
		b, err := io.ReadAll(posixfs.ContextReader(r.ctx, f))
		if err != nil {
			if r.ctx.Err() != nil {
				panic(r.ctx.Err())
			}
			throw(err, "read", "", "")
		}
		return vm.ToValue(vm.NewArrayBuffer(b))
	})
	set("writeFile", func(call goja.FunctionCall) goja.Value {
		arg := call.Argument(0)
		data, _ := r.bytesOf(call.Argument(1))
		if fd, ok := arg.Export().(int64); ok && fd > 2 {
			if _, err := r.fdWrite(int(fd), data, -1); err != nil {
				throw(err, "write", "", "")
			}
			return undef
		}
		p := arg.String()
		abs := r.abs(p)
		switch nodeDevStream(arg, abs) {
		case "stdout":
			r.stdout.Write(data)
			return undef
		case "stderr":
			r.stderr.Write(data)
			return undef
		case "stdin":
			throw(errEBADF, "write", "", "")
		}
		flags, ok := nodeOpenFlags(call.Argument(2))
		if !ok {
			panic(r.nodeErr("TypeError", "ERR_INVALID_ARG_VALUE", "The argument 'flags' is invalid. Received "+r.inspect(call.Argument(2))))
		}
		mode := fs.FileMode(call.Argument(3).ToInteger()) & fs.ModePerm
		f, err := r.fs.OpenFile(abs, flags, mode)
		if err != nil {
			throw(err, "open", p, "")
		}
		_, err = f.Write(data)
		cerr := f.Close()
		if err == nil {
			err = cerr
		}
		if err != nil {
			throw(err, "write", "", "")
		}
		return undef
	})
	set("stat", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		abs := r.abs(p)
		lstat := call.Argument(1).ToBoolean()
		var fi fs.FileInfo
		var err error
		sc := "stat"
		if lstat {
			fi, err = posixfs.Lstat(r.fs, abs)
			sc = "lstat"
		} else {
			fi, err = r.fs.Stat(abs)
		}
		if err != nil {
			if !call.Argument(2).ToBoolean() && nodeErrnoOf(err).code == "ENOENT" {
				return undef
			}
			throw(err, sc, p, "")
		}
		return r.statObject(abs, fi)
	})
	set("fstat", func(call goja.FunctionCall) goja.Value {
		fd := int(call.Argument(0).ToInteger())
		if fd <= 2 {
			o := r.vm.NewObject()
			o.Set("dev", 0)
			o.Set("ino", fd)
			o.Set("mode", 0o010600)
			o.Set("nlink", 1)
			o.Set("uid", nodeUID)
			o.Set("gid", nodeGID)
			o.Set("size", 0)
			o.Set("mtimeMs", float64(r.start.UnixNano())/1e6)
			return o
		}
		f := r.fdOf(fd, "fstat")
		fi, err := f.f.Stat()
		if err != nil {
			throw(err, "fstat", "", "")
		}
		return r.statObject(f.path, fi)
	})
	set("readdir", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		abs := r.abs(p)
		fi, err := r.fs.Stat(abs)
		if err == nil && !fi.IsDir() {
			err = errENOTDIR
		}
		if err != nil {
			throw(err, "scandir", p, "")
		}
		list, err := posixfs.ReadDir(r.fs, abs)
		if err != nil {
			throw(err, "scandir", p, "")
		}
		out := make([]any, len(list))
		for i, e := range list {
			out[i] = vm.NewArray(e.Name(), nodeKind(e.Mode()))
		}
		return vm.NewArray(out...)
	})
	set("mkdir", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		abs := r.abs(p)
		mode := fs.FileMode(call.Argument(2).ToInteger()) & fs.ModePerm
		if !call.Argument(1).ToBoolean() {
			if err := r.fs.Mkdir(abs, mode); err != nil {
				throw(err, "mkdir", p, "")
			}
			return undef
		}
		if fi, err := r.fs.Stat(abs); err == nil {
			if fi.IsDir() {
				return undef
			}
			throw(syscall.EEXIST, "mkdir", p, "")
		}
		// The first folder made is the highest missing one.
		first := abs
		for d := path.Dir(abs); d != "/"; d = path.Dir(d) {
			fi, err := r.fs.Stat(d)
			if err == nil {
				if !fi.IsDir() {
					throw(errENOTDIR, "mkdir", p, "")
				}
				break
			}
			first = d
		}
		if err := r.fs.MkdirAll(abs, mode); err != nil {
			throw(err, "mkdir", p, "")
		}
		return vm.ToValue(first)
	})
	set("mkdtemp", func(call goja.FunctionCall) goja.Value {
		prefix := str(call, 0)
		const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		for tries := 0; ; tries++ {
			b := make([]byte, 6)
			rand.Read(b)
			for i := range b {
				b[i] = letters[int(b[i])%len(letters)]
			}
			name := prefix + string(b)
			err := r.fs.Mkdir(r.abs(name), 0o700)
			if err == nil {
				return vm.ToValue(name)
			}
			if !errors.Is(err, fs.ErrExist) || tries > 100 {
				throw(err, "mkdtemp", prefix+"XXXXXX", "")
			}
		}
	})
	set("rmdir", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		abs := r.abs(p)
		fi, err := posixfs.Lstat(r.fs, abs)
		if err == nil && !fi.IsDir() {
			err = errENOTDIR
		}
		if err == nil {
			if call.Argument(1).ToBoolean() {
				err = r.fs.RemoveAll(abs)
			} else {
				err = r.fs.Remove(abs)
			}
		}
		if err != nil {
			throw(err, "rmdir", p, "")
		}
		return undef
	})
	set("rm", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		abs := r.abs(p)
		recursive, force := call.Argument(1).ToBoolean(), call.Argument(2).ToBoolean()
		fi, err := posixfs.Lstat(r.fs, abs)
		if err != nil {
			if force && nodeErrnoOf(err).code == "ENOENT" {
				return undef
			}
			throw(err, "lstat", p, "")
		}
		if fi.IsDir() {
			if !recursive {
				e := r.nodeErr("Error", "ERR_FS_EISDIR", "Path is a directory: rm returned EISDIR (is a directory) "+p)
				e.Set("errno", 21)
				e.Set("syscall", "rm")
				e.Set("path", p)
				e.Set("name", "SystemError")
				panic(e)
			}
			err = r.fs.RemoveAll(abs)
		} else {
			err = r.fs.Remove(abs)
		}
		if err != nil {
			throw(err, "rm", p, "")
		}
		return undef
	})
	set("unlink", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		abs := r.abs(p)
		fi, err := posixfs.Lstat(r.fs, abs)
		if err == nil && fi.IsDir() {
			err = errEISDIR
		}
		if err == nil {
			err = r.fs.Remove(abs)
		}
		if err != nil {
			throw(err, "unlink", p, "")
		}
		return undef
	})
	set("rename", func(call goja.FunctionCall) goja.Value {
		a, b := str(call, 0), str(call, 1)
		if err := r.fs.Rename(r.abs(a), r.abs(b)); err != nil {
			throw(err, "rename", a, b)
		}
		return undef
	})
	set("copyFile", func(call goja.FunctionCall) goja.Value {
		a, b := str(call, 0), str(call, 1)
		if err := r.copyFile(r.abs(a), r.abs(b), call.Argument(2).ToBoolean()); err != nil {
			throw(err, "copyfile", a, b)
		}
		return undef
	})
	set("realpath", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		real, err := r.realpath(r.abs(p))
		if err != nil {
			throw(err, "realpath", p, "")
		}
		return vm.ToValue(real)
	})
	set("readlink", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		t, err := posixfs.Readlink(r.fs, r.abs(p))
		if err != nil {
			throw(err, "readlink", p, "")
		}
		return vm.ToValue(t)
	})
	set("symlink", func(call goja.FunctionCall) goja.Value {
		target, p := str(call, 0), str(call, 1)
		if err := posixfs.Symlink(r.fs, target, r.abs(p)); err != nil {
			throw(err, "symlink", target, p)
		}
		return undef
	})
	set("chmod", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		if err := r.fs.Chmod(r.abs(p), fs.FileMode(call.Argument(1).ToInteger())&(fs.ModePerm)); err != nil {
			throw(err, "chmod", p, "")
		}
		return undef
	})
	set("utimes", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		sec := func(v goja.Value) time.Time {
			f := v.ToFloat()
			return time.Unix(0, int64(f*1e9))
		}
		if err := r.fs.Chtimes(r.abs(p), sec(call.Argument(1)), sec(call.Argument(2))); err != nil {
			throw(err, "utime", p, "")
		}
		return undef
	})
	set("truncate", func(call goja.FunctionCall) goja.Value {
		arg := call.Argument(0)
		size := call.Argument(1).ToInteger()
		if fd, ok := arg.Export().(int64); ok {
			f := r.fdOf(int(fd), "ftruncate")
			if err := f.f.Truncate(size); err != nil {
				throw(err, "ftruncate", "", "")
			}
			return undef
		}
		p := arg.String()
		f, err := r.fs.OpenFile(r.abs(p), os.O_WRONLY, 0)
		if err == nil {
			err = f.Truncate(size)
			f.Close()
		}
		if err != nil {
			throw(err, "open", p, "")
		}
		return undef
	})
	set("open", func(call goja.FunctionCall) goja.Value {
		p := str(call, 0)
		abs := r.abs(p)
		switch nodeDevStream(call.Argument(0), abs) {
		case "stdin":
			return vm.ToValue(0)
		case "stdout":
			return vm.ToValue(1)
		case "stderr":
			return vm.ToValue(2)
		}
		flags, ok := nodeOpenFlags(call.Argument(1))
		if !ok {
			panic(r.nodeErr("TypeError", "ERR_INVALID_ARG_VALUE", "The argument 'flags' is invalid. Received "+r.inspect(call.Argument(1))))
		}
		mode := fs.FileMode(call.Argument(2).ToInteger()) & fs.ModePerm
		f, err := r.fs.OpenFile(abs, flags, mode)
		if err != nil {
			throw(err, "open", p, "")
		}
		fd := r.nextFD
		r.nextFD++
		r.fds[fd] = &nodeFD{f: f, path: abs}
		return vm.ToValue(fd)
	})
	set("close", func(call goja.FunctionCall) goja.Value {
		fd := int(call.Argument(0).ToInteger())
		if fd <= 2 {
			return undef
		}
		f := r.fdOf(fd, "close")
		delete(r.fds, fd)
		if err := f.f.Close(); err != nil {
			throw(err, "close", "", "")
		}
		return undef
	})
	set("read", func(call goja.FunctionCall) goja.Value {
		fd := int(call.Argument(0).ToInteger())
		b, _ := r.bytesOf(call.Argument(1))
		pos := call.Argument(2).ToInteger()
		if fd == 0 {
			r.stdout.flush()
			r.stderr.flush()
			n, err := r.stdin.Read(b)
			if err != nil && err != io.EOF {
				throw(err, "read", "", "")
			}
			return vm.ToValue(n)
		}
		if fd <= 2 {
			throw(errEBADF, "read", "", "")
		}
		f := r.fdOf(fd, "read")
		var n int
		var err error
		if pos >= 0 {
			n, err = f.f.ReadAt(b, pos)
		} else {
			n, err = io.ReadFull(f.f, b)
		}
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			throw(err, "read", "", "")
		}
		return vm.ToValue(n)
	})
	set("write", func(call goja.FunctionCall) goja.Value {
		fd := int(call.Argument(0).ToInteger())
		b, _ := r.bytesOf(call.Argument(1))
		n, err := r.fdWrite(fd, b, call.Argument(2).ToInteger())
		if err != nil {
			throw(err, "write", "", "")
		}
		return vm.ToValue(n)
	})
	return o
}

// fdOf returns the open file fd or throws EBADF.
func (r *nodeRT) fdOf(fd int, sc string) *nodeFD {
	f, ok := r.fds[fd]
	if !ok {
		panic(r.fsError(errEBADF, sc, "", "", ""))
	}
	return f
}

// fdWrite writes b to fd (1 and 2 are the script's stdout and stderr), at
// pos unless pos < 0.
func (r *nodeRT) fdWrite(fd int, b []byte, pos int64) (int, error) {
	switch fd {
	case 1:
		return r.stdout.Write(b)
	case 2:
		return r.stderr.Write(b)
	case 0:
		return 0, errEBADF
	}
	f, ok := r.fds[fd]
	if !ok {
		return 0, errEBADF
	}
	if pos >= 0 {
		return f.f.WriteAt(b, pos)
	}
	return f.f.Write(b)
}

// closeFDs closes what the script left open.
func (r *nodeRT) closeFDs() {
	fds := make([]int, 0, len(r.fds))
	for fd := range r.fds {
		fds = append(fds, fd)
	}
	sort.Ints(fds)
	for _, fd := range fds {
		r.fds[fd].f.Close()
	}
	r.fds = map[int]*nodeFD{}
}

// copyFile copies a regular file with its permissions.
func (r *nodeRT) copyFile(src, dst string, excl bool) error {
	in, err := r.fs.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return errEISDIR
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if excl {
		flags |= os.O_EXCL
	}
	out, err := r.fs.OpenFile(dst, flags, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := posixfs.CopyCtx(r.ctx, out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// realpath resolves the symbolic links of an absolute path.
func (r *nodeRT) realpath(abs string) (string, error) {
	parts := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	cur := "/"
	hops := 0
	for len(parts) > 0 {
		name := parts[0]
		parts = parts[1:]
		if name == "" || name == "." {
			continue
		}
		if name == ".." {
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, name)
		fi, err := posixfs.Lstat(r.fs, next)
		if err != nil {
			return "", err
		}
		if posixfs.IsSymlink(fi) {
			hops++
			if hops > 40 {
				return "", syscall.ELOOP
			}
			target, err := posixfs.Readlink(r.fs, next)
			if err != nil {
				return "", err
			}
			if path.IsAbs(target) {
				cur = "/"
			}
			parts = append(strings.Split(strings.Trim(target, "/"), "/"), parts...)
			continue
		}
		cur = next
	}
	return cur, nil
}
