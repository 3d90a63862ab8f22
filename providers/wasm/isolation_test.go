package wasm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/vfs"
)

// Each test here is an attempt to get out of the sandbox or to take the host
// down. Each must fail safely, with a clear result, and leave the host (this
// process) and the sandbox working.

func stillWorks(t *testing.T, sb sandbox.Sandbox) {
	t.Helper()
	res := run(t, sb, "echo still-ok", sandbox.RunCommandOptions{})
	assert.Equal(t, "still-ok\n", res.Stdout, "the sandbox works afterwards")
}

func TestHostFilesAreNotVisible(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	host := t.TempDir()
	secret := fmt.Sprintf("host-secret-%d", time.Now().UnixNano())
	secretPath := filepath.Join(host, "secret.txt")
	require.NoError(t, os.WriteFile(secretPath, []byte(secret), 0o644))
	up := strings.Repeat("../", 30)
	rel := strings.TrimPrefix(secretPath, "/")
	for _, cmd := range []string{
		"cat " + secretPath,
		"ls -la " + host,
		"cat " + up + rel,
		"cd /; cat " + up + rel,
		"cd " + up + "; pwd; ls",
		"ln -s " + secretPath + " l1; cat l1",
		"ln -s " + up + strings.TrimPrefix(host, "/") + " d1; cat d1/secret.txt; ls d1",
		"mkdir -p a/b; ln -s ../../../../../.. a/b/up; cat a/b/up" + secretPath,
		"cat /etc/passwd /proc/self/environ /proc/1/cmdline",
		"find / -name secret.txt",
		"python3 -c \"print(open('" + secretPath + "').read())\"",
		"python3 -c \"import os; print(os.listdir('" + host + "'))\"",
		"python3 -c \"print(open('/etc/passwd').read())\"",
		"python3 -c \"import os; print(os.listdir('/'))\"",
		"echo planted > " + secretPath + ".planted",
		"python3 -c \"open('" + host + "/py-planted','w').write('x')\"",
		// Python's subprocess, os.system and a #! script reach only the
		// sandbox's shell and files.
		"python3 -c \"import subprocess; r = subprocess.run(['cat', '" + secretPath + "'], capture_output=True); print(r.stdout, r.returncode)\"",
		"python3 -c \"import subprocess; r = subprocess.run('ls -la " + host + "; cat " + up + rel + "', shell=True, capture_output=True); print(r.stdout, r.returncode)\"",
		"python3 -c \"import os; os.system('cat " + secretPath + "; echo planted > " + host + "/py-planted')\"",
		"printf '#!/usr/bin/env python3\\nprint(open(\"" + secretPath + "\").read())\\n' > s.py; chmod +x s.py; ./s.py",
	} {
		res := run(t, sb, cmd, sandbox.RunCommandOptions{})
		assert.NotContains(t, res.Stdout+res.Stderr, secret, "%q read the host's file", cmd)
		assert.NotContains(t, res.Stdout, "secret.txt", "%q listed the host's folder", cmd)
		// every Debian /etc/passwd has daemon; the sandbox's own
		// (posixfs.EtcFiles) only root and user
		assert.NotContains(t, res.Stdout, "daemon:x:1:1", "%q read the host's /etc/passwd", cmd)
	}
	for _, name := range []string{"secret.txt.planted", "py-planted"} {
		_, err := os.Stat(filepath.Join(host, name))
		assert.True(t, os.IsNotExist(err), "a command wrote %s on the host", name)
	}
	// What / holds is the sandbox's own tree, with the shell's system
	// folders (/usr/bin listing its commands, /bin and /sbin links).
	res := run(t, sb, "ls /", sandbox.RunCommandOptions{})
	assert.Equal(t, "bin\netc\nhome\nsbin\ntmp\nusr\n", res.Stdout)
	res = run(t, sb, "cat /etc/passwd", sandbox.RunCommandOptions{})
	assert.Equal(t, posixfs.EtcFiles["passwd"], res.Stdout, "the sandbox's own /etc/passwd")
	stillWorks(t, sb)
}

func TestHostEnvIsNotVisible(t *testing.T) {
	secret := fmt.Sprintf("host-env-%d", time.Now().UnixNano())
	t.Setenv("AGENTENKIT_WASM_TEST_SECRET", secret)
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{Envs: map[string]string{"GIVEN": "yes"}})
	for _, cmd := range []string{
		"env; set; echo $AGENTENKIT_WASM_TEST_SECRET",
		"python3 -c 'import os; print(dict(os.environ))'",
		"env | sort | python3 -c 'import sys; print(sys.stdin.read())'",
		"python3 -c 'import subprocess; print(subprocess.run(\"env; set\", shell=True, capture_output=True))'",
		"python3 -c 'import os; os.system(\"env\"); print(os.popen(\"set\").read())'",
	} {
		res := run(t, sb, cmd, sandbox.RunCommandOptions{})
		assert.NotContains(t, res.Stdout+res.Stderr, secret, "%q saw the host's environment", cmd)
		assert.NotContains(t, res.Stdout, "GOPATH", "%q saw the host's environment", cmd)
	}
	res := run(t, sb, "env | sort", sandbox.RunCommandOptions{Env: map[string]string{"CALL": "1"}})
	assert.Equal(t, "CALL=1\nGIVEN=yes\nHOME=/home/user\nLANG=C.UTF-8\nPATH=/usr/local/bin:/usr/bin:/bin\nPWD=/home/user\nUSER=user\n", res.Stdout)
}

