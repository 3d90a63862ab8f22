package bench

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// CreateName is the create workload's name in the table and chart.
const CreateName = "create"

// createRounds is how many sandboxes the create workload makes, one after
// another.
const createRounds = 10

// createOnly times Create alone, the median of createRounds (each sandbox
// destroyed after, untimed): what a caller waits for before it has a
// sandbox, whatever the adapter still does in the background.
func createOnly(ctx context.Context, _ Adapter, p sandbox.Provider) (Result, error) {
	took := make([]time.Duration, 0, createRounds)
	for range createRounds {
		start := time.Now()
		sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
		d := time.Since(start)
		if err != nil {
			return Result{}, err
		}
		took = append(took, d)
		if err := sb.Destroy(ctx); err != nil {
			return Result{}, err
		}
	}
	return medianOf(took), nil
}

// medianOf is the Result of a workload timed several times: the median,
// noted as such.
func medianOf(took []time.Duration) Result {
	sorted := slices.Sorted(slices.Values(took))
	return Result{PerOp: sorted[len(sorted)/2], Note: fmt.Sprintf("median of %d", len(sorted))}
}
