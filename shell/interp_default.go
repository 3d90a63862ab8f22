//go:build !wasip1

package shell

// defaultInterpreter is the interpreter Options.Interpreter "" runs: the
// project's own.
const defaultInterpreter = InterpreterNew
