package rediskv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/kvtest"
)

// The tests need a Redis server at AGENTENKIT_REDIS_URL (default below).
// Without one they skip, unless AGENTENKIT_REQUIRE names "redis" (as in
// "redis,docker"): then they fail.
const defaultURL = "redis://127.0.0.1:6379/15"

func redisURL() string {
	if u := os.Getenv("AGENTENKIT_REDIS_URL"); u != "" {
		return u
	}
	return defaultURL
}

func required() bool {
	for _, f := range strings.FieldsFunc(os.Getenv("AGENTENKIT_REQUIRE"), func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t'
	}) {
		if f == "redis" {
			return true
		}
	}
	return false
}

// newClient returns a client on the test server, or skips (fails when
// required) if none answers.
func newClient(t *testing.T) *redis.Client {
	t.Helper()
	u := redisURL()
	o, err := redis.ParseURL(u)
	if err != nil {
		t.Fatalf("AGENTENKIT_REDIS_URL=%q: %v", u, err)
	}
	c := redis.NewClient(o)
	t.Cleanup(func() { c.Close() })
	// A plain dial first: go-redis retries a refused dial, noisily.
	err = nil
	if conn, derr := net.DialTimeout(o.Network, o.Addr, 2*time.Second); derr != nil {
		err = derr
	} else {
		conn.Close()
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		err = c.Ping(ctx).Err()
	}
	if err != nil {
		msg := "no Redis server answers at " + u + " (set AGENTENKIT_REDIS_URL, or run `redis-server --daemonize yes --port 6379`): " + err.Error()
		if required() {
			t.Fatal(msg + "; AGENTENKIT_REQUIRE asks for redis")
		}
		t.Skip(msg)
	}
	return c
}

// freshPrefix returns a key prefix no other test uses, and deletes its keys
// when t ends.
func freshPrefix(t *testing.T, c *redis.Client) string {
	var b [8]byte
	rand.Read(b[:])
	prefix := "agentenkit-kvtest:" + hex.EncodeToString(b[:]) + ":"
	t.Cleanup(func() {
		ctx := context.Background()
		iter := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for iter.Next(ctx) {
			c.Del(ctx, iter.Val())
		}
	})
	return prefix
}

func TestConformance(t *testing.T) {
	c := newClient(t)
	kvtest.Run(t, func(t *testing.T) kv.Store {
		return New(c, Options{Prefix: freshPrefix(t, c)})
	})
}

func TestPrefixIsKeptApart(t *testing.T) {
	c := newClient(t)
	ctx := t.Context()
	p := freshPrefix(t, c)
	a, b := New(c, Options{Prefix: p + "a:"}), New(c, Options{Prefix: p + "b:"})
	if err := a.Set(ctx, "k", []byte("in a"), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(ctx, "k"); !errors.Is(err, kv.ErrNotFound) {
		t.Fatalf("b sees a's key: %v", err)
	}
	if v, err := c.Get(ctx, p+"a:k").Result(); err != nil || v != "in a" {
		t.Fatalf("raw GET of the prefixed key = %q, %v", v, err)
	}
	if keys, err := a.Keys(ctx, ""); err != nil || len(keys) != 1 || keys[0] != "k" {
		t.Fatalf("a.Keys = %q, %v; want [k] with the prefix taken off", keys, err)
	}
}

func TestCloseLeavesCallersClient(t *testing.T) {
	c := newClient(t)
	s := New(c, Options{Prefix: freshPrefix(t, c)})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Ping(t.Context()).Err(); err != nil {
		t.Fatalf("the caller's client no longer works after Close: %v", err)
	}
}

func TestOpen(t *testing.T) {
	c := newClient(t)
	ctx := t.Context()
	p := freshPrefix(t, c)
	u := redisURL()
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	s, err := Open(u + sep + "prefix=" + p)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set(ctx, "k", []byte("v"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if v, err := c.Get(ctx, p+"k").Result(); err != nil || v != "v" {
		t.Fatalf("raw GET of %q = %q, %v; want the prefix from the URL used", p+"k", v, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Client().Ping(ctx).Err(); err == nil {
		t.Fatal("the client Open made still works after Close")
	}
	if _, err := Open("http://localhost"); err == nil {
		t.Fatal("Open of an http URL succeeded")
	}
}

func TestEscapeGlob(t *testing.T) {
	if got, want := escapeGlob(`a*b?[c]\d`), `a\*b\?\[c\]\\d`; got != want {
		t.Fatalf("escapeGlob = %q, want %q", got, want)
	}
}