func TestNoNetwork(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	// Python's sockets are the host's (a connect asks it), so each way to
	// reach out is refused by the policy; nothing is resolved either.
	res := run(t, sb, `python3 -c '
import socket, urllib.request
for what, f in [("connect", lambda: socket.create_connection(("1.1.1.1", 80), timeout=2)),
                ("connect by name", lambda: socket.create_connection(("example.com", 443), timeout=2)),
                ("socket", lambda: socket.socket().connect(("93.184.216.34", 80))),
                ("urllib", lambda: urllib.request.urlopen("https://example.com/"))]:
    try:
        f()
        print(what, "WORKED")
    except Exception as e:
        print(what, "failed:", type(e).__name__, e)
print(socket.getaddrinfo("example.com", 80)[0][4])
'`, sandbox.RunCommandOptions{})
	assert.Equal(t, 0, res.ExitCode, res.Stderr)
	assert.NotContains(t, res.Stdout, "WORKED")
	assert.Equal(t, 4, strings.Count(res.Stdout, "blocked by the sandbox's network policy: the sandbox has no network"), res.Stdout)
	assert.Contains(t, res.Stdout, "('example.com', 80)\n", "getaddrinfo resolves nothing: the name goes to the host as it is")
	res = run(t, sb, "curl -sS http://example.com/", sandbox.RunCommandOptions{})
	assert.Equal(t, 7, res.ExitCode)
	assert.Contains(t, res.Stderr, "blocked by the sandbox's network policy: the sandbox has no network")
	_, err := sb.GetURL(context.Background(), 8080, "http")
	require.ErrorIs(t, err, sandbox.ErrUnsupported)
	assert.Contains(t, err.Error(), "docker, e2b and local")
}

func TestMemoryExhaustion(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	// Python asks for 2 GiB at once, past the 512 MiB default cap.
	res := run(t, sb, "python3 -c 'b = bytearray(2000 << 20); print(len(b))'; echo status $?", sandbox.RunCommandOptions{})
	assert.Contains(t, res.Stderr, "MemoryError", res.Stderr)
	assert.Contains(t, res.Stderr, "memory limit exceeded", "the message says why")
	assert.Equal(t, "status 1\n", res.Stdout)

	// Growth in the shell itself, with a small cap to make it quick.
	small := newSandbox(t, p, sandbox.CreateSandboxOptions{Resources: sandbox.Resources{MemoryMB: 64}})
	for _, cmd := range []string{
		`awk 'BEGIN { s = "x"; while (1) s = s s }'`,
		`s=x; while true; do s="$s$s"; done`,
		`python3 -c 'l = []
while True: l.append(bytearray(1 << 20))'`,
	} {
		start := time.Now()
		res := run(t, small, cmd, sandbox.RunCommandOptions{Timeout: time.Minute})
		assert.NotEqual(t, 0, res.ExitCode, "%q", cmd)
		assert.False(t, res.TimedOut, "%q ran into the time limit instead of the memory cap", cmd)
		assert.Contains(t, res.Stderr, "memory limit exceeded", "%q: stderr %q", cmd, tail(res.Stderr))
		t.Logf("%q: exit %d after %v: %q", cmd, res.ExitCode, time.Since(start).Round(time.Millisecond), tail(res.Stderr))
		stillWorks(t, small)
	}
	// Many instances, each within its cap, cannot add up past the
	// command's: background jobs share one budget.
	shared := newSandbox(t, p, sandbox.CreateSandboxOptions{Resources: sandbox.Resources{MemoryMB: 160}})
	res = run(t, shared, `for i in 1 2 3 4; do python3 -c 'x = bytearray(60 << 20); import time; time.sleep(2); print("held")' & done; wait`, sandbox.RunCommandOptions{})
	assert.Less(t, strings.Count(res.Stdout, "held"), 4, "four instances of 60 MiB ran in a 160 MiB budget")
	assert.Contains(t, res.Stderr, "MemoryError")
	assert.Contains(t, res.Stderr, "together", "the message says the command's instances went over together")
	stillWorks(t, shared)

	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	t.Logf("host heap in use: %d MiB before, %d MiB after", before.HeapInuse>>20, after.HeapInuse>>20)
	stillWorks(t, sb)
}

func tail(s string) string {
	if len(s) > 300 {
		return "…" + s[len(s)-300:]
	}
	return s
}

