package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/lifecycle"
	"github.com/agentenkit/agentenkit/runtime/model"
	"github.com/agentenkit/agentenkit/runtime/model/scripted"
)

func ExampleRuntime_CreateStreamTextAgent() {
	ctx := context.Background()
	// A scripted model: a tool call, then a reply.
	llm := scripted.New(
		scripted.Turn{Text: "Let me write that down.", ToolCalls: []model.ToolCall{
			{Name: "write_note", Input: json.RawMessage(`{"text":"buy milk"}`)},
		}},
		scripted.Turn{Text: "Saved your note."},
	)
	rt, err := runtime.New(ctx, runtime.Options{
		Kv:           memkv.New(memkv.Options{}),
		Tools:        lifecycle.Ports{Sandbox: memory.New(memory.Options{})},
		ResolveModel: func(name string) (model.Model, error) { return llm, nil },
	})
	if err != nil {
		panic(err)
	}
	writeNote := lifecycle.AgentTool("write_note", "Writes a note into the sandbox.", func(ctx context.Context, in map[string]any, _ lifecycle.ToolContext) (string, error) {
		text, _ := in["text"].(string)
		return lifecycle.WithSandbox(ctx, func(ts lifecycle.ThreadSandbox) (string, error) { // the thread's sandbox
			return "saved note.txt", ts.Sandbox.FileSystem().WriteFile(ctx, "note.txt", []byte(text))
		})
	})
	agent, err := rt.CreateStreamTextAgent(runtime.AgentOptions{
		Name:   "notes",
		Model:  "scripted",
		System: "You keep the user's notes.",
		Tools:  []lifecycle.Tool{writeNote},
	})
	if err != nil {
		panic(err)
	}

	run, err := agent.Send(ctx, "thread-1", "Note: buy milk")
	if err != nil {
		panic(err)
	}
	for ev := range run.Events() {
		switch ev.Type {
		case runtime.EventTextDelta:
			fmt.Print(ev.Text)
		case runtime.EventToolCall:
			fmt.Printf("\n> %s %s\n", ev.Tool, ev.Input)
		case runtime.EventToolResult:
			fmt.Printf("< %s\n", ev.Text)
		case runtime.EventFinished:
			fmt.Println()
		}
	}
	res, err := run.Wait(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.State+":", res.Text)
	// Output:
	// Let me write that down.
	// > write_note {"text":"buy milk"}
	// < saved note.txt
	// Saved your note.
	// finished: Saved your note.
}
