package sandboxtest_test

import (
	"testing"

	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/sandboxtest"
)

// An adapter's conformance test: a harness that makes provider values sharing
// one backing store, and the capabilities it lacks with the reasons.
func ExampleRun() {
	var t *testing.T // the *testing.T of TestConformance
	root := "/tmp/my-adapter-root"
	sandboxtest.Run(t, sandboxtest.Harness{
		NewProvider: func(t *testing.T) sandbox.Provider {
			p := localsandbox.New(localsandbox.Options{Root: root})
			if err := p.Err(); err != nil {
				t.Fatal(err)
			}
			return p
		},
		Unsupported: map[sandboxtest.Capability]string{
			sandboxtest.CapIsolatedCommands: "commands run on the host",
			sandboxtest.CapSessionKill:      "a process that starts a session of its own outlives the command",
		},
	})
}
