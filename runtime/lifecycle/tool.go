package lifecycle

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Tool is a tool the model can call.
type Tool struct {
	Name        string
	Description string
	// InputSchema is the JSON schema of the input (an object).
	InputSchema json.RawMessage
	// OutputSchema, when set, is the JSON schema of the handler's
	// structured result (an object), for clients that validate results
	// (MCP's outputSchema). The built-in tools declare theirs.
	OutputSchema json.RawMessage
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

// ApprovalPolicy says whether one call of a tool needs a person's approval
// before it runs. It sees the run's ctx and the call's input. An error
// counts as "ask": when in doubt, a person decides.
type ApprovalPolicy func(ctx context.Context, input json.RawMessage) (bool, error)

// AskAlways is the policy of a tool every call of which needs approval.
func AskAlways(context.Context, json.RawMessage) (bool, error) { return true, nil }

// AskNever is the policy of a tool that never needs approval (the default).
func AskNever(context.Context, json.RawMessage) (bool, error) { return false, nil }

// Spec is the tool as a model adapter is given it; an empty InputSchema is
// an object of anything.
func (t Tool) Spec() model.ToolSpec {
	schema := t.InputSchema
	if len(schema) == 0 {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	return model.ToolSpec{Name: t.Name, Description: t.Description, InputSchema: schema, NativeType: t.NativeType}
}

// ToolContext is what a tool's handler knows about its call.
type ToolContext struct {
	// ThreadID is the thread the call is made in.
	ThreadID string
	// RunID is the run, or "" for a call outside a run (CallTool on a
	// thread's ctx).
	RunID string
	// ToolCallID is the call's id: the model's, or one CallTool made up
	// for a direct call.
	ToolCallID string
	// Emit publishes a piece of the call's live output (stream is "stdout"
	// or "stderr", say) as a tool.output event of its run; never stored in
	// the thread. Outside a run it does nothing.
	Emit func(stream, text string)
}

// ToolHandler runs one call of a custom tool: input is the model's input
// object; the returned text is the result the model sees, an error a
// failed call it sees.
type ToolHandler func(ctx context.Context, input map[string]any, tc ToolContext) (string, error)

// AgentTool returns a custom tool whose input is any JSON object. Inside
// handler, WithSandbox (or SandboxFor) with ctx gives the thread's sandbox;
// after a call that used it, AfterSandboxCall runs.
func AgentTool(name, description string, handler ToolHandler) Tool {
	return Tool{
		Name:        name,
		Description: description,
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, raw json.RawMessage) (any, error) {
			input := map[string]any{}
			if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
				if err := json.Unmarshal(raw, &input); err != nil {
					return nil, fmt.Errorf("the input of %s is not a JSON object: %w", name, err)
				}
			}
			return handler(ctx, input, toolContextOf(ctx))
		},
	}
}

// toolCallInfo is what a tool call's ctx carries: its id, and where its
// live output goes.
type toolCallInfo struct {
	id, tool string
	emit     func(stream, text string)
}

type toolCallKey struct{}

// WithToolCall returns ctx for the call id of tool, whose live output goes
// to emit (nil: nowhere): the agent loop wires a model's calls to its
// run's events with it.
func WithToolCall(ctx context.Context, id, tool string, emit func(stream, text string)) context.Context {
	return context.WithValue(ctx, toolCallKey{}, &toolCallInfo{id: id, tool: tool, emit: emit})
}

// EmitToolOutput passes a piece of a running tool call's live output
// (stream is "stdout" or "stderr", say) to where the call's ctx sends it:
// in a run, a tool.output event. ctx is the ctx the tool's handler got.
// The output is never stored in the thread. Outside a run's tool call it
// does nothing.
func EmitToolOutput(ctx context.Context, stream, text string) {
	info, ok := ctx.Value(toolCallKey{}).(*toolCallInfo)
	if !ok || info.emit == nil || text == "" {
		return
	}
	info.emit(stream, text)
}

// ToolCallID returns the id of the tool call of ctx (a handler's), or "".
func ToolCallID(ctx context.Context) string {
	if info, ok := ctx.Value(toolCallKey{}).(*toolCallInfo); ok {
		return info.id
	}
	return ""
}

