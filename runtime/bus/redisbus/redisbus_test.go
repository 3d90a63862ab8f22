package redisbus_test

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"testing"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/runtime/bus"
	"github.com/agentenkit/agentenkit/runtime/bus/bustest"
	"github.com/agentenkit/agentenkit/runtime/bus/redisbus"
)

func TestConformance(t *testing.T) {
	url := testenv.RedisURL(t)
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
