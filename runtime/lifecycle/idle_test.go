package lifecycle_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/tools"
)

// The idle time counts from the end of a use, not its start: a call that
// runs longer than SandboxIdleTTL keeps its sandbox while it runs, and the
// sandbox is still there after it, in real time, on each adapter that ends
// sandboxes by itself.
func TestIdleTimeCountsFromTheEndOfUse(t *testing.T) {
	adapters := []struct {
		name string
		open func(t *testing.T, store kv.Store) sandbox.Provider
	}{
		{"memory", func(t *testing.T, _ kv.Store) sandbox.Provider { return memory.New(memory.Options{}) }},
		{"local", func(t *testing.T, _ kv.Store) sandbox.Provider {
			p := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
			require.NoError(t, p.Err())
			return p
		}},
		{"wasm", func(t *testing.T, store kv.Store) sandbox.Provider {
			p := wasm.New(wasm.Options{Kv: store})
			if err := p.Warm(context.Background()); errors.Is(err, images.ErrMissing) {
				testenv.Missing(t, "wasm-images", "run `make images`: "+err.Error())
			} else {
				require.NoError(t, err)
			}
			return p
		}},
	}
	for _, a := range adapters {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			store := memkv.New(memkv.Options{})
			rt, err := lifecycle.New(lifecycle.Options{Kv: store, Tools: lifecycle.Ports{Sandbox: a.open(t, store)},
				Config: lifecycle.Config{SandboxIdleTTL: 2 * time.Second}})
			require.NoError(t, err)
			bash, err := rt.BuiltinTools([]string{lifecycle.ToolBash}, lifecycle.BuiltinToolOptions{})
			require.NoError(t, err)
			thread := lifecycle.WithThread(ctx, "idle-"+a.name)
			t.Cleanup(func() { _ = rt.EndThread(context.Background(), "idle-"+a.name) })
			run := func(command string) tools.BashResult {
				t.Helper()
				in, _ := json.Marshal(map[string]string{"command": command})
				out, err := rt.CallTool(thread, bash[0], in)
				require.NoError(t, err)
				return out.(tools.BashResult)
			}

			r := run("echo keep > f; sleep 3")
			assert.Equal(t, 0, r.ExitCode, r.Stderr)
			r = run("cat f")
			assert.Equal(t, "keep\n", r.Stdout, "the sandbox outlived a call longer than its idle time")
			assert.Empty(t, r.Note)

			// The end counts from there: a second past it, the sandbox is
			// still there; well past it, it has ended.
			time.Sleep(time.Second)
			r = run("cat f")
			assert.Equal(t, "keep\n", r.Stdout)
			assert.Empty(t, r.Note)
			time.Sleep(4 * time.Second)
			r = run("cat f")
			assert.NotEmpty(t, r.Note, "idle past SandboxIdleTTL: a fresh sandbox, lost or restored")
		})
	}
}
