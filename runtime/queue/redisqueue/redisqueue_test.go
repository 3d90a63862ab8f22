package redisqueue_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/queue/queuetest"
	"github.com/agentenkit/agentenkit/runtime/queue/redisqueue"
)

// redisURL returns the test server's URL, or ends the test when none
// answers (a failure where AGENTENKIT_REQUIRE names redis).
func redisURL(t *testing.T) string {
	url := os.Getenv("AGENTENKIT_REDIS_URL")
	if url == "" {
		url = "redis://127.0.0.1:6379/14"
	}
	o, err := redis.ParseURL(url)
	if err == nil {
		c := redis.NewClient(o)
		err = c.Ping(context.Background()).Err()
		c.Close()
	}
	if err != nil {
		testenv.Missing(t, "redis", "no Redis at "+url+": "+err.Error())
	}
	return url
}

func TestConformance(t *testing.T) {
	url := redisURL(t)
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
