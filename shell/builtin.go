package shell

import "github.com/agentenkit/agentenkit/shell/command"

// Builtin is a command the shell runs itself: command.Func, the interface
// every command package implements (see package command for its contract).
type Builtin = command.Func

// Call is what a builtin gets from the shell for one invocation.
type Call = command.Call

// Exit returns the error a builtin returns to exit with status n (nil for 0).
func Exit(n int) error { return command.Exit(n) }

// ExitCode returns the exit status an error from a Builtin stands for: 0
// for nil, n for Exit(n), 1 for any other error (command.ExitCode).
func ExitCode(err error) int { return command.ExitCode(err) }

// register adds a builtin under one or more names (command.Register).
func register(b Builtin, names ...string) { command.Register(b, names...) }

// lookupBuiltin returns the builtin named name (command.Lookup).
func lookupBuiltin(name string) (Builtin, bool) { return command.Lookup(name) }

// Builtins lists the names of the commands the shell has built in, sorted.
func Builtins() []string { return command.Names() }
