package shell

// defaultInterpreter is the interpreter Options.Interpreter "" runs. In
// the busybox image it is still mvdan.cc/sh's: its pipeline stages and
// background jobs run as instances of their own (wasip1_rewrite.go), which
// package bash does not do yet.
const defaultInterpreter = InterpreterMvdan
