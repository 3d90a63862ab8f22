//go:build wasip1

package main

// Serving: started by the wasm adapter with AGENTENKIT_WARM=1, the image
// runs one command after another in the same instance instead of one per
// instance (the engine's WarmProtocol, providers/wasm/internal/engine,
// warm.go). Each command gets a new shell with only the request's argv,
// environment and folder; after it the image reports its status and how
// many goroutines still run, so that the host drops an instance where
// something of a command lives on (or that lost its stdio).

import (
	"encoding/json"
	"math"
	"os"
	"runtime"
	"unsafe"

	"github.com/agentenkit/agentenkit/internal/procspec"
)

// warmEnv is the engine's WarmEnv.
const warmEnv = "AGENTENKIT_WARM"

//go:wasmimport agentenkit_warm next
func hostWarmNext(buf unsafe.Pointer, n uint32, goroutines int32) int32

//go:wasmimport agentenkit_warm done
func hostWarmDone(code, goroutines int32) int32

func serve() {
	buf := make([]byte, 64<<10)
	for {
		n := hostWarmNext(unsafe.Pointer(unsafe.SliceData(buf)), uint32(len(buf)), int32(runtime.NumGoroutine()))
		if n <= 0 {
			return
		}
		if int(n) > len(buf) {
			buf = make([]byte, n)
			continue
		}
		var req procspec.Spec // its strings as bytes: not UTF-8 is kept
		code := 126
		if err := json.Unmarshal(buf[:n], &req); err == nil && len(req.Args) > 0 {
			if req.Dir == "" {
				req.Dir = "/"
			}
			_ = os.Chdir(req.Dir)
			code = run(req.Args, environ(req.Env), req.Dir)
		}
		hostWarmDone(int32(code), left())
	}
}

// left is what the instance reports after a command: the goroutines still
// running, or more than any count when the command closed one of the
// instance's own stdio files (a redirection from /dev/stdin does), so that
// the host does not give it another command.
func left() int32 {
	for _, f := range []*os.File{os.Stdin, os.Stdout, os.Stderr} {
		if _, err := f.Stat(); err != nil {
			return math.MaxInt32
		}
	}
	return int32(runtime.NumGoroutine())
}
