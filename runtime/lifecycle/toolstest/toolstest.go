// Package toolstest checks that the built-in tools (bash, code_execution,
// text_editor) behave the same on a sandbox adapter as on every other: run
// it from the adapter's tests, or add the adapter to the table in package
// tools' tests.
//
//	func TestTools(t *testing.T) {
//		toolstest.Run(t, toolstest.Harness{
//			NewProvider: func(t *testing.T) sandbox.Provider { return memory.New(memory.Options{}) },
//		})
//	}
//
// The tools run through the lifecycle (Manager.BuiltinTools and CallTool),
// as an agent's calls do, on a fresh thread, and so a fresh sandbox, per
// test.
package toolstest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/tools"
)

// Harness is what the suite needs of an adapter.
type Harness struct {
	// NewProvider returns the provider to run on, for each runtime the
	// suite makes. It may skip the test (no engine, say).
	NewProvider func(t *testing.T) sandbox.Provider
	// Python and JavaScript say the adapter's sandboxes have python3 and
	// node. Cases that need one skip without it; with it declared, a
	// sandbox that lacks it fails them.
	Python     bool
	JavaScript bool
	// StateRoot returns an absolute folder for the SandboxStateDir tests:
	// a path the sandboxes can write to. Default "/tmp/agentenkit-state".
	StateRoot func(t *testing.T) string
}

// Run runs the suite.
func Run(t *testing.T, h Harness) {
	t.Run("bash", func(t *testing.T) { testBash(t, h) })
	t.Run("code_execution", func(t *testing.T) { testCode(t, h) })
	t.Run("text_editor", func(t *testing.T) { testEditor(t, h) })
	t.Run("runtime", func(t *testing.T) { testRuntime(t, h) })
}

// world is one runtime over the adapter, with the built-in tools.
type world struct {
	h     Harness
	rt    *lifecycle.Manager
	tools map[string]lifecycle.Tool
	hooks atomic.Int64 // AfterSandboxCall calls

	mu    sync.Mutex
	progs map[string]bool // programs the sandboxes run, as far as seen
}

func newWorld(t *testing.T, h Harness, cfg lifecycle.Config, opts lifecycle.BuiltinToolOptions) *world {
	t.Helper()
	w := &world{h: h, tools: map[string]lifecycle.Tool{}, progs: map[string]bool{}}
	rt, err := lifecycle.New(lifecycle.Options{
		Kv: memkv.New(memkv.Options{}),
		Tools: lifecycle.Ports{
			Sandbox: h.NewProvider(t),
			AfterSandboxCall: func(ctx context.Context, c lifecycle.SandboxCall) error {
				w.hooks.Add(1)
				return nil
			},
		},
		Config: cfg,
	})
	require.NoError(t, err)
	w.rt = rt
	ts, err := rt.BuiltinTools([]string{lifecycle.ToolBash, lifecycle.ToolCodeExecution, lifecycle.ToolTextEditor, tools.StrReplaceBasedEditTool}, opts)
	require.NoError(t, err)
	for _, tool := range ts {
		w.tools[tool.Name] = tool
	}
	return w
}

func randomID(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// thread returns the ctx of a run of a new thread, whose sandboxes end
// with the test.
func (w *world) thread(t *testing.T) context.Context {
	id := randomID("thread")
	t.Cleanup(func() { _ = w.rt.EndThread(context.Background(), id) })
	return lifecycle.WithRun(context.Background(), id, randomID("run"))
}

// call runs one call of a built-in tool, as the agent loop does.
func (w *world) call(t *testing.T, ctx context.Context, name, input string) (any, error) {
	t.Helper()
	tool, ok := w.tools[name]
	require.True(t, ok, "no tool %s", name)
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	return w.rt.CallTool(ctx, tool, json.RawMessage(input))
}

// modelError returns the text of a model-facing failure, failing the test
// on any other error.
func modelError(t *testing.T, err error) string {
	t.Helper()
	require.Error(t, err)
	var te *tools.Error
	require.True(t, errors.As(err, &te), "want a *tools.Error, got %T: %v", err, err)
	return te.Text
}

func (w *world) bash(t *testing.T, ctx context.Context, input string) tools.BashResult {
	t.Helper()
	out, err := w.call(t, ctx, lifecycle.ToolBash, input)
	require.NoError(t, err, "bash %s", input)
	res, ok := out.(tools.BashResult)
	require.True(t, ok, "bash result is %T", out)
	return res
}

func (w *world) sh(t *testing.T, ctx context.Context, command string) tools.BashResult {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"command": command})
	return w.bash(t, ctx, string(b))
}

