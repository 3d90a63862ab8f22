package main

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpClient starts `agentenkit mcp` and connects the SDK's client to it.
func mcpClient(t *testing.T, c *cli, args ...string) *mcp.ClientSession {
	t.Helper()
	return mcpClientWith(t, c, nil, args...)
}

// mcpClientWith is mcpClient with the client's options (its notification
// handlers).
func mcpClientWith(t *testing.T, c *cli, opts *mcp.ClientOptions, args ...string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	cmd := c.command(ctx, append([]string{"mcp"}, args...)...)
	client := mcp.NewClient(&mcp.Implementation{Name: "agentenkit-test", Version: "1"}, opts)
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
// structuredContent, checking that it fits the tool's output schema and
// that the text says the same.
func structured(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		t.Fatalf("call %s %v: %v %+v", name, args, err, res)
	}
	checkOutputSchema(t, cs, name, res.StructuredContent)
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

// checkOutputSchema checks that out fits the output schema tool declares.
func checkOutputSchema(t *testing.T, cs *mcp.ClientSession, tool string, out any) {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range list.Tools {
		if tl.Name != tool {
			continue
		}
		raw, err := json.Marshal(tl.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema jsonschema.Schema
		if err := json.Unmarshal(raw, &schema); err != nil || tl.OutputSchema == nil {
			t.Fatalf("tool %s: output schema %s: %v", tool, raw, err)
		}
		rs, err := schema.Resolve(nil)
		if err != nil {
			t.Fatalf("tool %s: output schema: %v", tool, err)
		}
		data, _ := json.Marshal(out)
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); err != nil {
			t.Fatalf("tool %s: the result %s does not fit its output schema: %v", tool, data, err)
		}
		return
	}
	t.Fatalf("no tool %s", tool)
}

func jsonEqual(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

func TestMCP(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	cs := mcpClient(t, c, "--provider", p)
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
	// Every result is structured, fitting the tool's outputSchema, and the
	// text is the same JSON: text_editor's {ok, message} for a change,
	// {path, content, totalLines} for a view; bash's and code_execution's
	// {stdout, stderr, exitCode, ...}.
	for _, tool := range list.Tools {
		if tool.OutputSchema == nil {
			t.Errorf("tool %s has no output schema", tool.Name)
		}
	}
	if out := structured(t, cs, "bash", map[string]any{"command": "echo out; echo err >&2; exit 2"}); out["stdout"] != "out\n" || out["stderr"] != "err\n" || out["exitCode"] != 2.0 {
		t.Fatalf("bash structured: %v", out)
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
	if out := structured(t, cs, "code_execution", map[string]any{"language": "python", "code": "print(6*7)\nopen('made.txt', 'w').write('x')"}); out["stdout"] != "42\n" || out["exitCode"] != 0.0 || !strings.Contains(fmt.Sprint(out["files"]), "made.txt") {
		t.Fatalf("code_execution structured: %v", out)
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
	cs := mcpClient(t, c, "--provider", p, "--thread", "agent")
	if out, isErr := call(t, cs, "bash", map[string]any{"command": "echo kept > k"}); isErr {
		t.Fatal(out)
	}
	cs.Close()
	// The thread's sandbox outlives the session: run finds the file.
	if r := c.mustRun("", "run", "--provider", p, "--thread", "agent", "--", "cat k"); r.stdout != "kept\n" {
		t.Fatalf("cat k in thread agent: %q", r.stdout)
	}
}

// A call with a progress token gets the command's output live, as progress
// notifications in order (the message the text, _meta the stream, the
// progress the bytes so far), the first one before the command ends.
func TestMCPProgress(t *testing.T) {
	t.Parallel()
	type note struct {
		at           time.Time
		stream, text string
		progress     float64
		token        any
	}
	var (
		mu    sync.Mutex
		notes []note
	)
	opts := &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		stream, _ := req.Params.Meta["agentenkit/stream"].(string)
		notes = append(notes, note{time.Now(), stream, req.Params.Message, req.Params.Progress, req.Params.ProgressToken})
	}}
	c, p := newCLI(t), testProvider(t)
	cs := mcpClientWith(t, c, opts, "--provider", p)
	params := &mcp.CallToolParams{Name: "bash", Arguments: map[string]any{"command": "echo first; echo oops >&2; sleep 2; echo second"}}
	params.SetProgressToken("tok-1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("bash: %v %+v", err, res)
	}
	ended := time.Now()
	// The last notifications may land just after the result.
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	var stdout, stderr strings.Builder
	last := 0.0
	for i, n := range notes {
		t.Logf("progress %d: %+v", i, n)
		if n.token != "tok-1" || n.progress <= last {
			t.Errorf("notification %d: token %v, progress %v after %v: want tok-1, growing", i, n.token, n.progress, last)
		}
		last = n.progress
		switch n.stream {
		case "stdout":
			stdout.WriteString(n.text)
		case "stderr":
			stderr.WriteString(n.text)
		default:
			t.Errorf("notification %d: stream %q", i, n.stream)
		}
	}
	if stdout.String() != "first\nsecond\n" || stderr.String() != "oops\n" {
		t.Fatalf("live output: stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	if ended.Sub(notes[0].at) < time.Second {
		t.Errorf("the first output came %s before the call's end, want it live (the command sleeps 2 s after it)", ended.Sub(notes[0].at))
	}
	// Without a token, none.
	n := len(notes)
	mu.Unlock()
	call(t, cs, "bash", map[string]any{"command": "echo quiet"})
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	if len(notes) != n {
		t.Errorf("a call without a progress token got %d notifications", len(notes)-n)
	}
}

// The session's sandbox is a resource once a call has made it: the work
// folder as a text/uri-list, its files (text or blob) and folders under
// it. A read never makes a sandbox, and sees no other thread's.
func TestMCPResources(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	var (
		mu      sync.Mutex
		changed int
	)
	cs := mcpClientWith(t, c, &mcp.ClientOptions{
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			mu.Lock()
			defer mu.Unlock()
			changed++
		},
	}, "--provider", p)
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil || len(list.Resources) != 0 {
		t.Fatalf("resources before any call: %+v %v, want none", list, err)
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || !strings.HasSuffix(templates.ResourceTemplates[0].URITemplate, "/{+path}") {
		t.Fatalf("resource templates: %+v %v", templates, err)
	}
	root := strings.TrimSuffix(templates.ResourceTemplates[0].URITemplate, "{+path}")
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: root}); err == nil {
		t.Fatalf("read %s before the sandbox is made: no error", root)
	}
	call(t, cs, "bash", map[string]any{"command": "mkdir -p sub && printf 'hello\\nworld\\n' > notes.txt && printf '\\x00\\xff' > bin.dat && : > empty.txt && echo deep > sub/deep.txt"})
	list, err = cs.ListResources(ctx, nil)
	if err != nil || len(list.Resources) != 1 || list.Resources[0].URI != root || list.Resources[0].MIMEType != "text/uri-list" {
		t.Fatalf("resources after a call: %+v %v, want %s", list, err, root)
	}
	read := func(uri string) *mcp.ResourceContents {
		t.Helper()
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		if len(res.Contents) != 1 {
			t.Fatalf("read %s: %d contents", uri, len(res.Contents))
		}
		return res.Contents[0]
	}
	listing := read(root)
	for _, want := range []string{root + "notes.txt\r\n", root + "bin.dat\r\n", root + "sub/\r\n"} {
		if listing.MIMEType != "text/uri-list" || !strings.Contains(listing.Text, want) {
			t.Fatalf("read %s: %s %q, want a line %q", root, listing.MIMEType, listing.Text, want)
		}
	}
	if got := read(root + "notes.txt"); got.Text != "hello\nworld\n" || got.MIMEType != "text/plain" {
		t.Fatalf("notes.txt: %+v", got)
	}
	if got := read(root + "bin.dat"); string(got.Blob) != "\x00\xff" || got.Text != "" {
		t.Fatalf("bin.dat: %+v", got)
	}
	if got := read(root + "empty.txt"); got.Blob == nil || len(got.Blob) != 0 {
		t.Fatalf("empty.txt: %+v", got)
	}
	if got := read(root + "sub"); got.URI != root+"sub/" || got.Text != root+"sub/deep.txt\r\n" {
		t.Fatalf("sub: %+v", got)
	}
	for _, uri := range []string{root + "missing.txt", "sandbox://other-thread/notes.txt", "file:///etc/passwd"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err == nil {
			t.Errorf("read %s: no error", uri)
		}
	}
	// The SDK sends list_changed 10 ms after the change (a timer, so that
	// changes close together make one notification), and the reads above
	// may take less: wait for it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := changed
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no resources/list_changed in 10 s: the client does not know to list %s", root)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Over Streamable HTTP each session has a sandbox of its own, ended with
// the session; an interrupt ends the server and the sandboxes left.
func TestMCPHTTP(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	url := startHTTPServer(t, c, "--provider", p)
	ctx := context.Background()
	connect := func() *mcp.ClientSession {
		client := mcp.NewClient(&mcp.Implementation{Name: "agentenkit-test", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatalf("connect to %s: %v", url, err)
		}
		return cs
	}
	a, b := connect(), connect()
	if out := structured(t, a, "bash", map[string]any{"command": "echo a > f; cat f"}); out["stdout"] != "a\n" {
		t.Fatalf("session a: %v", out)
	}
	if out := structured(t, b, "bash", map[string]any{"command": "cat f"}); out["exitCode"] == 0.0 {
		t.Fatalf("session b sees session a's file: %v", out)
	}
	if r := c.mustRun("", "sandboxes", "list"); strings.Count(r.stdout, "mcp-") != 2 {
		t.Fatalf("want the two sessions' sandboxes listed:\n%s", r.stdout)
	}
	a.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := c.mustRun("", "sandboxes", "list")
		if strings.Count(r.stdout, "mcp-") == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("session a's sandbox outlived it:\n%s", r.stdout)
		}
		time.Sleep(200 * time.Millisecond)
	}
	_ = b
}
