package docker_test

import (
	"context"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/docker"
	"github.com/agentenkit/agentenkit/sandbox"
)

// waitGone polls Connect from a fresh provider until the sandbox is gone.
func waitGone(t *testing.T, id string, within time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	for time.Since(start) < within {
		_, err := provider(t, docker.Options{}).Connect(context.Background(), id)
		if err != nil {
			require.ErrorIs(t, err, sandbox.ErrGone)
			return time.Since(start)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("sandbox %s still alive after %s", id, within)
	return 0
}

// removed reports whether the engine no longer knows the container.
func removed(id string) bool {
	return exec.Command("docker", "inspect", id).Run() != nil
}

func TestIdleEndsWithNoProcessRunning(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{Timeout: 2 * time.Second})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	took := waitGone(t, sb.ID(), 15*time.Second)
	t.Logf("idle sandbox gone %s after creation", took)
	assert.Eventually(t, func() bool { return removed(sb.ID()) }, 5*time.Second, 100*time.Millisecond, "auto-remove deletes the container")
}

func TestUsePushesTheEndBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{Timeout: 3 * time.Second})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	// A command longer than the idle time keeps it alive while it runs.
	res, err := sb.RunCommand(ctx, "sleep 5; echo survived", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "survived\n", res.Stdout)
	waitGone(t, sb.ID(), 15*time.Second)
}

func TestHardEndStopsABusySandbox(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := provider(t, docker.Options{MaxLifetime: 3 * time.Second})
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	start := time.Now()
	_, err = sb.RunCommand(ctx, "sleep 60", sandbox.RunCommandOptions{})
	assert.ErrorIs(t, err, sandbox.ErrGone, "a command cut off by the hard end")
	assert.Less(t, time.Since(start), 20*time.Second)
	waitGone(t, sb.ID(), 10*time.Second)
}

func TestKilledFromOutsideIsGone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	out, err := exec.Command("docker", "kill", sb.ID()).CombinedOutput()
	require.NoError(t, err, "%s", out)
	waitGone(t, sb.ID(), 10*time.Second)
	_, err = sb.RunCommand(ctx, "echo hi", sandbox.RunCommandOptions{})
	assert.ErrorIs(t, err, sandbox.ErrGone)
	_, err = sb.FileSystem().ReadFile(ctx, "x")
	assert.ErrorIs(t, err, sandbox.ErrGone)
	assert.NoError(t, sb.Destroy(ctx))
}

func TestHundredMegabytesOfOutput(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	start := time.Now()
	res, err := sb.RunCommand(ctx, "head -c 100000000 /dev/zero | tr '\\0' a; echo done >&2", sandbox.RunCommandOptions{Timeout: time.Minute})
	require.NoError(t, err)
	t.Logf("100 MB drained in %s", time.Since(start))
	assert.False(t, res.TimedOut)
	assert.True(t, res.Truncated)
	assert.Equal(t, sandbox.MaxOutputBytes, len(res.Stdout))
	assert.Equal(t, "done\n", res.Stderr)
}

func TestMissingImageIsAClearError(t *testing.T) {
	t.Parallel()
	_, err := provider(t, docker.Options{Image: "agentenkit-no-such-image:0"}).Create(context.Background(), sandbox.CreateSandboxOptions{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "agentenkit-no-such-image:0")
	assert.Contains(t, err.Error(), "not on this engine")
	assert.ErrorIs(t, err, docker.ErrImageMissing)
}

func TestURLOfAPublishedPort(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{
		Network: sandbox.Network{Mode: sandbox.NetworkAll},
		Ports:   []int{8080},
	})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "www/index.html", []byte("served from the sandbox")))
	_, err = sb.RunCommand(ctx, "httpd -p 8080 -h www >/dev/null 2>&1", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	u, err := sb.GetURL(ctx, 8080, "")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(u, "http://127.0.0.1:"), u)
	var body string
	assert.Eventually(t, func() bool {
		resp, err := http.Get(u + "/index.html")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body = string(b)
		return resp.StatusCode == 200
	}, 10*time.Second, 200*time.Millisecond)
	assert.Equal(t, "served from the sandbox", body)

	_, err = sb.GetURL(ctx, 9999, "")
	assert.ErrorContains(t, err, "not published")
}

func TestNetworkNoneHasNoURL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	_, err = sb.GetURL(ctx, 8080, "")
	assert.ErrorIs(t, err, sandbox.ErrUnsupported)
	res, err := sb.RunCommand(ctx, "ls /sys/class/net", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "lo\n", res.Stdout, "network none: only loopback")
}

func TestResourceLimits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sb, err := provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{
		Resources: sandbox.Resources{MemoryMB: 128, Pids: 32, CPUs: 0.5},
	})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	res, err := sb.RunCommand(ctx, "cat /sys/fs/cgroup/memory/memory.limit_in_bytes /sys/fs/cgroup/pids/pids.max 2>/dev/null || cat /sys/fs/cgroup/memory.max /sys/fs/cgroup/pids.max", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "134217728\n32\n", res.Stdout)
	_, err = provider(t, docker.Options{}).Create(ctx, sandbox.CreateSandboxOptions{Resources: sandbox.Resources{DiskMB: 10}})
	assert.ErrorIs(t, err, sandbox.ErrUnsupported)
}

func TestBashWhereTheImageHasIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := provider(t, docker.Options{})
	out, err := exec.Command("./testdata/build-images.sh", "python").CombinedOutput()
	require.NoError(t, err, "%s", out)
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Image: "agentenkit-test-python:1"})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	res, err := sb.RunCommand(ctx, `echo "${BASH_VERSION%%.*}"; python3 -c 'print(6*7)'`, sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "5\n42\n", res.Stdout, "stderr: %s", res.Stderr)
}
