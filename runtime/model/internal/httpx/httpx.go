// Package httpx sends the model adapters' requests, retrying the ones a
// provider refused for load (429, Anthropic's 529 overloaded, 5xx) with
// exponential backoff that honours retry-after.
package httpx

import (
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/runtime/model"
)

// Retry says how requests are retried. The zero value is the default.
type Retry struct {
	// MaxRetries is how many times a request is sent again after the
	// first; default 2, negative for none.
	MaxRetries int
	// BaseDelay is the first backoff; each retry doubles it, up to
	// MaxDelay, less up to a quarter of jitter. Defaults 500 ms and 8 s.
	BaseDelay time.Duration
	MaxDelay  time.Duration
	// MaxRetryAfter caps the wait a provider may ask for (retry-after,
	// retry-after-ms); a longer one is replaced by the backoff. Default
	// 60 s.
	MaxRetryAfter time.Duration
	// Sleep waits d or until ctx ends; default a timer. Tests set it to
	// see the delays.
	Sleep func(ctx context.Context, d time.Duration) error
}

func (r Retry) withDefaults() Retry {
	if r.MaxRetries == 0 {
		r.MaxRetries = 2
	}
	if r.BaseDelay <= 0 {
		r.BaseDelay = 500 * time.Millisecond
	}
	if r.MaxDelay <= 0 {
		r.MaxDelay = 8 * time.Second
	}
	if r.MaxRetryAfter <= 0 {
		r.MaxRetryAfter = 60 * time.Second
	}
	if r.Sleep == nil {
		r.Sleep = sleep
	}
	return r
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Backoff is the wait before retry n (from 0), without jitter.
func (r Retry) Backoff(n int) time.Duration {
	r = r.withDefaults()
	d := r.BaseDelay << min(n, 20)
	return min(d, r.MaxDelay)
}

// DecodeError reads a non-2xx response's body into the provider's error.
type DecodeError func(resp *http.Response, body []byte) *model.APIError

// Do sends the request newReq makes (once per attempt) with client, and
// returns the first 2xx response. A response the policy retries is retried
// after the wait it asks for or the backoff; other non-2xx responses, and
// the last, are returned as the *model.APIError decode makes of them. A
// network error before any response is retried too.
func Do(ctx context.Context, client *http.Client, policy Retry, newReq func(ctx context.Context) (*http.Request, error), decode DecodeError) (*http.Response, error) {
	policy = policy.withDefaults()
	if client == nil {
		client = http.DefaultClient
	}
	for attempt := 0; ; attempt++ {
		req, err := newReq(ctx)
		if err != nil {
			return nil, err
		}
		resp, err := client.Do(req)
		canRetry := policy.MaxRetries > 0 && attempt < policy.MaxRetries
		if err != nil {
			if ctx.Err() != nil || !canRetry {
				return nil, err
			}
			if err := policy.Sleep(ctx, jitter(policy.Backoff(attempt))); err != nil {
				return nil, err
			}
			continue
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return resp, nil
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		apiErr := decode(resp, body)
		apiErr.StatusCode = resp.StatusCode
		apiErr.RetryAfter = retryAfter(resp.Header)
		apiErr.Attempts = attempt + 1
		if !canRetry || !shouldRetry(resp) {
			return nil, apiErr
		}
		wait := jitter(policy.Backoff(attempt))
		if ra := apiErr.RetryAfter; ra > 0 && ra <= policy.MaxRetryAfter {
			wait = ra
		}
		if err := policy.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

func jitter(d time.Duration) time.Duration {
	return d - time.Duration(rand.Float64()*0.25*float64(d))
}

// shouldRetry: the provider's x-should-retry says so, else 408, 409, 429
// and 5xx (529 included).
func shouldRetry(resp *http.Response) bool {
	switch strings.ToLower(resp.Header.Get("x-should-retry")) {
	case "true":
		return true
	case "false":
		return false
	}
	switch resp.StatusCode {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return true
	}
	return resp.StatusCode >= 500
}

// retryAfter reads retry-after-ms (milliseconds) or retry-after (seconds,
// or an HTTP date); 0 when neither says.
func retryAfter(h http.Header) time.Duration {
	if v := h.Get("retry-after-ms"); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("retry-after")
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := time.Until(t); d > 0 {
			return d
		}
	}
	return 0
}
