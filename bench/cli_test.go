package bench

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func TestCLIMarkdown(t *testing.T) {
	var b strings.Builder
	CLIMarkdown(&b, []CLIResult{
		{Command: "agentenkit run -- echo hi", Mode: CLIWarm, Runs: 10, Wall: 71 * time.Millisecond, CPU: 18 * time.Millisecond, PeakRSS: 22 << 20, DaemonCPU: 8 * time.Millisecond, DaemonRSS: 349 << 20, DaemonPeakRSS: 355 << 20},
		{Command: "agentenkit run -- echo hi", Mode: CLIFirst, Runs: 3, Wall: 3 * time.Second, CPU: 26 * time.Millisecond, PeakRSS: 22 << 20, DaemonCPU: 690 * time.Millisecond, DaemonRSS: 338 << 20, DaemonPeakRSS: 338 << 20},
		{Command: "agentenkit run -- echo hi", Mode: CLIInProcess, Runs: 10, Wall: 4 * time.Second, CPU: 660 * time.Millisecond, PeakRSS: 182 << 20},
		{Command: "agentenkit run -- python3 -c print(1)", Mode: CLIWarm, Err: errors.New("a | b")},
	})
	for _, want := range []string{
		"| `agentenkit run -- echo hi` | warm: the daemon runs | 71.0 ms | 18.0 ms | 22 MiB | 8.0 ms per run (mean) | 349 MiB (355 MiB) |\n",
		"| `agentenkit run -- echo hi` | first run: starts the daemon | 3.00 s | 26.0 ms | 22 MiB | 690.0 ms by the run's end | 338 MiB (338 MiB) |\n",
		"| `agentenkit run -- echo hi` | --no-daemon: in-process | 4.00 s | 660.0 ms | 182 MiB | none | none |\n",
		"| `agentenkit run -- python3 -c print(1)` | warm: the daemon runs | not measured: a \\| b | | | | |\n",
		`"warm: the daemon runs" 10 runs`, `"first run: starts the daemon" 3,`,
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestProcFiles: this process's CPU time and memory as /proc says them.
func TestProcFiles(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc here")
	}
	end := time.Now().Add(50 * time.Millisecond)
	for time.Now().Before(end) { // some CPU time to see
	}
	cpu, err := procCPU(os.Getpid())
	if err != nil || cpu <= 0 {
		t.Fatalf("procCPU: %v, %v", cpu, err)
	}
	rss, peak := procMemory(os.Getpid())
	if rss == 0 || peak < rss {
		t.Fatalf("procMemory: rss %d, peak %d", rss, peak)
	}
	if _, err := procCPU(-1); err == nil {
		t.Fatal("procCPU of no process: no error")
	}
}
