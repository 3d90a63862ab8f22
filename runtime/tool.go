package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Tool is a tool the model can call.
type Tool struct {
	Name        string
	Description string
	// InputSchema is the JSON schema of the input (an object).
	InputSchema json.RawMessage
	// NativeType, when set, is the type of the Anthropic built-in
	// (schema-less) tool this tool implements, such as tools.NativeBash:
	// the Anthropic model adapter then sends {"type": NativeType, "name":
	// Name} instead of the description and InputSchema, which other
	// adapters keep sending. The type fixes the name Claude calls the tool
	// by, so set it only when Name is that name (tools.NativeType gives the
	// type of a name). The built-in tools declare theirs.
	NativeType string
	// Handler runs a call. Its result is sent to the model as JSON (a
	// string as is); an error is a failed call the model sees.
	Handler func(ctx context.Context, input json.RawMessage) (any, error)
	// Approval says whether a call needs a person's approval before it
	// runs: AskAlways, AskNever (the default, when nil) or a policy of the
	// call's input. A call that needs it parks its run (see Respond).
	Approval ApprovalPolicy
}

// Spec is the tool as a model adapter is given it; an empty InputSchema is
// an object of anything.
func (t Tool) Spec() model.ToolSpec {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return model.ToolSpec{Name: t.Name, Description: t.Description, InputSchema: schema, NativeType: t.NativeType}
}

// AgentTool returns a custom tool. Inside handler, SandboxFor(ctx) gives the
// thread's sandbox; after a call that used it, AfterSandboxCall runs.
func AgentTool(name, description string, handler func(ctx context.Context, input json.RawMessage) (any, error)) Tool {
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler:     handler,
	}
}

// callState records, for one tool call, the sandbox it used.
type callState struct {
	mu   sync.Mutex
	used sandbox.Sandbox
}

func markUsed(ctx context.Context, sb sandbox.Sandbox) {
	if st, ok := ctx.Value(callKey).(*callState); ok {
		st.mu.Lock()
		st.used = sb
		st.mu.Unlock()
	}
}

// CallTool runs one call of tool in ctx (a thread's or run's) and then, if
// the call used the sandbox, the AfterSandboxCall hook: the hook's error
// becomes the call's error unless the call already failed.
func (rt *Runtime) CallTool(ctx context.Context, tool Tool, input json.RawMessage) (any, error) {
	if tool.Handler == nil {
		return nil, fmt.Errorf("runtime: tool %s has no handler", tool.Name)
	}
	st := &callState{}
	out, err := tool.Handler(withRuntime(context.WithValue(ctx, callKey, st), rt), input)
	st.mu.Lock()
	used := st.used
	st.mu.Unlock()
	if used != nil && rt.ports.AfterSandboxCall != nil {
		hookErr := rt.ports.AfterSandboxCall(ctx, SandboxCall{
			Tool: tool.Name, ThreadID: ThreadID(ctx), RunID: RunID(ctx), Sandbox: used, Err: err,
		})
		if err == nil && hookErr != nil {
			return nil, fmt.Errorf("after sandbox call: %w", hookErr)
		}
	}
	return out, err
}
