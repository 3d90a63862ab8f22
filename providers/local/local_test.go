package localsandbox_test

import (
	"testing"

	"github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/sandboxtest"
)

func TestConformance(t *testing.T) {
	root := t.TempDir()
	sandboxtest.Run(t, sandboxtest.Harness{
		NewProvider: func(t *testing.T) sandbox.Provider {
			p := localsandbox.New(localsandbox.Options{Root: root})
			if err := p.Err(); err != nil {
				t.Fatal(err)
			}
			return p
		},
		Unsupported: map[sandboxtest.Capability]string{
			sandboxtest.CapIsolatedCommands: "the local adapter runs commands on the host as the app's user",
			sandboxtest.CapNetworkAllowList: "the local adapter cannot filter by domain",
			sandboxtest.CapSessionKill:      "the local adapter kills a timed-out command's process group; a process that starts a session of its own (setsid) outlives it",
		},
	})
}
