package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

// version is the CLI's version, as MCP clients see it.
const version = "0.1.0"

func cmdMCP(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "mcp", "mcp [--provider P] [--thread T]", `
Serves the sandbox tools over MCP on stdin and stdout (the stdio transport):
bash, code_execution and text_editor, on a sandbox of its own per MCP
session, made on the first call and ended when the session ends. With
--thread T the session uses the thread's sandbox instead, and keeps it.

The tools carry MCP annotations (not read-only, destructive) so the client
asks its user before a call as it does for any such tool; the server asks
no one itself. A failed call is a result with isError, for the model to see.

Add it to a client, for example Claude Code:
  claude mcp add sandbox -- agentenkit mcp
or in a client's JSON configuration:
  {"mcpServers": {"sandbox": {"command": "agentenkit", "args": ["mcp"]}}}`)
	provider := providerFlag(fs)
	thread := fs.String("thread", "", "use (and keep) this thread's sandbox instead of one per session")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(e, fs, fmt.Sprintf("mcp takes no arguments (got %q)", strings.Join(fs.Args(), " ")))
	}
	st, err := openState(ctx, e, *provider)
	if err != nil {
		return fail(e, err)
	}
	defer st.Close()
	srv, threads, err := newMCPServer(st, *thread)
	if err != nil {
		return fail(e, err)
	}
	defer threads.end(context.WithoutCancel(ctx), e)
	t := &mcp.IOTransport{Reader: readCloser{e.stdin}, Writer: writeCloser{e.stdout}}
	if err := srv.Run(ctx, t); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return fail(e, fmt.Errorf("mcp: %w", err))
	}
	return 0
}

// sessionThreads gives each MCP session a thread of its own, so a sandbox
// of its own; fixed, when set, is the one thread of every session (kept).
type sessionThreads struct {
	rt    *runtime.Runtime
	fixed string

	mu   sync.Mutex
	byID map[*mcp.ServerSession]string
}

func (s *sessionThreads) of(ss *mcp.ServerSession) string {
	if s.fixed != "" {
		return s.fixed
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.byID[ss]
	if !ok {
		t = "mcp-" + randomHex(6)
		s.byID[ss] = t
	}
	return t
}

// end ends the sessions' sandboxes.
func (s *sessionThreads) end(ctx context.Context, e *env) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ss, t := range s.byID {
		if err := s.rt.DeleteThread(ctx, t); err != nil {
			fmt.Fprintf(e.stderr, "agentenkit mcp: end the sandbox of thread %s: %v\n", t, err)
		}
		delete(s.byID, ss)
	}
}

// newMCPServer returns a server with the built-in tools on st's runtime.
func newMCPServer(st *state, thread string) (*mcp.Server, *sessionThreads, error) {
	tools, err := st.rt.BuiltinTools(nil, lifecycle.BuiltinToolOptions{})
	if err != nil {
		return nil, nil, err
	}
	threads := &sessionThreads{rt: st.rt, fixed: thread, byID: map[*mcp.ServerSession]string{}}
	srv := mcp.NewServer(&mcp.Implementation{Name: "agentenkit", Title: "agentenkit sandbox", Version: version}, &mcp.ServerOptions{
		Instructions: fmt.Sprintf("These tools run in a %s sandbox, apart from the user's machine: bash runs commands, code_execution runs Python or JavaScript programs, text_editor views and edits files. They share one work folder per session; cd carries over between bash calls.", st.provider.Name()),
		Capabilities: &mcp.ServerCapabilities{},
	})
	open := openWorld(st.provider)
	for _, tool := range tools {
		var output any // the text editor's {path, content, totalLines} or {ok, message}
		if len(tool.OutputSchema) > 0 {
			output = tool.OutputSchema
		}
		srv.AddTool(&mcp.Tool{
			OutputSchema: output,
			Name:         tool.Name,
			Title:        toolTitles[tool.Name],
			Description:  tool.Description,
			InputSchema:  tool.InputSchema,
			Annotations: &mcp.ToolAnnotations{
				Title: toolTitles[tool.Name],
				// Every tool may change or delete the sandbox's files: the
				// calls the runtime would ask a person about, the client asks
				// its user about.
				ReadOnlyHint:    false,
				DestructiveHint: ptr(true),
				IdempotentHint:  false,
				OpenWorldHint:   ptr(open),
			},
		}, mcpHandler(st.rt, tool, threads))
	}
	return srv, threads, nil
}

var toolTitles = map[string]string{
	lifecycle.ToolBash:          "Run a bash command in the sandbox",
	lifecycle.ToolCodeExecution: "Run Python or JavaScript in the sandbox",
	lifecycle.ToolTextEditor:    "View and edit files in the sandbox",
}

// mcpHandler calls tool in the session's thread. Whatever goes wrong is a
// result with IsError, never a protocol error: the model sees it.
func mcpHandler(rt *runtime.Runtime, tool lifecycle.Tool, threads *sessionThreads) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage(`{}`)
		}
		out, err := rt.CallTool(lifecycle.WithThread(ctx, threads.of(req.Session)), tool, args)
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		res := &mcp.CallToolResult{}
		switch v := out.(type) {
		case nil:
			res.Content = []mcp.Content{&mcp.TextContent{Text: ""}}
		case string:
			res.Content = []mcp.Content{&mcp.TextContent{Text: v}}
		default:
			raw, err := json.Marshal(v)
			if err != nil {
				return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the tool's result is not JSON: " + err.Error()}}}, nil
			}
			res.Content = []mcp.Content{&mcp.TextContent{Text: string(raw)}}
			res.StructuredContent = json.RawMessage(raw)
		}
		return res, nil
	}
}

// openWorld reports whether the provider's commands reach the network by
// default: local runs on the host; the others have none unless asked.
func openWorld(p sandbox.Provider) bool { return p.Name() == "local" }

func ptr[T any](v T) *T { return &v }

type readCloser struct{ io.Reader }

func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

func (writeCloser) Close() error { return nil }
