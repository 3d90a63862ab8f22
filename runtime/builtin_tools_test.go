package runtime_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/anthropic"
	"github.com/agentenkit/agentenkit/runtime/model/openai"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
	"github.com/agentenkit/agentenkit/tools"
)

// builtinAgent is a runtime on the memory adapter with one agent that has
// the built-in tools and plays llm.
func builtinAgent(t *testing.T, llm model.Model, opts lifecycle.BuiltinToolOptions) (*runtime.Runtime, *runtime.Agent) {
	t.Helper()
	rt, err := runtime.New(context.Background(), runtime.Options{
		Kv:           memkv.New(memkv.Options{}),
		Tools:        lifecycle.Ports{Sandbox: memory.New(memory.Options{})},
		ResolveModel: func(string) (model.Model, error) { return llm, nil },
	})
	require.NoError(t, err)
	builtins, err := rt.BuiltinTools(nil, opts)
	require.NoError(t, err)
	a, err := rt.CreateStreamTextAgent(runtime.AgentOptions{Name: "coder", Model: "m", Tools: builtins})
	require.NoError(t, err)
	return rt, a
}

func builtinCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestBuiltinToolsInAnAgentRun(t *testing.T) {
	llm := scripted.New(
		scripted.Turn{ToolCalls: []model.ToolCall{
			{ID: "c1", Name: "bash", Input: json.RawMessage(`{"command":"mkdir -p src && cd src && echo building; echo careful >&2"}`)},
			{ID: "c2", Name: "text_editor", Input: json.RawMessage(`{"command":"create","path":"src/main.go","file_text":"package main\n"}`)},
			{ID: "c3", Name: "text_editor", Input: json.RawMessage(`{"command":"view","path":"nope"}`)},
		}},
		scripted.Turn{ToolCalls: []model.ToolCall{{ID: "c4", Name: "bash", Input: json.RawMessage(`{"command":"pwd; ls"}`)}}},
		scripted.Turn{Text: "Done."},
	)
	never := lifecycle.BuiltinToolOptions{Bash: lifecycle.BashOptions{Approval: lifecycle.AskNever}, TextEditor: lifecycle.TextEditorOptions{Approval: lifecycle.AskNever}}
	rt, a := builtinAgent(t, llm, never)
	h, err := a.Send(builtinCtx(t), "t1", "build it")
	require.NoError(t, err)
	var outputs []runtime.Event
	for ev := range h.Events() {
		if ev.Type == runtime.EventToolOutput {
			outputs = append(outputs, ev)
		}
	}
	res, err := h.Wait(builtinCtx(t))
	require.NoError(t, err)
	assert.Equal(t, lifecycle.RunFinished, res.State)

	live := map[string]string{}
	for _, ev := range outputs {
		live[ev.ToolCallID+" "+ev.Tool+" "+ev.Stream] += ev.Text
	}
	assert.Equal(t, map[string]string{
		"c1 bash stdout": "building\n", "c1 bash stderr": "careful\n", "c4 bash stdout": "/home/user/src\nmain.go\n",
	}, live, "the bash calls' live output, in pieces as it came")

	reqs := llm.Requests()
	require.Len(t, reqs, 3)
	results := reqs[1].Messages[len(reqs[1].Messages)-1].ToolResults()
	require.Len(t, results, 3)
	assert.JSONEq(t, `{"stdout":"building\n","stderr":"careful\n","exitCode":0}`, results[0].Content, "bash results are JSON")
	assert.False(t, results[0].IsError)
	assert.JSONEq(t, `{"ok":true,"message":"File created successfully at: src/main.go"}`, results[1].Content, "editor results are the spec's JSON")
	assert.Equal(t, "The path nope does not exist. Please provide a valid path.", results[2].Content)
	assert.True(t, results[2].IsError)
	last := reqs[2].Messages[len(reqs[2].Messages)-1].ToolResults()[0]
	var r tools.BashResult
	require.NoError(t, json.Unmarshal([]byte(last.Content), &r))
	assert.True(t, strings.HasSuffix(r.Stdout, "/src\nmain.go\n"), "cd carried over to the next step: %q", r.Stdout)

	rows, err := rt.Usage(builtinCtx(t), h.RunID)
	require.NoError(t, err)
	var booked []string
	for _, row := range rows {
		if row.Kind == "tool" {
			booked = append(booked, row.Model+"@"+row.ModelID)
		}
	}
	assert.Equal(t, []string{"tool:bash@memory", "tool:text_editor@memory", "tool:text_editor@memory", "tool:bash@memory"}, booked, "a usage row per call")
}

func TestBuiltinToolsAskByDefault(t *testing.T) {
	llm := scripted.New(
		scripted.Turn{ToolCalls: []model.ToolCall{
			{ID: "view", Name: "text_editor", Input: json.RawMessage(`{"command":"view","path":"."}`)},
			{ID: "run", Name: "code_execution", Input: json.RawMessage(`{"code":"print(1)"}`)},
			{ID: "sh", Name: "bash", Input: json.RawMessage(`{"command":"rm -rf /"}`)},
			{ID: "edit", Name: "text_editor", Input: json.RawMessage(`{"command":"create","path":"a","file_text":"x"}`)},
		}},
		scripted.Turn{Text: "Waiting."},
	)
	_, a := builtinAgent(t, llm, lifecycle.BuiltinToolOptions{})
	h, err := a.Send(builtinCtx(t), "t1", "go")
	require.NoError(t, err)
	for range h.Events() {
	}
	res, err := h.Wait(builtinCtx(t))
	require.NoError(t, err)
	require.Equal(t, lifecycle.RunParked, res.State)
	var asked []string
	for _, p := range res.Pending {
		asked = append(asked, p.ToolCallID)
	}
	assert.ElementsMatch(t, []string{"sh", "edit"}, asked, "bash and editor changes ask; view and code_execution do not")
}

