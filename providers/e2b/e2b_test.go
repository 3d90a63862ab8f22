package e2b_test

import (
	"os"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/e2b"
	"github.com/agentenkit/agentenkit/providers/e2b/e2btest"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/sandboxtest"
	"github.com/stretchr/testify/require"
)

// testKey is the API key the test server wants.
const testKey = "e2b_0123456789abcdef"

// testDomain is the domain the test server gives its sandboxes.
const testDomain = "e2b.test"

// newServer starts a test server backed by the local adapter in a fresh
// folder.
func newServer(t *testing.T) *e2btest.Server {
	t.Helper()
	srv := e2btest.New(e2btest.Options{Backend: newBackend(t), APIKey: testKey, Domain: testDomain})
	t.Cleanup(srv.Close)
	return srv
}

// newBackend returns a local provider in a fresh folder.
func newBackend(t *testing.T) *localsandbox.Provider {
	t.Helper()
	back := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
	if err := back.Err(); err != nil {
		t.Fatal(err)
	}
	return back
}

// newProvider returns a provider on srv; opts fills in the rest.
func newProvider(srv *e2btest.Server, opts e2b.Options) *e2b.Provider {
	opts.APIURL, opts.SandboxURL = srv.URL(), srv.URL()
	p, err := e2b.New(testKey, opts)
	if err != nil {
		panic(err) // the tests' own options are valid
	}
	return p
}

// unsupported is what the adapter cannot offer on srv: where the test
// server gives commands a root of their own (a mount namespace), they do
// not see the host's files; elsewhere they run on this host as they are.
func unsupported(t *testing.T, srv *e2btest.Server) map[sandboxtest.Capability]string {
	ctx := ctxT(t)
	probe, err := newProvider(srv, e2b.Options{}).Create(ctx, sandbox.CreateSandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Destroy(ctx)
	if srv.ExactCommandPaths(probe.ID()) {
		return nil
	}
	return map[sandboxtest.Capability]string{
		sandboxtest.CapIsolatedCommands: "the test server runs commands on the local adapter, on this host, without a mount namespace here",
	}
}

func TestConformance(t *testing.T) {
	srv := newServer(t)
	sandboxtest.Run(t, sandboxtest.Harness{
		NewProvider:  func(t *testing.T) sandbox.Provider { return newProvider(srv, e2b.Options{}) },
		Unsupported:  unsupported(t, srv),
		ExpiryWithin: 3 * time.Second,
	})
}

// TestConformanceV1 runs the suite on a control plane without the v2
// routes: the adapter falls back to v1's create and connect.
func TestConformanceV1(t *testing.T) {
	srv := e2btest.New(e2btest.Options{Backend: newBackend(t), APIKey: testKey, Domain: testDomain, V1Only: true})
	t.Cleanup(srv.Close)
	sandboxtest.Run(t, sandboxtest.Harness{
		NewProvider:  func(t *testing.T) sandbox.Provider { return newProvider(srv, e2b.Options{}) },
		Unsupported:  unsupported(t, srv),
		ExpiryWithin: 3 * time.Second,
	})
}

// TestConformanceLive runs the suite against E2B itself when the test's
// environment has E2B_API_KEY (E2B_DOMAIN and E2B_TEMPLATE optional). It
// makes real sandboxes, billed to that key.
func TestConformanceLive(t *testing.T) {
	key := os.Getenv("E2B_API_KEY")
	if key == "" {
		testenv.Missing(t, "e2b", "E2B_API_KEY is not set; export an E2B API key to run the conformance suite against the real service")
	}
	opts := e2b.Options{Domain: os.Getenv("E2B_DOMAIN"), Template: os.Getenv("E2B_TEMPLATE")}
	sandboxtest.Run(t, sandboxtest.Harness{
		NewProvider: func(t *testing.T) sandbox.Provider {
			p, err := e2b.New(key, opts)
			require.NoError(t, err)
			return p
		},
		ExpiryWithin: 30 * time.Second,
	})
}