func TestDiskQuota(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	ctx := context.Background()
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{Resources: sandbox.Resources{DiskMB: 1, MaxFiles: 50}})
	fsys := sb.FileSystem()

	// The file API: all or nothing.
	err := fsys.WriteFile(ctx, "big.bin", make([]byte, 2<<20))
	require.ErrorIs(t, err, vfs.ErrNoSpace)
	ok, err := fsys.Exists(ctx, "big.bin")
	require.NoError(t, err)
	assert.False(t, ok, "a refused WriteFile left a file behind")

	// One write past the quota changes nothing.
	res := run(t, sb, `python3 -c "open('one.bin', 'wb').write(b'x' * 2_000_000)"; echo status $?; wc -c < one.bin`, sandbox.RunCommandOptions{})
	assert.Contains(t, res.Stdout, "status 1\n0\n", "stdout %q stderr %q", res.Stdout, res.Stderr)
	assert.Contains(t, res.Stderr, "OSError")

	// A stream of writes stops at the quota with an error.
	res = run(t, sb, "head -c 5000000 /dev/zero > stream.bin; echo status $?; rm stream.bin", sandbox.RunCommandOptions{})
	assert.Contains(t, res.Stdout, "status 1\n", "stdout %q stderr %q", res.Stdout, res.Stderr)
	assert.NotEmpty(t, res.Stderr, "the failure is reported")

	// The file count.
	res = run(t, sb, "for i in $(seq 1 100); do touch f$i || { echo stopped at $i; break; }; done; rm -f f*", sandbox.RunCommandOptions{})
	assert.Contains(t, res.Stdout, "stopped at", res.Stderr)

	// Everything still fits and works.
	require.NoError(t, fsys.WriteFile(ctx, "small.txt", []byte("fits")))
	stillWorks(t, sb)
}

func TestEndlessLoopsAreKilled(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	for _, cmd := range []string{
		"echo start; while true; do :; done",
		"echo start; python3 -c 'while True: pass'",
		"echo start; python3 -c 'import time; time.sleep(100)'",
		"echo start; yes > /dev/null",
		"echo start; cat",
		"echo start; f() { f; }; f",
	} {
		start := time.Now()
		res := run(t, sb, cmd, sandbox.RunCommandOptions{Timeout: 2 * time.Second})
		took := time.Since(start)
		if cmd == "echo start; f() { f; }; f" && !res.TimedOut {
			// Endless recursion may end first by running out of stack
			// or memory: a failure with a message, also fine.
			assert.NotEqual(t, 0, res.ExitCode, "%q", cmd)
			continue
		}
		if cmd == "echo start; cat" {
			// stdin is empty: cat ends at once.
			assert.Equal(t, 0, res.ExitCode)
			continue
		}
		assert.True(t, res.TimedOut, "%q: TimedOut", cmd)
		assert.Equal(t, sandbox.TimeoutExitCode, res.ExitCode)
		assert.Equal(t, "start\n", res.Stdout, "%q: the output before the kill", cmd)
		assert.Less(t, took, 5*time.Second, "%q: killed late", cmd)
	}
	stillWorks(t, sb)
}

func TestHundredMegabytesOfOutput(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	start := time.Now()
	res := run(t, sb, "head -c 100000000 /dev/zero | cat; echo done >&2", sandbox.RunCommandOptions{Timeout: 2 * time.Minute})
	t.Logf("100 MB through a pipeline in %v", time.Since(start).Round(time.Millisecond))
	assert.True(t, res.Truncated)
	assert.False(t, res.TimedOut)
	assert.Equal(t, sandbox.MaxOutputBytes, len(res.Stdout))
	assert.Equal(t, "done\n", res.Stderr)
	res = run(t, sb, "head -c 100000000 /dev/zero", sandbox.RunCommandOptions{Timeout: 2 * time.Minute})
	assert.True(t, res.Truncated)
	assert.Equal(t, sandbox.MaxOutputBytes, len(res.Stdout))
	stillWorks(t, sb)
}

func TestTooManyProcesses(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{Resources: sandbox.Resources{Pids: 4}})
	// A pipeline in a pipeline in ...: a fork bomb of pipeline stages
	// (goroutines of the shell's instance) stops at the shell's limit.
	res := run(t, sb, "f() { echo x | f; }; f", sandbox.RunCommandOptions{Timeout: 30 * time.Second})
	assert.NotEqual(t, 0, res.ExitCode)
	assert.False(t, res.TimedOut)
	assert.Contains(t, res.Stderr, "Resource temporarily unavailable", tail(res.Stderr))
	// Instances the host starts (python3) stop at Pids: four at once.
	res = run(t, sb, "for i in 1 2 3 4 5; do python3 -c 'import time; time.sleep(4)' & done; wait", sandbox.RunCommandOptions{Timeout: 60 * time.Second})
	assert.False(t, res.TimedOut)
	assert.Contains(t, res.Stderr, "Resource temporarily unavailable", tail(res.Stderr))
	stillWorks(t, sb)
}
