package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// IdlePythonName is the idle-python workload's name in the table and chart.
const IdlePythonName = "python3 -c 'print(1)' after 1 s idle"

// idleRounds and idlePause: the idle-python workload's commands and the
// untimed pause before each, as an agent's sandbox sits while its model
// writes the next call.
const (
	idleRounds = 5
	idlePause  = time.Second
)

// idlePython measures `python3 -c 'print(1)'` in a sandbox that ran python
// before and then sat idle for idlePause: the median of idleRounds. It is
// what the back-to-back python row is not: an adapter that prepares the
// next interpreter while the sandbox is idle (wasm) shows it here.
func idlePython(ctx context.Context, a Adapter, p sandbox.Provider) (Result, error) {
	sb, err := withPython(ctx, a, p)
	if err != nil {
		return Result{}, err
	}
	defer destroy(ctx, sb)
	took := make([]time.Duration, 0, idleRounds)
	for range idleRounds {
		select {
		case <-time.After(idlePause):
		case <-ctx.Done():
			return Result{}, ctx.Err()
		}
		start := time.Now()
		res, err := sb.RunCommand(ctx, "python3 -c 'print(1)'", sandbox.RunCommandOptions{})
		d := time.Since(start)
		if err == nil && res.Stdout != "1\n" {
			err = fmt.Errorf("python3 printed %q (stderr %q)", res.Stdout, res.Stderr)
		}
		if err != nil {
			return Result{}, err
		}
		took = append(took, d)
	}
	return medianOf(took), nil
}
