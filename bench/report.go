package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Result is one workload on one adapter.
type Result struct {
	Workload, Adapter string
	// PerOp is the time per operation; for a workload measured once, its
	// wall time.
	PerOp time.Duration
	Err   error // why it was not measured

	// The concurrent workload's details (zero elsewhere): how many
	// sandboxes ran at once, the command they ran ("python3" or "echo"),
	// the process's peak RSS and peak PSS in bytes (0: not measured; PSS
	// counts a page mapped many times once: pss.go) and what they cover.
	Sandboxes int
	Command   string
	PeakRSS   uint64
	PeakPSS   uint64
	Memory    Memory

	// Note is a line the cell shows below the time (any workload).
	Note string
}

// Measure runs every workload on every adapter available (the host's
// reference last), then the peers fetched into PeersDir, log getting a
// line per measurement as it finishes.
func Measure(ctx context.Context, log io.Writer) []Result {
	return MeasureSome(ctx, log, Filter{})
}

// Filter picks columns (adapters, the host, peers) and workloads by name;
// a nil pattern picks all.
type Filter struct {
	Columns, Workloads *regexp.Regexp
}

func (f Filter) column(name string) bool {
	return f.Columns == nil || f.Columns.MatchString(name)
}

func (f Filter) workload(name string) bool {
	return f.Workloads == nil || f.Workloads.MatchString(name)
}

// MeasureSome is Measure of what f picks.
func MeasureSome(ctx context.Context, log io.Writer, f Filter) []Result {
	var adapters []Adapter
	for _, a := range Adapters() {
		if f.column(a.Name) {
			adapters = append(adapters, a)
		}
	}
	var workloads []Workload
	for _, w := range Workloads() {
		if f.workload(w.Name) {
			workloads = append(workloads, w)
		}
	}
	return append(measureAll(ctx, log, adapters, workloads), measurePeers(ctx, log, PeersDir(), f)...)
}

func measureAll(ctx context.Context, log io.Writer, adapters []Adapter, workloads []Workload) []Result {
	var out []Result
	for _, a := range adapters {
		p, done, newErr := a.New()
		for _, w := range workloads {
			if !a.measures(w) {
				continue
			}
			r := Result{Workload: w.Name, Adapter: a.Name, Err: newErr}
			switch {
			case newErr != nil:
			case w.Once != nil:
				var err error
				if r, err = w.Once(ctx, a, p); err != nil {
					r = Result{Err: err}
				}
				r.Workload, r.Adapter = w.Name, a.Name
			default:
				r.PerOp, r.Err = measure(ctx, a, p, w)
			}
			logResult(log, r)
			out = append(out, r)
		}
		if done != nil {
			done()
		}
	}
	return out
}

// logResult writes r's line to log.
func logResult(log io.Writer, r Result) {
	if r.Err != nil {
		fmt.Fprintf(log, "bench: %-8s %-26s not measured: %v\n", r.Adapter, r.Workload, r.Err)
	} else {
		fmt.Fprintf(log, "bench: %-8s %-26s %s/op\n", r.Adapter, r.Workload, r.PerOp)
	}
}

func measure(ctx context.Context, a Adapter, p sandbox.Provider, w Workload) (time.Duration, error) {
	var sb sandbox.Sandbox
	var err error
	if w.Setup != nil {
		if sb, err = w.Setup(ctx, a, p); err != nil {
			return 0, err
		}
		defer sb.Destroy(ctx)
	}
	var opErr error
	res := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if err := w.Op(ctx, p, sb); err != nil {
				opErr = err
				b.SkipNow()
			}
		}
	})
	if opErr != nil {
		return 0, opErr
	}
	if res.N == 0 {
		return 0, fmt.Errorf("no iteration ran")
	}
	return time.Duration(res.NsPerOp()), nil
}

// Markdown writes the results as a table: per workload a row, per adapter a
// column with the time per op and its ratio to the fastest adapter of the
// row, "n/a" where it was not measured. A cell of the concurrent workload
// says below its time the command run, the peak RSS or why there is none,
// and how many sandboxes when not DefaultConcurrent.
//
// An adapter (or peer) with nothing measured has no column: a line below
// the table says why, with its first error.
func Markdown(w io.Writer, results []Result) {
	measured, absent := splitUnmeasured(results)
	table(w, measured)
	for i, r := range absent {
		if i == 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "Not measured here: **%s**: %s\n", r.Adapter, oneLine(r.Err.Error()))
	}
}

