package redisqueue_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/queue/queuetest"
	"github.com/agentenkit/agentenkit/runtime/queue/redisqueue"
)

func TestConformance(t *testing.T) {
	url := testenv.RedisURL(t)
	o, _ := redis.ParseURL(url)
	var mu sync.Mutex
	prefixes := map[string]string{}
	queuetest.Run(t, func(t *testing.T, vis time.Duration) queue.Queue {
		mu.Lock()
		p, ok := prefixes[t.Name()]
		if !ok {
			var b [6]byte
			rand.Read(b[:])
			p = "queuetest:" + hex.EncodeToString(b[:]) + ":"
			prefixes[t.Name()] = p
			t.Cleanup(func() { cleanup(o, p) })
		}
		mu.Unlock()
		c := redis.NewClient(o)
		q := redisqueue.New(c, redisqueue.Options{Prefix: p, Visibility: vis})
		t.Cleanup(func() { q.Close(); c.Close() })
		return q
	})
}

func cleanup(o *redis.Options, prefix string) {
	c := redis.NewClient(o)
	defer c.Close()
	ctx := context.Background()
	keys, _ := c.Keys(ctx, prefix+"*").Result()
	if len(keys) > 0 {
		c.Del(ctx, keys...)
	}
}
