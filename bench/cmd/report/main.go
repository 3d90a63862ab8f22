// Command report measures every adapter available here on the same
// workloads, in one run, and writes the markdown table of ratios and the
// chart of them as a PNG.
//
// It also times the CLI as whole processes (agentenkit run -- echo hi, and
// python3 -c 'print(1)'): the CLI table below the adapters'. -cli-only
// measures only that. Below the table: issue #19's targets, each met or
// not with its number (bench.TargetsMarkdown).
//
// -columns and -workloads (regular expressions) measure only the adapters,
// host and peers, and the workloads, whose names match, and skip the CLI:
// for measuring a few rows again.
//
//	go run ./bench/cmd/report [-o bench/out/results.md] [-png bench/out/results.png] [-cli-only] [-columns RE] [-workloads RE]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/bench"
	"github.com/agentenkit/agentenkit/images"
)

func main() {
	out := flag.String("o", "bench/out/results.md", "where to write the markdown table")
	chart := flag.String("png", "bench/out/results.png", "where to write the PNG chart (empty: none)")
	cliOnly := flag.Bool("cli-only", false, "measure only the CLI's start-up (and write only its table)")
	runs := flag.Int("cli-runs", bench.CLIRuns, "whole processes per CLI command")
	columns := flag.String("columns", "", "measure only the adapters, host and peers whose name matches this regexp (and skip the CLI)")
	workloads := flag.String("workloads", "", "measure only the workloads whose name matches this regexp (and skip the CLI)")
	flag.Parse()
	var filter bench.Filter
	for _, f := range []struct {
		flag string
		re   **regexp.Regexp
	}{{*columns, &filter.Columns}, {*workloads, &filter.Workloads}} {
		if f.flag != "" {
			re, err := regexp.Compile(f.flag)
			if err != nil {
				fmt.Fprintln(os.Stderr, "report:", err)
				os.Exit(2)
			}
			*f.re = re
		}
	}
	start := time.Now()
	var cli []bench.CLIResult
	if filter == (bench.Filter{}) || *cliOnly {
		cli = measureCLI(*runs)
	}
	if *cliOnly {
		var b strings.Builder
		bench.CLIMarkdown(&b, cli)
		fmt.Print(b.String())
		return
	}
	results := bench.MeasureSome(context.Background(), os.Stderr, filter)
	var b strings.Builder
	run := "in one run of `make bench`"
	if filter != (bench.Filter{}) {
		run = fmt.Sprintf("in one run of `go run ./bench/cmd/report -columns '%s' -workloads '%s'`", *columns, *workloads)
	}
	fmt.Fprintf(&b, "Measured %s on %s/%s, %d cores, %s (%s). Each cell: time per operation (ratio to the fastest column of the row); "+
		"for %q, the wall time from the first create until every sandbox has run its command (all alive at the end, destroyed after, untimed). "+
		"The %s column is the native reference: each command run by the host's own bash (bash -c, a new process each, python3 the interpreter itself, not a wrapper), nothing made or kept between commands. "+
		"Peers, where `make bench-peers` fetched them and node runs them: just-bash (bash in TypeScript) on the shell rows and Pyodide (CPython on wasm) on the python rows, each in one node process; "+
		"Pyodide's `python3 -c 'print(1)'` row is a runPython in an interpreter loaded before; its create + first row loads a new interpreter each time. %s\n\n",
		start.UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), run, time.Since(start).Round(time.Second), bench.ConcurrentName, bench.HostName, pythonImage())
	bench.Markdown(&b, results)
	b.WriteString("\n")
	bench.TargetsMarkdown(&b, results)
	if cli != nil {
		b.WriteString("\n")
		bench.CLIMarkdown(&b, cli)
	}
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

// pythonImage says which python image the wasm column ran.
func pythonImage() string {
	paths, err := images.Find("")
	if err != nil {
		return ""
	}
	choice := os.Getenv(images.EnvPythonImage)
	py, err := paths.PythonFor(choice)
	if err != nil {
		return ""
	}
	v, _ := paths.PythonVersionFor(choice)
	if py == paths.BuiltPython {
		return "The wasm column's python3 is the project's own CPython " + v + " build (-O2, `make python-image`)."
	}
	return "The wasm column's python3 is the fetched CPython " + v + " build (-O0; `make python-image` builds the faster one)."
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
