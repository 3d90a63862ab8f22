package shell

import (
	"errors"

	"mvdan.cc/sh/v3/interp"

	"github.com/agentenkit/agentenkit/shell/command"
)

// Builtin is a command the shell runs itself: command.Func, the interface
// every command package implements (see package command for its contract).
type Builtin = command.Func

// Call is what a builtin gets from the shell for one invocation.
type Call = command.Call

// Exit returns the error a builtin returns to exit with status n (nil for 0).
func Exit(n int) error { return command.Exit(n) }

// ExitCode returns the exit status an error from a Builtin (or from the
// interpreter) stands for: 0 for nil, n for Exit(n) or the interpreter's
// exit status n, 1 for any other error.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	var ist interp.ExitStatus
	if errors.As(err, &ist) {
		return int(ist)
	}
	return command.ExitCode(err)
}

// asInterpStatus turns an exit status of either kind (command's or the
// interpreter's) found in err into the interpreter's; ok is false when
// err holds none.
func asInterpStatus(err error) (interp.ExitStatus, bool) {
	var ist interp.ExitStatus
	if errors.As(err, &ist) {
		return ist, true
	}
	var cst command.ExitStatus
	if errors.As(err, &cst) {
		return interp.ExitStatus(cst), true
	}
	return 0, false
}

// register adds a builtin under one or more names (command.Register).
func register(b Builtin, names ...string) { command.Register(b, names...) }

// lookupBuiltin returns the builtin named name (command.Lookup).
func lookupBuiltin(name string) (Builtin, bool) { return command.Lookup(name) }

// Builtins lists the names of the commands the shell has built in, sorted.
func Builtins() []string { return command.Names() }
