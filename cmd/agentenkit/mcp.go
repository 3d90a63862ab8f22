package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

// version is the CLI's version, as MCP clients see it.
const version = "0.1.0"

// mcpPath is the endpoint of `agentenkit mcp --http`.
const mcpPath = "/mcp"

func cmdMCP(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "mcp", "mcp [--provider P] [--thread T] [--http ADDR]", `
Serves the sandbox tools over MCP: bash, code_execution and text_editor, on
a sandbox of its own per MCP session, made on the first call and ended when
the session ends. With --thread T every session uses the thread's sandbox
instead, and keeps it.

The transport is stdio (stdin and stdout) unless --http ADDR is given: then
it is Streamable HTTP at http://ADDR/mcp, many sessions at once, until an
interrupt (ADDR 127.0.0.1:0 picks a free port; the URL is printed on
stderr). There is no authentication: listen on a loopback address.

The session's sandbox is a resource, sandbox://THREAD/ (a text/uri-list of
the work folder), and its files are resources under it
(sandbox://THREAD/PATH), listed once a call has made the sandbox. A call
with a progressToken gets the command's output live as progress
notifications. The results are structured (each tool has an outputSchema),
with the same JSON as text.

The tools carry MCP annotations (not read-only, destructive) so the client
asks its user before a call as it does for any such tool; the server asks
no one itself. A failed call is a result with isError, for the model to see.

Add it to a client, for example Claude Code:
  claude mcp add sandbox -- agentenkit mcp
or in a client's JSON configuration:
  {"mcpServers": {"sandbox": {"command": "agentenkit", "args": ["mcp"]}}}`)
	provider := providerFlag(fs)
	thread := fs.String("thread", "", "use (and keep) this thread's sandbox instead of one per session")
	addr := fs.String("http", "", "serve Streamable HTTP on this address (host:port) instead of stdio")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(e, fs, fmt.Sprintf("mcp takes no arguments (got %q)", strings.Join(fs.Args(), " ")))
	}
	if *thread != "" && !validThread(*thread) {
		return usageError(e, fs, fmt.Sprintf("--thread %q: a thread name for MCP is letters, digits, '.', '_' and '-'", *thread))
	}
	st, err := openState(ctx, e, *provider)
	if err != nil {
		return fail(e, err)
	}
	defer st.Close()
	if *addr != "" {
		return serveMCPHTTP(ctx, e, st, *thread, *addr)
	}
	s := newMCPSession(ctx, st, *thread, e.stderr)
	defer s.end(context.WithoutCancel(ctx))
	t := &mcp.IOTransport{Reader: readCloser{e.stdin}, Writer: writeCloser{e.stdout}}
	if err := s.server.Run(ctx, t); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
		return fail(e, fmt.Errorf("mcp: %w", err))
	}
	return 0
}

