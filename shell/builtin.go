package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"sync"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/interp"
)

// Builtin is a command the shell runs itself. args[0] is the command's name.
//
// A builtin reads and writes files only through c.FS, with absolute paths
// (c.Abs resolves one), never through package os: the same code then runs
// over a sandbox's virtual filesystem natively and over WASI inside a guest.
// It honours ctx (the command's time limit): a loop over input or files
// checks ctx.Err() and returns it.
//
// It returns nil for exit status 0, Exit(n) for another status, or an error
// (reported on stderr with the command's name, status 1).
type Builtin func(ctx context.Context, c *Call, args []string) error

// Call is what a builtin gets from the shell for one invocation.
type Call struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Dir is the absolute, clean current folder.
	Dir string
	// FS is the filesystem; paths are absolute.
	FS afero.Fs
	// Env looks up a variable of the command's environment.
	Env func(name string) (string, bool)
	// Environ lists the command's environment as "NAME=value", sorted.
	Environ func() []string
	// Exec runs another command (args[0] is its name) with this call's
	// stdio, folder and environment, through the shell's whole lookup
	// (builtins, handlers, the fallback). It returns like a Builtin. Used
	// by xargs, find -exec, env CMD, timeout CMD.
	Exec func(ctx context.Context, args []string) error
}

// Abs returns p as an absolute, clean path, resolving it against c.Dir.
func (c *Call) Abs(p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(c.Dir, p)
}

// Errorf prints "name: message" on stderr, as coreutils do, and returns
// Exit(status).
func (c *Call) Errorf(status int, name, format string, a ...any) error {
	fmt.Fprintf(c.Stderr, "%s: %s\n", name, fmt.Sprintf(format, a...))
	return Exit(status)
}

// Exit returns the error a builtin returns to exit with status n (nil for 0).
func Exit(n int) error {
	if n == 0 {
		return nil
	}
	return interp.ExitStatus(uint8(n))
}

// ExitCode returns the exit status an error from a Builtin stands for: 0 for
// nil, n for Exit(n), 1 for any other error.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	var st interp.ExitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	return 1
}

var (
	registryMu sync.RWMutex
	registry   = map[string]Builtin{}
)

// register adds a builtin under one or more names. Called from init
// functions of this package's files; a duplicate name panics (a programming
// error found by any test).
func register(b Builtin, names ...string) {
	registryMu.Lock()
	defer registryMu.Unlock()
	for _, n := range names {
		if _, dup := registry[n]; dup {
			panic("shell: builtin registered twice: " + n)
		}
		registry[n] = b
	}
}

// lookupBuiltin returns the builtin named name.
func lookupBuiltin(name string) (Builtin, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	b, ok := registry[name]
	return b, ok
}

// Builtins lists the names of the commands the shell has built in, sorted.
func Builtins() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
