package bench

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Result is one workload on one adapter.
type Result struct {
	Workload, Adapter string
	PerOp             time.Duration
	Err               error // why it was not measured
}

// Measure runs every workload on every adapter available, log getting a
// line per measurement as it finishes.
func Measure(ctx context.Context, log io.Writer) []Result {
	var out []Result
	for _, a := range Adapters() {
		p, done, err := a.New()
		for _, w := range Workloads() {
			r := Result{Workload: w.Name, Adapter: a.Name, Err: err}
			if err == nil {
				r.PerOp, r.Err = measure(ctx, p, w)
			}
			if r.Err != nil {
				fmt.Fprintf(log, "bench: %-8s %-26s not measured: %v\n", a.Name, w.Name, r.Err)
			} else {
				fmt.Fprintf(log, "bench: %-8s %-26s %s/op\n", a.Name, w.Name, r.PerOp)
			}
			out = append(out, r)
		}
		if done != nil {
			done()
		}
	}
	return out
}

func measure(ctx context.Context, p sandbox.Provider, w Workload) (time.Duration, error) {
	var sb sandbox.Sandbox
	var err error
	if w.Setup != nil {
		if sb, err = w.Setup(ctx, p); err != nil {
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
// row.
func Markdown(w io.Writer, results []Result) {
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
			fmt.Fprintf(w, " %s (%s) |", round(r.PerOp), ratio(r.PerOp, best))
		}
		fmt.Fprintln(w)
	}
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
