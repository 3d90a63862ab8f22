package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
)

func ExampleRuntime_BuiltinTools() {
	ctx := context.Background()
	rt, _ := runtime.New(ctx, runtime.Options{
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
