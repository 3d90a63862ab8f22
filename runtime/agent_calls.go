package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"strings"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/storage"
	"github.com/agentenkit/agentenkit/sandbox"
)

// runCall runs one call: denied, a subagent, or a tool. A failed call is a
// result the model sees; the error return is for parking, stopping and
// the runtime's own failures.
func (x *execution) runCall(ctx context.Context, key string, agent *Agent, st *step, c model.ToolCall) (model.ToolResult, error) {
	res := model.ToolResult{ToolCallID: c.ID, Name: c.Name}
	done := func() (model.ToolResult, error) {
		x.emit(ctx, Event{Type: EventToolResult, Agent: agent.Name(), ToolCallID: c.ID, Tool: c.Name, Text: res.Content, IsError: res.IsError})
		return res, nil
	}
	if d, ok := st.Decisions[c.ID]; ok && !d.Approved {
		res.Content, res.IsError = DeniedResult, true
		if d.Message != "" {
			res.Content += " Their message: " + d.Message
		}
		return done()
	}
	start := x.rt.sb.Config().Now()
	var (
		out      string
		provider string
		err      error
	)
	if sub, ok := agent.subs[c.Name]; ok {
		out, err = x.runSubagent(ctx, key, sub, c)
		if errors.Is(err, errParked) {
			return res, err
		}
	} else if tool, ok := agent.tools[c.Name]; ok {
		out, provider, err = x.callTool(ctx, agent, tool, c)
	} else {
		err = fmt.Errorf("unknown tool %q", c.Name)
	}
	if uerr := x.addUsage(ctx, storage.UsageRow{
		Agent: agent.Name(), Kind: storage.KindTool, Model: "tool:" + c.Name, ModelID: provider,
		ToolCallID: c.ID, Seconds: x.rt.sb.Config().Now().Sub(start).Seconds(),
	}); uerr != nil {
		return res, uerr
	}
	if err != nil && stopping(ctx, err) {
		return res, context.Cause(ctx)
	}
	if err != nil {
		res.Content, res.IsError = err.Error(), true
	} else {
		res.Content = out
	}
	return done()
}

// callTool runs a tool through CallTool (so AfterSandboxCall and
// SandboxFor work), with EmitToolOutput wired to the run's events, and
// says which sandbox provider it used, if any.
func (x *execution) callTool(ctx context.Context, agent *Agent, tool lifecycle.Tool, c model.ToolCall) (string, string, error) {
	emit := func(stream, text string) {
		x.emit(ctx, Event{Type: EventToolOutput, Agent: agent.Name(), ToolCallID: c.ID, Tool: c.Name, Stream: stream, Text: text})
	}
	var used sandbox.Sandbox
	wrapped := tool
	wrapped.Handler = func(hctx context.Context, in json.RawMessage) (out any, err error) {
		defer func() { used = lifecycle.UsedSandbox(hctx) }()
		defer func() {
			if p := recover(); p != nil {
				out, err = nil, fmt.Errorf("tool %s panicked: %v", tool.Name, p)
			}
		}()
		return tool.Handler(hctx, in)
	}
	out, err := x.rt.sb.CallTool(lifecycle.WithToolCall(ctx, c.ID, c.Name, emit), wrapped, c.Input)
	provider := ""
	if used != nil {
		provider = used.Provider()
	}
	if err != nil {
		return "", provider, err
	}
	text, err := resultText(out)
	return text, provider, err
}

// resultText is a tool's result as the model gets it: a string as is,
// anything else as JSON.
func resultText(out any) (string, error) {
	switch v := out.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case json.RawMessage:
		return string(v), nil
	case []byte:
		return string(v), nil
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("the tool's result is not JSON: %w", err)
	}
	return string(raw), nil
}

// runSubagent runs a subagent call as a frame of its own in the same run.
func (x *execution) runSubagent(ctx context.Context, key string, sub *Agent, c model.ToolCall) (string, error) {
	subKey := key + "/" + c.ID
	if x.data.Frames[subKey] == nil {
		var in struct {
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal(c.Input, &in); err != nil || strings.TrimSpace(in.Prompt) == "" {
			return "", fmt.Errorf(`give the %s agent a prompt: {"prompt": "…"}`, sub.Name())
		}
		x.data.Frames[subKey] = &frame{Agent: sub.Name(), Messages: []model.Message{model.UserText(in.Prompt)}}
	}
	text, _, err := x.runFrame(ctx, subKey, sub)
	if errors.Is(err, errParked) {
		return "", err
	}
	for k := range x.data.Frames {
		if k == subKey || strings.HasPrefix(k, subKey+"/") {
			delete(x.data.Frames, k)
		}
	}
	if err != nil && !stopping(ctx, err) {
		return "", fmt.Errorf("the %s agent failed: %w", sub.Name(), err)
	}
	return text, err
}
