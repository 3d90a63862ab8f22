// Package e2btest is an E2B-compatible test server: E2B's control plane
// (POST/GET/DELETE /sandboxes, timeout, connect, pause, refreshes, metrics,
// and the v2 create, connect and list the current SDK uses) and envd
// (GET/POST /files, the process.Process and filesystem.Filesystem Connect
// services, /health, /envs) on one httptest listener, as the real service
// answers them: the same paths, JSON field names, status codes, error bodies
// and Connect framing.
//
//	srv := e2btest.New(e2btest.Options{Backend: localsandbox.New(localsandbox.Options{Root: t.TempDir()}), APIKey: "e2b_test"})
//	defer srv.Close()
//	p, err := e2b.New("e2b_test", e2b.Options{APIURL: srv.URL(), SandboxURL: srv.URL()})
//
// Each E2B sandbox is a sandbox of the Backend adapter: commands run for real
// on it (their output streamed live as Connect envelopes, flushed per chunk)
// and files live in it. It shows E2B's paths: the default user's home —
// where relative paths resolve, commands start and Filesystem/Stat of the
// empty path points — is /home/user (HomeDir), and /tmp is the sandbox's
// own. Both are folders in the backend sandbox's work folder (home/user and
// tmp), which is the sandbox's "/"; envd never shows a backend path. The
// commands see the same tree: where the backend's commands can make a
// mount namespace (a local backend on Linux, as root or with user
// namespaces), each runs in one with those folders mounted on /home and
// /tmp; elsewhere the paths are rewritten (see Limits).
// ExactCommandPaths tells which.
//
// E2B's own JavaScript SDK is its conformance test (TestE2BSDK): point the
// SDK at it with E2B_API_URL and E2B_SANDBOX_URL set to URL().
//
// Commands run as the user the request names: "user" (uid 1000, the
// default) or "root". Where the backend's commands can make namespaces
// (ExactCommandPaths), each runs in a root of its own — the host's system
// folders read-only, the sandbox's /home and /tmp, a fresh /proc — as that
// user in a user namespace of its own (not a privilege boundary: the
// process keeps the backend's own uid on the host).
//
// What it enforces: X-API-Key on the control plane (401 with E2B's body),
// X-Access-Token on envd for secure sandboxes (401 with envd's body), the
// sandbox's end (after endAt the control plane answers 404 and envd the
// proxy's 502 "The sandbox was not found"), timeout > 0 at creation, envd's
// rejection of unknown JSON fields (invalid_argument), Connect-Timeout-Ms on
// Process/Start (the command is killed and the stream ends with
// deadline_exceeded), content types (415).
//
// envd requests are told apart from control-plane ones by the
// E2b-Sandbox-Id and E2b-Sandbox-Port headers, or by a Host of the form
// <port>-<id>.<domain>.
//
// Test hooks: Requests (every request with its headers and decoded body),
// FailNext and Inject (faults such as 429 or 503 with E2B's error body, or
// any body and headers), Kill (end a sandbox from outside), Pause,
// SetAccessToken and AccessToken, Backend, ExactCommandPaths.
//
// # Limits
//
//   - Network policies are checked as E2B checks them (IPs and CIDRs,
//     allowOut domains only with denyOut 0.0.0.0/0), recorded and passed
//     to the backend as none, all or an allow list; a backend that cannot
//     filter by domain gets no network at all for an allow list.
//   - Without namespaces every command runs as the backend's user, whatever
//     user it names.
//   - Metrics are one sample of the sizes reported, with no usage measured.
//   - The login shell of "/bin/bash -l -c CMD" is the backend's shell running
//     CMD: no profile is read. Other commands are run as a shell-quoted
//     command line.
//   - No stdin (SendInput, StreamInput), no PTY, no watchers, no signed
//     URLs, no autoPause, no snapshots: those answer unimplemented or 400.
//     Any templateID is accepted and only recorded. Pause is a test hook (and POST .../pause); a
//     paused sandbox's processes keep running on the backend.
//   - Only "/", /home and /tmp are the sandbox's: the file API and the
//     Filesystem service find nothing elsewhere (/etc, /usr) and refuse to
//     write there, while commands see the backend's own system folders.
//   - Where commands cannot get a mount namespace, the sandbox's paths in a
//     command line and environment are rewritten into the backend's, and
//     the backend's in the output back, with TMPDIR set to /tmp. A path a
//     program makes itself, or reads from or writes to a file (pwd saved
//     to a file, say), is then the backend's.
//   - File modes and owners are synthesized; Move copies and removes.
//   - Connect(pid) replays at most 1 MiB of a process's earlier output.
//   - GET /files compresses (Accept-Encoding: gzip) files up to 1 MiB only.
package e2btest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/providers/e2b/internal/connectrpc"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Options sets up a Server.
type Options struct {
	// Backend runs the sandboxes' commands and holds their files. Required.
	Backend sandbox.Provider
	// APIKey is the key X-API-Key must carry. Empty accepts any non-empty
	// key.
	APIKey string
	// Domain is sent as each sandbox's domain. Empty leaves the field out,
	// as E2B's cloud does.
	Domain string
	// MaxTimeout is the longest a sandbox may live from its start (the
	// team's limit). Default 24 h.
	MaxTimeout time.Duration
	// V1Only serves the control plane without its v2 routes (POST
	// /v2/sandboxes, POST /v2/sandboxes/{id}/connect, GET /v2/sandboxes),
	// as older deployments do: they answer 404.
	V1Only bool
}

