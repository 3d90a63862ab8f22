package e2b

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/providers/e2b/internal/connectrpc"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Sandbox is one E2B sandbox.
type Sandbox struct {
	p      *Provider
	id     string
	token  string   // envdAccessToken; empty when not secure
	domain string   // for GetURL and envd hosts
	envd   *url.URL // envd's base URL
	files  *files

	wdMu sync.Mutex
	wd   string // discovered work folder
}

var _ sandbox.Sandbox = (*Sandbox)(nil)

// ID returns E2B's sandbox id.
func (s *Sandbox) ID() string { return s.id }

// Provider returns "e2b".
func (s *Sandbox) Provider() string { return Name }

// FileSystem returns the sandbox's files, through envd.
func (s *Sandbox) FileSystem() sandbox.FileSystem { return s.files }

// Domain returns the domain of the sandbox's hosts.
func (s *Sandbox) Domain() string { return s.domain }

// GetInfo reads GET /sandboxes/{id}.
func (s *Sandbox) GetInfo(ctx context.Context) (sandbox.SandboxInfo, error) {
	d, err := s.p.detail(ctx, s.id)
	if err != nil {
		return sandbox.SandboxInfo{}, err
	}
	wd, err := s.workdir(ctx)
	if err != nil {
		if d.State != "paused" {
			return sandbox.SandboxInfo{}, err
		}
		wd = DefaultWorkdir // envd sleeps with the sandbox
	}
	status := d.State
	if status == "" || status == "running" {
		status = sandbox.StatusRunning
	}
	tmpl := d.Alias
	if tmpl == "" {
		tmpl = d.TemplateID
	}
	return sandbox.SandboxInfo{
		ID:        s.id,
		Provider:  Name,
		Status:    status,
		Workdir:   wd,
		CreatedAt: d.StartedAt,
		EndAt:     d.EndAt,
		Template:  tmpl,
		Metadata:  d.Metadata,
	}, nil
}

// SetTimeout replaces the sandbox's end with now + d: POST
// /sandboxes/{id}/timeout with d in whole seconds (rounded up, at least 1).
// E2B clamps it to the team's longest sandbox life from its start.
func (s *Sandbox) SetTimeout(ctx context.Context, d time.Duration) error {
	c := s.p.apiCall(http.MethodPost, s.id, jsonBody(map[string]int{"timeout": seconds(d)}), true, "sandboxes", s.id, "timeout")
	resp, err := s.p.do(ctx, c)
	if apiStatus(err) == http.StatusNotFound {
		return gone(s.id, err)
	}
	if err != nil {
		return err
	}
	return readJSON(resp, c, nil)
}

// Destroy kills the sandbox: DELETE /sandboxes/{id}. One already gone (404)
// is fine.
func (s *Sandbox) Destroy(ctx context.Context) error {
	c := s.p.apiCall(http.MethodDelete, s.id, nil, true, "sandboxes", s.id)
	resp, err := s.p.do(ctx, c)
	if apiStatus(err) == http.StatusNotFound {
		return nil
	}
	if err != nil {
		return err
	}
	return readJSON(resp, c, nil)
}

// GetURL returns protocol://<port>-<id>.<domain>, where E2B's proxy reaches
// port inside the sandbox (any port; a server must listen on it, on
// 0.0.0.0). It checks that the sandbox is still there.
func (s *Sandbox) GetURL(ctx context.Context, port int, protocol string) (string, error) {
	if port <= 0 || port > 65535 {
		return "", fmt.Errorf("e2b: port %d out of range", port)
	}
	if protocol == "" {
		protocol = "http"
		if e2bDomain(s.domain) {
			protocol = "https" // E2B serves ports over TLS only
		}
	}
	if protocol != "http" && protocol != "https" {
		return "", fmt.Errorf("e2b: protocol %q: want http or https", protocol)
	}
	if _, err := s.p.detail(ctx, s.id); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s://%d-%s.%s", protocol, port, s.id, s.domain), nil
}

// e2bDomain reports whether domain is E2B's cloud (e2b.app, e2b.dev).
func e2bDomain(domain string) bool {
	for _, d := range []string{"e2b.app", "e2b.dev"} {
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return true
		}
	}
	return false
}

