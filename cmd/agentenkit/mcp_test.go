package main

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession starts `agentenkit mcp` and connects the SDK's client to it.
func mcpSession(t *testing.T, c *cli, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	cmd := c.command(ctx, append([]string{"mcp"}, args...)...)
	client := mcp.NewClient(&mcp.Implementation{Name: "agentenkit-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to agentenkit mcp: %v", err)
	}
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s %v: a protocol error: %v", name, args, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	t.Logf("%s %v → isError=%v %s", name, args, res.IsError, text.String())
	return text.String(), res.IsError
}

// structured calls a tool that must succeed and returns its
// structuredContent, checking that the text says the same.
func structured(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("call %s %v: %v %+v", name, args, err, res)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("call %s: structured content %s: %v", name, raw, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("call %s: content %+v, want one text", name, res.Content)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || !jsonEqual(tc.Text, string(raw)) {
		t.Fatalf("call %s: text %+v is not the structured content %s", name, res.Content[0], raw)
	}
	return out
}

func jsonEqual(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

func TestMCP(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	cs := mcpSession(t, c, "--provider", p)
	ctx := context.Background()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	props := map[string][]string{}
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		schema, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(schema, &s); err != nil || s.Type != "object" {
			t.Errorf("tool %s: input schema %s is not an object schema", tool.Name, schema)
		}
		for k := range s.Properties {
			props[tool.Name] = append(props[tool.Name], k)
		}
		if tool.Description == "" {
			t.Errorf("tool %s has no description", tool.Name)
		}
		a := tool.Annotations
		if a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint || a.OpenWorldHint == nil {
			t.Errorf("tool %s: annotations %+v, want destructive, not read-only, open world said", tool.Name, a)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"bash", "code_execution", "text_editor"}) {
		t.Fatalf("tools %v", names)
	}
	for tool, want := range map[string][]string{
		"bash":           {"command", "restart"},
		"code_execution": {"code", "language"},
		"text_editor":    {"command", "path", "file_text", "old_str", "new_str"},
	} {
		for _, w := range want {
			if !slices.Contains(props[tool], w) {
				t.Errorf("tool %s: schema has properties %v, missing %s", tool, props[tool], w)
			}
		}
	}

	if out, isErr := call(t, cs, "bash", map[string]any{"command": "mkdir -p work && cd work && echo hi-from-bash"}); isErr || !strings.Contains(out, "hi-from-bash") {
		t.Fatalf("bash echo: %q (isError %v)", out, isErr)
	}
	// cd carried over.
	if out, _ := call(t, cs, "bash", map[string]any{"command": "pwd"}); !strings.Contains(out, "/work") {
		t.Fatalf("bash pwd after cd: %q", out)
	}
	// bash's schema takes {"restart": true} alone, as the tool does.
	if out, isErr := call(t, cs, "bash", map[string]any{"restart": true}); isErr || !strings.Contains(out, "restarted") {
		t.Fatalf("bash restart alone: %q (isError %v)", out, isErr)
	}
	if out, _ := call(t, cs, "bash", map[string]any{"command": "mkdir -p work && cd work"}); strings.Contains(out, "error") {
		t.Fatalf("bash cd again: %q", out)
	}
	// text_editor's results are structured: {ok, message} for a change,
	// {path, content, totalLines} for a view, fitting its outputSchema; the
	// text is the same JSON.
	for _, tool := range list.Tools {
		if (tool.Name == "text_editor") != (tool.OutputSchema != nil) {
			t.Errorf("tool %s: output schema %v", tool.Name, tool.OutputSchema)
		}
	}
	created := structured(t, cs, "text_editor", map[string]any{"command": "create", "path": "notes.txt", "file_text": "hello\nworld\n"})
	if created["ok"] != true || !strings.HasPrefix(created["message"].(string), "File created successfully at: notes.txt") {
		t.Fatalf("text_editor create: %v", created)
	}
	view := structured(t, cs, "text_editor", map[string]any{"command": "view", "path": "notes.txt"})
	if view["path"] != "notes.txt" || view["totalLines"] != 2.0 || !strings.Contains(view["content"].(string), "     1\thello\n     2\tworld\n") {
		t.Fatalf("text_editor view: %v", view)
	}
	// One sandbox per session: bash sees the editor's file.
	if out, _ := call(t, cs, "bash", map[string]any{"command": "cat ~/notes.txt 2>/dev/null || cat ../notes.txt"}); !strings.Contains(out, "world") {
		t.Fatalf("bash does not see the editor's file: %q", out)
	}
	if out, isErr := call(t, cs, "code_execution", map[string]any{"language": "python", "code": "print(6*7)"}); isErr || !strings.Contains(out, "42") {
		t.Fatalf("code_execution: %q (isError %v)", out, isErr)
	}

	// Failures are results with isError, not protocol errors.
	if out, isErr := call(t, cs, "text_editor", map[string]any{"command": "view", "path": "/no/such/file"}); !isErr || !strings.Contains(out, "does not exist") {
		t.Fatalf("view of a missing file: %q (isError %v), want isError", out, isErr)
	}
	if out, isErr := call(t, cs, "text_editor", map[string]any{"command": "str_replace", "path": "notes.txt", "old_str": "nowhere", "new_str": "x"}); !isErr {
		t.Fatalf("str_replace of a missing string: %q, want isError", out)
	}
	if out, isErr := call(t, cs, "bash", map[string]any{"command": ""}); !isErr {
		t.Fatalf("bash without a command: %q, want isError", out)
	}
	if out, isErr := call(t, cs, "code_execution", map[string]any{"language": "cobol", "code": "x"}); !isErr {
		t.Fatalf("code_execution in cobol: %q, want isError", out)
	}
	// A command that fails is a result the model reads (its exit code).
	if out, _ := call(t, cs, "bash", map[string]any{"command": "exit 3"}); !strings.Contains(out, `"exitCode":3`) {
		t.Fatalf("bash exit 3: %q", out)
	}

	// While the session lives its sandbox is listed; it ends with the session.
	if r := c.mustRun("", "sandboxes", "list"); !strings.Contains(r.stdout, "mcp-") {
		t.Fatalf("the session's sandbox is not listed:\n%s", r.stdout)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := c.mustRun("", "sandboxes", "list")
		if !strings.Contains(r.stdout, "mcp-") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session's sandbox outlived it:\n%s", r.stdout)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func TestMCPThread(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	cs := mcpSession(t, c, "--provider", p, "--thread", "agent")
	if out, isErr := call(t, cs, "bash", map[string]any{"command": "echo kept > k"}); isErr {
		t.Fatal(out)
	}
	cs.Close()
	// The thread's sandbox outlives the session: run finds the file.
	if r := c.mustRun("", "run", "--provider", p, "--thread", "agent", "--", "cat k"); r.stdout != "kept\n" {
		t.Fatalf("cat k in thread agent: %q", r.stdout)
	}
}
