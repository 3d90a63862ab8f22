package agentenkit_test

import (
	"context"
	"fmt"
	"os"

	"github.com/agentenkit/agentenkit"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
)

// A sandbox from the local adapter, a command in it, and a file it wrote.
func Example() {
	ctx := context.Background()
	root, _ := os.MkdirTemp("", "agentenkit-example")
	defer os.RemoveAll(root)

	var provider agentenkit.SandboxProvider = localsandbox.New(localsandbox.Options{Root: root})
	sb, err := provider.Create(ctx, agentenkit.CreateSandboxOptions{})
	if err != nil {
		panic(err)
	}
	defer sb.Destroy(ctx)

	res, err := sb.RunCommand(ctx, "echo hello > greeting.txt; cat greeting.txt; exit 3", agentenkit.RunCommandOptions{})
	if err != nil {
		panic(err)
	}
	text, _ := sb.FileSystem().ReadFile(ctx, "greeting.txt")
	fmt.Printf("stdout=%q exit=%d file=%q\n", res.Stdout, res.ExitCode, text)
	// Output: stdout="hello\n" exit=3 file="hello\n"
}
