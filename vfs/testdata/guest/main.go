// Command guest is a wasip1 test program for vfs's WASI bridge. Each
// argument is one step, "op|arg|arg", run in order; each prints one line:
// "ok" or "ok <result>", or "err <ERRNO>". It exits 0 unless a step is
// malformed.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func main() {
	for _, step := range os.Args[1:] {
		args := strings.Split(step, "|")
		out, err := run(args[0], args[1:])
		switch {
		case err != nil:
			fmt.Println("err", errName(err))
		case out == "":
			fmt.Println("ok")
		default:
			fmt.Println("ok", out)
		}
	}
}

func run(op string, a []string) (string, error) {
	switch op {
	case "cat":
		b, err := os.ReadFile(a[0])
		return strconv.Quote(string(b)), err
	case "write":
		return "", os.WriteFile(a[0], []byte(a[1]), 0o644)
	case "append":
		f, err := os.OpenFile(a[0], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return "", err
		}
		_, err = f.WriteString(a[1])
		return "", errors.Join(err, f.Close())
	case "create-excl":
		f, err := os.OpenFile(a[0], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return "", err
		}
		return "", f.Close()
	case "mkdir":
		return "", os.Mkdir(a[0], 0o755)
	case "mkdirall":
		return "", os.MkdirAll(a[0], 0o755)
	case "ls":
		entries, err := os.ReadDir(a[0])
		var names []string
		for _, e := range entries {
			suffix := ""
			switch {
			case e.Type()&os.ModeSymlink != 0:
				suffix = "@"
			case e.IsDir():
				suffix = "/"
			}
			names = append(names, e.Name()+suffix)
		}
		return strings.Join(names, ","), err
	case "ls-twice": // one handle, read, rewind, read again
		f, err := os.Open(a[0])
		if err != nil {
			return "", err
		}
		defer f.Close()
		first, err := f.Readdirnames(-1)
		if err != nil {
			return "", err
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return "", err
		}
		second, err := f.Readdirnames(-1)
		sort.Strings(first)
		sort.Strings(second)
		return strings.Join(first, ",") + " " + strings.Join(second, ","), err
	case "rename": // rename(2) itself: os.Rename refuses an existing directory on its own
		return "", syscall.Rename(a[0], a[1])
	case "remove":
		return "", os.Remove(a[0])
	case "removeall":
		return "", os.RemoveAll(a[0])
	case "unlink":
		return "", syscall.Unlink(a[0])
	case "rmdir":
		return "", syscall.Rmdir(a[0])
	case "symlink":
		return "", os.Symlink(a[0], a[1])
	case "readlink":
		return os.Readlink(a[0])
	case "stat", "lstat":
		stat := os.Stat
		if op == "lstat" {
			stat = os.Lstat
		}
		info, err := stat(a[0])
		if err != nil {
			return "", err
		}
		ino := "ino=0"
		if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Ino != 0 {
			ino = "ino>0"
		}
		return fmt.Sprintf("%s %d %s %s", info.Name(), info.Size(), info.Mode().Type(), ino), nil
	case "same": // same inode by Stat of two names
		x, err := os.Stat(a[0])
		if err != nil {
			return "", err
		}
		y, err := os.Stat(a[1])
		if err != nil {
			return "", err
		}
		return strconv.FormatBool(os.SameFile(x, y)), nil
	case "seek": // write a[1], then seek/tell/read/pwrite/truncate on one handle
		f, err := os.OpenFile(a[0], os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return "", err
		}
		defer f.Close()
		if _, err := f.WriteString(a[1]); err != nil {
			return "", err
		}
		end, _ := f.Seek(0, io.SeekCurrent)
		if _, err := f.Seek(2, io.SeekStart); err != nil {
			return "", err
		}
		b := make([]byte, 3)
		n, err := f.Read(b)
		if err != nil {
			return "", err
		}
		if _, err := f.WriteAt([]byte("XY"), 0); err != nil {
			return "", err
		}
		here, _ := f.Seek(0, io.SeekCurrent)
		if err := f.Truncate(end - 1); err != nil {
			return "", err
		}
		_, negErr := f.Seek(-100, io.SeekStart)
		eofN, eofErr := f.ReadAt(make([]byte, 4), 1000)
		return fmt.Sprintf("end=%d read=%q at=%d neg=%s eof=%d,%v", end, b[:n], here, errName(negErr), eofN, eofErr), nil
	case "chtimes":
		return "", os.Chtimes(a[0], time.Unix(1e9, 0), time.Unix(1e9, 0))
	}
	return "", fmt.Errorf("unknown op %q", op)
}

func errName(err error) string {
	if err == nil {
		return "nil"
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	for _, e := range []struct {
		n syscall.Errno
		s string
	}{
		{syscall.ENOENT, "ENOENT"}, {syscall.EEXIST, "EEXIST"}, {syscall.ENOTDIR, "ENOTDIR"},
		{syscall.EISDIR, "EISDIR"}, {syscall.ENOTEMPTY, "ENOTEMPTY"}, {syscall.EINVAL, "EINVAL"},
		{syscall.EIO, "EIO"}, {syscall.ELOOP, "ELOOP"}, {syscall.EPERM, "EPERM"},
		{syscall.EBADF, "EBADF"}, {syscall.ENOSYS, "ENOSYS"}, {syscall.ENOTCAPABLE, "ENOTCAPABLE"},
	} {
		if errno == e.n {
			return e.s
		}
	}
	return fmt.Sprintf("errno(%d)", int(errno))
}
