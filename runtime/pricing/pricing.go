// Package pricing turns usage into money: what a model call's tokens and a
// tool call's seconds and uses cost, in US dollars.
//
//	pricer := pricing.Chain(
//		pricing.Table(map[string]pricing.ModelPrice{
//			"claude-sonnet-4-5": {InputPerToken: 3e-6, OutputPerToken: 15e-6},
//		}),
//		pricing.Tools(map[string]pricing.ToolPrice{
//			"e2b":       {PerSecond: 0.000028}, // the sandbox provider, by adapter name
//			"tool:bash": {PerUse: 0.0001},      // a tool, by "tool:<name>"
//		}),
//	)
//
// A Pricer prices one usage item, or says it has no price for it; Chain
// asks its pricers in order and takes the first price.
package pricing

// Usage kinds, as in storage's usage rows.
const (
	KindModel = "model"
	KindTool  = "tool"
)

// Usage is one item to price: a model call or a tool call.
type Usage struct {
	// Kind is KindModel or KindTool.
	Kind string
	// Model is the model's name, or "tool:<name>" for a tool call.
	Model string
	// ModelID is the model id the provider reported, or for a tool call
	// the adapter name of the sandbox provider it used ("" if none).
	ModelID      string
	InputTokens  int64
	OutputTokens int64
	Seconds      float64
}

// Pricer prices usage. ok is false when it has no price for u.
type Pricer interface {
	Price(u Usage) (cost float64, ok bool)
}

// Func is a Pricer as a function.
type Func func(u Usage) (float64, bool)

// Price implements Pricer.
func (f Func) Price(u Usage) (float64, bool) { return f(u) }

// ModelPrice is what a model costs, in US dollars.
type ModelPrice struct {
	// InputPerToken and OutputPerToken are per token: a model at $3 per
	// million input tokens is 3e-6.
	InputPerToken  float64
	OutputPerToken float64
	// PerCall is added for each call.
	PerCall float64
}

// ToolPrice is what a tool call or a sandbox costs, in US dollars.
type ToolPrice struct {
	// PerSecond is per second of the call.
	PerSecond float64
	// PerUse is per call.
	PerUse float64
}

// Table prices model calls by the model's name, or else by the id the
// provider reported. It has no price for tool calls.
func Table(prices map[string]ModelPrice) Pricer {
	return Func(func(u Usage) (float64, bool) {
		if u.Kind != KindModel {
			return 0, false
		}
		p, ok := prices[u.Model]
		if !ok {
			if p, ok = prices[u.ModelID]; !ok {
				return 0, false
			}
		}
		return float64(u.InputTokens)*p.InputPerToken + float64(u.OutputTokens)*p.OutputPerToken + p.PerCall, true
	})
}

// Tools prices tool calls. A key is either the adapter name of a sandbox
// provider ("e2b": what the sandbox costs while a call uses it) or a tool
// as "tool:<name>" (what the tool itself costs); a call that matches both
// pays both. It has no price for model calls or unmatched tool calls.
func Tools(prices map[string]ToolPrice) Pricer {
	return Func(func(u Usage) (float64, bool) {
		if u.Kind != KindTool {
			return 0, false
		}
		var cost float64
		found := false
		for _, key := range []string{u.ModelID, u.Model} {
			if key == "" {
				continue
			}
			if p, ok := prices[key]; ok {
				cost += p.PerUse + p.PerSecond*u.Seconds
				found = true
			}
		}
		return cost, found
	})
}

// Chain asks pricers in order and returns the first price found.
func Chain(pricers ...Pricer) Pricer {
	return Func(func(u Usage) (float64, bool) {
		for _, p := range pricers {
			if p == nil {
				continue
			}
			if c, ok := p.Price(u); ok {
				return c, true
			}
		}
		return 0, false
	})
}
