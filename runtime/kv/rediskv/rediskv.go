// Package rediskv is the shared adapter of [kv.Store]: a Redis server (or
// cluster) through github.com/redis/go-redis/v9, for workers on many
// machines.
//
//   - Expiry is Redis's own (PX, PEXPIRE, PTTL), kept by the server's clock.
//   - SetIfAbsent is SET NX PX. CompareAndSwap, CompareAndDelete and
//     Expire(0) are small Lua scripts, atomic on the server.
//   - Keys is SCAN with a MATCH on the (escaped) prefix, on every master of
//     a cluster (every shard of a ring), then sorted; it is meant for
//     listings and GC, not hot paths.
//   - Every key is stored under [Options].Prefix, so several apps (or
//     tests) can share one database.
//
// Each script touches one key, so it works on Redis Cluster too.
package rediskv

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// Options configure a Store. The zero value is ready to use.
type Options struct {
	// Prefix is put in front of every key in Redis and taken off again by
	// Keys, as in "agentenkit:". Empty means none.
	Prefix string
}

// Store is a [kv.Store] on Redis, safe for concurrent use. Make one with
// New or Open.
type Store struct {
	client redis.UniversalClient
	prefix string
	owns   bool // Close closes client
	closed atomic.Bool
}

var _ kv.Store = (*Store)(nil)

// New returns a Store on client. The client stays the caller's: Close does
// not close it.
func New(client redis.UniversalClient, opts Options) *Store {
	return &Store{client: client, prefix: opts.Prefix}
}

// Open returns a Store on a new client for a redis:// (rediss://, unix://)
// URL in go-redis's format, as in "redis://user:pass@host:6379/0". A
// "prefix" query parameter sets [Options].Prefix, as in
// "redis://localhost:6379/0?prefix=agentenkit:". Open does not dial: the
// first operation does. Close closes the client.
func Open(rawURL string) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("rediskv: open: %w", err)
	}
	q := u.Query()
	prefix := q.Get("prefix")
	q.Del("prefix")
	u.RawQuery = q.Encode()
	o, err := redis.ParseURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("rediskv: open: %w", err)
	}
	s := New(redis.NewClient(o), Options{Prefix: prefix})
	s.owns = true
	return s, nil
}

// Client returns the client the store talks through.
func (s *Store) Client() redis.UniversalClient { return s.client }

// millis rounds a TTL up to whole milliseconds (Redis's unit), rejecting a
// negative one. go-redis reads -1 as KEEPTTL, so negatives must never
// reach it.
func millis(ttl time.Duration) (time.Duration, error) {
	if ttl < 0 {
		return 0, fmt.Errorf("%w: %s", kv.ErrInvalidTTL, ttl)
	}
	return (ttl + time.Millisecond - 1) / time.Millisecond * time.Millisecond, nil
}

func (s *Store) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if s.closed.Load() {
		return kv.ErrClosed
	}
	return nil
}

func (s *Store) fail(ctx context.Context, op, key string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if s.closed.Load() {
		return kv.ErrClosed
	}
	return fmt.Errorf("rediskv: %s %q: %w", op, key, err)
}

func notFound(key string) error { return fmt.Errorf("%w: %q", kv.ErrNotFound, key) }

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// Get implements [kv.Store].
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	v, err := s.client.Get(ctx, s.prefix+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, notFound(key)
	}
	if err != nil {
		return nil, s.fail(ctx, "get", key, err)
	}
	return nonNil(v), nil
}

// Set implements [kv.Store].
func (s *Store) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	ttl, err := millis(ttl)
	if err != nil {
		return err
	}
	if err := s.client.Set(ctx, s.prefix+key, nonNil(value), ttl).Err(); err != nil {
		return s.fail(ctx, "set", key, err)
	}
	return nil
}

// Delete implements [kv.Store].
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := s.check(ctx); err != nil {
		return err
	}
	if err := s.client.Del(ctx, s.prefix+key).Err(); err != nil {
		return s.fail(ctx, "delete", key, err)
	}
	return nil
}

// SetIfAbsent implements [kv.Store] with SET NX PX.
func (s *Store) SetIfAbsent(ctx context.Context, key string, value []byte, ttl time.Duration) (bool, error) {
	if err := s.check(ctx); err != nil {
		return false, err
	}
	ttl, err := millis(ttl)
	if err != nil {
		return false, err
	}
	ok, err := s.client.SetNX(ctx, s.prefix+key, nonNil(value), ttl).Result()
	if err != nil {
		return false, s.fail(ctx, "set if absent", key, err)
	}
	return ok, nil
}

// casScript sets KEYS[1] to ARGV[2] with a PX of ARGV[3] ("0": none) if
// its value is ARGV[1]. GET gives false for a missing key, which equals no
// string.
var casScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
	return 0