// UsedSandbox returns the sandbox the tool call of ctx (a handler's) has
// used so far, or nil.
func UsedSandbox(ctx context.Context) sandbox.Sandbox {
	st, ok := ctx.Value(callKey).(*callState)
	if !ok {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.used
}

// toolContextOf returns the ToolContext of a handler's ctx.
func toolContextOf(ctx context.Context) ToolContext {
	return ToolContext{
		ThreadID:   ThreadID(ctx),
		RunID:      RunID(ctx),
		ToolCallID: ToolCallID(ctx),
		Emit:       func(stream, text string) { EmitToolOutput(ctx, stream, text) },
	}
}

// callState records, for one tool call, the sandbox it used, and keeps
// that sandbox's end pushed back while the call runs.
type callState struct {
	mu      sync.Mutex
	used    sandbox.Sandbox
	sc      scope
	stopped bool
	stop    chan struct{} // closed when the call returns
	done    chan struct{} // closed when the keepalive has stopped
}

// markUsed records that ctx's call (if any) used sb, recorded under sc, and
// starts pushing sb's end back while the call runs.
func (m *Manager) markUsed(ctx context.Context, sc scope, sb sandbox.Sandbox) {
	st, ok := ctx.Value(callKey).(*callState)
	if !ok {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.stopped {
		return
	}
	st.used, st.sc = sb, sc
	if st.stop == nil {
		st.stop, st.done = make(chan struct{}), make(chan struct{})
		go m.keepAlive(context.WithoutCancel(ctx), st)
	}
}

// keepAliveEvery is how often a running call pushes its sandbox's end back:
// a third of SandboxIdleTTL, so that two pushes may fail before it ends.
func (m *Manager) keepAliveEvery() time.Duration {
	return max(m.cfg.SandboxIdleTTL/3, 50*time.Millisecond)
}

// keepAlive pushes the end of the sandbox st used back until the call
// returns: a sandbox does not end while a call uses it.
func (m *Manager) keepAlive(ctx context.Context, st *callState) {
	defer close(st.done)
	t := time.NewTicker(m.keepAliveEvery())
	defer t.Stop()
	for {
		select {
		case <-st.stop:
			return
		case <-t.C:
			st.mu.Lock()
			sb, sc := st.used, st.sc
			st.mu.Unlock()
			m.touch(ctx, sc, sb)
		}
	}
}

// finish stops the keepalive and returns the sandbox the call used, if any.
func (st *callState) finish() (sandbox.Sandbox, scope) {
	st.mu.Lock()
	st.stopped = true
	stop, done := st.stop, st.done
	st.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
	return st.used, st.sc
}

// touch is a use of sb that makes nothing: it pushes sb's end back if sc's
// record still names it. Failures are left for the next call to find.
func (m *Manager) touch(ctx context.Context, sc scope, sb sandbox.Sandbox) {
	lk := m.keyLock(sc.key())
	lk.Lock()
	defer lk.Unlock()
	rec, raw, err := m.readRecord(ctx, sc.key())
	if err != nil || rec == nil || rec.SandboxID != sb.ID() {
		return
	}
	_ = m.use(ctx, sb, rec, raw, m.cfg.Now())
}

// CallTool runs one call of tool in ctx (a thread's or run's) and then, if
// the call used the sandbox, the AfterSandboxCall hook: the hook's error
// becomes the call's error unless the call already failed. A call outside
// a run's model loop gets a tool call id of its own. While the call runs,
// the sandbox it uses does not end; its idle time counts from the call's
// end.
func (m *Manager) CallTool(ctx context.Context, tool Tool, input json.RawMessage) (any, error) {
	if tool.Handler == nil {
		return nil, fmt.Errorf("runtime: tool %s has no handler", tool.Name)
	}
	if _, ok := ctx.Value(toolCallKey{}).(*toolCallInfo); !ok {
		ctx = context.WithValue(ctx, toolCallKey{}, &toolCallInfo{id: newID("call"), tool: tool.Name})
	}
	st := &callState{}
	out, err := tool.Handler(withManager(context.WithValue(ctx, callKey, st), m), input)
	used, sc := st.finish()
	if used == nil {
		return out, err
	}
	m.touch(context.WithoutCancel(ctx), sc, used)
	if m.ports.AfterSandboxCall != nil {
		hookErr := m.ports.AfterSandboxCall(ctx, SandboxCall{
			Tool: tool.Name, ToolCallID: ToolCallID(ctx), ThreadID: ThreadID(ctx), RunID: RunID(ctx), Sandbox: used, Err: err,
		})
		if err == nil && hookErr != nil {
			return nil, fmt.Errorf("after sandbox call: %w", hookErr)
		}
	}
	return out, err
}
