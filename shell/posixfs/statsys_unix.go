//go:build unix && !linux

package posixfs

import (
	"io/fs"
	"os"
	"syscall"
)

// Sys is the Sys of a FileInfo the shell's tests get: a *syscall.Stat_t
// owned by this process's user, as the interpreter's -O and -G tests
// expect on this platform (without one, -O would panic).
func Sys(fi fs.FileInfo) any {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st
	}
	return &syscall.Stat_t{Uid: uint32(os.Getuid()), Gid: uint32(os.Getgid()), Size: fi.Size()}
}
