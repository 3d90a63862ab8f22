package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/tools"
)

// The session's sandbox as MCP resources: sandbox://THREAD/ is the work
// folder (a text/uri-list of its entries, folders ending in "/"), and
// sandbox://THREAD/PATH a file in it (text when it is UTF-8, else a blob)
// or a folder (a listing again).
const (
	sandboxScheme = "sandbox"
	// uriListType is the media type of a folder's listing (RFC 2483).
	uriListType = "text/uri-list"
	// maxResourceBytes caps the file a resource read returns.
	maxResourceBytes = 8 << 20
)

// threadName is what --thread takes for MCP: a thread name that is a URI
// host as it is.
var threadName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

func validThread(t string) bool { return threadName.MatchString(t) }

func (s *mcpSession) rootURI() string { return sandboxScheme + "://" + s.thread + "/" }

// addResources adds the template of the sandbox's files and, when the
// thread has a live sandbox already (--thread), the sandbox itself.
func (s *mcpSession) addResources(ctx context.Context) {
	s.server.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: s.rootURI() + "{+path}",
		Name:        "sandbox-file",
		Title:       "A file in the sandbox of thread " + s.thread,
		Description: "A file or folder of the sandbox's work folder, by its path there. A folder reads as a text/uri-list of its entries.",
	}, s.readResource)
	if s.keep {
		s.listSandbox(ctx)
	}
}

// listSandbox lists the thread's sandbox as a resource once it has one
// (the server tells the clients the list changed).
func (s *mcpSession) listSandbox(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.listed {
		return
	}
	rec, ok := s.liveRecord(ctx)
	if !ok {
		return
	}
	s.listed = true
	s.server.AddResource(&mcp.Resource{
		URI:         s.rootURI(),
		Name:        "sandbox-" + s.thread,
		Title:       "The sandbox of thread " + s.thread,
		Description: fmt.Sprintf("The work folder of %s sandbox %s, as a text/uri-list of its entries; each entry is a resource too.", rec.Provider, rec.SandboxID),
		MIMEType:    uriListType,
	}, s.readResource)
}

// liveRecord returns the record of the thread's sandbox, if it has one
// that has not ended.
func (s *mcpSession) liveRecord(ctx context.Context) (record, bool) {
	recs, err := readRecords(ctx, s.st.kv)
	if err != nil {
		return record{}, false
	}
	for _, r := range recs {
		if r.ThreadID == s.thread && r.scope() == "thread" && r.endsAt().After(time.Now()) {
			return r, true
		}
	}
	return record{}, false
}

// readResource reads sandbox://THREAD/PATH from the thread's sandbox. A URI
// of another thread, or of a thread without a live sandbox, or a path that
// does not exist, is "resource not found": a read never makes a sandbox.
func (s *mcpSession) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != sandboxScheme || u.Host != s.thread || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if _, ok := s.liveRecord(ctx); !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	h, err := s.st.rt.SandboxFor(lifecycle.WithThread(ctx, s.thread))
	if err != nil {
		return nil, fmt.Errorf("the sandbox of thread %s: %w", s.thread, err)
	}
	files := h.Sandbox.FileSystem()
	rel := strings.TrimPrefix(u.Path, "/")
	if rel == "" {
		rel = "."
	}
	if !strings.HasSuffix(uri, "/") {
		data, err := files.ReadFileBytes(ctx, rel)
		switch {
		case err == nil:
			if len(data) > maxResourceBytes {
				return nil, fmt.Errorf("%s: %d bytes, more than a resource read returns (%d); read it in parts with bash (head -c, split)", uri, len(data), maxResourceBytes)
			}
			c := &mcp.ResourceContents{URI: uri, MIMEType: tools.MediaType(rel)}
			if utf8.Valid(data) && len(data) > 0 {
				c.Text = string(data)
			} else {
				c.Blob = data // base64 on the wire; non-nil, so an empty file too
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{c}}, nil
		case errors.Is(err, fs.ErrNotExist):
			return nil, mcp.ResourceNotFoundError(uri)
		case !errors.Is(err, fs.ErrInvalid):
			return nil, fmt.Errorf("read %s: %w", uri, err)
		}
		uri += "/" // a folder named without its slash
	}
	entries, err := files.ReadDir(ctx, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", uri, err)
	}
	var list strings.Builder
	for _, en := range entries {
		name := (&url.URL{Path: en.Name}).EscapedPath()
		list.WriteString(s.rootURI())
		if rel != "." {
			list.WriteString((&url.URL{Path: path.Clean(rel)}).EscapedPath() + "/")
		}
		list.WriteString(name)
		if en.IsDir {
			list.WriteString("/")
		}
		list.WriteString("\r\n") // text/uri-list's line end
	}
	if len(entries) == 0 {
		list.WriteString("# an empty folder\r\n") // a comment line: the text is never empty
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: uriListType, Text: list.String()}}}, nil
}
