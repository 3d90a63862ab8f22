package docker_test

import (
	"context"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/docker"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/sandboxtest"
)

const busyboxImage = "agentenkit-test-busybox:1"

var (
	imagesOnce sync.Once
	imagesErr  error
	imagesOut  []byte
)

// provider returns a provider on the test engine, building the test image
// once; without an engine the test skips, or fails where docker is required.
func provider(t *testing.T, opts docker.Options) *docker.Provider {
	t.Helper()
	if opts.Image == "" {
		opts.Image = busyboxImage
	}
	p := docker.New(opts)
	t.Cleanup(func() { p.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.Ping(ctx); err != nil {
		testenv.Missing(t, "docker", err.Error())
	}
	imagesOnce.Do(func() {
		imagesOut, imagesErr = exec.Command("./testdata/build-images.sh", "busybox").CombinedOutput()
	})
	if imagesErr != nil {
		t.Fatalf("building the test image: %v\n%s", imagesErr, imagesOut)
	}
	return p
}

// create makes a sandbox on p, destroyed at the end of the test.
func create(t *testing.T, p *docker.Provider, opts sandbox.CreateSandboxOptions) sandbox.Sandbox {
	t.Helper()
	sb, err := p.Create(context.Background(), opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	return sb
}

func TestConformance(t *testing.T) {
	provider(t, docker.Options{}) // skip or fail early, once
	sandboxtest.Run(t, sandboxtest.Harness{
		NewProvider: func(t *testing.T) sandbox.Provider { return provider(t, docker.Options{}) },
		Unsupported: map[sandboxtest.Capability]string{
			sandboxtest.CapNetworkAllowList: "docker offers network none or all, not allow lists by domain",
			sandboxtest.CapPython:           "the test image is busybox's, without python3",
		},
		ExpiryWithin: 5 * time.Second,
	})
}