// Server is a running test server. Its methods are safe for concurrent use.
type Server struct {
	opts   Options
	ts     *httptest.Server
	ctx    context.Context // ends at Close: every process is killed
	cancel context.CancelFunc

	mu        sync.Mutex
	sandboxes map[string]*sbx
	requests  []Request
	faults    []*Fault
	pid       uint32

	bg sync.WaitGroup // processes and backend destroys that outlive a request
}

// Request is one request the server received, for tests to check.
type Request struct {
	Method string
	// Path is the URL path; Query its query.
	Path  string
	Query url.Values
	// Header is the request's header as received.
	Header http.Header
	// Body is the JSON body decoded into any (map[string]any, ...); for a
	// Connect stream, the message of its request envelope. Nil for other
	// bodies.
	Body any
	// Raw is the body as sent.
	Raw []byte
	// Envd is set for requests routed to a sandbox's envd; SandboxID names
	// the sandbox.
	Envd      bool
	SandboxID string
}

// Fault makes the next Times requests whose path starts with PathPrefix
// (and whose method is Method, when set) fail with Status and Body (default
// E2B's {"code": Status, "message": "e2btest: injected fault"}) and Header.
type Fault struct {
	PathPrefix string
	Method     string
	Status     int
	Times      int
	Body       string
	Header     http.Header
}

// New starts a server.
func New(opts Options) *Server {
	if opts.MaxTimeout <= 0 {
		opts.MaxTimeout = 24 * time.Hour
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{opts: opts, ctx: ctx, cancel: cancel, sandboxes: map[string]*sbx{}}
	s.ts = httptest.NewServer(s)
	return s
}

// URL is the base URL of both the control plane and envd.
func (s *Server) URL() string { return s.ts.URL }

// Client returns an HTTP client for the server.
func (s *Server) Client() *http.Client { return s.ts.Client() }

// Close kills every process and sandbox and stops the server.
func (s *Server) Close() {
	s.cancel()
	s.mu.Lock()
	var all []*sbx
	for id, sb := range s.sandboxes {
		all = append(all, sb)
		delete(s.sandboxes, id)
		s.endLocked(sb)
	}
	s.mu.Unlock()
	for _, sb := range all {
		s.destroyBackend(sb)
	}
	s.ts.CloseClientConnections()
	s.ts.Close()
	s.bg.Wait()
}

// Requests returns the requests received so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ResetRequests forgets the requests received so far.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	s.requests = nil
	s.mu.Unlock()
}

// FailNext makes the next times requests whose path starts with pathPrefix
// fail with status and an E2B error body.
func (s *Server) FailNext(pathPrefix string, status, times int) {
	s.Inject(Fault{PathPrefix: pathPrefix, Status: status, Times: times})
}

// Inject adds a fault.
func (s *Server) Inject(f Fault) {
	if f.Times <= 0 {
		return
	}
	s.mu.Lock()
	s.faults = append(s.faults, &f)
	s.mu.Unlock()
}

// Kill ends a sandbox at once, as if killed from elsewhere (or expired).
// It reports whether the sandbox existed.
func (s *Server) Kill(id string) bool {
	s.mu.Lock()
	sb := s.liveLocked(id)
	if sb != nil {
		delete(s.sandboxes, id)
		s.endLocked(sb)
	}
	s.mu.Unlock()
	if sb != nil {
		s.destroyBackend(sb)
	}
	return sb != nil
}