// serveMCPHTTP serves MCP over Streamable HTTP on addr until ctx ends, a
// server (so a thread, so a sandbox) per session, and then ends the
// sessions' sandboxes.
func serveMCPHTTP(ctx context.Context, e *env, st *state, thread, addr string) int {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fail(e, withHint(fmt.Errorf("mcp: listen on %s: %w", addr, err), "pick another address, or 127.0.0.1:0 for a free port"))
	}
	var (
		mu       sync.Mutex
		sessions []*mcpSession
	)
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		s := newMCPSession(ctx, st, thread, e.stderr)
		mu.Lock()
		sessions = append(sessions, s)
		mu.Unlock()
		return s.server
	}, &mcp.StreamableHTTPOptions{
		// An abandoned session ends, and its sandbox with it, when the
		// sandbox would have ended for want of use anyway.
		SessionTimeout: lifecycle.DefaultSandboxIdleTTL,
		Logger:         slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	mux := http.NewServeMux()
	// Browsers' cross-origin requests are refused; DNS rebinding (a
	// loopback connection naming another host) the handler refuses itself.
	mux.Handle(mcpPath, http.NewCrossOriginProtection().Handler(handler))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	url := "http://" + ln.Addr().String() + mcpPath
	fmt.Fprintf(e.stderr, "agentenkit mcp: serving MCP (Streamable HTTP) at %s\n", url)
	if ip, ok := ln.Addr().(*net.TCPAddr); ok && !ip.IP.IsLoopback() {
		fmt.Fprintf(e.stderr, "agentenkit mcp: warning: %s is not a loopback address and there is no authentication: whoever reaches it can run commands in its sandboxes\n", ln.Addr())
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	code := 0
	select {
	case err := <-served:
		code = fail(e, fmt.Errorf("mcp: serve %s: %w", url, err))
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		_ = srv.Shutdown(sctx)
		cancel()
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range sessions {
		s.end(context.WithoutCancel(ctx))
	}
	return code
}

// mcpSession is one MCP session's server: its tools and resources work on
// one thread, so on one sandbox.
type mcpSession struct {
	st     *state
	server *mcp.Server
	thread string
	// keep: the thread is the user's (--thread) and outlives the session.
	keep   bool
	stderr io.Writer

	watch, ended sync.Once
	mu           sync.Mutex
	listed       bool // the thread's sandbox is a listed resource
}

// newMCPSession returns a session's server with the built-in tools on st's
// runtime, working on thread (a new one when "", ended with the session).
func newMCPSession(ctx context.Context, st *state, thread string, stderr io.Writer) *mcpSession {
	s := &mcpSession{st: st, thread: thread, keep: thread != "", stderr: stderr}
	if !s.keep {
		s.thread = "mcp-" + randomHex(6)
	}
	s.server = mcp.NewServer(&mcp.Implementation{Name: "agentenkit", Title: "agentenkit sandbox", Version: version}, &mcp.ServerOptions{
		Instructions: fmt.Sprintf("These tools run in a %s sandbox, apart from the user's machine: bash runs commands, code_execution runs Python or JavaScript programs, text_editor views and edits files. They share one work folder per session; cd carries over between bash calls. The work folder is the resource %s once a call has made the sandbox.", st.provider.Name(), s.rootURI()),
		// No logging (deprecated as of 2026-07-28); tools and resources
		// are declared as they are added.
		Capabilities: &mcp.ServerCapabilities{},
	})
	open := openWorld(st.provider)
	for _, tool := range mcpTools(st) {
		var output any
		if len(tool.OutputSchema) > 0 {
			output = tool.OutputSchema
		}
		s.server.AddTool(&mcp.Tool{
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
		}, s.toolHandler(tool))
	}
	s.addResources(ctx)
	return s
}

// mcpTools returns the built-in tools (the runtime's, which cannot fail
// for their default names).
func mcpTools(st *state) []lifecycle.Tool {
	tools, err := st.rt.BuiltinTools(nil, lifecycle.BuiltinToolOptions{})
	if err != nil {
		panic("agentenkit: the built-in tools: " + err.Error())
	}
	return tools
}

var toolTitles = map[string]string{
	lifecycle.ToolBash:          "Run a bash command in the sandbox",
	lifecycle.ToolCodeExecution: "Run Python or JavaScript in the sandbox",
	lifecycle.ToolTextEditor:    "View and edit files in the sandbox",
}

// end ends the session's sandbox, unless its thread is the user's; once.
func (s *mcpSession) end(ctx context.Context) {
	s.ended.Do(func() {
		if s.keep {
			return
		}
		if err := s.st.rt.DeleteThread(ctx, s.thread); err != nil {
			fmt.Fprintf(s.stderr, "agentenkit mcp: end the sandbox of thread %s: %v\n", s.thread, err)
		}
	})
}

// watchSession ends the sandbox when ss (the session of a call) ends.
func (s *mcpSession) watchSession(ctx context.Context, ss *mcp.ServerSession) {
	s.watch.Do(func() {
		go func() {
			_ = ss.Wait()
			s.end(context.WithoutCancel(ctx))
		}()
	})
}

// toolHandler calls tool in the session's thread. Whatever goes wrong is a
// result with IsError, never a protocol error: the model sees it. With a
// progress token, the command's live output goes out as progress
// notifications while it runs.
func (s *mcpSession) toolHandler(tool lifecycle.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Session != nil {
			s.watchSession(ctx, req.Session)
		}
		args := req.Params.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage(`{}`)
		}
		ctx = lifecycle.WithThread(ctx, s.thread)
		if tok := req.Params.GetProgressToken(); tok != nil && req.Session != nil {
			ctx = lifecycle.WithToolCall(ctx, "mcp-call-"+randomHex(6), tool.Name, progressEmitter(ctx, req.Session, tok))
		}
		out, err := s.st.rt.CallTool(ctx, tool, args)
		s.listSandbox(ctx)
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
		}
		raw, err := json.Marshal(out)
		if err != nil {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the tool's result is not JSON: " + err.Error()}}}, nil
		}
		if _, ok := out.(string); ok || out == nil {
			// Not a built-in tool's result: text only.
			text, _ := out.(string)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(raw)}},
			StructuredContent: json.RawMessage(raw),
		}, nil
	}
}

// progressStreamKey is the _meta key of a progress notification that says
// which stream its message is from ("stdout" or "stderr").
const progressStreamKey = "agentenkit/stream"

// progressEmitter returns where a call's live output goes: a progress
// notification per piece, in order, whose message is the text and whose
// progress is the count of bytes so far (it grows with each, as MCP
// requires; the total is not known).
func progressEmitter(ctx context.Context, ss *mcp.ServerSession, token any) func(stream, text string) {
	var (
		mu   sync.Mutex
		sent int
	)
	return func(stream, text string) {
		mu.Lock()
		defer mu.Unlock()
		sent += len(text)
		// A client gone away is the call's end, not the command's: the
		// output stays in the result.
		_ = ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      float64(sent),
			Message:       text,
			Meta:          mcp.Meta{progressStreamKey: stream},
		})
	}
}

// openWorld reports whether the provider's commands reach the network by
// default: local runs on the host; the others have none unless asked.
func openWorld(p sandbox.Provider) bool { return p.Name() == "local" }

func ptr[T any](v T) *T { return &v }

type readCloser struct{ io.Reader }

// Close does nothing: the process's stdin is not the server's to close.
func (readCloser) Close() error { return nil }

type writeCloser struct{ io.Writer }

// Close does nothing: the process's stdout is not the server's to close.
func (writeCloser) Close() error { return nil }