end
if ARGV[3] == '0' then
	redis.call('SET', KEYS[1], ARGV[2])
else
	redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1
`)

// cadScript deletes KEYS[1] if its value is ARGV[1].
var cadScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
	redis.call('DEL', KEYS[1])
	return 1
end
return 0
`)

// persistScript removes KEYS[1]'s expiry and reports whether it exists
// (PERSIST alone says 0 both for a missing key and for one without TTL).
var persistScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
	redis.call('PERSIST', KEYS[1])
	return 1
end
return 0
`)

// CompareAndSwap implements [kv.Store] with a Lua script (SET NX PX when
// old is nil).
func (s *Store) CompareAndSwap(ctx context.Context, key string, old, new []byte, ttl time.Duration) (bool, error) {
	if old == nil {
		return s.SetIfAbsent(ctx, key, new, ttl)
	}
	if err := s.check(ctx); err != nil {
		return false, err
	}
	ttl, err := millis(ttl)
	if err != nil {
		return false, err
	}
	n, err := casScript.Run(ctx, s.client, []string{s.prefix + key}, old, nonNil(new), ttl.Milliseconds()).Int()
	if err != nil {
		return false, s.fail(ctx, "compare and swap", key, err)
	}
	return n == 1, nil
}

// CompareAndDelete implements [kv.Store] with a Lua script.
func (s *Store) CompareAndDelete(ctx context.Context, key string, old []byte) (bool, error) {
	if err := s.check(ctx); err != nil {
		return false, err
	}
	if old == nil {
		return false, nil // no stored value is nil: Get gives []byte{} for an empty one
	}
	n, err := cadScript.Run(ctx, s.client, []string{s.prefix + key}, old).Int()
	if err != nil {
		return false, s.fail(ctx, "compare and delete", key, err)
	}
	return n == 1, nil
}

// Expire implements [kv.Store] with PEXPIRE (a script for ttl 0).
func (s *Store) Expire(ctx context.Context, key string, ttl time.Duration) (bool, error) {
	if err := s.check(ctx); err != nil {
		return false, err
	}
	ttl, err := millis(ttl)
	if err != nil {
		return false, err
	}
	var ok bool
	if ttl == 0 {
		var n int
		n, err = persistScript.Run(ctx, s.client, []string{s.prefix + key}).Int()
		ok = n == 1
	} else {
		ok, err = s.client.PExpire(ctx, s.prefix+key, ttl).Result()
	}
	if err != nil {
		return false, s.fail(ctx, "expire", key, err)
	}
	return ok, nil
}

// TTL implements [kv.Store] with PTTL.
func (s *Store) TTL(ctx context.Context, key string) (time.Duration, error) {
	if err := s.check(ctx); err != nil {
		return 0, err
	}
	ms, err := s.client.Do(ctx, "PTTL", s.prefix+key).Int64()
	if err != nil {
		return 0, s.fail(ctx, "ttl", key, err)
	}
	switch {
	case ms == -2:
		return 0, notFound(key)
	case ms < 0:
		return 0, nil
	}
	return time.Duration(ms) * time.Millisecond, nil
}

// Keys implements [kv.Store] with SCAN, on every master of a cluster.
func (s *Store) Keys(ctx context.Context, prefix string) ([]string, error) {
	if err := s.check(ctx); err != nil {
		return nil, err
	}
	match := escapeGlob(s.prefix+prefix) + "*"
	var (
		mu   sync.Mutex
		seen = map[string]bool{} // SCAN may return a key twice
	)
	scan := func(ctx context.Context, c redis.Cmdable) error {
		iter := c.Scan(ctx, 0, match, 1000).Iterator()
		for iter.Next(ctx) {
			mu.Lock()
			seen[strings.TrimPrefix(iter.Val(), s.prefix)] = true
			mu.Unlock()
		}
		return iter.Err()
	}
	var err error
	switch c := s.client.(type) {
	case *redis.ClusterClient:
		err = c.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error { return scan(ctx, c) })
	case *redis.Ring:
		err = c.ForEachShard(ctx, func(ctx context.Context, c *redis.Client) error { return scan(ctx, c) })
	default:
		err = scan(ctx, s.client)
	}
	if err != nil {
		return nil, s.fail(ctx, "keys", prefix, err)
	}
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// escapeGlob quotes the characters SCAN MATCH treats specially.
func escapeGlob(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', ']', '\\', '^', '-':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Close implements [kv.Store]. It closes the client only if Open made it.
func (s *Store) Close() error {
	if s.closed.Swap(true) || !s.owns {
		return nil
	}
	return s.client.Close()
}
