//go:build !wasip1

package shell

// node on goja is half of a WASI image's code (18 of 37 MiB of wasm), and
// every process that loads the busybox image pays for its size: the wasm
// adapter runs it as an image of its own (./images/node), started by the
// host only when node runs, as python3 is. Natively (the memory adapter)
// the shell links it as any other family.
import _ "github.com/agentenkit/agentenkit/shell/node" // node, nodejs