// Pause pauses a running sandbox, as POST /sandboxes/{id}/pause does: its
// envd answers 502 until it is resumed by POST /sandboxes/{id}/connect.
func (s *Server) Pause(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveLocked(id)
	if sb == nil {
		return fmt.Errorf("e2btest: no sandbox %q", id)
	}
	if sb.state == statePaused {
		return fmt.Errorf("e2btest: sandbox %q is already paused", id)
	}
	s.pauseLocked(sb)
	return nil
}

// SetAccessToken replaces the envd access token a sandbox requires.
func (s *Server) SetAccessToken(id, token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveLocked(id)
	if sb == nil {
		return fmt.Errorf("e2btest: no sandbox %q", id)
	}
	sb.token, sb.secure = token, true
	return nil
}

// AccessToken returns the envd access token a live sandbox requires (empty
// when it was not made secure).
func (s *Server) AccessToken(id string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveLocked(id)
	if sb == nil {
		return "", false
	}
	return sb.token, true
}

// ExactCommandPaths reports whether the commands of a live sandbox see its
// files at exactly the paths envd shows (each runs in a mount namespace of
// its own), rather than through rewritten command lines and output.
func (s *Server) ExactCommandPaths(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveLocked(id)
	return sb != nil && sb.tree.view != viewRewrite
}

// Backend returns the backend sandbox of a live E2B sandbox. Its paths are
// the backend's: the sandbox's /home/user is home/user in its work folder.
func (s *Server) Backend(id string) (sandbox.Sandbox, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sb := s.liveLocked(id)
	if sb == nil {
		return nil, false
	}
	return sb.backend, true
}

// maxBody bounds a request body (a file upload).
const maxBody = 1 << 30

// ServeHTTP routes a request to envd or the control plane.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))
	id, port, envd := envdTarget(r)
	s.record(r, raw, envd, id)
	if s.fault(w, r) {
		return
	}
	if envd {
		s.serveEnvd(w, r, id, port, raw)
		return
	}
	s.serveAPI(w, r, raw)
}

var hostPattern = regexp.MustCompile(`^(\d+)-([a-z0-9]+)\.`)

// envdTarget tells whether r is for a sandbox's envd, and which.
func envdTarget(r *http.Request) (id string, port int, ok bool) {
	if id = r.Header.Get("E2b-Sandbox-Id"); id != "" {
		port, _ = strconv.Atoi(r.Header.Get("E2b-Sandbox-Port"))
		return id, port, true
	}
	if m := hostPattern.FindStringSubmatch(r.Host); m != nil {
		port, _ = strconv.Atoi(m[1])
		return m[2], port, true
	}
	return "", 0, false
}

func (s *Server) record(r *http.Request, raw []byte, envd bool, id string) {
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Raw: raw, Envd: envd, SandboxID: id}
	ct := r.Header.Get("Content-Type")
	var v any
	switch {
	case strings.HasPrefix(ct, connectrpc.ContentTypeStream):
		if env, err := connectrpc.ReadEnvelope(bytes.NewReader(raw), 0); err == nil && json.Unmarshal(env.Data, &v) == nil {
			req.Body = v
		}
	case strings.HasPrefix(ct, "application/json") || (ct == "" && len(raw) > 0 && raw[0] == '{'):
		if json.Unmarshal(raw, &v) == nil {
			req.Body = v
		}
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	s.mu.Unlock()
}

// fault answers r with an injected fault, if one matches.
func (s *Server) fault(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	var f *Fault
	for i, cand := range s.faults {
		if strings.HasPrefix(r.URL.Path, cand.PathPrefix) && (cand.Method == "" || cand.Method == r.Method) {
			f = cand
			if f.Times--; f.Times <= 0 {
				s.faults = append(s.faults[:i], s.faults[i+1:]...)
			}
			break
		}
	}
	s.mu.Unlock()
	if f == nil {
		return false
	}
	for k, vs := range f.Header {
		w.Header()[k] = vs
	}
	body := f.Body
	if body == "" {
		b, _ := json.Marshal(apiError{Code: f.Status, Message: "e2btest: injected fault"})
		body = string(b)
	}
	if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(f.Status)
	_, _ = io.WriteString(w, body)
	return true
}

// apiError is E2B's error body.
type apiError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func writeError(w http.ResponseWriter, status int, format string, args ...any) {
	writeJSON(w, status, apiError{Code: status, Message: fmt.Sprintf(format, args...)})
}

// randomID returns n characters of [a-z0-9].
func randomID(n int) string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
