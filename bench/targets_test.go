package bench

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestJudge(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name    string
		results []Result
		want    map[string]string // workload → "met|no|unknown: measured"
	}{
		{
			name: "met and not",
			results: []Result{
				{Workload: FirstPythonName, Adapter: "wasm", PerOp: 9 * ms},
				{Workload: CreateEchoName, Adapter: "wasm", PerOp: 3 * ms},
				{Workload: ConcurrentName, Adapter: "wasm", PerOp: 900 * ms, Command: "python3", PeakRSS: 500 << 20},
				{Workload: PythonCPUName, Adapter: "wasm", PerOp: 400 * ms},
				{Workload: PythonCPUName, Adapter: HostName, PerOp: 200 * ms},
				{Workload: PythonCPUName, Adapter: "local", PerOp: 100 * ms},
				{Workload: ShellLoopName, Adapter: "wasm", PerOp: 2100 * ms},
				{Workload: ShellLoopName, Adapter: "memory", PerOp: 1000 * ms},
				{Workload: PipelineName, Adapter: "memory", PerOp: 5 * ms},
				{Workload: PipelineName, Adapter: "wasm", PerOp: 85 * ms},
			},
			want: map[string]string{
				FirstPythonName: "met: 9.0 ms",
				CreateEchoName:  "no: 3.0 ms",
				ConcurrentName:  "met: 900.0 ms, peak RSS 500 MiB (PSS not measured here)",
				PythonCPUName:   "met: 400.0 ms = 2.0x host's 200.0 ms",
				ShellLoopName:   "no: 2.10 s = 2.1x memory's 1.00 s",
				PipelineName:    "no: 85.0 ms",
			},
		},
		{
			name: "references, commands and memory missing",
			results: []Result{
				{Workload: FirstPythonName, Adapter: "wasm", Err: errors.New("no | python")},
				{Workload: ConcurrentName, Adapter: "wasm", PerOp: 500 * ms, Command: "echo", PeakRSS: 1 << 20},
				{Workload: PythonCPUName, Adapter: "wasm", PerOp: 400 * ms},
				{Workload: PythonCPUName, Adapter: HostName, Err: errors.New("no python3")},
				{Workload: PythonCPUName, Adapter: "local", PerOp: 100 * ms},
				{Workload: ShellLoopName, Adapter: "wasm", PerOp: 2 * time.Second},
				{Workload: PipelineName, Adapter: "memory", PerOp: 5 * ms},
			},
			want: map[string]string{
				FirstPythonName: `unknown: not measured: no \| python`,
				CreateEchoName:  "unknown: not measured",
				ConcurrentName:  "unknown: 500.0 ms, but with echo, not python3",
				PythonCPUName:   "no: 400.0 ms = 4.0x local's 100.0 ms",
				ShellLoopName:   "unknown: 2.00 s; no reference measured ([memory])",
				PipelineName:    "unknown: not measured",
			},
		},
		{
			name:    "the memory bound",
			results: []Result{{Workload: ConcurrentName, Adapter: "wasm", PerOp: 500 * ms, Command: "python3", PeakRSS: 700 << 20}},
			want:    map[string]string{ConcurrentName: "no: 500.0 ms, peak RSS 700 MiB (PSS not measured here)"},
		},
		{
			name:    "judged on PSS where measured: RSS over the bound, PSS under",
			results: []Result{{Workload: ConcurrentName, Adapter: "wasm", PerOp: 500 * ms, Command: "python3", PeakRSS: 1536 << 20, PeakPSS: 480 << 20}},
			want:    map[string]string{ConcurrentName: "met: 500.0 ms, peak PSS 480 MiB (judged on PSS; peak RSS 1.5 GiB counts the pages clones share once per clone)"},
		},
		{
			name:    "PSS over the bound",
			results: []Result{{Workload: ConcurrentName, Adapter: "wasm", PerOp: 500 * ms, Command: "python3", PeakRSS: 700 << 20, PeakPSS: 650 << 20}},
			want:    map[string]string{ConcurrentName: "no: 500.0 ms, peak PSS 650 MiB (judged on PSS; peak RSS 700 MiB counts the pages clones share once per clone)"},
		},
		{
			name:    "no peak memory",
			results: []Result{{Workload: ConcurrentName, Adapter: "wasm", PerOp: 500 * ms, Command: "python3"}},
			want:    map[string]string{ConcurrentName: "unknown: 500.0 ms, peak memory not measured"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			verdicts := Judge(tc.results)
			if len(verdicts) != len(Targets) {
				t.Fatalf("%d verdicts for %d targets", len(verdicts), len(Targets))
			}
			for _, v := range verdicts {
				want, ok := tc.want[v.Workload]
				if !ok {
					continue
				}
				got := "no"
				switch {
				case !v.Known:
					got = "unknown"
				case v.Met:
					got = "met"
				}
				if got += ": " + v.Measured; got != want {
					t.Errorf("%s: got %q, want %q", v.Workload, got, want)
				}
			}
		})
	}
}

func TestTargetsMarkdown(t *testing.T) {
	var b strings.Builder
	TargetsMarkdown(&b, []Result{
		{Workload: CreateEchoName, Adapter: "wasm", PerOp: 2 * time.Millisecond},
		{Workload: PipelineName, Adapter: "wasm", PerOp: 20 * time.Millisecond},
	})
	want := "| target of issue 19 (wasm adapter) | target | measured | met |\n" +
		"| --- | --- | --- | --- |\n" +
		"| create + first `python3 -c 'print(1)'` | < 10 ms | not measured | unknown |\n" +
		"| create + first `echo hi` | < 3 ms | 2.0 ms | **yes** |\n" +
		"| 100 concurrent sandboxes | python3 each, < 1 s wall and < 600 MiB | not measured | unknown |\n" +
		"| CPU-bound python (int, dict/str, json, re, sort) | ≤ 2x native CPython | not measured | unknown |\n" +
		"| shell loop (100k iterations) | ≤ 2x the native shell (memory adapter) | not measured | unknown |\n" +
		"| 5-stage pipeline | ≤ 10 ms | 20.0 ms | no |\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
