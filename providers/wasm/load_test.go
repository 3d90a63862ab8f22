package wasm_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/sandbox"
)

// TestManySandboxesPython runs python3 in 100 sandboxes at once and logs
// the wall time and the process's peak RSS. It is a measurement (seconds
// of both cores, gigabytes of memory): WASM_LOAD=1 runs it.
func TestManySandboxesPython(t *testing.T) {
	if os.Getenv("WASM_LOAD") == "" {
		t.Skip("a load measurement: set WASM_LOAD=1 (WASM_LOAD=N for N sandboxes)")
	}
	n := 100
	if v := os.Getenv("WASM_LOAD"); v != "1" {
		if _, err := fmtSscan(v, &n); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	p := newProvider(t, nil, wasm.Options{})
	require.NoError(t, p.Warm(ctx))
	sbs := make([]sandbox.Sandbox, n)
	start := time.Now()
	for i := range sbs {
		sbs[i] = newSandbox(t, p, sandbox.CreateSandboxOptions{})
	}
	created := time.Since(start)
	resetPeakRSS()
	base := rssKiB("VmRSS")
	cpu0 := cpuTime()
	start = time.Now()
	var wg sync.WaitGroup
	results := make([]sandbox.CommandResult, n)
	errs := make([]error, n)
	for i, sb := range sbs {
		wg.Go(func() {
			results[i], errs[i] = sb.RunCommand(ctx, "python3 -c 'print(sum(range(1000)))'", sandbox.RunCommandOptions{Timeout: 5 * time.Minute})
		})
	}
	wg.Wait()
	took := time.Since(start)
	cpu := cpuTime() - cpu0
	for i := range sbs {
		require.NoError(t, errs[i])
		assert.Equal(t, "499500\n", results[i].Stdout, results[i].Stderr)
	}
	t.Logf("%d sandboxes made in %v; python3 in all at once: %v wall, %v CPU (%v per sandbox); RSS %d MiB before, peak %d MiB",
		n, created.Round(time.Millisecond), took.Round(time.Millisecond), cpu.Round(time.Millisecond), (cpu / time.Duration(n)).Round(time.Millisecond), base>>10, rssKiB("VmHWM")>>10)
}

// rssKiB reads a field of /proc/self/status, in KiB (0 elsewhere).
func rssKiB(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			var kib int64
			_, _ = fmtSscan(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), &kib)
			return kib
		}
	}
	return 0
}

// cpuTime is the CPU time this process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// resetPeakRSS starts VmHWM afresh (Linux).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

func fmtSscan(s string, v any) (int, error) { return fmt.Sscan(s, v) }
