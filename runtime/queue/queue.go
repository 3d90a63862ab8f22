// Package queue is the port run jobs travel on to workers: a resume after
// an approval is enqueued by whoever answered, and dequeued by any worker.
//
// Delivery is at least once, with a visibility timeout: a dequeued job is
// invisible to other consumers until it is acknowledged (Ack, which removes
// it), given back (Nack, visible again after a delay), or its timeout
// passes without Ack or Extend — then it is delivered again, with its
// Attempt one higher, as after a crashed worker. Work that may take longer
// than the timeout calls Extend as it goes.
//
// # Adapters
//
// Two adapters implement [Queue] and pass the same conformance suite
// (package queuetest):
//
//   - memqueue: one process; the embedded default.
//   - redisqueue: Redis lists and sorted sets (atomic scripts, BLPOP-style
//     wakeups), for workers on many machines.
package queue

import (
	"context"
	"errors"
	"time"
)

// Job is a unit of work.
type Job struct {
	// ID names the job; Enqueue sets a random one if empty. While a job
	// is queued or in flight, enqueueing another with its ID does nothing.
	ID string `json:"id"`
	// Kind says what to do, such as "resume".
	Kind string `json:"kind"`
	// Payload is the job's data, for its kind to interpret.
	Payload []byte `json:"payload,omitempty"`
}

// Delivery is one delivery of a job to a consumer.
type Delivery struct {
	Job
	// Attempt counts deliveries of this job: 1 for the first.
	Attempt int
	// Token names this delivery; Ack, Nack and Extend need it.
	Token string
}

// Queue holds jobs for consumers. Implementations are safe for concurrent
// use; every Queue value on one backend is one queue.
type Queue interface {
	// Enqueue adds job at the end of the queue.
	Enqueue(ctx context.Context, job Job) error

	// Dequeue waits for the next visible job (until ctx ends) and delivers
	// it: the job stays invisible to others for the visibility timeout.
	// Jobs are delivered about first in, first out.
	Dequeue(ctx context.Context) (Delivery, error)

	// Ack removes a delivered job: its work is done. It returns ErrLost if
	// this delivery no longer holds the job (its timeout passed and it was
	// delivered again, or it was acked or given back).
	Ack(ctx context.Context, d Delivery) error

	// Nack gives a delivered job back: it is delivered again after delay
	// (0: at once). ErrLost as for Ack.
	Nack(ctx context.Context, d Delivery, delay time.Duration) error

	// Extend pushes the delivery's visibility timeout back to a whole
	// timeout from now. ErrLost as for Ack.
	Extend(ctx context.Context, d Delivery) error

	// Visibility is the queue's visibility timeout.
	Visibility() time.Duration

	// Close releases the queue's resources; a blocked Dequeue returns
	// ErrClosed. A second Close returns nil; every other method then
	// returns ErrClosed. Jobs in a shared backend stay there.
	Close() error
}

var (
	// ErrClosed is returned by a queue used after Close.
	ErrClosed = errors.New("queue: closed")
	// ErrLost is matched by the error Ack, Nack and Extend return when the
	// delivery no longer holds its job.
	ErrLost = errors.New("queue: the delivery no longer holds the job")
)

// DefaultVisibility is the adapters' default visibility timeout.
const DefaultVisibility = 30 * time.Second