// workdir returns Options.Workdir, or asks envd once which folder commands
// start in: Filesystem/Stat of the empty path resolves to it.
func (s *Sandbox) workdir(ctx context.Context) (string, error) {
	if s.p.opts.Workdir != "" {
		return path.Clean(s.p.opts.Workdir), nil
	}
	s.wdMu.Lock()
	defer s.wdMu.Unlock()
	if s.wd != "" {
		return s.wd, nil
	}
	var resp statResponse
	if err := s.rpc(ctx, "/filesystem.Filesystem/Stat", map[string]string{"path": ""}, &resp, true); err != nil {
		return "", fmt.Errorf("e2b: finding the work folder: %w", err)
	}
	s.wd = DefaultWorkdir
	if p := resp.Entry.Path; path.IsAbs(p) {
		s.wd = path.Clean(p)
	}
	return s.wd, nil
}

// resolve returns the absolute path inside the sandbox that p names.
func (s *Sandbox) resolve(ctx context.Context, p string) (string, error) {
	if path.IsAbs(p) {
		return path.Clean(p), nil
	}
	wd, err := s.workdir(ctx)
	if err != nil {
		return "", err
	}
	return sandbox.ResolvePath(wd, p), nil
}

// envdHeader is what every envd request carries.
func (s *Sandbox) envdHeader() http.Header {
	h := http.Header{}
	h.Set("E2b-Sandbox-Id", s.id)
	h.Set("E2b-Sandbox-Port", strconv.Itoa(EnvdPort))
	if s.token != "" {
		h.Set("X-Access-Token", s.token)
	}
	return h
}

// envdCall builds a call to envd at path (a Connect procedure or /files).
func (s *Sandbox) envdCall(method, p string, query url.Values, body []byte, idempotent bool) call {
	u := s.envd.JoinPath(p)
	u.RawQuery = query.Encode()
	h := s.envdHeader()
	if s.p.opts.User != "" && isRPC(p) {
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(s.p.opts.User+":")))
	}
	return call{method: method, url: u, path: p, header: h, body: body, idempotent: idempotent, envd: true, sandboxID: s.id}
}

// rpc makes a unary Connect call with JSON.
func (s *Sandbox) rpc(ctx context.Context, procedure string, req, resp any, idempotent bool) error {
	c := s.envdCall(http.MethodPost, procedure, nil, jsonBody(req), idempotent)
	c.header.Set("Content-Type", connectrpc.ContentTypeUnary)
	c.header.Set(connectrpc.HeaderProtocolVersion, "1")
	c.header.Set("Accept", connectrpc.ContentTypeUnary)
	r, err := s.p.do(ctx, c)
	if err != nil {
		return err
	}
	return readJSON(r, c, resp)
}

// alive checks, after a broken stream, whether the sandbox is still there:
// ErrGone if not, nil if it is, or the error of asking.
func (s *Sandbox) alive(ctx context.Context) error {
	d, err := s.p.detail(ctx, s.id)
	if err != nil {
		return err
	}
	if d.State == "paused" {
		return gone(s.id, fmt.Errorf("the sandbox was paused"))
	}
	return nil
}

// statResponse is Filesystem/Stat's answer.
type statResponse struct {
	Entry entryInfo `json:"entry"`
}

// entryInfo is envd's EntryInfo.
type entryInfo struct {
	Name          string      `json:"name"`
	Type          fileType    `json:"type"`
	Path          string      `json:"path"`
	Size          int64String `json:"size"`
	Mode          uint32      `json:"mode"`
	Permissions   string      `json:"permissions"`
	Owner         string      `json:"owner"`
	Group         string      `json:"group"`
	ModifiedTime  string      `json:"modifiedTime"`
	SymlinkTarget string      `json:"symlinkTarget"`
}

// fileType is envd's FileType enum: its name, or its number.
type fileType string

const (
	typeFile    fileType = "FILE_TYPE_FILE"
	typeDir     fileType = "FILE_TYPE_DIRECTORY"
	typeSymlink fileType = "FILE_TYPE_SYMLINK"
)

func (t *fileType) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*t = fileType(s)
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("file type %s: %w", b, err)
	}
	switch n {
	case 1:
		*t = typeFile
	case 2:
		*t = typeDir
	case 3:
		*t = typeSymlink
	default:
		*t = "FILE_TYPE_UNSPECIFIED"
	}
	return nil
}

// int64String is a protojson int64: a JSON string, or a number.
type int64String int64

func (n *int64String) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return fmt.Errorf("int64 %q: %w", s, err)
		}
		*n = int64String(v)
		return nil
	}
	var v int64
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("int64 %s: %w", b, err)
	}
	*n = int64String(v)
	return nil
}

// modTime parses an RFC 3339 modifiedTime; zero when absent or bad.
func (e entryInfo) modTime() time.Time {
	t, err := time.Parse(time.RFC3339Nano, e.ModifiedTime)
	if err != nil {
		return time.Time{}
	}
	return t
}
