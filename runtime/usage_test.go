package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
	"github.com/agentenkit/agentenkit/runtime/pricing"
	"github.com/agentenkit/agentenkit/runtime/storage"
)

var (
	errOverloaded = errors.New("overloaded")
	errNotFound   = storage.ErrNotFound
)

func TestUsageRowsAndPricesAddUp(t *testing.T) {
	var w *agentWorld
	bash := rawTool("bash", "Runs a command.", func(ctx context.Context, in json.RawMessage) (any, error) {
		if _, err := lifecycle.SandboxFor(ctx); err != nil {
			return nil, err
		}
		w.clock.Advance(10 * time.Second)
		return "ok", nil
	})
	clock := rawTool("clock", "Tells the time.", func(ctx context.Context, in json.RawMessage) (any, error) {
		w.clock.Advance(2 * time.Second)
		return "noon", nil
	})
	llm := scripted.New(
		scripted.Turn{ToolCalls: []model.ToolCall{call("bash", `{"command":"make"}`), call("clock", `{}`)}, Usage: model.Usage{InputTokens: 1000, OutputTokens: 100}},
		scripted.Turn{Text: "Built at noon.", Usage: model.Usage{InputTokens: 2000, OutputTokens: 50, Model: "sonnet-20260101"}},
	)
	w = memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "a", Model: "sonnet", Tools: []lifecycle.Tool{bash, clock}})
	}, map[string]model.Model{"sonnet": llm})
	w.pricer = pricing.Chain(
		pricing.Table(map[string]pricing.ModelPrice{"sonnet": {InputPerToken: 3e-6, OutputPerToken: 15e-6}}),
		pricing.Tools(map[string]pricing.ToolPrice{
			"memory":     {PerSecond: 0.001}, // the sandbox provider's adapter name
			"tool:clock": {PerUse: 0.01},
		}),
	)
	rt := w.worker(t)
	h, err := agentNamed(t, rt, "a").Send(tctx(t), "t1", "build")
	require.NoError(t, err)
	_, err = h.Wait(tctx(t))
	require.NoError(t, err)

	rows, err := rt.Usage(tctx(t), h.RunID)
	require.NoError(t, err)
	type row struct {
		Kind, Model, ModelID string
		In, Out              int64
		Seconds, Cost        float64
		Priced               bool
	}
	var got []row
	for _, r := range rows {
		assert.Equal(t, h.RunID, r.RunID)
		assert.Equal(t, "t1", r.ThreadID)
		got = append(got, row{r.Kind, r.Model, r.ModelID, r.InputTokens, r.OutputTokens, r.Seconds, r.Cost, r.Priced})
	}
	assert.InDeltaSlice(t, []float64{0.0045, 0.01, 0.01, 0.00675}, costs(rows), 1e-12)
	for i := range got {
		got[i].Cost = 0
	}
	assert.Equal(t, []row{
		{"model", "sonnet", "scripted", 1000, 100, 0, 0, true},
		{"tool", "tool:bash", "memory", 0, 0, 10, 0, true},
		{"tool", "tool:clock", "", 0, 0, 2, 0, true},
		{"model", "sonnet", "sonnet-20260101", 2000, 50, 0, 0, true},
	}, got)
	assert.InDelta(t, 0.0045+0.01+0.01+0.00675, runtime.TotalCost(rows), 1e-12)
	assert.Equal(t, rows[1].ToolCallID, messages(t, rt, "t1")[1].ToolCalls()[0].ID)

	thread, err := rt.ThreadUsage(tctx(t), "t1")
	require.NoError(t, err)
	assert.Len(t, thread, 4)
}

func costs(rows []runtime.UsageRow) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r.Cost)
	}
	return out
}

func TestUsageWithoutAPricer(t *testing.T) {
	llm := scripted.New(scripted.Turn{Text: "hi there"})
	w := memoryWorld(t, func(t *testing.T, rt *runtime.Runtime) {
		mustAgent(t, rt, runtime.AgentOptions{Name: "a", Model: "m"})
	}, map[string]model.Model{"m": llm})
	rt := w.worker(t)
	h, err := agentNamed(t, rt, "a").Send(tctx(t), "t1", "say hi")
	require.NoError(t, err)
	_, err = h.Wait(tctx(t))
	require.NoError(t, err)
	rows, err := rt.Usage(tctx(t), h.RunID)
	require.NoError(t, err)
	require.Len(t, rows, 1)
	assert.False(t, rows[0].Priced)
	assert.EqualValues(t, 2, rows[0].InputTokens, "the scripted model's estimate: a token a word")
	assert.EqualValues(t, 2, rows[0].OutputTokens)
}
