//go:build wasip1

package main

// Reactor entry points: `make images` builds busybox.wasm with
// -buildmode=c-shared, so the module exports _initialize (Go's runtime and
// package init, then back to the host with an empty wasm stack) instead of
// _start, and the two functions below. The engine
// (providers/wasm/internal/engine, shellclone.go) runs _initialize once per
// process, snapshots the memory and globals, and starts every warm shell as
// a copy of that snapshot that enters agentenkit_serve, so a new shell does
// not pay Go's init (about 25 ms). A one-off run calls _initialize and then
// agentenkit_main. Built as a command (go build without -buildmode), main
// runs instead and these exports are unused.

import "os"

// reactorMain is main for a module built as a reactor.
//
//go:wasmexport agentenkit_main
func reactorMain() {
	main()
	os.Exit(0)
}

// reactorServe runs WarmProtocol's loop whatever the environment says: the
// environment a clone's init saw is the template's.
//
//go:wasmexport agentenkit_serve
func reactorServe() {
	serve()
	os.Exit(0)
}
