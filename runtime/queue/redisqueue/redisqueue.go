// Package redisqueue is the shared adapter of [queue.Queue]: jobs in Redis
// through github.com/redis/go-redis/v9, for workers on many machines.
//
// Keys (all under one hash tag, so it works on Redis Cluster too), with p
// the prefix and n the queue's name:
//
//   - p{n}:jobs      hash id → job
//   - p{n}:ready     list of visible ids, oldest first
//   - p{n}:inflight  sorted set id → when it becomes visible again (ms)
//   - p{n}:tokens    hash id → token of its current delivery
//   - p{n}:attempts  hash id → deliveries so far
//   - p{n}:signal    list pushed on every enqueue and give-back, which
//     waiting consumers BLPOP on
//
// Every move is a Lua script, atomic on the server and timed by the
// server's clock: Dequeue first makes due in-flight jobs visible again,
// then pops the oldest visible one and marks it in flight. A consumer with
// nothing to take blocks on the signal list for at most [Options].Poll (or
// until the next in-flight job is due), so a job whose timeout passes is
// picked up within that time even without a signal.
package redisqueue

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/agentenkit/agentenkit/runtime/queue"
)

// Options configure a Queue. The zero value is ready to use.
type Options struct {
	// Prefix is put in front of every key, as in "agentenkit:".
	Prefix string
	// Name names the queue; default "runs".
	Name string
	// Visibility is the visibility timeout; default
	// queue.DefaultVisibility.
	Visibility time.Duration
	// Poll is the longest a waiting Dequeue blocks before it looks again
	// (and how late it may notice its ctx ended); default 250 ms.
	Poll time.Duration
}

// Queue is a [queue.Queue] on Redis, safe for concurrent use. Make one
// with New or Open.
type Queue struct {
	client redis.UniversalClient
	keys   keys
	vis    time.Duration
	poll   time.Duration
	owns   bool
	closed atomic.Bool
}

type keys struct{ jobs, ready, inflight, tokens, attempts, signal string }

var _ queue.Queue = (*Queue)(nil)

// New returns a Queue on client. The client stays the caller's: Close does
// not close it.
func New(client redis.UniversalClient, opts Options) *Queue {
	if opts.Name == "" {
		opts.Name = "runs"
	}
	if opts.Visibility <= 0 {
		opts.Visibility = queue.DefaultVisibility
	}
	if opts.Poll <= 0 {
		opts.Poll = 250 * time.Millisecond
	}
	p := opts.Prefix + "{" + opts.Name + "}:"
	return &Queue{
		client: client,
		keys:   keys{p + "jobs", p + "ready", p + "inflight", p + "tokens", p + "attempts", p + "signal"},
		vis:    opts.Visibility,
		poll:   opts.Poll,
	}
}

// Open returns a Queue on a new client for a redis:// URL in go-redis's
// format. Query parameters "prefix", "name" and "visibility" (a Go
// duration) set the Options. Close closes the client.
func Open(rawURL string) (*Queue, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("redisqueue: open: %w", err)
	}
	q := u.Query()
	opts := Options{Prefix: q.Get("prefix"), Name: q.Get("name")}
	if v := q.Get("visibility"); v != "" {
		if opts.Visibility, err = time.ParseDuration(v); err != nil {
			return nil, fmt.Errorf("redisqueue: open: visibility: %w", err)
		}
	}
	for _, k := range []string{"prefix", "name", "visibility"} {
		q.Del(k)
	}
	u.RawQuery = q.Encode()
	o, err := redis.ParseURL(u.String())
	if err != nil {
		return nil, fmt.Errorf("redisqueue: open: %w", err)
	}
	s := New(redis.NewClient(o), opts)
	s.owns = true
	return s, nil
}

// Visibility implements queue.Queue.
func (q *Queue) Visibility() time.Duration { return q.vis }

func (q *Queue) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if q.closed.Load() {
		return queue.ErrClosed
	}
	return nil
}

func (q *Queue) fail(ctx context.Context, op string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if q.closed.Load() {
		return queue.ErrClosed
	}
	return fmt.Errorf("redisqueue: %s: %w", op, err)
}

const nowLua = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// KEYS: jobs ready signal; ARGV: id job
var enqueueScript = redis.NewScript(`
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('RPUSH', KEYS[3], '1')
redis.call('LTRIM', KEYS[3], -100, -1)
return 1
`)

// KEYS: jobs ready inflight tokens attempts; ARGV: visibility-ms token.
// Returns {1, id, job, attempt} or {0, ms until the next in-flight job is
// due, or -1}.
var dequeueScript = redis.NewScript(nowLua + `
local due = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now, 'LIMIT', 0, 100)
for _, id in ipairs(due) do
	redis.call('ZREM', KEYS[3], id)
	redis.call('HDEL', KEYS[4], id)
	redis.call('RPUSH', KEYS[2], id)
end
while true do
	local id = redis.call('LPOP', KEYS[2])
	if not id then
		local nxt = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
		if nxt[2] then return {0, math.max(0, tonumber(nxt[2]) - now)} end
		return {0, -1}
	end
	local job = redis.call('HGET', KEYS[1], id)
	if job then
		redis.call('ZADD', KEYS[3], now + tonumber(ARGV[1]), id)
		redis.call('HSET', KEYS[4], id, ARGV[2])
		local n = redis.call('HINCRBY', KEYS[5], id, 1)
		return {1, id, job, n}
	end
end
`)

