// Command report measures every adapter available here on the same
// workloads, in one run, and writes the markdown table of ratios and the
// chart of them as a PNG.
//
// It also times the CLI as whole processes (agentenkit run -- echo hi, and
// python3 -c 'print(1)'): the CLI table below the adapters'. -cli-only
// measures only that.
//
//	go run ./bench/cmd/report [-o bench/out/results.md] [-png bench/out/results.png] [-cli-only]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/bench"
)

func main() {
	out := flag.String("o", "bench/out/results.md", "where to write the markdown table")
	chart := flag.String("png", "bench/out/results.png", "where to write the PNG chart (empty: none)")
	cliOnly := flag.Bool("cli-only", false, "measure only the CLI's start-up (and write only its table)")
	runs := flag.Int("cli-runs", bench.CLIRuns, "whole processes per CLI command")
	flag.Parse()
	start := time.Now()
	cli := measureCLI(*runs)
	if *cliOnly {
		var b strings.Builder
		bench.CLIMarkdown(&b, cli)
		fmt.Print(b.String())
		return
	}
	results := bench.Measure(context.Background(), os.Stderr)
	var b strings.Builder
	fmt.Fprintf(&b, "Measured %s on %s/%s, %d cores, in one run of `make bench` (%s). Each cell: time per operation (ratio to the fastest adapter of the row); "+
		"for %q, the wall time from the first create until every sandbox has run its command (all alive at the end, destroyed after, untimed).\n\n",
		start.UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Since(start).Round(time.Second), bench.ConcurrentName)
	bench.Markdown(&b, results)
	b.WriteString("\n")
	bench.CLIMarkdown(&b, cli)
	if err := write(*out, func(w io.Writer) error { _, err := io.WriteString(w, b.String()); return err }); err != nil {
		fmt.Fprintln(os.Stderr, "report:", err)
		os.Exit(1)
	}
	fmt.Print(b.String())
	fmt.Fprintf(os.Stderr, "report: wrote %s\n", *out)
	if *chart != "" {
		if err := write(*chart, func(w io.Writer) error { return bench.WritePNG(w, results) }); err != nil {
			fmt.Fprintln(os.Stderr, "report:", err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "report: wrote %s\n", *chart)
	}
}

// measureCLI builds the CLI (from the working folder, a checkout) and times
// it; a build that fails is every row's error.
func measureCLI(runs int) []bench.CLIResult {
	dir, err := os.MkdirTemp("", "agentenkit-bench-cli-")
	if err != nil {
		return []bench.CLIResult{{Command: "agentenkit", Err: err}}
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "agentenkit")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/agentenkit").CombinedOutput(); err != nil {
		return []bench.CLIResult{{Command: "agentenkit", Err: fmt.Errorf("go build ./cmd/agentenkit: %v: %s", err, out)}}
	}
	return bench.MeasureCLI(context.Background(), os.Stderr, bin, dir, runs, nil)
}

// write makes the file (and its folder) with what fill writes.
func write(file string, fill func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
