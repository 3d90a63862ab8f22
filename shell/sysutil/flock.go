package sysutil

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
)

// locks are the files flock holds in this process, by absolute path.
// Commands of one sandbox that run in one process (the memory adapter, one
// busybox instance) exclude one another through it. The wasm adapter runs
// each command in an instance of its own, and they do not share it: there
// a lock is held only against the instance's own commands.
var locks = struct {
	mu   sync.Mutex
	held map[string]chan struct{}
}{held: map[string]chan struct{}{}}

// acquire takes the lock on name, waiting up to wait (forever when wait
// is negative); false when it could not.
func acquire(ctx context.Context, name string, wait time.Duration) bool {
	var deadline <-chan time.Time
	if wait >= 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		deadline = t.C
	}
	for {
		locks.mu.Lock()
		ch, busy := locks.held[name]
		if !busy {
			locks.held[name] = make(chan struct{})
			locks.mu.Unlock()
			return true
		}
		locks.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

func release(name string) {
	locks.mu.Lock()
	if ch, ok := locks.held[name]; ok {
		close(ch)
		delete(locks.held, name)
	}
	locks.mu.Unlock()
}

// flock is util-linux's flock [-s|-x] [-n] [-w SECS] [-E CODE] [-o] FILE
// COMMAND [ARGS...] or FILE -c COMMAND: it takes the lock, makes FILE when
// missing, runs the command and gives the lock back. A lock it cannot take
// (-n, or -w run out) exits 1 (or -E's code) without running the command.
// Shared locks exclude one another as exclusive ones do. flock FD (a
// descriptor) is not supported: it exits 64 saying so.
func flock(ctx context.Context, c *command.Call, args []string) error {
	wait := time.Duration(-1)
	conflict := 1
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-s" || a == "--shared" || a == "-x" || a == "-e" || a == "--exclusive" || a == "-o" || a == "--close":
		case a == "-n" || a == "--nb" || a == "--nonblock":
			wait = 0
		case a == "-w" || a == "--wait" || a == "--timeout":
			if i+1 >= len(args) {
				return c.Errorf(64, "flock", "option requires an argument -- 'w'")
			}
			i++
			var secs float64
			if _, err := fmt.Sscan(args[i], &secs); err != nil || secs < 0 {
				return c.Errorf(64, "flock", "invalid timeout value: '%s'", args[i])
			}
			wait = time.Duration(secs * float64(time.Second))
		case a == "-E" || a == "--conflict-exit-code":
			if i+1 >= len(args) {
				return c.Errorf(64, "flock", "option requires an argument -- 'E'")
			}
			i++
			if _, err := fmt.Sscan(args[i], &conflict); err != nil {
				return c.Errorf(64, "flock", "invalid exit code: '%s'", args[i])
			}
		case a == "--":
			i++
			goto operands
		case strings.HasPrefix(a, "-") && a != "-":
			return c.Errorf(64, "flock", "unsupported option %s (supported: -s -x -n -w -E -o -c)", quote(a))
		default:
			goto operands
		}
	}
operands:
	rest := args[i:]
	if len(rest) == 0 {
		return c.Errorf(64, "flock", "not enough arguments")
	}
	if len(rest) == 1 {
		return c.Errorf(64, "flock", "locking a file descriptor (%s) is not supported in this sandbox; use flock FILE COMMAND", rest[0])
	}
	name := c.Abs(rest[0])
	cmd := rest[1:]
	if cmd[0] == "-c" || cmd[0] == "--command" {
		if len(cmd) < 2 {
			return c.Errorf(64, "flock", "option requires an argument -- 'c'")
		}
		cmd = []string{"sh", "-c", cmd[1]}
	}
	if f, err := c.FS.OpenFile(name, os.O_RDONLY|os.O_CREATE, 0o644); err == nil {
		f.Close()
	} else if fi, serr := c.FS.Stat(name); serr != nil || !fi.IsDir() {
		return c.Errorf(66, "flock", "cannot open lock file %s: %v", rest[0], err)
	}
	if !acquire(ctx, name, wait) {
		if wait > 0 {
			fmt.Fprintln(c.Stderr, "flock: timeout while waiting to get lock")
		}
		return command.Exit(conflict)
	}
	defer release(name)
	return c.Exec(ctx, cmd)
}