// held checks that ARGV[1] (id) is held by ARGV[2] (token) and not yet due.
const heldLua = nowLua + `
if redis.call('HGET', KEYS[3], ARGV[1]) ~= ARGV[2] then return 0 end
local due = redis.call('ZSCORE', KEYS[2], ARGV[1])
if not due or tonumber(due) <= now then return 0 end
`

// KEYS: jobs inflight tokens attempts; ARGV: id token
var ackScript = redis.NewScript(heldLua + `
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
return 1
`)

// KEYS: jobs inflight tokens signal; ARGV: id token delay-ms
var nackScript = redis.NewScript(heldLua + `
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[1])
redis.call('RPUSH', KEYS[4], '1')
redis.call('LTRIM', KEYS[4], -100, -1)
return 1
`)

// KEYS: jobs inflight tokens; ARGV: id token visibility-ms
var extendScript = redis.NewScript(heldLua + `
redis.call('ZADD', KEYS[2], 'XX', now + tonumber(ARGV[3]), ARGV[1])
return 1
`)

type stored struct {
	Kind    string `json:"kind"`
	Payload []byte `json:"payload,omitempty"`
}

func newToken() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Enqueue implements queue.Queue.
func (q *Queue) Enqueue(ctx context.Context, job queue.Job) error {
	if err := q.check(ctx); err != nil {
		return err
	}
	if job.ID == "" {
		job.ID = newToken()
	}
	raw, err := json.Marshal(stored{Kind: job.Kind, Payload: job.Payload})
	if err != nil {
		return fmt.Errorf("redisqueue: enqueue %s: %w", job.ID, err)
	}
	k := q.keys
	if err := enqueueScript.Run(ctx, q.client, []string{k.jobs, k.ready, k.signal}, job.ID, raw).Err(); err != nil {
		return q.fail(ctx, "enqueue "+job.ID, err)
	}
	return nil
}

// Dequeue implements queue.Queue.
func (q *Queue) Dequeue(ctx context.Context) (queue.Delivery, error) {
	k := q.keys
	for {
		if err := q.check(ctx); err != nil {
			return queue.Delivery{}, err
		}
		tok := newToken()
		res, err := dequeueScript.Run(ctx, q.client, []string{k.jobs, k.ready, k.inflight, k.tokens, k.attempts},
			q.vis.Milliseconds(), tok).Slice()
		if err != nil {
			return queue.Delivery{}, q.fail(ctx, "dequeue", err)
		}
		if n, _ := res[0].(int64); n == 1 && len(res) == 4 {
			id, _ := res[1].(string)
			raw, _ := res[2].(string)
			attempt, _ := res[3].(int64)
			var s stored
			if err := json.Unmarshal([]byte(raw), &s); err != nil {
				return queue.Delivery{}, fmt.Errorf("redisqueue: dequeue: job %s: %w", id, err)
			}
			return queue.Delivery{Job: queue.Job{ID: id, Kind: s.Kind, Payload: s.Payload}, Attempt: int(attempt), Token: tok}, nil
		}
		wait := q.poll
		if next, _ := res[1].(int64); next >= 0 && time.Duration(next)*time.Millisecond < wait {
			wait = max(time.Duration(next)*time.Millisecond, 5*time.Millisecond)
		}
		err = q.client.Do(ctx, "BLPOP", k.signal, strconv.FormatFloat(wait.Seconds(), 'f', 3, 64)).Err()
		if err != nil && !errors.Is(err, redis.Nil) {
			return queue.Delivery{}, q.fail(ctx, "dequeue: wait", err)
		}
	}
}

func (q *Queue) held(ctx context.Context, op string, d queue.Delivery, script *redis.Script, keys []string, args ...any) error {
	if err := q.check(ctx); err != nil {
		return err
	}
	n, err := script.Run(ctx, q.client, keys, append([]any{d.ID, d.Token}, args...)...).Int()
	if err != nil {
		return q.fail(ctx, op+" "+d.ID, err)
	}
	if n != 1 {
		return fmt.Errorf("%w (job %s, attempt %d)", queue.ErrLost, d.ID, d.Attempt)
	}
	return nil
}

// Ack implements queue.Queue.
func (q *Queue) Ack(ctx context.Context, d queue.Delivery) error {
	k := q.keys
	return q.held(ctx, "ack", d, ackScript, []string{k.jobs, k.inflight, k.tokens, k.attempts})
}

// Nack implements queue.Queue.
func (q *Queue) Nack(ctx context.Context, d queue.Delivery, delay time.Duration) error {
	k := q.keys
	return q.held(ctx, "nack", d, nackScript, []string{k.jobs, k.inflight, k.tokens, k.signal}, max(0, delay.Milliseconds()))
}

// Extend implements queue.Queue.
func (q *Queue) Extend(ctx context.Context, d queue.Delivery) error {
	k := q.keys
	return q.held(ctx, "extend", d, extendScript, []string{k.jobs, k.inflight, k.tokens}, q.vis.Milliseconds())
}

// Close implements queue.Queue.
func (q *Queue) Close() error {
	if q.closed.Swap(true) {
		return nil
	}
	if q.owns {
		return q.client.Close()
	}
	return nil
}
