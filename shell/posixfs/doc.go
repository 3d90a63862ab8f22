// Package posixfs gives an afero.Fs the rules of a POSIX filesystem that
// the shell and its commands rely on: no implicit parent folders, ENOTEMPTY,
// EISDIR, a umask (Strict); the device files /dev/null, /dev/zero,
// /dev/stdin, ... (WithDev); the read-only system folders of a merged-/usr
// Debian box, /usr/bin listing the shell's commands, /bin and /sbin links
// (WithSystem); and the small helpers over afero that commands
// share (Lstat, Readlink, ReadDir, ErrText with coreutils' wording).
//
// It imports shell/command only, so the interpreter and every command
// package may import it.
package posixfs
