package localsandbox_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/sandbox"
)

// TestChildConnect is the other process of TestConnectFromAnotherProcess.
func TestChildConnect(t *testing.T) {
	root, id := os.Getenv("LOCAL_CHILD_ROOT"), os.Getenv("LOCAL_CHILD_ID")
	if root == "" {
		t.Skip("run by TestConnectFromAnotherProcess in a child process")
	}
	ctx := context.Background()
	p := localsandbox.New(localsandbox.Options{Root: root})
	require.NoError(t, p.Err())
	sb, err := p.Connect(ctx, id)
	require.NoError(t, err)
	res, err := sb.RunCommand(ctx, "cat from-parent.txt; echo from-child > from-child.txt", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	fmt.Printf("child saw: %s\n", res.Stdout)
}

func TestConnectFromAnotherProcess(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	p := localsandbox.New(localsandbox.Options{Root: root})
	require.NoError(t, p.Err())
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "from-parent.txt", []byte("parent-data")))

	cmd := exec.Command(os.Args[0], "-test.run=^TestChildConnect$", "-test.v")
	cmd.Env = append(os.Environ(), "LOCAL_CHILD_ROOT="+root, "LOCAL_CHILD_ID="+sb.ID())
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), "child saw: parent-data")
	got, err := sb.FileSystem().ReadFile(ctx, "from-child.txt")
	require.NoError(t, err)
	assert.Equal(t, "from-child\n", got)
}

func TestExpiredSandboxFolderRemoved(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	p := localsandbox.New(localsandbox.Options{Root: root})
	require.NoError(t, p.Err())
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	dir := sb.(*localsandbox.Sandbox).Dir()
	require.DirExists(t, dir)
	require.NoError(t, sb.SetTimeout(ctx, 100*time.Millisecond))
	time.Sleep(200 * time.Millisecond)
	_, err = p.Connect(ctx, sb.ID())
	require.ErrorIs(t, err, sandbox.ErrGone)
	assert.NoDirExists(t, dir, "an expired sandbox's folder is removed")
	assert.Contains(t, err.Error(), "ended at")
}

func TestSweepOnCreate(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	p := localsandbox.New(localsandbox.Options{Root: root})
	require.NoError(t, p.Err())
	old, err := p.Create(ctx, sandbox.CreateSandboxOptions{Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	time.Sleep(100 * time.Millisecond)
	fresh, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer fresh.Destroy(ctx)
	assert.NoDirExists(t, filepath.Join(root, old.ID()), "Create sweeps expired sandboxes")
}

func TestProductionWarning(t *testing.T) {
	for _, c := range []struct {
		name string
		opts localsandbox.Options
		env  string
		warn bool
	}{
		{"option", localsandbox.Options{Production: true}, "", true},
		{"env", localsandbox.Options{}, "production", true},
		{"development", localsandbox.Options{}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			c.opts.Logger = slog.New(slog.NewTextHandler(&buf, nil))
			c.opts.Root = t.TempDir()
			t.Setenv("AGENTENKIT_ENV", c.env)
			require.NoError(t, localsandbox.New(c.opts).Err())
			assert.Equal(t, c.warn, strings.Contains(buf.String(), "does not isolate"), "log: %s", buf.String())
		})
	}
}

func TestCwdOutsideRoot(t *testing.T) {
	ctx := context.Background()
	p := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
	require.NoError(t, p.Err())
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	for _, cwd := range []string{"/etc", "../..", "sub/../../x"} {
		_, err := sb.RunCommand(ctx, "pwd", sandbox.RunCommandOptions{Cwd: cwd})
		assert.ErrorIs(t, err, sandbox.ErrOutsideRoot, "Cwd %q", cwd)
	}
}

func TestNetworkNoneHasNoNetwork(t *testing.T) {
	ctx := context.Background()
	if exec.Command("unshare", "-n", "true").Run() != nil {
		t.Skip("unshare -n is not allowed on this host: the local adapter then warns that network none is not enforced")
	}
	p := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
	require.NoError(t, p.Err())
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer sb.Destroy(ctx)
	// Only a loopback device that is down: no route anywhere.
	res, err := sb.RunCommand(ctx, "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "lo\n", res.Stdout)
	_, err = sb.GetURL(ctx, 8080, "http")
	assert.True(t, errors.Is(err, sandbox.ErrUnsupported), "GetURL with network none: %v", err)
}
