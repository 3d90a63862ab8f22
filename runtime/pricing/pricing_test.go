package pricing_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/agentenkit/agentenkit/runtime/pricing"
)

func TestPrices(t *testing.T) {
	p := pricing.Chain(
		pricing.Table(map[string]pricing.ModelPrice{
			"sonnet":            {InputPerToken: 3e-6, OutputPerToken: 15e-6},
			"gpt-4o-2024-08-06": {InputPerToken: 2.5e-6, OutputPerToken: 10e-6, PerCall: 0.001},
		}),
		pricing.Tools(map[string]pricing.ToolPrice{
			"e2b":       {PerSecond: 0.000028},
			"tool:bash": {PerUse: 0.0001},
			"tool:web":  {PerUse: 0.01, PerSecond: 0.001},
		}),
	)
	for _, c := range []struct {
		name string
		u    pricing.Usage
		cost float64
		ok   bool
	}{
		{"model by name", pricing.Usage{Kind: "model", Model: "sonnet", InputTokens: 1000, OutputTokens: 100}, 0.003 + 0.0015, true},
		{"model by reported id", pricing.Usage{Kind: "model", Model: "gpt", ModelID: "gpt-4o-2024-08-06", InputTokens: 1000, OutputTokens: 1000}, 0.0025 + 0.01 + 0.001, true},
		{"unknown model", pricing.Usage{Kind: "model", Model: "mystery", InputTokens: 5}, 0, false},
		{"sandbox seconds", pricing.Usage{Kind: "tool", Model: "tool:text_editor", ModelID: "e2b", Seconds: 10}, 0.00028, true},
		{"sandbox seconds and the tool's use", pricing.Usage{Kind: "tool", Model: "tool:bash", ModelID: "e2b", Seconds: 100}, 0.0028 + 0.0001, true},
		{"a tool without the sandbox", pricing.Usage{Kind: "tool", Model: "tool:web", Seconds: 2}, 0.012, true},
		{"a free tool", pricing.Usage{Kind: "tool", Model: "tool:clock", Seconds: 1}, 0, false},
		{"a model name does not price a tool", pricing.Usage{Kind: "tool", Model: "sonnet", Seconds: 1}, 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cost, ok := p.Price(c.u)
			if ok != c.ok || math.Abs(cost-c.cost) > 1e-12 {
				t.Errorf("Price = %v, %v; want %v, %v", cost, ok, c.cost, c.ok)
			}
		})
	}
}

func TestChainTakesTheFirstPrice(t *testing.T) {
	cheap := pricing.Table(map[string]pricing.ModelPrice{"m": {PerCall: 1}})
	dear := pricing.Table(map[string]pricing.ModelPrice{"m": {PerCall: 2}, "n": {PerCall: 3}})
	p := pricing.Chain(nil, cheap, dear)
	if c, _ := p.Price(pricing.Usage{Kind: "model", Model: "m"}); c != 1 {
		t.Errorf("m costs %v, want the first pricer's 1", c)
	}
	if c, _ := p.Price(pricing.Usage{Kind: "model", Model: "n"}); c != 3 {
		t.Errorf("n costs %v, want the second pricer's 3", c)
	}
	if _, ok := pricing.Chain().Price(pricing.Usage{Kind: "model", Model: "m"}); ok {
		t.Error("an empty chain priced something")
	}
}

func ExampleChain() {
	p := pricing.Chain(
		pricing.Table(map[string]pricing.ModelPrice{"claude-sonnet-4-5": {InputPerToken: 3e-6, OutputPerToken: 15e-6}}),
		pricing.Tools(map[string]pricing.ToolPrice{"e2b": {PerSecond: 0.000028}}),
	)
	model, _ := p.Price(pricing.Usage{Kind: pricing.KindModel, Model: "claude-sonnet-4-5", InputTokens: 10_000, OutputTokens: 500})
	tool, _ := p.Price(pricing.Usage{Kind: pricing.KindTool, Model: "tool:bash", ModelID: "e2b", Seconds: 60})
	fmt.Printf("model $%.4f, bash on e2b $%.5f\n", model, tool)
	// Output: model $0.0375, bash on e2b $0.00168
}
