// Package bus is the port live events travel on: a run's text deltas, tool
// calls and results, tool output and state changes, published by the
// worker that runs it and received by whoever watches it, on any runtime
// sharing the bus.
//
// A bus is live only: a subscriber receives what is published on its topic
// after Subscribe returned, and nothing before. What must last (messages,
// run state, usage) is in storage, not on the bus.
//
// # Adapters
//
// Two adapters implement [Bus] and pass the same conformance suite
// (package bustest):
//
//   - membus: one process; the embedded default.
//   - redisbus: Redis pub/sub, for workers on many machines.
package bus

import (
	"context"
	"errors"
)

// Bus publishes messages on topics and delivers them to subscribers.
// Implementations are safe for concurrent use.
type Bus interface {
	// Publish sends data to every current subscriber of topic. No
	// subscriber is not an error. Messages one goroutine publishes on a
	// topic arrive at each subscriber in the order they were published.
	Publish(ctx context.Context, topic string, data []byte) error

	// Subscribe returns a channel of what is published on topic from now
	// on. The subscription is in place when Subscribe returns. The channel
	// is closed when ctx ends or the bus is closed. A subscriber that falls
	// far behind (thousands of messages) may miss messages: it must keep
	// reading.
	Subscribe(ctx context.Context, topic string) (<-chan []byte, error)

	// Close ends every subscription and releases the bus's resources. A
	// second Close returns nil; Publish and Subscribe then return
	// ErrClosed.
	Close() error
}

// ErrClosed is returned by a bus used after Close.
var ErrClosed = errors.New("bus: closed")

// Buffer is how many messages a subscription holds for a slow reader
// before it drops new ones, in the adapters of this module.
const Buffer = 4096
