package memory_test

import (
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/sandboxtest"
)

func TestConformance(t *testing.T) {
	store := memory.NewStore()
	sandboxtest.Run(t, sandboxtest.Harness{
		NewProvider: func(t *testing.T) sandbox.Provider {
			return memory.New(memory.Options{Store: store})
		},
		Unsupported: map[sandboxtest.Capability]string{
			sandboxtest.CapURL:              "a memory sandbox has no network",
			sandboxtest.CapNetworkAll:       "a memory sandbox has no network",
			sandboxtest.CapNetworkAllowList: "a memory sandbox has no network",
			sandboxtest.CapPython:           "a memory sandbox runs no CPython",
		},
		ExpiryWithin: 2 * time.Second,
	})
}
