// Package lifecycle is the spec's "one sandbox per thread": it keeps one
// sandbox per conversation thread (or per run) through a kv, and runs the
// tools that use it — the thread and run scope, the run lock, the idle TTL
// and max lifetime, the lost and restored notes, WithSandbox and
// SandboxFor, the AfterSandboxCall hook, and the built-in tools (bash,
// code_execution, text_editor) with their call plumbing (CallTool). The
// agent loop (package lifecycle) runs models over threads on top of it.
//
// # Vocabulary
//
//   - A thread is a conversation; a run is one pass of the agent over a
//     thread's new message. One run per thread at a time: the run lock, a kv
//     lease renewed while the run lives and taken over once it expires after
//     a crash.
//   - The scope says which sandbox a call gets: the thread's (ScopeThread,
//     the default: the next message, a resume after an approval, a retry or
//     another worker all find the same sandbox) or the run's (ScopeRun: made
//     by the run's first sandbox call, ended with the run).
//   - A use is any sandbox call through the Manager. Each use pushes the
//     sandbox's own end back by SandboxIdleTTL (SetTimeout), never past
//     SandboxMaxLifetime after it was made; while a tool call (CallTool)
//     runs, its sandbox's end keeps being pushed back, and once more when
//     it returns: the idle time counts from the end of a use.
//   - Ended: destroyed, idle past its end, or past its max lifetime. The next
//     call makes a fresh sandbox and says so: Lost with the lost note, or,
//     from a provider that restores work folders, Restored with the restored
//     note.
//
// The kv keeps, under "sandbox/<scope>/<thread>", which sandbox a thread (or
// its current run) has; the run lock lives under "runlock/<thread>".
package lifecycle
