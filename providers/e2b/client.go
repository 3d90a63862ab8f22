package e2b

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/providers/e2b/internal/connectrpc"
	"github.com/agentenkit/agentenkit/sandbox"
)

// APIError is a failed call to E2B's control plane or to envd: what was
// asked, the HTTP status and what E2B answered. Every error of this package
// that came from an answer wraps one; get it with errors.As.
type APIError struct {
	// Method and Path name the call: "POST" "/sandboxes", or
	// "POST" "/filesystem.Filesystem/Stat" for envd.
	Method string
	Path   string
	// StatusCode is the HTTP status. For an error that ended a Connect
	// stream (whose HTTP status was 200) it is the status Connect maps the
	// code to.
	StatusCode int
	// Code is the Connect code ("not_found") of an envd error, or E2B's
	// error_code ("sandbox_capacity_unavailable") when it sends one.
	Code string
	// Message is E2B's or envd's message.
	Message string
	// SandboxID is the sandbox the call was about, if any.
	SandboxID string
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "e2b: %s %s: %d", e.Method, e.Path, e.StatusCode)
	if t := http.StatusText(e.StatusCode); t != "" {
		b.WriteString(" " + t)
	}
	if e.Code != "" {
		b.WriteString(" (" + e.Code + ")")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// gone wraps err (an *APIError or a description) so that it matches
// sandbox.ErrGone.
func gone(id string, err error) error {
	return fmt.Errorf("e2b sandbox %q: %w: %w", id, sandbox.ErrGone, err)
}

// isGoneAnswer reports whether a response from envd's side is the proxy's
// "The sandbox was not found": killed, expired or paused.
func isGoneAnswer(status int, msg string) bool {
	return status == http.StatusBadGateway && strings.Contains(strings.ToLower(msg), "sandbox was not found")
}

// call is one HTTP request to E2B.
type call struct {
	method string
	url    *url.URL
	path   string // for errors: the API path, without base or query
	header http.Header
	body   []byte
	// idempotent calls are retried on 429, 5xx and transport errors.
	idempotent bool
	// envd calls: a 502 "sandbox was not found" is ErrGone; Connect error
	// bodies carry string codes.
	envd      bool
	sandboxID string
}

const (
	maxErrorBody  = 64 << 10
	maxRetryAfter = 30 * time.Second
)

// do runs c, retrying an idempotent call with backoff. It returns a 2xx
// response whose body the caller closes, or an error: an *APIError (wrapped
// in ErrGone for a gone sandbox) for an answer, or a transport error.
func (p *Provider) do(ctx context.Context, c call) (*http.Response, error) {
	attempts := 1
	if c.idempotent {
		attempts = p.opts.Attempts
	}
	for try := 0; ; try++ {
		resp, wait, err := p.once(ctx, c)
		if err == nil {
			return resp, nil
		}
		if wait < 0 || try+1 >= attempts || ctx.Err() != nil {
			return nil, err
		}
		if wait == 0 {
			wait = p.backoff(try)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, err
		case <-t.C:
		}
	}
}

// backoff is RetryBackoff × 2^try plus up to half of that again.
func (p *Provider) backoff(try int) time.Duration {
	d := p.opts.RetryBackoff << min(try, 16)
	return d + time.Duration(rand.Int64N(int64(d)/2+1))
}

// once makes one attempt. wait says whether to retry: -1 never, 0 after the
// usual backoff, more after that long (Retry-After).
func (p *Provider) once(ctx context.Context, c call) (*http.Response, time.Duration, error) {
	var body io.Reader
	if c.body != nil {
		body = bytes.NewReader(c.body)
	}
	req, err := http.NewRequestWithContext(ctx, c.method, c.url.String(), body)
	if err != nil {
		return nil, -1, fmt.Errorf("e2b: %s %s: %w", c.method, c.path, err)
	}
	for k, vs := range c.header {
		req.Header[k] = vs
	}
	req.Header.Set("User-Agent", "agentenkit-e2b/1")
	resp, err := p.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, -1, fmt.Errorf("e2b: %s %s: %w", c.method, c.path, ctx.Err())
		}
		return nil, 0, fmt.Errorf("e2b: %s %s: %w", c.method, c.path, err)
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, 0, nil
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	ae := parseError(c, resp.StatusCode, raw)
	if c.envd && isGoneAnswer(resp.StatusCode, ae.Message) {
		return nil, -1, gone(c.sandboxID, ae)
	}
	if !retryable(resp.StatusCode) {
		return nil, -1, ae
	}
	return nil, retryAfter(resp.Header.Get("Retry-After")), ae
}

// retryable says which answers are worth another try: 429 and the 5xx that
// may pass (not 501, and not 507: insufficient storage stays until files
// are removed).
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || (status >= 500 && status != http.StatusNotImplemented && status != http.StatusInsufficientStorage)
}

// retryAfter reads a Retry-After header: seconds or an HTTP date. Zero when
// absent or unreadable.
func retryAfter(h string) time.Duration {
	if h == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.Atoi(strings.TrimSpace(h)); err == nil {
		d = time.Duration(n) * time.Second
	} else if t, err := http.ParseTime(h); err == nil {
		d = time.Until(t)
	}
	if d <= 0 {
		return 0
	}
	return min(d, maxRetryAfter)
}

// parseError reads E2B's error body: {"code": <status>, "message": ...} from
// the control plane and envd's HTTP API, {"code": "not_found", ...} from
// Connect, or anything else (a proxy's text).
func parseError(c call, status int, raw []byte) *APIError {
	ae := &APIError{Method: c.method, Path: c.path, StatusCode: status, SandboxID: c.sandboxID}
	var body struct {
		Code      json.RawMessage `json:"code"`
		Message   string          `json:"message"`
		ErrorCode string          `json:"error_code"`
	}
	if err := json.Unmarshal(raw, &body); err == nil {
		ae.Message = body.Message
		var code string
		if json.Unmarshal(body.Code, &code) == nil {
			ae.Code = code
		} else if body.ErrorCode != "" {
			ae.Code = body.ErrorCode
		}
	} else {
		ae.Message = strings.TrimSpace(string(raw))
		if len(ae.Message) > 300 {
			ae.Message = ae.Message[:300] + "…"
		}
	}
	if ae.Code == "" && c.envd && isRPC(c.path) {
		ae.Code = connectrpc.HTTPToCode(status)
	}
	return ae
}

// isRPC reports whether an envd path is a Connect procedure.
func isRPC(path string) bool {
	return strings.HasPrefix(path, "/process.") || strings.HasPrefix(path, "/filesystem.")
}

// apiStatus returns the HTTP status of the *APIError in err, or 0.
func apiStatus(err error) int {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.StatusCode
	}
	return 0
}

// apiCode returns the Connect code of the *APIError in err, or "".
func apiCode(err error) string {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Code
	}
	return ""
}

// readJSON decodes a response body into v and closes it.
func readJSON(resp *http.Response, c call, v any) error {
	defer resp.Body.Close()
	if v == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		return fmt.Errorf("e2b: %s %s: reading the answer: %w", c.method, c.path, err)
	}
	return nil
}
