// Package command is the small interface every shell command implements
// and the registry through which command packages make themselves known.
//
// It is a leaf: it imports nothing of the shell's interpreter, so a command
// family (file utilities, text utilities, git, curl, ...) lives in a package
// of its own that imports only this one, and the interpreter finds commands
// by name through Lookup without importing any command package. A program
// links a family in by importing its package (for its init's Register).
package command

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"sync"

	"github.com/spf13/afero"
)

// Func is a command the shell runs itself. args[0] is the command's name.
//
// A command reads and writes files only through c.FS, with absolute paths
// (c.Abs resolves one), never through package os: the same code then runs
// over a sandbox's virtual filesystem natively and over WASI inside a guest.
// It honours ctx (the command's time limit): a loop over input or files
// checks ctx.Err() and returns it.
//
// It returns nil for exit status 0, Exit(n) for another status, or an error
// (reported on stderr with the command's name, status 1).
type Func func(ctx context.Context, c *Call, args []string) error

// Call is what a command gets from the shell for one invocation.
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
	// (builtins, handlers, scripts, the fallback). It returns like a Func.
	// Used by xargs, find -exec, env CMD, timeout CMD. The error for a
	// command that could not start (127 not found, 126 cannot run)
	// carries its status and has a method NotRun() string that returns
	// "NAME: reason".
	Exec func(ctx context.Context, args []string) error
	// Path is the file the command was named by or found at on $PATH when
	// that file stands for one of the sandbox's commands outside the
	// folders where the system keeps them: the absolute path as reached,
	// links not followed (a virtual environment's bin/python, a link to
	// /usr/bin/python3). Empty otherwise. python3 and pip find a virtual
	// environment by it, as CPython does by its executable's path.
	Path string

	// found is the shell's search of $PATH for the command's name made
	// just before this call ran it (SetFound), until TakeFound.
	found *Found
}

// Found is what the shell's search of $PATH found for a command's Name:
// Path, the file (or system command) that runs it, "" for nothing,
// searched in the folders of PathList relative to Dir. The shell looks a
// name up once per command (bash hashes it, hashall) and hands that
// result to the lookup chain that runs the command, which would
// otherwise search the same folders again.
type Found struct{ Name, PathList, Dir, Path string }

// SetFound records the search the shell made for this call's command.
func (c *Call) SetFound(f Found) { c.found = &f }

// TakeFound returns the search SetFound recorded and forgets it, so that
// a command the call's Exec runs later does not see it; false when none
// was recorded.
func (c *Call) TakeFound() (Found, bool) {
	f := c.found
	if f == nil {
		return Found{}, false
	}
	c.found = nil
	return *f, true
}

// SetEnv gives c the environment env, which it keeps (and which must not
// change after): Env looks names up in it, Environ lists it sorted.
func (c *Call) SetEnv(env map[string]string) {
	c.Env = func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}
	c.Environ = func() []string {
		list := make([]string, 0, len(env))
		for k, v := range env {
			list = append(list, k+"="+v)
		}
		sort.Strings(list)
		return list
	}
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

// ExitStatus is the error a command returns to exit with a non-zero status.
type ExitStatus uint8

func (s ExitStatus) Error() string { return "exit status " + strconv.Itoa(int(s)) }

// Exit returns the error a command returns to exit with status n (nil for
// 0). n is taken modulo 256, as a process's status is.
func Exit(n int) error {
	if n&0xff == 0 {
		return nil
	}
	return ExitStatus(uint8(n))
}

// ExitCode returns the exit status an error from a Func stands for: 0 for
// nil, n for Exit(n) (or any error that errors.As finds an ExitStatus in),
// 1 for any other error.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	var st ExitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	return 1
}

var (
	mu       sync.RWMutex
	registry = map[string]Func{}
)

// Register adds a command under one or more names. Called from init
// functions of command packages; a duplicate name panics (a programming
// error that any test linking both packages finds).
func Register(f Func, names ...string) {
	mu.Lock()
	defer mu.Unlock()
	for _, n := range names {
		if _, dup := registry[n]; dup {
			panic("command: registered twice: " + n)
		}
		registry[n] = f
	}
}

// Lookup returns the command registered under name.
func Lookup(name string) (Func, bool) {
	mu.RLock()
	defer mu.RUnlock()
	f, ok := registry[name]
	return f, ok
}

// Names lists the registered commands' names, sorted.
func Names() []string {
	mu.RLock()
	defer mu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// CtxWriter is a writer that fails with Ctx's error once Ctx has ended, so
// a command that ignores its context still stops at its next write.
type CtxWriter struct {
	Ctx context.Context
	W   io.Writer
}

func (w CtxWriter) Write(p []byte) (int, error) {
	if err := w.Ctx.Err(); err != nil {
		return 0, err
	}
	return w.W.Write(p)
}

// ReadAll reads r to its end like io.ReadAll, but stops with ctx's error
// as soon as ctx ends: a command that reads all its input (shuf, split,
// patch from stdin) ends at its deadline even on endless input.
func ReadAll(ctx context.Context, r io.Reader) ([]byte, error) {
	var data []byte
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return data, err
		}
		n, err := r.Read(buf)
		data = append(data, buf[:n]...)
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
}

// ErrNotFound matches the error Call.Exec returns for a command found
// nowhere (and for a script path that does not exist). That error stands
// for exit status 127 (ExitCode) and is not printed: the caller reports
// it in its own words ("xargs: nosuch: No such file or directory").
var ErrNotFound = errors.New("command not found")

// StatusTimeout is the exit status of a command stopped because its time
// ran out, as timeout(1) has it.
const StatusTimeout = 124

// StatusOf returns the exit status err carries (an ExitStatus that
// errors.As finds in it); ok is false when err carries none.
func StatusOf(err error) (status int, ok bool) {
	var st ExitStatus
	if errors.As(err, &st) {
		return int(st), true
	}
	return 0, false
}
