// Command report measures every adapter available here on the same
// workloads, in one run, and writes the markdown table of ratios.
//
//	go run ./bench/cmd/report [-o bench/out/results.md]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/bench"
)

func main() {
	out := flag.String("o", "bench/out/results.md", "where to write the markdown table")
	flag.Parse()
	start := time.Now()
	results := bench.Measure(context.Background(), os.Stderr)
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on %s/%s, %d cores, in one run of `make bench` (%s). Each cell: time per operation (ratio to the fastest adapter of the row).\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Since(start).Round(time.Second))
	bench.Markdown(&b, results)
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, []byte(b.String()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
	fmt.Print(b.String())
	fmt.Fprintf(os.Stderr, "report: wrote %s\n", *out)
}
