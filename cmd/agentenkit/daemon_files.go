package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/agentenkit/agentenkit"
)

// daemonFiles are where a state folder's daemon keeps its socket, log and
// lock: in the folder daemon/ of the state folder, made 0700.
type daemonFiles struct {
	state string // the state folder, absolute
	dir   string // state/daemon
	sock  string // the unix socket (0600), state/daemon/sock unless too long
	log   string // the daemon's stdout and stderr
	lock  string // held (flock) by the daemon for as long as it lives
}

// maxSocketPath is the longest socket path used as is: sun_path holds 108
// bytes on Linux, 104 on the BSDs and macOS, the NUL included.
const maxSocketPath = 100

// daemonPaths returns the daemon's files for agentenkit.StateDir(). When
// the socket's path would be too long for a unix socket, the socket is in
// a folder of the user's own under the temp folder, named by a hash of
// the state folder's path.
func daemonPaths() (daemonFiles, error) {
	state, err := filepath.Abs(agentenkit.StateDir())
	if err != nil {
		return daemonFiles{}, err
	}
	dir := filepath.Join(state, "daemon")
	f := daemonFiles{state: state, dir: dir, sock: filepath.Join(dir, "sock"), log: filepath.Join(dir, "daemon.log"), lock: filepath.Join(dir, "lock")}
	if len(f.sock) > maxSocketPath {
		sum := sha256.Sum256([]byte(state))
		f.sock = filepath.Join(os.TempDir(), fmt.Sprintf("agentenkit-%d", os.Getuid()), hex.EncodeToString(sum[:8])+".sock")
	}
	return f, nil
}

// prepare makes the daemon's folders, each 0700 and the user's own.
func (f daemonFiles) prepare() error {
	if err := privateDir(f.dir); err != nil {
		return err
	}
	if d := filepath.Dir(f.sock); d != f.dir {
		return privateDir(d)
	}
	return nil
}

// privateDir makes dir (and its parents) when missing and checks that it
// is a folder, not a link, of this user, with mode 0700 (set when wider).
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("daemon: make %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("daemon: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("daemon: %s is not a folder", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("daemon: %s belongs to user %d, not to this user (%d)", dir, st.Uid, os.Getuid())
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("daemon: make %s private: %w", dir, err)
		}
	}
	return nil
}

// lockFile opens the daemon's lock file and takes its exclusive lock
// without waiting: ok is false when another process holds it (a daemon
// lives, or is starting or stopping). The lock lasts until f is closed or
// the process ends, however it ends.
func lockFile(path string) (f *os.File, ok bool, err error) {
	f, err = os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("daemon: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, false, nil
		}
		return nil, false, fmt.Errorf("daemon: lock %s: %w", path, err)
	}
	return f, true, nil
}

// lockFree reports whether no process holds the daemon's lock: no daemon
// lives for the state folder (a crashed one has released it too).
func lockFree(path string) bool {
	f, ok, err := lockFile(path)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	if ok {
		f.Close()
	}
	return ok
}

// sameFile reports whether path is still the file fi was read from.
func sameFile(path string, fi os.FileInfo) bool {
	now, err := os.Lstat(path)
	return err == nil && os.SameFile(fi, now)
}
