// Package memqueue is the in-process adapter of [queue.Queue]: the embedded
// default, for runtimes in one process (they share one Queue value).
package memqueue

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/runtime/queue"
)

// Options tune a Queue. The zero value is ready to use.
type Options struct {
	// Visibility is the visibility timeout; default
	// queue.DefaultVisibility.
	Visibility time.Duration
}

// Queue is a [queue.Queue] in memory, safe for concurrent use.
type Queue struct {
	vis time.Duration

	mu      sync.Mutex
	closed  bool
	entries map[string]*entry
	ready   []string
	changed chan struct{} // closed and replaced whenever a job may have become visible
}

type entry struct {
	job       queue.Job
	attempts  int
	token     string    // "" when queued
	visibleAt time.Time // in flight (or delayed) until then
	inFlight  bool      // delivered or delayed, not in ready
}

var _ queue.Queue = (*Queue)(nil)

// New returns an empty Queue.
func New(opts Options) *Queue {
	if opts.Visibility <= 0 {
		opts.Visibility = queue.DefaultVisibility
	}
	return &Queue{vis: opts.Visibility, entries: map[string]*entry{}, changed: make(chan struct{})}
}

func token() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Visibility implements queue.Queue.
func (q *Queue) Visibility() time.Duration { return q.vis }

func (q *Queue) signal() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// Enqueue implements queue.Queue.
func (q *Queue) Enqueue(ctx context.Context, job queue.Job) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if job.ID == "" {
		job.ID = token()
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return queue.ErrClosed
	}
	if _, ok := q.entries[job.ID]; ok {
		return nil
	}
	job.Payload = append([]byte(nil), job.Payload...)
	q.entries[job.ID] = &entry{job: job}
	q.ready = append(q.ready, job.ID)
	q.signal()
	return nil
}

// Dequeue implements queue.Queue.
func (q *Queue) Dequeue(ctx context.Context) (queue.Delivery, error) {
	for {
		if err := ctx.Err(); err != nil {
			return queue.Delivery{}, err
		}
		q.mu.Lock()
		if q.closed {
			q.mu.Unlock()
			return queue.Delivery{}, queue.ErrClosed
		}
		now := time.Now()
		next := q.requeueDue(now)
		if len(q.ready) > 0 {
			id := q.ready[0]
			q.ready = q.ready[1:]
			e := q.entries[id]
			e.inFlight, e.token, e.visibleAt = true, token(), now.Add(q.vis)
			e.attempts++
			d := queue.Delivery{Job: e.job, Attempt: e.attempts, Token: e.token}
			d.Payload = append([]byte(nil), d.Payload...)
			q.mu.Unlock()
			return d, nil
		}
		changed := q.changed
		q.mu.Unlock()
		var timer *time.Timer
		var fired <-chan time.Time
		if !next.IsZero() {
			timer = time.NewTimer(time.Until(next))
			fired = timer.C
		}
		select {
		case <-ctx.Done():
		case <-changed:
		case <-fired:
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// requeueDue makes every in-flight job past its time visible again, and
// returns the earliest time one still in flight will be (zero: none).
func (q *Queue) requeueDue(now time.Time) time.Time {
	var next time.Time
	for id, e := range q.entries {
		if !e.inFlight {
			continue
		}
		if !now.Before(e.visibleAt) {
			e.inFlight, e.token = false, ""
			q.ready = append(q.ready, id)
		} else if next.IsZero() || e.visibleAt.Before(next) {
			next = e.visibleAt
		}
	}
	return next
}

// held returns d's entry if d still holds it; the caller holds q.mu.
func (q *Queue) held(d queue.Delivery) (*entry, error) {
	if q.closed {
		return nil, queue.ErrClosed
	}
	e, ok := q.entries[d.ID]
	if !ok || e.token == "" || e.token != d.Token || !time.Now().Before(e.visibleAt) {
		return nil, fmt.Errorf("%w (job %s, attempt %d)", queue.ErrLost, d.ID, d.Attempt)
	}
	return e, nil
}

// Ack implements queue.Queue.
func (q *Queue) Ack(ctx context.Context, d queue.Delivery) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, err := q.held(d); err != nil {
		return err
	}
	delete(q.entries, d.ID)
	return nil
}

// Nack implements queue.Queue.
func (q *Queue) Nack(ctx context.Context, d queue.Delivery, delay time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	e, err := q.held(d)
	if err != nil {
		return err
	}
	e.token, e.visibleAt = "", time.Now().Add(max(0, delay))
	q.signal()
	return nil
}

// Extend implements queue.Queue.
func (q *Queue) Extend(ctx context.Context, d queue.Delivery) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	e, err := q.held(d)
	if err != nil {
		return err
	}
	e.visibleAt = time.Now().Add(q.vis)
	return nil
}

// Close implements queue.Queue.
func (q *Queue) Close() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		q.signal()
	}
	return nil
}
