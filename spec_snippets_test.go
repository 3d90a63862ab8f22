package agentenkit_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit"
	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/docker"
	"github.com/agentenkit/agentenkit/providers/e2b"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/providers/wasm"
	agentbus "github.com/agentenkit/agentenkit/runtime/bus"
	"github.com/agentenkit/agentenkit/runtime/bus/membus"
	agentkv "github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	agentqueue "github.com/agentenkit/agentenkit/runtime/queue"
	"github.com/agentenkit/agentenkit/runtime/queue/memqueue"
	agentstorage "github.com/agentenkit/agentenkit/runtime/storage"
	"github.com/agentenkit/agentenkit/runtime/storage/memstorage"
)

// The spec's three Go snippets, character for character, with only the
// variables they use declared around them. README's "In Go" shows the same
// code (TestREADMEShowsTheSpecSnippets).

func specSetup(ctx context.Context, storage agentstorage.Storage, bus agentbus.Bus, queue agentqueue.Queue, kv agentkv.Store, resolve func(string) (model.Model, error)) (*agentenkit.Runtime, error) {
	sandbox, err := e2b.New(os.Getenv("E2B_API_KEY"), e2b.Options{})
	if err != nil {
		log.Fatal(err)
	}
	rt, err := agentenkit.SetupAgentCore(ctx, agentenkit.RuntimeOptions{
		Storage: storage, Bus: bus, Queue: queue, Kv: kv, ResolveModel: resolve,
		Tools: agentenkit.BuiltinToolPorts{Sandbox: sandbox},
		// or docker.New(docker.Options{}), or localsandbox.New(localsandbox.Options{})
	})
	return rt, err
}

func specBuiltinTools(rt *agentenkit.Runtime) ([]agentenkit.Tool, error) {
	tools, err := rt.BuiltinTools([]string{"bash", "code_execution", "text_editor"}, agentenkit.BuiltinToolOptions{
		Bash: agentenkit.BashOptions{Timeout: 2 * time.Minute},
	})
	return tools, err
}

func specRunTests() agentenkit.Tool {
	runTests := agentenkit.AgentTool("run_tests", "Run the test suite",
		func(ctx context.Context, _ map[string]any, _ agentenkit.ToolContext) (string, error) {
			return agentenkit.WithSandbox(ctx, func(ts agentenkit.ThreadSandbox) (string, error) {
				r, err := ts.Sandbox.RunCommand(ctx, "pytest -q", agentenkit.RunCommandOptions{Timeout: time.Minute})
				if err != nil {
					return "", err
				}
				return fmt.Sprintf("exit %d\n%s", r.ExitCode, r.Stdout), nil
			})
		})
	return runTests
}

// The spec comment's alternatives take no error, so they go inline.
var _ = []agentenkit.SandboxProvider{docker.New(docker.Options{}), localsandbox.New(localsandbox.Options{})}

func noModel(name string) (model.Model, error) {
	return nil, fmt.Errorf("no model %q in this test", name)
}

// The first two snippets run as written: e2b.New makes no request, so a
// key of any shape sets the runtime up, and the built-in tools come out of
// it in order.
func TestSpecSetupSnippet(t *testing.T) {
	ctx := context.Background()
	t.Setenv("E2B_API_KEY", "e2b_spec_snippet")
	rt, err := specSetup(ctx, memstorage.New(memstorage.Options{}), membus.New(), memqueue.New(memqueue.Options{}), memkv.New(memkv.Options{}), noModel)
	require.NoError(t, err)
	assert.Equal(t, "e2b", rt.Provider().Name())

	tools, err := specBuiltinTools(rt)
	require.NoError(t, err)
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"bash", "code_execution", "text_editor"}, names)

	_, err = e2b.New("", e2b.Options{})
	assert.ErrorContains(t, err, "no API key", "a missing key is New's error")
}

// runSpecTool runs the third snippet's tool on a runtime over p.
func runSpecTool(t *testing.T, p agentenkit.SandboxProvider, store agentkv.Store) string {
	t.Helper()
	ctx := context.Background()
	rt, err := agentenkit.SetupAgentCore(ctx, agentenkit.RuntimeOptions{
		Storage: memstorage.New(memstorage.Options{}), Kv: store,
		Tools: agentenkit.BuiltinToolPorts{Sandbox: p},
	})
	require.NoError(t, err)
	thread := lifecycle.WithThread(ctx, "spec-thread")
	t.Cleanup(func() { _ = rt.DeleteThread(context.Background(), "spec-thread") })
	out, err := rt.CallTool(thread, specRunTests(), nil)
	require.NoError(t, err)
	return out.(string)
}

func TestSpecRunTestsSnippetOnMemory(t *testing.T) {
	pytest := func(_ context.Context, c *memory.Call, args []string) error {
		if strings.Join(args, " ") != "pytest -q" {
			return memory.Exit(4)
		}
		fmt.Fprint(c.Stdout, "..\n2 passed in 0.01s\n")
		return nil
	}
	p := memory.New(memory.Options{Handlers: map[string]memory.Handler{"pytest": pytest}})
	assert.Equal(t, "exit 0\n..\n2 passed in 0.01s\n", runSpecTool(t, p, memkv.New(memkv.Options{})))
}

// On wasm there is no pytest: bash's exit 127, its message on stderr (which
// the snippet does not show).
func TestSpecRunTestsSnippetOnWasm(t *testing.T) {
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	p := wasm.New(wasm.Options{Kv: store})
	if err := p.Warm(ctx); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "run `make images`: "+err.Error())
	} else {
		require.NoError(t, err)
	}
	assert.Equal(t, "exit 127\n", runSpecTool(t, p, store))

	sb, err := p.Create(ctx, agentenkit.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	r, err := sb.RunCommand(ctx, "pytest -q", agentenkit.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "bash: line 1: pytest: command not found\n", r.Stderr, "bash's own message")
}

// README's "In Go" shows the spec's snippets, the same code as above.
func TestREADMEShowsTheSpecSnippets(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	self, err := os.ReadFile("spec_snippets_test.go")
	require.NoError(t, err)
	section := string(readme)
	start := strings.Index(section, "\n## In Go\n")
	require.GreaterOrEqual(t, start, 0, "README has an In Go section")
	section = section[start+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	blocks := strings.Split(section, "```go\n")[1:]
	require.Len(t, blocks, 3, "the three snippets of the spec")
	for _, b := range blocks {
		code := b[:strings.Index(b, "```")]
		var indented strings.Builder
		for line := range strings.Lines(code) {
			if strings.TrimSpace(line) != "" {
				indented.WriteString("\t")
			}
			indented.WriteString(line)
		}
		assert.Contains(t, string(self), indented.String(), "README's snippet is this file's code")
	}
}
