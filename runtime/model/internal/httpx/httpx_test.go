package httpx

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	for _, c := range []struct {
		name    string
		headers map[string]string
		want    time.Duration
		slack   time.Duration
	}{
		{"none", nil, 0, 0},
		{"seconds", map[string]string{"retry-after": "2"}, 2 * time.Second, 0},
		{"fractional seconds", map[string]string{"retry-after": "0.5"}, 500 * time.Millisecond, 0},
		{"milliseconds win", map[string]string{"retry-after-ms": "1500", "retry-after": "9"}, 1500 * time.Millisecond, 0},
		{"zero", map[string]string{"retry-after": "0"}, 0, 0},
		{"garbage", map[string]string{"retry-after": "soon"}, 0, 0},
		{"an HTTP date", map[string]string{"retry-after": time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)}, 30 * time.Second, 2 * time.Second},
		{"a past date", map[string]string{"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range c.headers {
				h.Set(k, v)
			}
			got := retryAfter(h)
			if d := got - c.want; d < -c.slack || d > c.slack {
				t.Errorf("retryAfter = %s, want %s", got, c.want)
			}
		})
	}
}

func TestBackoff(t *testing.T) {
	r := Retry{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	for n, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		if got := r.Backoff(n); got != want*time.Millisecond {
			t.Errorf("Backoff(%d) = %s, want %s", n, got, want*time.Millisecond)
		}
	}
	for range 100 {
		if j := jitter(time.Second); j < 750*time.Millisecond || j > time.Second {
			t.Fatalf("jitter(1s) = %s", j)
		}
	}
}
