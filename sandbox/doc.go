// Package sandbox is the port every sandbox adapter implements: a place apart
// from the app where an agent's commands run and its files live.
//
// # Vocabulary
//
//   - A Provider makes sandboxes (Create) and finds them again by id (Connect),
//     from this process or any other that shares the adapter's backing store.
//   - A Sandbox is one isolated place: a work folder, a shell to run commands
//     in, and an end time after which it is gone by itself.
//   - The work folder is where commands start and where relative file paths
//     resolve. SandboxInfo.Workdir names it.
//   - Gone means destroyed or expired: every later use returns an error that
//     matches ErrGone.
//
// # Contracts
//
// Every adapter keeps these; package sandboxtest checks them.
//
//   - A command runs in bash (sh where there is none), in the work folder
//     unless RunCommandOptions.Cwd says otherwise.
//   - A non-zero exit is a result, not an error.
//   - Past its timeout (DefaultCommandTimeout unless set) a command is killed,
//     with every process it started; the result has TimedOut set, ExitCode
//     TimeoutExitCode (124) and the output printed before the kill.
//   - Each output stream keeps at most MaxOutputBytes; past that Truncated is
//     set. Output also goes live to RunCommandOptions.Stdout and .Stderr while
//     the command runs.
//   - Files: text and binary round-trip exactly; WriteFile makes parent
//     folders; a missing file is an error that matches fs.ErrNotExist; a path
//     cannot escape the sandbox's root (ErrOutsideRoot).
//   - Connect from another process finds the same sandbox; a destroyed or
//     expired one is ErrGone. SetTimeout(d) makes the sandbox end by itself d
//     after now, even when no app process is running.
//   - A feature an adapter cannot offer returns an error that matches
//     ErrUnsupported and says which adapter offers it. Never a silent no-op.
//   - Network is off by default.
//
// This package is a leaf: it imports nothing else of this module.
package sandbox
