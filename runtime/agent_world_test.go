package runtime_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/bus"
	"github.com/agentenkit/agentenkit/runtime/bus/membus"
	"github.com/agentenkit/agentenkit/runtime/bus/redisbus"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/kv/rediskv"
	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/pricing"
	"github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/queue/memqueue"
	"github.com/agentenkit/agentenkit/runtime/queue/redisqueue"
	"github.com/agentenkit/agentenkit/runtime/storage"
	"github.com/agentenkit/agentenkit/runtime/storage/memstorage"
	"github.com/agentenkit/agentenkit/runtime/storage/sqlitestorage"
)

// ports are one worker's connections to what the workers share.
type ports struct {
	kv      kv.Store
	storage storage.Storage
	bus     bus.Bus
	queue   queue.Queue
}

// backend opens a worker's ports; every call in one test reaches the same
// state, as workers in other processes would.
type backend struct {
	name string
	open func(t *testing.T) func(t *testing.T) ports
}

// backends are the deployments the acceptance tests run on: all in one
// process; SQLite for storage and kv (one file, each worker its own
// connections) with the in-process bus and queue; Redis for bus, queue and
// kv with the SQLite storage.
var backends = []backend{
	{"memory", func(t *testing.T) func(t *testing.T) ports {
		p := ports{kv: memkv.New(memkv.Options{}), storage: memstorage.New(memstorage.Options{}), bus: membus.New(), queue: memqueue.New(memqueue.Options{})}
		return func(*testing.T) ports { return p }
	}},
	{"sqlite", func(t *testing.T) func(t *testing.T) ports {
		file := filepath.Join(t.TempDir(), "state.sqlite")
		b, q := membus.New(), memqueue.New(memqueue.Options{})
		return func(t *testing.T) ports {
			return ports{kv: openSQLiteKv(t, file), storage: openSQLiteStorage(t, file), bus: b, queue: q}
		}
	}},
	{"redis", func(t *testing.T) func(t *testing.T) ports {
		url := testenv.RedisURL(t)
		prefix := randomPrefix()
		t.Cleanup(func() { dropKeys(url, prefix) })
		file := filepath.Join(t.TempDir(), "storage.sqlite")
		return func(t *testing.T) ports {
			kvs, err := rediskv.Open(url + "?prefix=" + prefix + "kv:")
			require.NoError(t, err)
			b, err := redisbus.Open(url + "?prefix=" + prefix + "bus:")
			require.NoError(t, err)
			q, err := redisqueue.Open(url + "?prefix=" + prefix)
			require.NoError(t, err)
			t.Cleanup(func() { kvs.Close(); b.Close(); q.Close() })
			return ports{kv: kvs, storage: openSQLiteStorage(t, file), bus: b, queue: q}
		}
	}},
}

// dropKeys deletes a test's keys from the Redis server.
func dropKeys(url, prefix string) {
	o, err := redis.ParseURL(url)
	if err != nil {
		return
	}
	c := redis.NewClient(o)
	defer c.Close()
	ctx := context.Background()
	if keys, err := c.Keys(ctx, prefix+"*").Result(); err == nil && len(keys) > 0 {
		c.Del(ctx, keys...)
	}
}

func openSQLiteKv(t *testing.T, file string) kv.Store {
	s, err := sqlitekv.Open(file)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func openSQLiteStorage(t *testing.T, file string) storage.Storage {
	s, err := sqlitestorage.Open(file)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func randomPrefix() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "agenttest:" + hex.EncodeToString(b[:]) + ":"
}

// agentWorld is what a test's workers share: the backend, one sandbox
// store, one clock, the models, and how every worker makes its agents.
type agentWorld struct {
	t       *testing.T
	clock   *testenv.Clock
	sandbox *memory.Store
	open    func(t *testing.T) ports
	models  map[string]model.Model
	agents  func(t *testing.T, rt *runtime.Runtime)
	pricer  pricing.Pricer
	cfg     lifecycle.Config
	hookMu  sync.Mutex
	hooked  []lifecycle.SandboxCall
}

func newAgentWorld(t *testing.T, b backend, agents func(t *testing.T, rt *runtime.Runtime), models map[string]model.Model) *agentWorld {
	return &agentWorld{t: t, clock: testenv.NewClock(), sandbox: memory.NewStore(), open: b.open(t), models: models, agents: agents}
}

func memoryWorld(t *testing.T, agents func(t *testing.T, rt *runtime.Runtime), models map[string]model.Model) *agentWorld {
	return newAgentWorld(t, backends[0], agents, models)
}

// worker returns a new runtime of the world, with its agents, as another
// worker process would be.
func (w *agentWorld) worker(t *testing.T) *runtime.Runtime {
	t.Helper()
	p := w.open(t)
	cfg := w.cfg
	cfg.Now = w.clock.Now
	rt, err := runtime.New(context.Background(), runtime.Options{
		Kv: p.kv, Storage: p.storage, Bus: p.bus, Queue: p.queue, Config: cfg, Pricer: w.pricer,
		Tools: lifecycle.Ports{
			Sandbox: memory.New(memory.Options{Store: w.sandbox, Now: w.clock.Now}),
			AfterSandboxCall: func(ctx context.Context, c lifecycle.SandboxCall) error {
				w.hookMu.Lock()
				w.hooked = append(w.hooked, c)
				w.hookMu.Unlock()
				return nil
			},
		},
		ResolveModel: func(name string) (model.Model, error) {
			if m, ok := w.models[name]; ok {
				return m, nil
			}
			return nil, errUnknownModel
		},
	})
	require.NoError(t, err)
	if w.agents != nil {
		w.agents(t, rt)
	}
	return rt
}

// working starts rt.Work until the test ends.
func working(t *testing.T, rt *runtime.Runtime) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rt.Work(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Work: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Work did not return after its ctx ended")
		}
	})
}

func tctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// agent returns the named agent of rt, made with opts on first use.
func mustAgent(t *testing.T, rt *runtime.Runtime, opts runtime.AgentOptions) *runtime.Agent {
	t.Helper()
	a, err := rt.CreateStreamTextAgent(opts)
	require.NoError(t, err)
	return a
}

// messages returns the thread's stored messages.
func messages(t *testing.T, rt *runtime.Runtime, threadID string) []storage.Message {
	t.Helper()
	msgs, err := rt.Storage().Messages(context.Background(), threadID)
	require.NoError(t, err)
	return msgs
}

func roles(msgs []storage.Message) []model.Role {
	var out []model.Role
	for _, m := range msgs {
		out = append(out, m.Role)
	}
	return out
}

// collect reads events until the channel closes.
func collect(t *testing.T, ch <-chan runtime.Event) []runtime.Event {
	t.Helper()
	var out []runtime.Event
	timeout := time.After(20 * time.Second)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return out
			}
			out = append(out, ev)
		case <-timeout:
			t.Fatalf("the event stream did not end; got %d events", len(out))
		}
	}
}

func types(evs []runtime.Event) []runtime.EventType {
	var out []runtime.EventType
	for i, ev := range evs {
		if ev.Type == runtime.EventTextDelta && i > 0 && evs[i-1].Type == runtime.EventTextDelta {
			continue // a reply's deltas count once
		}
		out = append(out, ev.Type)
	}
	return out
}

// rawTool is a tool over a handler of the raw input, as the built-in tools
// are made: for tests of the runtime's plumbing.
func rawTool(name, description string, handler func(ctx context.Context, input json.RawMessage) (any, error)) lifecycle.Tool {
	return lifecycle.Tool{Name: name, Description: description, InputSchema: json.RawMessage(`{"type":"object"}`), Handler: handler}
}
