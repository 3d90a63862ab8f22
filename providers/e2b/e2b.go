package e2b

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Name is the adapter's name.
const Name = "e2b"

const (
	// DefaultDomain is E2B's cloud domain.
	DefaultDomain = "e2b.app"
	// DefaultTemplate is the template of a sandbox made without one.
	DefaultTemplate = "base"
	// DefaultLifetime is how long a sandbox lives when
	// CreateSandboxOptions.Timeout is zero (the SDKs' default).
	DefaultLifetime = 300 * time.Second
	// DefaultWorkdir is the work folder when envd does not say (the home of
	// E2B's default user).
	DefaultWorkdir = "/home/user"
	// EnvdPort is the port envd listens on inside every sandbox.
	EnvdPort = 49983
	// DefaultAttempts is how often an idempotent call is tried.
	DefaultAttempts = 3
	// DefaultRetryBackoff is the first wait before a retry; it doubles.
	DefaultRetryBackoff = 100 * time.Millisecond
)

// Options tunes the E2B adapter. The zero value talks to E2B's cloud.
type Options struct {
	// Domain is E2B's domain: the API is at api.<Domain> and sandbox ports
	// at <port>-<id>.<Domain>. Default DefaultDomain. A sandbox whose
	// answer names its own domain uses that one.
	Domain string
	// APIURL is the control plane's base URL. Default https://api.<Domain>.
	APIURL string
	// SandboxURL, when set, is one fixed base URL of envd for all
	// sandboxes; requests are routed by the E2b-Sandbox-Id and
	// E2b-Sandbox-Port headers (sent always). Default
	// https://49983-<id>.<domain>.
	SandboxURL string
	// Template is the template of new sandboxes unless
	// CreateSandboxOptions.Template names one. Default DefaultTemplate.
	Template string
	// Workdir is the work folder inside the sandbox: commands start there
	// and relative paths resolve against it. Empty: the folder envd starts
	// commands in (the template's workdir or the user's home), asked once
	// per sandbox handle; DefaultWorkdir if envd does not say.
	Workdir string
	// User runs commands and owns files: sent to envd as
	// Authorization: Basic (Connect calls) and ?username= (files). Empty:
	// the template's default user.
	User string
	// Lifetime is how long a new sandbox lives when
	// CreateSandboxOptions.Timeout is zero, and the TTL asked for when
	// Connect resumes a paused sandbox. Default DefaultLifetime.
	Lifetime time.Duration
	// HTTPClient makes every request. Default: a client on
	// http.DefaultTransport with no overall timeout (command streams are
	// long; contexts bound calls).
	HTTPClient *http.Client
	// Attempts is how often an idempotent call (GET, DELETE, the timeout
	// POST, file reads and writes, Stat, ListDir, MakeDir, Remove,
	// SendSignal) is tried on 429, 5xx or a transport error. Creating a
	// sandbox and starting a command are tried once. Default
	// DefaultAttempts.
	Attempts int
	// RetryBackoff is the first wait between tries, doubled each time, with
	// jitter; a Retry-After header wins. Default DefaultRetryBackoff.
	RetryBackoff time.Duration
}

// Provider makes E2B sandboxes. It is safe for concurrent use.
type Provider struct {
	v1         atomic.Bool // the control plane has no v2 create/connect
	key        string
	opts       Options
	api        *url.URL
	sandboxURL *url.URL // nil: per-sandbox hosts
	hc         *http.Client
}

var _ sandbox.Provider = (*Provider)(nil)

var defaultClient = &http.Client{}

// New returns a provider that uses apiKey for E2B's control plane. It makes
// no request. A missing key, a bad URL or a relative Workdir is its error,
// and no provider.
func New(apiKey string, opts Options) (*Provider, error) {
	if strings.TrimSpace(apiKey) == "" {
		return nil, errors.New("e2b: no API key: pass one to e2b.New (E2B_API_KEY, from the E2B dashboard)")
	}
	if opts.Domain == "" {
		opts.Domain = DefaultDomain
	}
	if opts.APIURL == "" {
		opts.APIURL = "https://api." + opts.Domain
	}
	if opts.Template == "" {
		opts.Template = DefaultTemplate
	}
	if opts.Lifetime <= 0 {
		opts.Lifetime = DefaultLifetime
	}
	if opts.Attempts <= 0 {
		opts.Attempts = DefaultAttempts
	}
	if opts.RetryBackoff <= 0 {
		opts.RetryBackoff = DefaultRetryBackoff
	}
	p := &Provider{key: apiKey, opts: opts, hc: opts.HTTPClient}
	if p.hc == nil {
		p.hc = defaultClient
	}
	var err error
	if p.api, err = baseURL(opts.APIURL); err != nil {
		return nil, fmt.Errorf("e2b: APIURL: %w", err)
	}
	if opts.SandboxURL != "" {
		if p.sandboxURL, err = baseURL(opts.SandboxURL); err != nil {
			return nil, fmt.Errorf("e2b: SandboxURL: %w", err)
		}
	}
	if opts.Workdir != "" && !strings.HasPrefix(opts.Workdir, "/") {
		return nil, fmt.Errorf("e2b: Workdir %q is not absolute", opts.Workdir)
	}
	return p, nil
}

func baseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) URL", s)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// Name returns "e2b".
func (p *Provider) Name() string { return Name }

// newSandbox is the body of POST /v2/sandboxes and POST /sandboxes (v1,
// which alone reads secure: v2 sandboxes are always secure).
type newSandbox struct {
	TemplateID          string            `json:"templateID"`
	Timeout             int               `json:"timeout"`
	Metadata            map[string]string `json:"metadata,omitempty"`
	EnvVars             map[string]string `json:"envVars,omitempty"`
	Secure              bool              `json:"secure,omitempty"`
	AllowInternetAccess bool              `json:"allow_internet_access"`
	Network             *networkConfig    `json:"network,omitempty"`
}

// networkConfig is E2B's egress policy: allowOut wins over denyOut.
type networkConfig struct {
	AllowOut []string `json:"allowOut,omitempty"`
	DenyOut  []string `json:"denyOut,omitempty"`
}

// allTraffic is E2B's "every IPv4 address" (its SDKs' ALL_TRAFFIC).
const allTraffic = "0.0.0.0/0"

// sandboxJSON is E2B's Sandbox (create, connect) and the common part of
// SandboxDetail (get).
type sandboxJSON struct {
	TemplateID      string            `json:"templateID"`
	Alias           string            `json:"alias"`
	SandboxID       string            `json:"sandboxID"`
	ClientID        string            `json:"clientID"`
	EnvdVersion     string            `json:"envdVersion"`
	EnvdAccessToken string            `json:"envdAccessToken"`
	Domain          string            `json:"domain"`
	StartedAt       time.Time         `json:"startedAt"`
	EndAt           time.Time         `json:"endAt"`
	State           string            `json:"state"`
	Metadata        map[string]string `json:"metadata"`
}

// Create asks E2B for a sandbox of the template: POST /v2/sandboxes, or
// POST /sandboxes (v1) on a control plane without v2.
func (p *Provider) Create(ctx context.Context, opts sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	body, err := p.createBody(opts)
	if err != nil {
		return nil, err
	}
	var resp *http.Response
	c := p.apiCall(http.MethodPost, "", jsonBody(body), false, "v2", "sandboxes")
	if !p.v1.Load() {
		resp, err = p.do(ctx, c)
		if noRoute(err) {
			p.v1.Store(true)
		}
	}
	if p.v1.Load() {
		body.Secure = true
		c = p.apiCall(http.MethodPost, "", jsonBody(body), false, "sandboxes")
		resp, err = p.do(ctx, c)
	}
	if err != nil {
		return nil, err
	}
	var sb sandboxJSON
	if err := readJSON(resp, c, &sb); err != nil {
		return nil, err
	}
	if !idPattern.MatchString(sb.SandboxID) {
		return nil, fmt.Errorf("e2b: create: the answer has no usable sandboxID (%q)", sb.SandboxID)
	}
	return p.open(sb), nil
}

func (p *Provider) createBody(opts sandbox.CreateSandboxOptions) (*newSandbox, error) {
	for k := range opts.Extra {
		return nil, fmt.Errorf("e2b: unknown Extra option %q (the e2b adapter takes none)", k)
	}
	if opts.Image != "" {
		return nil, sandbox.Unsupported(Name, "images", "e2b makes sandboxes from a Template; the docker adapter takes images")
	}
	if opts.Resources != (sandbox.Resources{}) {
		return nil, sandbox.Unsupported(Name, "resource limits", "E2B fixes CPU, memory and disk in the template; the docker adapter caps them per sandbox")
	}
	if opts.RestoreFrom != "" {
		return nil, sandbox.Unsupported(Name, "restoring a work folder", "the wasm adapter restores work folders")
	}
	for _, port := range opts.Ports {
		if port <= 0 || port > 65535 {
			return nil, fmt.Errorf("e2b: port %d out of range", port)
		}
	}
	life := opts.Timeout
	if life <= 0 {
		life = p.opts.Lifetime
	}
	body := &newSandbox{
		TemplateID: opts.Template,
		Timeout:    seconds(life),
		Metadata:   opts.Metadata,
		EnvVars:    opts.Envs,
	}
	if body.TemplateID == "" {
		body.TemplateID = p.opts.Template
	}
	switch opts.Network.Mode {
	case sandbox.NetworkNone:
	case sandbox.NetworkAll:
		body.AllowInternetAccess = true
	case sandbox.NetworkAllowList:
		var allow []string
		for _, d := range opts.Network.Allow {
			d = strings.TrimSpace(d)
			if d == "" || strings.ContainsAny(d, " /\t\n") {
				return nil, fmt.Errorf("e2b: network allow list: %q is not a domain", d)
			}
			allow = append(allow, d)
		}
		if len(allow) > 0 {
			// Internet access off (so nothing is reachable should the
			// network object be ignored), everything denied, the listed
			// domains allowed: allowOut wins over denyOut.
			body.Network = &networkConfig{AllowOut: allow, DenyOut: []string{allTraffic}}
		}
	default:
		return nil, fmt.Errorf("e2b: unknown network mode %q", opts.Network.Mode)
	}
	return body, nil
}

