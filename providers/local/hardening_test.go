package localsandbox_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/sandbox"
)

// newLocal makes a provider whose warnings go to the returned buffer, and
// a sandbox of it destroyed at the end of the test.
func newLocal(t *testing.T) (*localsandbox.Provider, sandbox.Sandbox, *bytes.Buffer) {
	t.Helper()
	var log bytes.Buffer
	p := localsandbox.New(localsandbox.Options{Root: t.TempDir(), Logger: slog.New(slog.NewTextHandler(&log, nil))})
	require.NoError(t, p.Err())
	sb, err := p.Create(context.Background(), sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	return p, sb, &log
}

// noUnshare makes the PATH of the test (and of the provider's probe) one
// without unshare: the host then looks like one without namespaces.
func noUnshare(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"bash", "sh", "sleep", "setsid", "cat", "tr", "grep", "echo", "ln"} {
		p, err := exec.LookPath(name)
		if err != nil {
			t.Skipf("%s is not on PATH", name)
		}
		require.NoError(t, os.Symlink(p, filepath.Join(dir, name)))
	}
	t.Setenv("PATH", dir)
}

// The app's environment does not reach a command, not even through /proc:
// where the host allows it a command runs in a PID namespace of its own;
// where it does not, Create says so in a warning.
func TestAppEnvNotThroughProc(t *testing.T) {
	secret := "s3cret-" + uuid.NewString()
	t.Setenv("AGENTENKIT_TEST_SECRET", secret)
	_, sb, log := newLocal(t)
	res, err := sb.RunCommand(context.Background(), `echo "pid $$"; for f in /proc/$PPID/environ /proc/[0-9]*/environ; do tr '\0' '\n' < "$f"; done 2>/dev/null | grep -c s3cret-`, sandbox.RunCommandOptions{})
	require.NoError(t, err)
	if !strings.HasPrefix(res.Stdout, "pid 1\n") {
		assert.Contains(t, log.String(), "do not get a PID namespace", "no PID namespace, and no warning")
		t.Skip("no PID namespace on this host; the warning says so")
	}
	assert.Equal(t, "pid 1\n0\n", res.Stdout, "the app's environment reached the command: %s", res.Stderr)
	assert.NotContains(t, res.Stdout+res.Stderr, secret)
	assert.NotContains(t, log.String(), "PID namespace")
}

func TestNoPIDNamespaceWarns(t *testing.T) {
	noUnshare(t)
	_, sb, log := newLocal(t)
	assert.Equal(t, 1, strings.Count(log.String(), "do not get a PID namespace"), "log: %s", log.String())
	res, err := sb.RunCommand(context.Background(), "echo ok", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "ok\n", res.Stdout)
}

// A hard link a command made to a host file outside the folder does not
// let the file API write that file: the API replaces the link instead.
func TestWriteThroughHardLink(t *testing.T) {
	ctx := context.Background()
	host := filepath.Join(t.TempDir(), "host.txt")
	require.NoError(t, os.WriteFile(host, []byte("host data\n"), 0o644))
	_, sb, _ := newLocal(t)
	res, err := sb.RunCommand(ctx, fmt.Sprintf("ln %q hl && echo linked", host), sandbox.RunCommandOptions{})
	require.NoError(t, err)
	if res.Stdout != "linked\n" {
		t.Skipf("cannot make a hard link here: %s", res.Stderr)
	}
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "hl", []byte("sandbox data\n")))
	got, err := os.ReadFile(host)
	require.NoError(t, err)
	assert.Equal(t, "host data\n", string(got), "the host file outside the folder was overwritten")
	inside, err := sb.FileSystem().ReadFile(ctx, "hl")
	require.NoError(t, err)
	assert.Equal(t, "sandbox data\n", inside)

	// A file of one link is written in place, its mode kept.
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "x.sh", []byte("a")))
	_, err = sb.RunCommand(ctx, "chmod 755 x.sh", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "x.sh", []byte("b")))
	res, err = sb.RunCommand(ctx, "stat -c %a x.sh; cat x.sh", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "755\nb", res.Stdout)

	// A FIFO is refused, not opened (which would block).
	_, err = sb.RunCommand(ctx, "mkfifo ff", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Error(t, sb.FileSystem().WriteFile(ctx, "ff", []byte("x")))
}

// alive tells whether a process runs whose command line is args.
func alive(args ...string) bool {
	want := strings.Join(args, "\x00") + "\x00"
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && string(b) == want {
			return true
		}
	}
	return false
}

// eventually waits up to 5 s for cond.
func eventually(cond func() bool) bool {
	for range 100 {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cond()
}

// A process that left the command's process group and session (setsid)
// is killed at the time limit and at Destroy, with and without a PID
// namespace.
func TestSetsidChildKilled(t *testing.T) {
	for _, mode := range []string{"namespace", "no-namespace"} {
		t.Run(mode, func(t *testing.T) {
			if mode == "no-namespace" {
				noUnshare(t)
			}
			ctx := context.Background()
			_, sb, _ := newLocal(t)
			secs := fmt.Sprint(300 + time.Now().UnixNano()%10000)
			res, err := sb.RunCommand(ctx, "setsid sleep "+secs+" & sleep 30", sandbox.RunCommandOptions{Timeout: time.Second})
			require.NoError(t, err)
			assert.True(t, res.TimedOut)
			assert.True(t, eventually(func() bool { return !alive("sleep", secs) }), "setsid sleep %s survived the time limit", secs)

			secs = fmt.Sprint(20000 + time.Now().UnixNano()%10000)
			done := make(chan error, 1)
			go func() {
				_, err := sb.RunCommand(ctx, "setsid sleep "+secs+" & sleep 30", sandbox.RunCommandOptions{})
				done <- err
			}()
			require.True(t, eventually(func() bool { return alive("sleep", secs) }), "setsid sleep %s never ran", secs)
			require.NoError(t, sb.Destroy(ctx))
			select {
			case err := <-done:
				assert.ErrorIs(t, err, sandbox.ErrGone)
			case <-time.After(10 * time.Second):
				t.Fatal("Destroy did not end the command")
			}
			assert.True(t, eventually(func() bool { return !alive("sleep", secs) }), "setsid sleep %s survived Destroy", secs)
		})
	}
}
