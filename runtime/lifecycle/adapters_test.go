package lifecycle_test

import (
	"context"
	"errors"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/providers/wasm"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/docker"
	"github.com/agentenkit/agentenkit/providers/e2b"
	"github.com/agentenkit/agentenkit/providers/e2b/e2btest"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/runtime/lifecycle/toolstest"
	"github.com/agentenkit/agentenkit/sandbox"
)

// adapters are the sandbox adapters the tools are checked on; adding one
// is one line.
var adapters = []struct {
	name string
	h    toolstest.Harness
}{
	{"memory", toolstest.Harness{NewProvider: func(*testing.T) sandbox.Provider { return memory.New(memory.Options{}) }}},
	{"local", local},
	{"docker", toolstest.Harness{NewProvider: dockerProvider, Python: true}},
	{"wasm", toolstest.Harness{NewProvider: wasmProvider, Python: true, JavaScript: true}},
	{"e2b", toolstest.Harness{NewProvider: e2bProvider, Python: onHost("python3"), JavaScript: onHost("node")}},
}

// e2bTestKey is the API key of the E2B test servers.
const e2bTestKey = "e2b_0123456789abcdef"

// e2bProvider returns the E2B adapter on a fresh E2B-compatible test server
// (package e2btest) whose sandboxes are local ones: the adapter speaks
// E2B's API over HTTP, the sandboxes show E2B's paths (/home/user, /tmp),
// and commands run on this host, with its python3 and node. Where the
// server cannot give commands a mount namespace, so that they would see
// rewritten paths only, the test skips (fails where AGENTENKIT_REQUIRE
// names e2btest-paths).
func e2bProvider(t *testing.T) sandbox.Provider {
	back := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
	if err := back.Err(); err != nil {
		t.Fatal(err)
	}
	srv := e2btest.New(e2btest.Options{Backend: back, APIKey: e2bTestKey})
	t.Cleanup(srv.Close)
	p, err := e2b.New(e2bTestKey, e2b.Options{APIURL: srv.URL(), SandboxURL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	probe, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	exact := srv.ExactCommandPaths(probe.ID())
	if err := probe.Destroy(ctx); err != nil {
		t.Fatal(err)
	}
	if !exact {
		testenv.Missing(t, "e2btest-paths", "the E2B test server's commands get no mount namespace on this host (unshare -m or -rm, and mount --bind)")
	}
	return p
}

// wasmProvider returns the wasm adapter; without its images the test skips
// (fails where AGENTENKIT_REQUIRE names wasm-images).
func wasmProvider(t *testing.T) sandbox.Provider {
	p := wasm.New(wasm.Options{})
	if err := p.Warm(context.Background()); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "run `make images`: "+err.Error())
	} else if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTools(t *testing.T) {
	for _, a := range adapters {
		t.Run(a.name, func(t *testing.T) { toolstest.Run(t, a.h) })
	}
}

// local runs commands on the host: its python3 and node, when there.
var local = toolstest.Harness{
	NewProvider: func(t *testing.T) sandbox.Provider {
		p := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
		if err := p.Err(); err != nil {
			t.Fatal(err)
		}
		return p
	},
	Python:     onHost("python3"),
	JavaScript: onHost("node"),
	// An absolute state dir of a local sandbox is a host folder, outside
	// the sandbox's own.
	StateRoot: func(t *testing.T) string { return t.TempDir() },
}

func onHost(prog string) bool {
	_, err := exec.LookPath(prog)
	return err == nil
}

// pythonImage is the docker adapter's python test image: Debian's python3
// and bash with busybox's applets, no node.
const pythonImage = "agentenkit-test-python:1"

var (
	imageOnce sync.Once
	imageErr  error
	imageOut  []byte
)

// dockerProvider returns a provider on the test engine, building the test
// image once; without an engine the test skips (fails where docker is
// required).
func dockerProvider(t *testing.T) sandbox.Provider {
	p := docker.New(docker.Options{Image: pythonImage})
	t.Cleanup(func() { p.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.Ping(ctx); err != nil {
		testenv.Missing(t, "docker", err.Error())
	}
	imageOnce.Do(func() {
		imageOut, imageErr = exec.Command("../../providers/docker/testdata/build-images.sh", "python").CombinedOutput()
	})
	if imageErr != nil {
		t.Fatalf("building the test image: %v\n%s", imageErr, imageOut)
	}
	return p
}
