package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// CLIRuns is how many whole processes each CLI command is measured over.
const CLIRuns = 10

// CLICommands are the commands of the CLI row: each the arguments after
// `agentenkit run --`, and what it must print.
var CLICommands = []struct {
	Args []string
	Want string
}{
	{[]string{"echo", "hi"}, "hi\n"},
	{[]string{"python3", "-c", "print(1)"}, "1\n"},
}

// CLIResult is one CLI command measured as whole processes: the medians of
// runs processes' wall time and peak RSS (the process's own, the guest's
// included: the wasm sandbox is in-process), and their CPU time.
type CLIResult struct {
	Command string
	Runs    int
	Wall    time.Duration
	CPU     time.Duration
	PeakRSS uint64
	Err     error
}

// MeasureCLI runs `bin run -- COMMAND` for each of CLICommands, once to
// warm up (images fetched, compiled code cached) and then runs times, each
// from a fresh state folder under dir, in the provider the CLI defaults to
// (env adds to the environment).
func MeasureCLI(ctx context.Context, log io.Writer, bin, dir string, runs int, env []string) []CLIResult {
	var out []CLIResult
	for _, c := range CLICommands {
		r := CLIResult{Command: "agentenkit run -- " + strings.Join(c.Args, " "), Runs: runs}
		var walls, cpus []time.Duration
		var rss []uint64
		for i := -1; i < runs && r.Err == nil; i++ {
			state, err := os.MkdirTemp(dir, "state-")
			if err != nil {
				r.Err = err
				break
			}
			cmd := exec.CommandContext(ctx, bin, append([]string{"run", "--"}, c.Args...)...)
			cmd.Env = append(append(os.Environ(), "AGENTENKIT_STATE_DIR="+state, "AGENTENKIT_PROVIDER="), env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			err = cmd.Run()
			wall := time.Since(start)
			_ = os.RemoveAll(state)
			switch {
			case err != nil:
				r.Err = fmt.Errorf("%s: %v: %s", r.Command, err, strings.TrimSpace(stderr.String()))
				continue
			case stdout.String() != c.Want:
				r.Err = fmt.Errorf("%s printed %q, want %q (stderr %q)", r.Command, stdout.String(), c.Want, stderr.String())
				continue
			case i < 0:
				continue // the warm-up
			}
			walls = append(walls, wall)
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				cpus = append(cpus, time.Duration(ru.Utime.Nano()+ru.Stime.Nano()))
				rss = append(rss, uint64(ru.Maxrss)*1024) // Linux: KiB
			}
		}
		if r.Err == nil {
			r.Wall = medianOf(walls).PerOp
			if len(cpus) > 0 {
				r.CPU = medianOf(cpus).PerOp
				r.PeakRSS = slices.Sorted(slices.Values(rss))[len(rss)/2]
			}
			fmt.Fprintf(log, "bench: cli      %-40s %s wall, %s CPU, %s peak RSS (medians of %d)\n", r.Command, round(r.Wall), round(r.CPU), bytesIEC(r.PeakRSS), runs)
		} else {
			fmt.Fprintf(log, "bench: cli      %-40s not measured: %v\n", r.Command, r.Err)
		}
		out = append(out, r)
	}
	return out
}

// CLIMarkdown writes the CLI rows as a markdown table.
func CLIMarkdown(w io.Writer, results []CLIResult) {
	fmt.Fprintln(w, "| CLI (whole processes, wasm) | wall | CPU | peak RSS |")
	fmt.Fprintln(w, "| --- | --- | --- | --- |")
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(w, "| `%s` | not measured: %s | | |\n", r.Command, strings.ReplaceAll(r.Err.Error(), "|", `\|`))
			continue
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s |\n", r.Command, round(r.Wall), round(r.CPU), bytesIEC(r.PeakRSS))
	}
	if len(results) > 0 {
		fmt.Fprintf(w, "\nMedians of %d runs each, after one to warm up; each run a new process with a fresh state folder.\n", results[0].Runs)
	}
}
