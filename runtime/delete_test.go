package runtime_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
	"github.com/agentenkit/agentenkit/runtime/storage"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Deleting a thread deletes it: its messages and runs (a parked run is
// stopped, and answering it is a clear error instead of a resume on a
// fresh sandbox), its kv records, and its sandbox.
func TestDeleteThreadDeletesIt(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			llm := scripted.New(
				scripted.Turn{Text: "A file.", ToolCalls: []model.ToolCall{call("bash", `{"command":"echo x > old.log"}`)}},
				scripted.Turn{Text: "Now remove it.", ToolCalls: []model.ToolCall{call("rm", `{"path":"old.log"}`)}},
				scripted.Turn{Text: "Removed."},
			)
			w := newAgentWorld(t, b, func(t *testing.T, rt *runtime.Runtime) {
				builtin, err := rt.BuiltinTools([]string{lifecycle.ToolBash}, lifecycle.BuiltinToolOptions{
					Bash: lifecycle.BashOptions{Approval: lifecycle.AskNever, MaxUses: 5},
				})
				require.NoError(t, err)
				var removes atomic.Int32
				mustAgent(t, rt, runtime.AgentOptions{Name: "ops", Model: "m", Tools: append(builtin, rmTool(&removes))})
			}, map[string]model.Model{"m": llm})
			rt := w.worker(t)
			working(t, rt)
			ctx := tctx(t)

			h, err := agentNamed(t, rt, "ops").Send(ctx, "t1", "clean up")
			require.NoError(t, err)
			res, err := h.Wait(ctx)
			require.NoError(t, err)
			require.Equal(t, lifecycle.RunParked, res.State)
			sb, err := rt.SandboxFor(lifecycle.WithThread(ctx, "t1"))
			require.NoError(t, err)
			kvs := w.open(t).kv
			keys, err := kvs.Keys(ctx, "")
			require.NoError(t, err)
			assert.NotEmpty(t, threadKeys(keys, "t1"), "the thread has kv records: its sandbox, its tool-use counts")

			require.NoError(t, rt.DeleteThread(ctx, "t1"))

			_, err = rt.Storage().GetThread(ctx, "t1")
			assert.ErrorIs(t, err, storage.ErrNotFound, "the thread is gone")
			msgs, err := rt.Storage().Messages(ctx, "t1")
			if err == nil {
				assert.Empty(t, msgs, "its messages are gone")
			}
			runs, err := rt.Storage().ListRuns(ctx, "t1")
			if err == nil {
				assert.Empty(t, runs, "its runs are gone")
			}
			err = rt.Respond(ctx, h.RunID, []runtime.Approval{{ToolCallID: res.Pending[0].ToolCallID, Approved: true}})
			assert.ErrorIs(t, err, storage.ErrNotFound, "answering the parked run of a deleted thread fails")
			assert.ErrorContains(t, err, "no such run")
			keys, err = kvs.Keys(ctx, "")
			require.NoError(t, err)
			assert.Empty(t, threadKeys(keys, "t1"), "its kv records are gone")
			_, err = memory.New(memory.Options{Store: w.sandbox}).Connect(ctx, sb.Sandbox.ID())
			assert.ErrorIs(t, err, sandbox.ErrGone, "its sandbox ended")

			require.NoError(t, rt.DeleteThread(ctx, "t1"), "deleting it again is no error")
			require.NoError(t, rt.DeleteThread(ctx, "never-was"))
		})
	}
}

// threadKeys returns the kv keys that name thread.
func threadKeys(keys []string, thread string) []string {
	var out []string
	for _, k := range keys {
		if strings.Contains(k, "/"+thread+"/") || strings.HasSuffix(k, "/"+thread) {
			out = append(out, k)
		}
	}
	return out
}

// With an absolute SandboxStateDir, the local adapter's sandbox keeps the
// tools' files (the undo history, with copies of file contents) in a host
// folder of its own; it goes with the sandbox.
func TestLocalStateFolderEndsWithTheSandbox(t *testing.T) {
	ctx := context.Background()
	root, state := t.TempDir(), t.TempDir()
	p := localsandbox.New(localsandbox.Options{Root: root})
	require.NoError(t, p.Err())
	rt, err := runtime.New(ctx, runtime.Options{Kv: memkv.New(memkv.Options{}), Tools: lifecycle.Ports{Sandbox: p},
		Config: lifecycle.Config{SandboxStateDir: state}})
	require.NoError(t, err)
	editor, err := rt.BuiltinTools([]string{lifecycle.ToolTextEditor}, lifecycle.BuiltinToolOptions{})
	require.NoError(t, err)
	thread := lifecycle.WithThread(ctx, "t-local")
	for _, in := range []string{
		`{"command":"create","path":"a.txt","file_text":"secret\n"}`,
		`{"command":"str_replace","path":"a.txt","old_str":"secret","new_str":"public"}`,
	} {
		_, err := rt.CallTool(thread, editor[0], json.RawMessage(in))
		require.NoError(t, err, in)
	}
	sb, err := rt.SandboxFor(thread)
	require.NoError(t, err)
	folder := filepath.Join(state, sb.Sandbox.ID())
	ents, err := os.ReadDir(folder)
	require.NoError(t, err)
	require.NotEmpty(t, ents, "the undo history is in the state folder")

	require.NoError(t, rt.DeleteThread(ctx, "t-local"))
	_, err = os.Stat(folder)
	assert.ErrorIs(t, err, fs.ErrNotExist, "the state folder ended with the sandbox")
	_, err = os.Stat(state)
	assert.NoError(t, err, "SandboxStateDir itself stays")
}
