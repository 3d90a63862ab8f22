package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// DefaultConcurrent is how many sandboxes the concurrent workload makes at
// once, unless Adapter.Concurrent lowers it.
const DefaultConcurrent = 100

// ConcurrentName is the concurrent workload's name in the table and chart.
const ConcurrentName = "100 concurrent sandboxes"

// The command each sandbox of the concurrent workload runs: python where
// the adapter's sandboxes have python3, echo elsewhere.
const (
	concurrentPython = "python3 -c 'print(6*7)'"
	concurrentEcho   = "echo 42"
)

// concurrent makes n sandboxes at once (n from a.Concurrent), each running
// one small command, and measures the wall time from the first create to
// the last command's end, with every sandbox still alive, and the process's
// peak RSS and peak PSS over that time (where a.Memory makes it
// meaningful; PSS where /proc has it: pss.go says why both and how). The
// sandboxes are destroyed afterwards, untimed. Every command must print 42,
// or the workload fails.
func concurrent(ctx context.Context, a Adapter, p sandbox.Provider) (Result, error) {
	n := a.Concurrent
	if n <= 0 {
		n = DefaultConcurrent
	}
	command, label := concurrentEcho, "echo"
	opts := sandbox.CreateSandboxOptions{}
	if probe, err := withPython(ctx, a, p); err == nil {
		_ = probe.Destroy(ctx)
		command, label, opts = concurrentPython, "python3", a.Python
	} else if !errors.Is(err, ErrNoPython) {
		return Result{}, err
	}

	// Start the peak afresh from what is live now, not what an earlier
	// workload left for the collector.
	debug.FreeOSMemory()
	rssOK := (a.Memory == InProcess || a.Memory == ChildProcesses) && resetPeakRSS()
	var pss *PSSSampler
	if rssOK {
		pss, _ = StartPSSSampler() // nil where /proc lacks smaps_rollup
	}

	sbs := make([]sandbox.Sandbox, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start, cpu0 := time.Now(), cpuTime()
	for i := range n {
		wg.Go(func() {
			sb, err := p.Create(ctx, opts)
			if err != nil {
				errs[i] = fmt.Errorf("create: %w", err)
				return
			}
			sbs[i] = sb
			res, err := sb.RunCommand(ctx, command, sandbox.RunCommandOptions{Timeout: 4 * time.Minute})
			switch {
			case err != nil:
				errs[i] = err
			case res.ExitCode != 0 || res.Stdout != "42\n":
				errs[i] = fmt.Errorf("%s: exit %d, stdout %q, stderr %q", command, res.ExitCode, res.Stdout, strings.TrimSpace(res.Stderr))
			}
		})
	}
	wg.Wait()
	wall, cpu := time.Since(start), cpuTime()-cpu0
	var peak, peakPSS uint64
	if rssOK {
		peak = peakRSS()
	}
	if pss != nil {
		peakPSS = pss.Stop().PSS
	}

	undestroyed := destroyAll(ctx, sbs)
	if failed, first := failures(errs); failed > 0 {
		return Result{}, fmt.Errorf("%d sandboxes at once: %d failed, the first: %w", n, failed, first)
	}
	return Result{PerOp: wall, Sandboxes: n, Command: label, PeakRSS: peak, PeakPSS: peakPSS, Memory: a.Memory, Note: cpuNote(a, cpu) + undestroyed}, nil
}

// resetPeakRSS starts the process's peak RSS (VmHWM) afresh from its
// current RSS; false where that cannot be done (not Linux).
func resetPeakRSS() bool {
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil && peakRSS() > 0
}

// peakRSS is the process's peak RSS in bytes since the last resetPeakRSS
// (VmHWM of /proc/self/status), 0 where it cannot be read.
func peakRSS() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kib, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kib << 10
		}
	}
	return 0
}
