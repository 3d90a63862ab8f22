// Package redisbus is the shared adapter of [bus.Bus]: Redis pub/sub
// through github.com/redis/go-redis/v9, for workers on many machines.
//
//   - A topic is the Redis channel [Options].Prefix + topic.
//   - Subscribe returns once Redis has confirmed the SUBSCRIBE, so nothing
//     published after it returns is missed.
//   - A dropped connection is re-established (and re-subscribed) by the
//     client; messages published while it was down are lost, as pub/sub
//     loses them.
package redisbus

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agentenkit/agentenkit/runtime/bus"
)

// Options configure a Bus. The zero value is ready to use.
type Options struct {
	// Prefix is put in front of every topic, as in "agentenkit:". Empty
	// means none.
	Prefix string
}

// Bus is a [bus.Bus] on Redis pub/sub, safe for concurrent use. Make one
// with New or Open.
type Bus struct {
	client redis.UniversalClient
	prefix string
	owns   bool

	mu     sync.Mutex
	closed bool
	subs   map[*redis.PubSub]struct{}
}

var _ bus.Bus = (*Bus)(nil)

// New returns a Bus on client. The client stays the caller's: Close does
// not close it.
func New(client redis.UniversalClient, opts Options) *Bus {
	return &Bus{client: client, prefix: opts.Prefix, subs: map[*redis.PubSub]struct{}{}}
}

// Open returns a Bus on a new client for a redis:// URL in go-redis's
// format; a "prefix" query parameter sets [Options].Prefix. Close closes
// the client.
func Open(rawURL string) (*Bus, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("redisbus: open: %w", err)
	}
	q := u.Query()
	prefix := q.Get("prefix")
	q.Del("prefix")
	u.RawQuery = q.Encode()
	o, err := redis.ParseURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("redisbus: open: %w", err)
	}
	b := New(redis.NewClient(o), Options{Prefix: prefix})
	b.owns = true
	return b, nil
}

func (b *Bus) isClosed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.closed
}

// Publish implements bus.Bus.
func (b *Bus) Publish(ctx context.Context, topic string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if b.isClosed() {
		return bus.ErrClosed
	}
	if err := b.client.Publish(ctx, b.prefix+topic, data).Err(); err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		return fmt.Errorf("redisbus: publish %q: %w", topic, err)
	}
	return nil
}

// Subscribe implements bus.Bus.
func (b *Bus) Subscribe(ctx context.Context, topic string) (<-chan []byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, bus.ErrClosed
	}
	ps := b.client.Subscribe(ctx, b.prefix+topic)
	b.subs[ps] = struct{}{}
	b.mu.Unlock()
	// Wait for Redis to confirm the subscription.
	if _, err := ps.Receive(ctx); err != nil {
		b.drop(ps)
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		return nil, fmt.Errorf("redisbus: subscribe %q: %w", topic, err)
	}
	out := make(chan []byte, bus.Buffer)
	stop := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
		case <-stop:
		}
		b.drop(ps) // unblocks ReceiveMessage below
	}()
	go func() {
		defer close(out)
		defer close(stop)
		for {
			msg, err := ps.ReceiveMessage(context.WithoutCancel(ctx))
			if err != nil {
				if ctx.Err() != nil || b.isClosed() || errors.Is(err, redis.ErrClosed) {
					return
				}
				time.Sleep(50 * time.Millisecond) // the client reconnects on the next receive
				continue
			}
			select {
			case out <- []byte(msg.Payload):
			default: // the subscriber is far behind: drop
			}
		}
	}()
	return out, nil
}

func (b *Bus) drop(ps *redis.PubSub) {
	b.mu.Lock()
	delete(b.subs, ps)
	b.mu.Unlock()
	_ = ps.Close()
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
	b.subs = map[*redis.PubSub]struct{}{}
	b.mu.Unlock()
	for ps := range subs {
		_ = ps.Close()
	}
	if b.owns {
		return b.client.Close()
	}
	return nil
}
