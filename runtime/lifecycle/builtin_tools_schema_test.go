package lifecycle_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/tools"
)

func resolveSchema(t *testing.T, raw json.RawMessage) *jsonschema.Resolved {
	t.Helper()
	var s jsonschema.Schema
	require.NoError(t, json.Unmarshal(raw, &s))
	rs, err := s.Resolve(nil)
	require.NoError(t, err)
	return rs
}

// A validating client accepts every input the built-in tools accept (bash's
// {"restart": true} alone among them), and every result the text editor
// gives fits its output schema: a view's shape, or a change's.
func TestBuiltinToolSchemasAcceptWhatTheToolsAccept(t *testing.T) {
	ctx := lifecycle.WithThread(context.Background(), "t1")
	rt, err := lifecycle.New(lifecycle.Options{Kv: memkv.New(memkv.Options{}), Tools: lifecycle.Ports{
		Sandbox: memory.New(memory.Options{Files: map[string]string{"a.txt": "one\ntwo"}}),
	}})
	require.NoError(t, err)
	builtins, err := rt.BuiltinTools(nil, lifecycle.BuiltinToolOptions{})
	require.NoError(t, err)
	byName := map[string]lifecycle.Tool{}
	for _, tool := range builtins {
		byName[tool.Name] = tool
	}
	cases := []struct{ tool, input string }{
		{"bash", `{"command":"echo hi"}`},
		{"bash", `{"restart":true}`},
		{"bash", `{"restart":true,"command":"pwd"}`},
		{"code_execution", `{"code":"print(1)"}`},
		{"text_editor", `{"command":"view","path":"a.txt"}`},
		{"text_editor", `{"command":"view","path":"."}`},
		{"text_editor", `{"command":"view","path":"a.txt","view_range":[2,-1]}`},
		{"text_editor", `{"command":"create","path":"b.txt","file_text":"x\n"}`},
		{"text_editor", `{"command":"str_replace","path":"b.txt","old_str":"x","new_str":"y"}`},
		{"text_editor", `{"command":"insert","path":"b.txt","insert_line":1,"insert_text":"z\n"}`},
		{"text_editor", `{"command":"undo_edit","path":"b.txt"}`},
	}
	for _, c := range cases {
		tool := byName[c.tool]
		var in map[string]any
		require.NoError(t, json.Unmarshal([]byte(c.input), &in))
		assert.NoError(t, resolveSchema(t, tool.InputSchema).Validate(in), "%s %s: the schema refuses it", c.tool, c.input)
		out, err := rt.CallTool(ctx, tool, json.RawMessage(c.input))
		if c.tool == "code_execution" {
			continue // no python on memory; the input is what counts here
		}
		require.NoError(t, err, "%s %s: the tool refuses it", c.tool, c.input)
		if len(tool.OutputSchema) == 0 {
			continue
		}
		raw, err := json.Marshal(out)
		require.NoError(t, err)
		var got map[string]any
		require.NoError(t, json.Unmarshal(raw, &got))
		assert.NoError(t, resolveSchema(t, tool.OutputSchema).Validate(got), "%s %s: %s", c.tool, c.input, raw)
	}
}

// text_editor's results are the spec's shapes: view {path, content,
// totalLines}; a change {ok, message}, with the reference tool's words.
func TestTextEditorResultShapes(t *testing.T) {
	ctx := lifecycle.WithThread(context.Background(), "t1")
	rt, err := lifecycle.New(lifecycle.Options{Kv: memkv.New(memkv.Options{}), Tools: lifecycle.Ports{
		Sandbox: memory.New(memory.Options{Files: map[string]string{"a.txt": "one\ntwo\n"}}),
	}})
	require.NoError(t, err)
	editor, err := rt.BuiltinTools([]string{"text_editor"}, lifecycle.BuiltinToolOptions{})
	require.NoError(t, err)
	call := func(input string) string {
		t.Helper()
		out, err := rt.CallTool(ctx, editor[0], json.RawMessage(input))
		require.NoError(t, err, input)
		raw, err := json.Marshal(out)
		require.NoError(t, err)
		return string(raw)
	}
	assert.JSONEq(t, `{"path":"a.txt","content":"Here's the result of running `+"`cat -n`"+` on a.txt:\n     1\tone\n     2\ttwo\n     3\t\n","totalLines":2}`,
		call(`{"command":"view","path":"a.txt"}`))
	assert.JSONEq(t, `{"ok":true,"message":"File created successfully at: b.txt"}`,
		call(`{"command":"create","path":"b.txt","file_text":"x"}`))
	assert.JSONEq(t, `{"path":"b.txt","content":"Here's the result of running `+"`cat -n`"+` on b.txt:\n     1\tx\n","totalLines":1}`,
		call(`{"command":"view","path":"b.txt"}`))
	var change tools.EditorResult
	out, err := rt.CallTool(ctx, editor[0], json.RawMessage(`{"command":"str_replace","path":"b.txt","old_str":"x","new_str":"y"}`))
	require.NoError(t, err)
	change = out.(tools.EditorResult)
	assert.True(t, change.OK)
	assert.Contains(t, change.Message, "The file b.txt has been edited.")
}
