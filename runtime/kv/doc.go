// Package kv is the key-value port the runtime keeps its bookkeeping in
// (thread → sandbox id, run locks) and the wasm adapter keeps its
// filesystem snapshots in.
//
// # Vocabulary
//
//   - A key is any string; a value is any byte slice, empty and binary
//     included, up to several MiB (a snapshot blob).
//   - A key is live from the Set that made it until its TTL runs out or it
//     is deleted. An expired key is gone for every method: Get says
//     [ErrNotFound], SetIfAbsent may take it, Keys leaves it out.
//   - A TTL of 0 means no expiry. A TTL below a millisecond is rounded up
//     to one millisecond, and adapters may keep time in whole milliseconds
//     (sqlitekv and rediskv do). A negative TTL is an error matching
//     [ErrInvalidTTL].
//   - A lease ([AcquireLease]) is a key whose value names its holder. It is
//     how a worker says "this thread's run is mine" across processes.
//     [LeaseOwner] reads the holder from a value got with Get, for
//     listings.
//
// # Adapters
//
// Three adapters implement [Store] and pass the same conformance suite
// (package kvtest):
//
//   - memkv: one process, a map; for tests and apps that run as one process.
//   - sqlitekv: one SQLite file shared by several processes on one machine.
//   - rediskv: a Redis server shared by many machines.
//
// # Errors
//
// Missing or expired keys give an error matching [ErrNotFound] (errors.Is).
// A store used after Close gives [ErrClosed]. A context that is done gives
// an error matching its own (context.Canceled or
// context.DeadlineExceeded), promptly; the adapters return it as is. Other errors come from the backend, wrapped with the
// operation and key.
package kv
