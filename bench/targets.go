package bench

import (
	"fmt"
	"io"
	"time"
)

// TargetAdapter is the adapter issue #19's targets are set for.
const TargetAdapter = "wasm"

// A Target is one row of issue #19's table: a bound on what TargetAdapter
// measures on a workload, absolute or as a multiple of a reference column
// on the same workload.
type Target struct {
	Workload string
	// Bound is what the row says, as the table prints it.
	Bound string
	// Max is the largest time that meets it: absolute, or (with Ref) the
	// largest multiple of the reference's time.
	Max   time.Duration
	Ratio float64
	// Ref are the reference columns, the first measured one used.
	Ref []string
	// MaxMem, when set, is the largest peak memory that meets it (and a
	// result without one does not): judged on peak PSS where it was
	// measured, the memory the process really holds (pss.go: RSS counts the
	// template pages every clone maps once per clone), else on peak RSS,
	// which is never below it. The cell says which.
	MaxMem uint64
	// Command, when set, is what the workload must have run (the
	// concurrent workload's command) for the row to apply.
	Command string
}

// Targets are issue #19's targets.
var Targets = []Target{
	{Workload: FirstPythonName, Bound: "< 10 ms", Max: 10 * time.Millisecond},
	{Workload: CreateEchoName, Bound: "< 3 ms", Max: 3 * time.Millisecond},
	{Workload: ConcurrentName, Bound: "python3 each, < 1 s wall and < 600 MiB", Max: time.Second, MaxMem: 600 << 20, Command: "python3"},
	{Workload: PythonCPUName, Bound: "≤ 2x native CPython", Ratio: 2, Ref: []string{HostName, "local"}},
	{Workload: ShellLoopName, Bound: "≤ 2x the native shell (memory adapter)", Ratio: 2, Ref: []string{"memory"}},
	{Workload: PipelineName, Bound: "≤ 10 ms", Max: 10 * time.Millisecond},
}

// TargetVerdict is a Target judged on one run's results.
type TargetVerdict struct {
	Target
	// Measured says what was measured, or why it was not.
	Measured string
	// Known: the target could be judged; Met: it is met.
	Known, Met bool
}

// Judge judges every target on results.
func Judge(results []Result) []TargetVerdict {
	cell := map[[2]string]Result{}
	for _, r := range results {
		cell[[2]string{r.Workload, r.Adapter}] = r
	}
	var out []TargetVerdict
	for _, t := range Targets {
		v := TargetVerdict{Target: t}
		r, ok := cell[[2]string{t.Workload, TargetAdapter}]
		switch {
		case !ok:
			v.Measured = "not measured"
		case r.Err != nil || r.PerOp <= 0:
			v.Measured = "not measured: " + oneLine(fmt.Sprint(r.Err))
		case t.Command != "" && r.Command != t.Command:
			v.Measured = fmt.Sprintf("%s, but with %s, not %s", round(r.PerOp), r.Command, t.Command)
		case t.Ref != nil:
			v.judgeRatio(r, cell)
		default:
			v.Known, v.Met = true, r.PerOp < t.Max
			v.Measured = round(r.PerOp)
			if t.MaxMem > 0 {
				switch {
				case r.PeakPSS > 0:
					v.Met = v.Met && r.PeakPSS < t.MaxMem
					v.Measured += fmt.Sprintf(", peak PSS %s (judged on PSS; peak RSS %s counts the pages clones share once per clone)", bytesIEC(r.PeakPSS), bytesIEC(r.PeakRSS))
				case r.PeakRSS > 0:
					v.Met = v.Met && r.PeakRSS < t.MaxMem
					v.Measured += ", peak RSS " + bytesIEC(r.PeakRSS) + " (PSS not measured here)"
				default:
					v.Known, v.Met = false, false
					v.Measured += ", peak memory not measured"
				}
			}
		}
		out = append(out, v)
	}
	return out
}

// judgeRatio judges r against the first reference measured.
func (v *TargetVerdict) judgeRatio(r Result, cell map[[2]string]Result) {
	for _, ref := range v.Ref {
		base, ok := cell[[2]string{v.Workload, ref}]
		if !ok || base.Err != nil || base.PerOp <= 0 {
			continue
		}
		x := float64(r.PerOp) / float64(base.PerOp)
		v.Known, v.Met = true, x <= v.Ratio
		v.Measured = fmt.Sprintf("%s = %.1fx %s's %s", round(r.PerOp), x, ref, round(base.PerOp))
		return
	}
	v.Measured = fmt.Sprintf("%s; no reference measured (%v)", round(r.PerOp), v.Ref)
}

// TargetsMarkdown writes the verdicts on results as a table: each row of
// issue #19's table, the target, what TargetAdapter measured and whether
// that meets it.
func TargetsMarkdown(w io.Writer, results []Result) {
	fmt.Fprintf(w, "| target of issue 19 (%s adapter) | target | measured | met |\n", TargetAdapter)
	fmt.Fprintln(w, "| --- | --- | --- | --- |")
	for _, v := range Judge(results) {
		met := "no"
		switch {
		case !v.Known:
			met = "unknown"
		case v.Met:
			met = "**yes**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", v.Workload, v.Bound, v.Measured, met)
	}
}
