package testenv

import (
	"net"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisURL is where tests look for Redis without AGENTENKIT_REDIS_URL.
const DefaultRedisURL = "redis://127.0.0.1:6379/15"

// RedisURL returns the URL of the test Redis server (AGENTENKIT_REDIS_URL,
// else DefaultRedisURL) once it answers, or ends the test: a skip, or a
// failure where AGENTENKIT_REQUIRE names redis. Tests share the database, so
// each uses keys of its own (a random prefix).
func RedisURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("AGENTENKIT_REDIS_URL")
	if url == "" {
		url = DefaultRedisURL
	}
	o, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("AGENTENKIT_REDIS_URL=%q: %v", url, err)
	}
	// A plain dial first: go-redis retries a refused dial, noisily.
	conn, err := net.DialTimeout(o.Network, o.Addr, 2*time.Second)
	if err == nil {
		conn.Close()
		c := redis.NewClient(o)
		err = c.Ping(t.Context()).Err()
		c.Close()
	}
	if err != nil {
		Missing(t, "redis", "no Redis answers at "+url+": "+err.Error()+" (start one: redis-server --daemonize yes)")
	}
	return url
}
