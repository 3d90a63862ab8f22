package testenv

import (
	"sync"
	"time"
)

// Clock is the one clock of a test: the runtime's, the kv's and the memory
// sandboxes' own, so that expiry is exact and instant. Safe for concurrent
// use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock at 2026-12-01 09:00 UTC.
func NewClock() *Clock { return &Clock{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock d forward.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
