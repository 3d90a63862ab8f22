//go:build !wasip1

package main

import (
	"fmt"
	"os"
)

// Built for the host, node only says how to build it for WASI.
func main() {
	fmt.Fprintln(os.Stderr, "node is a WASI image: GOOS=wasip1 GOARCH=wasm go build -o node.wasm ./images/node (make images does it)")
	os.Exit(2)
}
