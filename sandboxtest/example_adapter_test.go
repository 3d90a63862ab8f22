package sandboxtest_test

// This file shows, in under 100 lines, how an adapter is written and proved:
// countingProvider is a complete adapter (a decorator that counts commands
// on top of any other provider), and TestCountingAdapter runs the whole suite
// on it. broken_adapter_test.go proves the suite fails an adapter that breaks
// a contract.

import (
	"context"
	"sync/atomic"
	"testing"

	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/sandboxtest"
)

// countingProvider counts the commands run through it.
type countingProvider struct {
	sandbox.Provider
	commands *atomic.Int64
}

type countingSandbox struct {
	sandbox.Sandbox
	commands *atomic.Int64
}

func (p countingProvider) wrap(sb sandbox.Sandbox, err error) (sandbox.Sandbox, error) {
	if err != nil {
		return nil, err
	}
	return countingSandbox{sb, p.commands}, nil
}

func (p countingProvider) Create(ctx context.Context, o sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	return p.wrap(p.Provider.Create(ctx, o))
}

func (p countingProvider) Connect(ctx context.Context, id string) (sandbox.Sandbox, error) {
	return p.wrap(p.Provider.Connect(ctx, id))
}

func (s countingSandbox) RunCommand(ctx context.Context, cmd string, o sandbox.RunCommandOptions) (sandbox.CommandResult, error) {
	s.commands.Add(1)
	return s.Sandbox.RunCommand(ctx, cmd, o)
}

func harness(t *testing.T, wrap func(sandbox.Provider) sandbox.Provider) sandboxtest.Harness {
	root := t.TempDir()
	return sandboxtest.Harness{
		NewProvider: func(t *testing.T) sandbox.Provider {
			p := localsandbox.New(localsandbox.Options{Root: root})
			if err := p.Err(); err != nil {
				t.Fatal(err)
			}
			return wrap(p)
		},
		Unsupported: map[sandboxtest.Capability]string{
			sandboxtest.CapIsolatedCommands: "local commands run on the host",
			sandboxtest.CapNetworkAllowList: "local cannot filter by domain",
			sandboxtest.CapSessionKill:      "local kills the process group only",
		},
	}
}

func TestCountingAdapter(t *testing.T) {
	var n atomic.Int64
	t.Cleanup(func() { // after the suite's parallel cases
		if n.Load() == 0 {
			t.Error("the suite ran no command through the adapter")
		}
	})
	sandboxtest.Run(t, harness(t, func(p sandbox.Provider) sandbox.Provider { return countingProvider{p, &n} }))
}
