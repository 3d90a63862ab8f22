package sandbox

import (
	"io"
	"strings"
	"sync"
)

// Output collects one output stream of a command for adapters: it passes
// every write on to a live writer and keeps the first MaxOutputBytes for the
// result, setting Truncated past that. It never fails a write (a full pipe
// must not block the command), so a failing live writer is dropped. It is
// safe for concurrent use.
type Output struct {
	mu        sync.Mutex
	live      io.Writer
	buf       strings.Builder
	max       int
	truncated bool
}

// NewOutput returns an Output that copies to live (which may be nil) and
// keeps MaxOutputBytes.
func NewOutput(live io.Writer) *Output {
	return &Output{live: live, max: MaxOutputBytes}
}

// Write keeps what fits, passes p on live, and always reports len(p).
func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if room := o.max - o.buf.Len(); room < len(p) {
		o.buf.Write(p[:max(room, 0)])
		o.truncated = true
	} else {
		o.buf.Write(p)
	}
	if o.live != nil {
		if _, err := o.live.Write(p); err != nil {
			o.live = nil
		}
	}
	return len(p), nil
}

// String returns what was kept.
func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// Truncated reports whether writes went past the cap.
func (o *Output) Truncated() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.truncated
}
