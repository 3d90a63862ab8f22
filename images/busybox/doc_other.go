//go:build !wasip1

package main

import (
	"fmt"
	"os"
)

// Built for the host, busybox only says how to build it for WASI.
func main() {
	fmt.Fprintln(os.Stderr, "busybox is a WASI image: GOOS=wasip1 GOARCH=wasm go build -o busybox.wasm ./images/busybox (make images does it)")
	os.Exit(2)
}