func (w *world) code(t *testing.T, ctx context.Context, language, code string) tools.CodeResult {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"language": language, "code": code})
	out, err := w.call(t, ctx, lifecycle.ToolCodeExecution, string(b))
	require.NoError(t, err, "code_execution %s", code)
	res, ok := out.(tools.CodeResult)
	require.True(t, ok, "code_execution result is %T", out)
	return res
}

// edit calls the text editor (or the alias name, if given) and returns its
// result's text, as the reference tool prints it, after checking the
// result's JSON shape.
func (w *world) edit(t *testing.T, ctx context.Context, input string, name ...string) (string, error) {
	t.Helper()
	tool := lifecycle.ToolTextEditor
	if len(name) > 0 {
		tool = name[0]
	}
	out, err := w.call(t, ctx, tool, input)
	if err != nil {
		return "", err
	}
	res, ok := out.(tools.EditorResult)
	require.True(t, ok, "text_editor result is %T", out)
	raw, err := json.Marshal(res)
	require.NoError(t, err)
	var shape map[string]any
	require.NoError(t, json.Unmarshal(raw, &shape))
	if res.Command == tools.CmdView {
		assert.Subset(t, keys(shape), []string{"path", "content", "totalLines"}, "a view's shape: %s", raw)
	} else {
		assert.Equal(t, true, shape["ok"], "a change's shape: %s", raw)
		assert.Contains(t, shape, "message")
	}
	// The text is what the reference tool prints: the tests compare it.
	return res.Text(), nil
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func (w *world) mustEdit(t *testing.T, ctx context.Context, input string) string {
	t.Helper()
	out, err := w.edit(t, ctx, input)
	require.NoError(t, err, "text_editor %s", input)
	return out
}

// sandbox returns the ctx's sandbox.
func (w *world) sandbox(t *testing.T, ctx context.Context) sandbox.Sandbox {
	t.Helper()
	h, err := w.rt.SandboxFor(ctx)
	require.NoError(t, err)
	return h.Sandbox
}

func (w *world) workdir(t *testing.T, ctx context.Context) string {
	t.Helper()
	info, err := w.sandbox(t, ctx).GetInfo(ctx)
	require.NoError(t, err)
	return info.Workdir
}

func (w *world) readFile(t *testing.T, ctx context.Context, p string) (string, bool) {
	t.Helper()
	sb := w.sandbox(t, ctx)
	ok, err := sb.FileSystem().Exists(ctx, p)
	require.NoError(t, err)
	if !ok {
		return "", false
	}
	s, err := sb.FileSystem().ReadFile(ctx, p)
	require.NoError(t, err)
	return s, true
}

func (w *world) writeFile(t *testing.T, ctx context.Context, p, content string) {
	t.Helper()
	require.NoError(t, w.sandbox(t, ctx).FileSystem().WriteFile(ctx, p, []byte(content)))
}

// has reports whether the sandbox runs prog.
func (w *world) has(t *testing.T, ctx context.Context, prog string) bool {
	t.Helper()
	r, err := w.sandbox(t, ctx).RunCommand(ctx, "command -v "+prog, sandbox.RunCommandOptions{})
	require.NoError(t, err)
	return r.ExitCode == 0 && strings.TrimSpace(r.Stdout) != ""
}

// needs skips a test that needs a program the harness does not declare,
// and fails one whose declared program is missing. ctx is only used (to
// look) when it is declared.
func (w *world) needs(t *testing.T, ctx context.Context, prog string, declared bool) {
	t.Helper()
	if !declared {
		t.Skipf("needs %s in the sandbox (Harness does not declare it)", prog)
	}
	w.mu.Lock()
	ok, seen := w.progs[prog]
	w.mu.Unlock()
	if !seen {
		ok = w.has(t, ctx, prog)
		w.mu.Lock()
		w.progs[prog] = ok
		w.mu.Unlock()
	}
	require.True(t, ok, "the harness declares %s, but the sandbox does not run it", prog)
}

func (h Harness) stateRoot(t *testing.T) string {
	if h.StateRoot != nil {
		return h.StateRoot(t)
	}
	return "/tmp/agentenkit-state"
}