func TestBuiltinToolsNames(t *testing.T) {
	rt, err := runtime.New(context.Background(), runtime.Options{Kv: memkv.New(memkv.Options{})})
	require.NoError(t, err)
	all, err := rt.BuiltinTools(nil, lifecycle.BuiltinToolOptions{})
	require.NoError(t, err)
	var names []string
	for _, tool := range all {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"bash", "code_execution", "text_editor"}, names)

	aliases, err := rt.BuiltinTools([]string{"str_replace_editor", "str_replace_based_edit_tool"}, lifecycle.BuiltinToolOptions{})
	require.NoError(t, err)
	assert.Equal(t, "str_replace_editor", aliases[0].Name)
	assert.Equal(t, "str_replace_based_edit_tool", aliases[1].Name)

	_, err = rt.BuiltinTools([]string{"python"}, lifecycle.BuiltinToolOptions{})
	assert.ErrorContains(t, err, `no built-in tool "python"`)
	_, err = rt.BuiltinTools([]string{"bash", "bash"}, lifecycle.BuiltinToolOptions{})
	assert.ErrorContains(t, err, "named twice")
	assert.Equal(t, 30000, lifecycle.BuiltinToolResultCapChars)
}

func TestBuiltinToolsNativeTypes(t *testing.T) {
	rt, err := runtime.New(context.Background(), runtime.Options{Kv: memkv.New(memkv.Options{})})
	require.NoError(t, err)
	names := []string{"bash", "code_execution", "text_editor", "str_replace_based_edit_tool", "str_replace_editor"}
	builtins, err := rt.BuiltinTools(names, lifecycle.BuiltinToolOptions{})
	require.NoError(t, err)
	want := map[string]string{
		"bash":                        tools.NativeBash,
		"code_execution":              "", // Anthropic's is a server tool: it would not run in the sandbox
		"text_editor":                 "", // no built-in type is named text_editor
		"str_replace_based_edit_tool": tools.NativeTextEditor,
		"str_replace_editor":          tools.NativeStrReplaceEditor,
	}
	for _, tool := range builtins {
		assert.Equal(t, want[tool.Name], tool.NativeType, tool.Name)
		assert.Equal(t, want[tool.Name], tools.NativeType(tool.Name), tool.Name)
		spec := tool.Spec()
		assert.Equal(t, tool.NativeType, spec.NativeType, tool.Name)
		assert.JSONEq(t, string(tool.InputSchema), string(spec.InputSchema), "%s: the schema stays for other models", tool.Name)
	}
	assert.Equal(t, "bash_20250124", tools.NativeBash)
	assert.Equal(t, "text_editor_20250728", tools.NativeTextEditor)
	assert.Equal(t, "text_editor_20250124", tools.NativeStrReplaceEditor)

	// On the wire: the Anthropic adapter sends the built-in types alone,
	// the OpenAI-compatible one every tool as a function with its schema.
	var specs []model.ToolSpec
	for _, tool := range builtins {
		specs = append(specs, tool.Spec())
	}
	req := model.Request{Messages: []model.Message{model.UserText("hi")}, Tools: specs}
	for _, tc := range []struct {
		name  string
		model func(url string) model.Model
		reply string
		check func(t *testing.T, tool map[string]json.RawMessage, name string)
	}{
		{"anthropic", func(url string) model.Model {
			return anthropic.New("sk-ant-test", anthropic.Options{BaseURL: url}).Model("claude-sonnet-4-5")
		},
			"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"role\":\"assistant\",\"content\":[],\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\nevent: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\"},\"usage\":{\"output_tokens\":1}}\n\nevent: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
			func(t *testing.T, tool map[string]json.RawMessage, name string) {
				if typ := want[name]; typ != "" {
					b, _ := json.Marshal(tool)
					assert.JSONEq(t, `{"type":"`+typ+`","name":"`+name+`"}`, string(b))
					return
				}
				assert.NotContains(t, tool, "type")
				assert.Contains(t, tool, "input_schema")
				assert.Contains(t, tool, "description")
			}},
		{"openai", func(url string) model.Model {
			return openai.New("sk-test", openai.Options{BaseURL: url}).Model("gpt-4o")
		},
			"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n",
			func(t *testing.T, tool map[string]json.RawMessage, name string) {
				assert.JSONEq(t, `"function"`, string(tool["type"]))
				var fn map[string]json.RawMessage
				require.NoError(t, json.Unmarshal(tool["function"], &fn))
				assert.Contains(t, fn, "parameters")
				assert.Contains(t, fn, "description")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body []byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ = io.ReadAll(r.Body)
				w.Header().Set("Content-Type", "text/event-stream")
				_, _ = io.WriteString(w, tc.reply)
			}))
			defer srv.Close()
			_, err := model.Collect(tc.model(srv.URL).Stream(t.Context(), req), nil)
			require.NoError(t, err)
			var sent struct {
				Tools []map[string]json.RawMessage `json:"tools"`
			}
			require.NoError(t, json.Unmarshal(body, &sent))
			require.Len(t, sent.Tools, len(names))
			for i, tool := range sent.Tools {
				tc.check(t, tool, names[i])
			}
		})
	}
}
