package runtime

import (
	"context"

	"github.com/agentenkit/agentenkit/runtime/pricing"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

// UsageRow is a stored usage row with its price.
//
// Every model call books a row (kind "model", the model's name, the id the
// provider reported, tokens in and out, seconds); every tool call books
// one (kind "tool", model "tool:<name>", modelId the adapter name of the
// sandbox provider if the call used the sandbox, else "", seconds). A
// subagent's calls are rows of the same run.
type UsageRow struct {
	storage.UsageRow
	// Cost in US dollars, by Options.Pricer.
	Cost float64 `json:"cost"`
	// Priced is false when the pricer had no price for the row.
	Priced bool `json:"priced"`
}

// Usage returns a run's usage rows, priced, in the order they were booked.
func (rt *Runtime) Usage(ctx context.Context, runID string) ([]UsageRow, error) {
	return rt.usage(ctx, storage.UsageFilter{RunID: runID})
}

// ThreadUsage returns the usage rows of every run of a thread, priced.
func (rt *Runtime) ThreadUsage(ctx context.Context, threadID string) ([]UsageRow, error) {
	return rt.usage(ctx, storage.UsageFilter{ThreadID: threadID})
}

func (rt *Runtime) usage(ctx context.Context, f storage.UsageFilter) ([]UsageRow, error) {
	rows, err := rt.agents.storage.Usage(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]UsageRow, len(rows))
	for i, r := range rows {
		out[i].UsageRow = r
		if p := rt.agents.pricer; p != nil {
			out[i].Cost, out[i].Priced = p.Price(pricing.Usage{
				Kind: r.Kind, Model: r.Model, ModelID: r.ModelID,
				InputTokens: r.InputTokens, OutputTokens: r.OutputTokens, Seconds: r.Seconds,
			})
		}
	}
	return out, nil
}

// TotalCost adds up the rows' costs.
func TotalCost(rows []UsageRow) float64 {
	var sum float64
	for _, r := range rows {
		sum += r.Cost
	}
	return sum
}
