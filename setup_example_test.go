package agentenkit_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/agentenkit/agentenkit"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
)

// The setup every adapter plugs into the same way, and a custom tool that
// runs in the thread's sandbox.
func ExampleSetupAgentCore() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "agentenkit-setup")
	defer os.RemoveAll(dir)
	os.Setenv("AGENTENKIT_STATE_DIR", dir) // the embedded SQLite kv lives here

	rt, err := agentenkit.SetupAgentCore(ctx, agentenkit.RuntimeOptions{
		Tools: agentenkit.BuiltinToolPorts{
			Sandbox: localsandbox.New(localsandbox.Options{Root: dir + "/sandboxes"}),
		},
		Config: agentenkit.RuntimeConfig{SandboxIdleTTL: 10 * time.Minute},
	})
	if err != nil {
		panic(err)
	}
	count := agentenkit.AgentTool("count_files", "Counts the files in the work folder.",
		func(ctx context.Context, _ map[string]any, _ agentenkit.ToolContext) (string, error) {
			return agentenkit.WithSandbox(ctx, func(ts agentenkit.ThreadSandbox) (string, error) {
				res, err := ts.Sandbox.RunCommand(ctx, "touch a b c; ls | wc -l", agentenkit.RunCommandOptions{})
				return res.Stdout, err
			})
		})
	out, err := rt.CallTool(lifecycle.WithThread(ctx, "thread-1"), count, nil)
	fmt.Printf("%q %v\n", out, err)
	// Output: "3\n" <nil>
}