// table writes Markdown's table.
func table(w io.Writer, results []Result) {
	var adapters, workloads []string
	seenA, seenW := map[string]bool{}, map[string]bool{}
	cell := map[[2]string]Result{}
	for _, r := range results {
		if !seenA[r.Adapter] {
			seenA[r.Adapter] = true
			adapters = append(adapters, r.Adapter)
		}
		if !seenW[r.Workload] {
			seenW[r.Workload] = true
			workloads = append(workloads, r.Workload)
		}
		cell[[2]string{r.Workload, r.Adapter}] = r
	}
	fmt.Fprintf(w, "| workload | %s |\n", strings.Join(adapters, " | "))
	fmt.Fprintf(w, "| --- |%s\n", strings.Repeat(" ---: |", len(adapters)))
	for _, wl := range workloads {
		best := time.Duration(0)
		for _, a := range adapters {
			if r := cell[[2]string{wl, a}]; r.Err == nil && r.PerOp > 0 && (best == 0 || r.PerOp < best) {
				best = r.PerOp
			}
		}
		fmt.Fprintf(w, "| %s |", wl)
		for _, a := range adapters {
			r := cell[[2]string{wl, a}]
			if r.Err != nil || r.PerOp == 0 {
				fmt.Fprint(w, " n/a |")
				continue
			}
			fmt.Fprintf(w, " %s (%s)%s |", round(r.PerOp), ratio(r.PerOp, best), details(r))
		}
		fmt.Fprintln(w)
	}
}

// splitUnmeasured parts results into those of the adapters with at least
// one workload measured and, of each other adapter, its first result (with
// its error).
func splitUnmeasured(results []Result) (measured, absent []Result) {
	some := map[string]bool{}
	for _, r := range results {
		if r.Err == nil && r.PerOp > 0 {
			some[r.Adapter] = true
		}
	}
	seen := map[string]bool{}
	for _, r := range results {
		switch {
		case some[r.Adapter]:
			measured = append(measured, r)
		case !seen[r.Adapter]:
			seen[r.Adapter] = true
			if r.Err == nil {
				r.Err = errors.New("no time measured")
			}
			absent = append(absent, r)
		}
	}
	return measured, absent
}

// oneLine is s on one line of a markdown table or paragraph.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}

// details is what a cell says below its time: its Note, and for the
// concurrent workload what ran and the peak RSS.
func details(r Result) string {
	if r.Sandboxes == 0 {
		if r.Note != "" {
			return "<br>" + r.Note
		}
		return ""
	}
	parts := []string{r.Command}
	if r.Sandboxes != DefaultConcurrent {
		parts = append(parts, fmt.Sprintf("only %d sandboxes", r.Sandboxes))
	}
	switch {
	case r.Memory == Elsewhere:
		parts = append(parts, "RSS not in-process (containers): wall time only")
	case r.Memory == HostProcesses:
		parts = append(parts, "host processes: wall time only")
	case r.PeakRSS == 0:
		parts = append(parts, "peak RSS not measured here")
	case r.Memory == ChildProcesses:
		parts = append(parts, peakMemory(r)+" + the commands' host processes")
	default:
		parts = append(parts, peakMemory(r))
	}
	if r.Note != "" {
		parts = append(parts, r.Note)
	}
	return "<br>" + strings.Join(parts, ", ")
}

// peakMemory is a concurrent cell's peak memory: PSS and RSS where both
// were measured.
func peakMemory(r Result) string {
	if r.PeakPSS == 0 {
		return "peak RSS " + bytesIEC(r.PeakRSS)
	}
	return fmt.Sprintf("peak PSS %s (RSS %s)", bytesIEC(r.PeakPSS), bytesIEC(r.PeakRSS))
}

// bytesIEC is n in MiB, or GiB from 1 GiB.
func bytesIEC(n uint64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", (n+1<<19)>>20)
}

func ratio(d, best time.Duration) string {
	if d == best {
		return "1x"
	}
	x := float64(d) / float64(best)
	if x < 10 {
		return fmt.Sprintf("%.1fx", x)
	}
	return fmt.Sprintf("%.0fx", x)
}

func round(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.0f µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}
