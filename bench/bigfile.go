package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// BigFileName is the big-file workload's name in the table and chart.
const BigFileName = "1 GiB file: write, read back in a new process"

// bigFileSize is the big-file workload's file size.
const bigFileSize = 1 << 30

// bigFile measures the host memory a big file costs the wasm adapter: a
// command writes bigFileSize random bytes to a file (the snapshot goes to
// an SQLite kv on disk, as the CLI's), then the provider drops its copy
// (Evict) and a command reads the file back, which loads the snapshot as
// a new process would. The cell says the process's peak RSS in each phase
// and the larger one as a multiple of the file's size (goal: under 1.3),
// also counted above the process's RSS before it began.
// Only the wasm adapter is measured: the others keep files on the host's
// disk or in a container.
func bigFile(ctx context.Context, a Adapter, _ sandbox.Provider) (Result, error) {
	if a.Name != "wasm" {
		return Result{}, fmt.Errorf("%w: measured on the wasm adapter only", sandbox.ErrUnsupported)
	}
	dir, err := os.MkdirTemp("", "agentenkit-bench-bigfile-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(dir)
	store, err := sqlitekv.Open(filepath.Join(dir, "kv.sqlite"))
	if err != nil {
		return Result{}, err
	}
	defer store.Close()
	p := wasm.New(wasm.Options{Kv: store})
	if err := p.Warm(ctx); err != nil {
		return Result{}, err
	}
	settle := func() {
		runtime.GC()
		debug.FreeOSMemory()
	}
	settle()
	if !resetPeakRSS() {
		return Result{}, errors.New("peak RSS cannot be measured here (Linux only)")
	}
	base := peakRSS() // the process before: the engine, the compiled images
	start := time.Now()
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Resources: sandbox.Resources{DiskMB: bigFileSize>>20 + 64}})
	if err != nil {
		return Result{}, err
	}
	defer destroy(ctx, sb)
	opts := sandbox.RunCommandOptions{Timeout: 15 * time.Minute}
	want := fmt.Sprint(bigFileSize)
	res, err := sb.RunCommand(ctx, fmt.Sprintf("head -c %d /dev/urandom > big && stat -c %%s big", bigFileSize), opts)
	if err == nil && strings.TrimSpace(res.Stdout) != want {
		err = fmt.Errorf("writing: %q, exit %d: %s", res.Stdout, res.ExitCode, res.Stderr)
	}
	if err != nil {
		return Result{}, err
	}
	write := peakRSS()

	p.Evict(sb.ID())
	settle()
	resetPeakRSS()
	res, err = sb.RunCommand(ctx, "cat big > /dev/null && stat -c %s big", opts)
	if err == nil && strings.TrimSpace(res.Stdout) != want {
		err = fmt.Errorf("reading back: %q, exit %d: %s", res.Stdout, res.ExitCode, res.Stderr)
	}
	if err != nil {
		return Result{}, err
	}
	read := peakRSS()
	peak := max(write, read)
	return Result{
		PerOp: time.Since(start),
		Note: fmt.Sprintf("peak RSS %.2fx the file (writing %s, reading back %s; %s before: %.2fx the file above it)",
			float64(peak)/bigFileSize, bytesIEC(write), bytesIEC(read), bytesIEC(base), float64(peak-min(base, peak))/bigFileSize),
	}, nil
}
