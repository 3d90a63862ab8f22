package redisbus_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/runtime/bus"
	"github.com/agentenkit/agentenkit/runtime/bus/bustest"
	"github.com/agentenkit/agentenkit/runtime/bus/redisbus"
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
	var mu sync.Mutex
	prefixes := map[string]string{}
	bustest.Run(t, func(t *testing.T) bus.Bus {
		mu.Lock()
		p, ok := prefixes[t.Name()]
		if !ok {
			var b [6]byte
			rand.Read(b[:])
			p = "bustest:" + hex.EncodeToString(b[:]) + ":"
			prefixes[t.Name()] = p
		}
		mu.Unlock()
		b, err := redisbus.Open(url + "?prefix=" + p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return b
	})
}