// seconds rounds d up to whole seconds, at least 1.
func seconds(d time.Duration) int {
	s := math.Ceil(d.Seconds())
	if s > math.MaxInt32 {
		return math.MaxInt32
	}
	return max(1, int(s))
}

// idPattern is an E2B sandbox id; Connect takes nothing else.
var idPattern = regexp.MustCompile(`^[a-z0-9]+$`)

// Connect finds a sandbox by id: GET /sandboxes/{id}; a paused one is
// resumed (POST /v2/sandboxes/{id}/connect, or the v1 route on a control
// plane without v2). Unknown, killed or expired is ErrGone.
func (p *Provider) Connect(ctx context.Context, id string) (sandbox.Sandbox, error) {
	if !idPattern.MatchString(id) {
		return nil, gone(id, fmt.Errorf("not an E2B sandbox id"))
	}
	sb, err := p.detail(ctx, id)
	if err != nil {
		return nil, err
	}
	if sb.State == "paused" {
		body := jsonBody(map[string]int{"timeout": seconds(p.opts.Lifetime)})
		var resp *http.Response
		c := p.apiCall(http.MethodPost, id, body, false, "v2", "sandboxes", id, "connect")
		if !p.v1.Load() {
			resp, err = p.do(ctx, c)
			if noRoute(err) {
				p.v1.Store(true)
			}
		}
		if p.v1.Load() {
			c = p.apiCall(http.MethodPost, id, body, false, "sandboxes", id, "connect")
			resp, err = p.do(ctx, c)
		}
		if apiStatus(err) == http.StatusNotFound {
			return nil, gone(id, err)
		}
		if err != nil {
			return nil, err
		}
		var resumed sandboxJSON
		if err := readJSON(resp, c, &resumed); err != nil {
			return nil, err
		}
		if resumed.SandboxID == "" {
			resumed.SandboxID = id
		}
		return p.open(resumed), nil
	}
	return p.open(sb), nil
}

// noRoute reports whether err says the control plane has no such route:
// 405 or 501, or a 404 that does not name a sandbox (one that does says
// "doesn't exist").
func noRoute(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	switch ae.StatusCode {
	case http.StatusMethodNotAllowed, http.StatusNotImplemented:
		return true
	case http.StatusNotFound:
		return !strings.Contains(ae.Message, "doesn't exist") && !strings.Contains(strings.ToLower(ae.Message), "template")
	}
	return false
}

// detail is GET /sandboxes/{id}; 404 is ErrGone.
func (p *Provider) detail(ctx context.Context, id string) (sandboxJSON, error) {
	var sb sandboxJSON
	c := p.apiCall(http.MethodGet, id, nil, true, "sandboxes", id)
	resp, err := p.do(ctx, c)
	if apiStatus(err) == http.StatusNotFound {
		return sb, gone(id, err)
	}
	if err != nil {
		return sb, err
	}
	if err := readJSON(resp, c, &sb); err != nil {
		return sb, err
	}
	if sb.SandboxID == "" {
		sb.SandboxID = id
	}
	return sb, nil
}

// apiCall builds a control-plane call to the path made of elems.
func (p *Provider) apiCall(method, id string, body []byte, idempotent bool, elems ...string) call {
	h := http.Header{}
	h.Set("X-API-Key", p.key)
	h.Set("Accept", "application/json")
	if body != nil {
		h.Set("Content-Type", "application/json")
	}
	path := "/" + strings.Join(elems, "/")
	return call{
		method:     method,
		url:        p.api.JoinPath(elems...),
		path:       path,
		header:     h,
		body:       body,
		idempotent: idempotent,
		sandboxID:  id,
	}
}

// open makes a handle for a sandbox E2B described.
func (p *Provider) open(sb sandboxJSON) *Sandbox {
	domain := sb.Domain
	if domain == "" {
		domain = p.opts.Domain
	}
	s := &Sandbox{p: p, id: sb.SandboxID, token: sb.EnvdAccessToken, domain: domain}
	if p.sandboxURL != nil {
		s.envd = p.sandboxURL
	} else {
		s.envd = &url.URL{Scheme: "https", Host: fmt.Sprintf("%d-%s.%s", EnvdPort, s.id, domain)}
	}
	s.files = &files{s: s}
	return s
}

// jsonBody marshals v for a request body.
func jsonBody(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
