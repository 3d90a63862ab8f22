// Package membus is the in-process adapter of [bus.Bus]: the embedded
// default, for one process (runtimes in it share one Bus value).
package membus

import (
	"context"
	"sync"

	"github.com/agentenkit/agentenkit/runtime/bus"
)

// Bus is a [bus.Bus] in memory, safe for concurrent use.
type Bus struct {
	mu     sync.Mutex
	closed bool
	subs   map[string]map[*sub]struct{}
}

type sub struct {
	ch     chan []byte
	mu     sync.Mutex // guards sends against close
	closed bool
}

var _ bus.Bus = (*Bus)(nil)

// New returns a Bus.
func New() *Bus { return &Bus{subs: map[string]map[*sub]struct{}{}} }

// Publish implements bus.Bus. It never blocks on a slow subscriber: past
// bus.Buffer unread messages, that subscriber misses new ones.
func (b *Bus) Publish(ctx context.Context, topic string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return bus.ErrClosed
	}
	subs := make([]*sub, 0, len(b.subs[topic]))
	for s := range b.subs[topic] {
		subs = append(subs, s)
	}
	// Send under b.mu so that one publisher's messages keep their order
	// across concurrent publishers' interleavings per subscriber.
	for _, s := range subs {
		msg := append([]byte(nil), data...)
		s.mu.Lock()
		if !s.closed {
			select {
			case s.ch <- msg:
			default: // the subscriber is far behind: drop
			}
		}
		s.mu.Unlock()
	}
	b.mu.Unlock()
	return nil
}

// Subscribe implements bus.Bus.
func (b *Bus) Subscribe(ctx context.Context, topic string) (<-chan []byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := &sub{ch: make(chan []byte, bus.Buffer)}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, bus.ErrClosed
	}
	if b.subs[topic] == nil {
		b.subs[topic] = map[*sub]struct{}{}
	}
	b.subs[topic][s] = struct{}{}
	b.mu.Unlock()
	go func() {
		<-ctx.Done()
		b.remove(topic, s)
	}()
	return s.ch, nil
}

func (b *Bus) remove(topic string, s *sub) {
	b.mu.Lock()
	if set := b.subs[topic]; set != nil {
		delete(set, s)
		if len(set) == 0 {
			delete(b.subs, topic)
		}
	}
	b.mu.Unlock()
	s.close()
}

func (s *sub) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.closed {
		s.closed = true
		close(s.ch)
	}
}

// Close implements bus.Bus.
func (b *Bus) Close() error {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil
	}
	b.closed = true
	subs := b.subs
	b.subs = map[string]map[*sub]struct{}{}
	b.mu.Unlock()
	for _, set := range subs {
		for s := range set {
			s.close()
		}
	}
	return nil
}
