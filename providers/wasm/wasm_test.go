package wasm_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/sandboxtest"
)

var warmOnce sync.Once

// needImages skips (or, with AGENTENKIT_REQUIRE=wasm-images, fails) when
// the images are not in the images folder. The first call compiles both
// images (seconds), so that time limits in tests measure commands only.
func needImages(t testing.TB) {
	t.Helper()
	p := wasm.New(wasm.Options{})
	if err := p.Warm(context.Background()); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "the wasm images are not fetched and built: run `make images` ("+err.Error()+")")
	} else if err != nil {
		t.Fatal(err)
	}
	warmOnce.Do(func() {
		ctx := context.Background()
		sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
		if err != nil {
			return
		}
		defer sb.Destroy(ctx)
		_, _ = sb.RunCommand(ctx, "python3 -c pass", sandbox.RunCommandOptions{})
	})
}

// pythonMinor is the major.minor version ("3.12", "3.11") of the python
// image the providers of these tests run ($AGENTENKIT_PYTHON_IMAGE: the
// fetched one, or the project's own build).
func pythonMinor(t testing.TB) string {
	t.Helper()
	needImages(t)
	paths, err := images.Find("")
	require.NoError(t, err)
	v, err := paths.PythonVersionFor("")
	require.NoError(t, err)
	major, rest, _ := strings.Cut(v, ".")
	minor, _, _ := strings.Cut(rest, ".")
	return major + "." + minor
}

// newProvider returns a provider on store (a fresh memkv when nil).
func newProvider(t testing.TB, store kv.Store, opts wasm.Options) *wasm.Provider {
	t.Helper()
	needImages(t)
	if store == nil {
		store = memkv.New(memkv.Options{})
	}
	opts.Kv = store
	p := wasm.New(opts)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// newSandbox makes a sandbox destroyed at the end of the test.
func newSandbox(t testing.TB, p sandbox.Provider, opts sandbox.CreateSandboxOptions) sandbox.Sandbox {
	t.Helper()
	sb, err := p.Create(context.Background(), opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	return sb
}

// run runs a command and fails the test on an error.
func run(t testing.TB, sb sandbox.Sandbox, cmd string, opts sandbox.RunCommandOptions) sandbox.CommandResult {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = time.Minute
	}
	res, err := sb.RunCommand(context.Background(), cmd, opts)
	require.NoError(t, err, "RunCommand(%q)", cmd)
	return res
}

func TestConformance(t *testing.T) {
	needImages(t)
	store := memkv.New(memkv.Options{})
	sandboxtest.Run(t, sandboxtest.Harness{
		NewProvider: func(t *testing.T) sandbox.Provider {
			return wasm.New(wasm.Options{Kv: store, TestNetwork: &wasm.TestNetwork{
				Resolve:       map[string]string{sandboxtest.AllowedTestHost: "127.0.0.1", sandboxtest.DeniedTestHost: "127.0.0.1"},
				AllowLoopback: true,
			}})
		},
		Unsupported: map[sandboxtest.Capability]string{
			sandboxtest.CapURL: "a wasm sandbox serves no port, so no URL (docker, e2b and local give URLs)",
		},
		LoopbackNames: true,
		ExpiryWithin:  2 * time.Second,
	})
}
