package lifecycle_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/sandbox"
)

func ExampleManager_BuiltinTools() {
	ctx := context.Background()
	rt, _ := lifecycle.New(lifecycle.Options{
		Kv:    memkv.New(memkv.Options{}),
		Tools: lifecycle.Ports{Sandbox: memory.New(memory.Options{})},
	})
	builtins, _ := rt.BuiltinTools([]string{"bash", "code_execution", "text_editor"}, lifecycle.BuiltinToolOptions{
		Bash: lifecycle.BashOptions{Timeout: 30 * time.Second, MaxUses: 50},
	})
	for _, tool := range builtins {
		ask, _ := tool.Approval(ctx, json.RawMessage(`{"command":"view","path":"."}`))
		fmt.Printf("%s asks to view: %v\n", tool.Name, ask)
	}

	// An agent's run calls them through CallTool; here, a thread's call.
	ctx = lifecycle.WithThread(ctx, "thread-1")
	_, _ = rt.CallTool(ctx, builtins[0], json.RawMessage(`{"command":"mkdir -p app && cd app"}`))
	out, _ := rt.CallTool(ctx, builtins[0], json.RawMessage(`{"command":"pwd"}`))
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
	// Output:
	// bash asks to view: true
	// code_execution asks to view: false
	// text_editor asks to view: false
	// {"stdout":"/home/user/app\n","stderr":"","exitCode":0}
}

// A tool of the app's own on the thread's sandbox: the first call makes
// it, the next finds it, and a call after it ended gets a fresh one that
// says so.
func ExampleWithSandbox() {
	ctx := context.Background()
	m, _ := lifecycle.New(lifecycle.Options{
		Kv:    memkv.New(memkv.Options{}),
		Tools: lifecycle.Ports{Sandbox: memory.New(memory.Options{})},
	})
	count := lifecycle.AgentTool("count", "Adds a line to count.txt and counts the lines.",
		func(ctx context.Context, _ map[string]any, tc lifecycle.ToolContext) (string, error) {
			return lifecycle.WithSandbox(ctx, func(ts lifecycle.ThreadSandbox) (string, error) {
				r, err := ts.Sandbox.RunCommand(ctx, "echo x >> count.txt; wc -l < count.txt", sandbox.RunCommandOptions{})
				return fmt.Sprintf("%s lines in thread %s (fresh %v, note %q)", strings.TrimSpace(r.Stdout), tc.ThreadID, ts.Fresh, ts.Note), err
			})
		})
	thread := lifecycle.WithThread(ctx, "thread-1")
	for range 2 {
		out, _ := m.CallTool(thread, count, nil)
		fmt.Println(out)
	}
	ts, _ := m.SandboxFor(thread)
	_ = ts.Sandbox.Destroy(ctx) // it ends
	out, _ := m.CallTool(thread, count, nil)
	fmt.Println(out)
	// Output:
	// 1 lines in thread thread-1 (fresh true, note "")
	// 2 lines in thread thread-1 (fresh false, note "")
	// 1 lines in thread thread-1 (fresh true, note "The sandbox restarted. The files from before are gone: this is a fresh, empty sandbox.")
}
