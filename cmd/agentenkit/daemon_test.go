package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
)

// needDaemon skips (or fails, where AGENTENKIT_REQUIRE names wasm-images)
// a test of the daemon when the wasm images are not here: the daemon
// serves the wasm provider only.
func needDaemon(t *testing.T) {
	t.Helper()
	if p := testProvider(t); p != "wasm" {
		if os.Getenv("AGENTENKIT_TEST_PROVIDER") != "" {
			t.Skipf("the daemon serves the wasm provider; the tests run on %s", p)
		}
		testenv.Missing(t, "wasm-images", "the daemon serves the wasm provider, whose images are not here (make images)")
	}
}

// daemonPID returns the pid `daemon status` reports, or 0 when none runs.
func (c *cli) daemonPID() int {
	c.t.Helper()
	r := c.run("", "daemon", "status")
	if r.code != 0 {
		return 0
	}
	m := regexp.MustCompile(`(?m)^pid: (\d+)$`).FindStringSubmatch(r.stdout)
	if m == nil {
		c.t.Fatalf("daemon status without a pid:\n%s", r.stdout)
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// daemonLog returns the daemon's log.
func (c *cli) daemonLog() string {
	b, _ := os.ReadFile(filepath.Join(c.state, "daemon", "daemon.log"))
	return string(b)
}

// TestDaemonMatchesInProcess: every run prints the same bytes on each
// stream and exits with the same code through the daemon as in its own
// process (--no-daemon).
func TestDaemonMatchesInProcess(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	for _, tc := range []struct {
		name string
		args []string // after run
	}{
		{"echo", []string{"--", "echo", "hi"}},
		{"both streams in order", []string{"--", "for i in 1 2 3 4 5 6 7 8 9 10; do echo out$i; echo err$i >&2; done"}},
		{"exit code", []string{"--", "echo out; echo err >&2; exit 3"}},
		{"not found", []string{"--", "no-such-command-here"}},
		{"not executable", []string{"--", "echo x > f; chmod -x f; ./f"}},
		{"killed by a signal", []string{"--", "echo before; kill -9 $$"}},
		{"exit 255", []string{"--", "exit 255"}},
		{"python", []string{"--", "python3", "-c", "import sys; print(6*7); print('e', file=sys.stderr); sys.exit(4)"}},
		{"binary output", []string{"--", `printf 'a\000b\377c\n'`}},
		{"long output", []string{"--", "seq 1 150000"}}, // 1 MB: many frames
		{"no trailing newline", []string{"--", "printf partial"}},
		{"timeout", []string{"--timeout", "2s", "--", "sleep 30"}}, // no output: a cold in-process run may not reach an echo in 2 s
		{"thread", []string{"--thread", "t", "--", "echo in-thread > f; cat f; pwd"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := c.run("", append([]string{"run", "--no-daemon"}, tc.args...)...)
			via := c.run("", append([]string{"run"}, tc.args...)...)
			if via.stdout != in.stdout || via.stderr != in.stderr || via.code != in.code {
				t.Fatalf("through the daemon: exit %d, stdout %q, stderr %q\nin-process: exit %d, stdout %q, stderr %q",
					via.code, short(via.stdout), via.stderr, in.code, short(in.stdout), in.stderr)
			}
			if tc.name == "timeout" && (via.code != 124 || !strings.Contains(via.stderr, "timed out")) {
				t.Fatalf("a command past --timeout: %+v", via)
			}
		})
	}
	if c.daemonPID() == 0 {
		t.Fatal("no daemon runs after the runs through it")
	}
}

func short(s string) string {
	if len(s) > 200 {
		return s[:100] + "..." + s[len(s)-100:]
	}
	return s
}

// TestDaemonLifecycle: the first run starts the daemon, with private
// files; a thread's files outlive a daemon's restart; --no-daemon and
// $AGENTENKIT_DAEMON=0 start none; daemon stop stops it.
func TestDaemonLifecycle(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	if r := c.run("", "daemon", "status"); r.code != 1 || !strings.Contains(r.stderr, "no daemon runs") {
		t.Fatalf("status before any run: %+v", r)
	}
	c.mustRun("", "run", "--no-daemon", "--", "true")
	c.env = []string{envDaemon + "=0"}
	c.mustRun("", "run", "--", "true")
	c.env = nil
	if pid := c.daemonPID(); pid != 0 {
		t.Fatalf("a run without the daemon started one (pid %d)", pid)
	}

	c.mustRun("", "run", "--thread", "t", "--", "echo kept > f")
	first := c.daemonPID()
	if first == 0 {
		t.Fatal("the first run started no daemon")
	}
	for file, want := range map[string]os.FileMode{"daemon": 0o700 | os.ModeDir, "daemon/sock": 0o600 | os.ModeSocket} {
		fi, err := os.Stat(filepath.Join(c.state, file))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != want {
			t.Errorf("%s: mode %v, want %v", file, fi.Mode(), want)
		}
	}
	r := c.mustRun("", "daemon", "status")
	for _, want := range []string{"build: " + testBuildID(t) + "\n", "running: 0\n", "idle exit: after 10m0s", "log: " + filepath.Join(c.state, "daemon", "daemon.log")} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("status lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := c.mustRun("", "run", "--", "echo", "again"); r.stdout != "again\n" || c.daemonPID() != first {
		t.Fatalf("a second run: %+v, daemon pid %d, want %d", r, c.daemonPID(), first)
	}

	if r := c.mustRun("", "daemon", "stop"); r.stdout != fmt.Sprintf("stopped the daemon (pid %d)\n", first) {
		t.Fatalf("stop: %+v", r)
	}
	if !gone(first) {
		t.Fatalf("the daemon (pid %d) lives on after stop", first)
	}
	if _, err := os.Lstat(filepath.Join(c.state, "daemon", "sock")); err == nil {
		t.Error("the socket is left after stop")
	}
	if r := c.mustRun("", "daemon", "stop"); !strings.Contains(r.stderr, "no daemon runs") {
		t.Fatalf("stop with none: %+v", r)
	}
	// A new daemon finds the thread's files in the kv.
	if r := c.mustRun("", "run", "--thread", "t", "--", "cat f"); r.stdout != "kept\n" {
		t.Fatalf("after the daemon's restart, cat f printed %q", r.stdout)
	}
	if pid := c.daemonPID(); pid == 0 || pid == first {
		t.Fatalf("after stop, the run's daemon has pid %d (the stopped one was %d)", pid, first)
	}
	// And so does a run without it, and the daemon a file of the other.
	c.mustRun("", "run", "--no-daemon", "--thread", "t", "--", "echo from-own-process > g")
	if r := c.mustRun("", "run", "--thread", "t", "--", "cat f g"); r.stdout != "kept\nfrom-own-process\n" {
		t.Fatalf("the daemon's view after an in-process run: %q", r.stdout)
	}
}

// gone reports whether process pid ends within 5 s: a stopped daemon has
// released its lock (what stop waits for) just before it exits.
func gone(pid int) bool {
	for range 50 {
		if !alive(pid) {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// alive reports whether process pid runs (a zombie does not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	// A zombie (state Z) has ended; its parent just has not reaped it.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// testBuildID is the build id of the CLI under test.
func testBuildID(t *testing.T) string {
	t.Helper()
	id := goBuildID(binary)
	if id == "" {
		t.Fatalf("no Go build ID in %s", binary)
	}
	return id
}

// TestDaemonConcurrentRunsOnOneThread: runs at once on one thread, served
// by one daemon, keep all their files.
func TestDaemonConcurrentRunsOnOneThread(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	c.mustRun("", "run", "--thread", "t", "--", "true")
	const n = 4
	var wg sync.WaitGroup
	results := make([]result, n)
	for i := range n {
		wg.Go(func() {
			results[i] = c.run("", "run", "--thread", "t", "--", fmt.Sprintf("sleep 0.%d; echo %d > f%d; echo %d >> all", i, i, i, i))
		})
	}
	wg.Wait()
	for i, r := range results {
		if r.code != 0 {
			t.Fatalf("run %d: %+v", i, r)
		}
	}
	r := c.mustRun("", "run", "--thread", "t", "--", "cat f0 f1 f2 f3; sort all")
	if r.stdout != "0\n1\n2\n3\n0\n1\n2\n3\n" {
		t.Fatalf("after %d runs at once: %q", n, r.stdout)
	}
	// The same after the daemon restarts: all of it was in the kv.
	c.mustRun("", "daemon", "stop")
	if r := c.mustRun("", "run", "--thread", "t", "--", "cat f0 f1 f2 f3"); r.stdout != "0\n1\n2\n3\n" {
		t.Fatalf("after a restart: %q", r.stdout)
	}
}

// TestDaemonInterrupt: Ctrl-C or SIGTERM on the client ends the command in
// the daemon, with the in-process run's message and exit code.
func TestDaemonInterrupt(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	c.mustRun("", "run", "--", "true") // the daemon up, the images loaded
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		for _, mode := range []string{"--no-daemon", "--thread=t"} {
			t.Run(fmt.Sprintf("%v %s", tc.sig, mode), func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				cmd, err := c.start(ctx, "run", mode, "--", "echo started; sleep 60; echo not-reached")
				if err != nil {
					t.Fatal(err)
				}
				if line, err := cmd.Out.ReadString('\n'); line != "started\n" {
					t.Fatalf("first line %q, %v (stderr %q)", line, err, cmd.Stderr())
				}
				start := time.Now()
				_ = cmd.Process.Signal(tc.sig)
				rest, _ := cmd.Out.ReadString(0)
				_ = cmd.Wait()
				if code := cmd.ProcessState.ExitCode(); code != tc.code || rest != "" || cmd.Stderr() != "agentenkit: interrupted\n" {
					t.Fatalf("after %v: exit %d, more stdout %q, stderr %q; want %d and the interrupted line", tc.sig, code, rest, cmd.Stderr(), tc.code)
				}
				if d := time.Since(start); d > 20*time.Second {
					t.Errorf("the run took %s to end after %v", d, tc.sig)
				}
			})
		}
	}
	if r := c.mustRun("", "daemon", "status"); !strings.Contains(r.stdout, "running: 0\n") {
		t.Fatalf("the interrupted commands still run in the daemon:\n%s", r.stdout)
	}
}

// TestDaemonCrash: a daemon killed under a running command gives its
// client a clear error; the next run removes the stale socket and starts
// a new daemon, which finds the thread's files.
func TestDaemonCrash(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	c.mustRun("", "run", "--thread", "t", "--", "echo kept > f")
	pid := c.daemonPID()
	done := make(chan result, 1)
	go func() { done <- c.run("", "run", "--", "echo started; sleep 60") }()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(c.mustRun("", "daemon", "status").stdout, "running: 1\n") {
		if time.Now().After(deadline) {
			t.Fatal("the command never ran")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.code != 1 || !strings.Contains(r.stderr, fmt.Sprintf("the daemon (pid %d) ended before the command did", pid)) ||
		!strings.Contains(r.stderr, "hint: it may have crashed: its log is "+filepath.Join(c.state, "daemon", "daemon.log")) {
		t.Fatalf("the client of a crashed daemon: %+v", r)
	}
	if _, err := os.Lstat(filepath.Join(c.state, "daemon", "sock")); err != nil {
		t.Fatalf("the killed daemon's socket should be left behind for this test: %v", err)
	}
	if r := c.mustRun("", "run", "--thread", "t", "--", "cat f"); r.stdout != "kept\n" {
		t.Fatalf("after the crash: %+v", r)
	}
	if next := c.daemonPID(); next == 0 || next == pid {
		t.Fatalf("after the crash the daemon's pid is %d (the killed one %d)", next, pid)
	}
	if log := c.daemonLog(); !strings.Contains(log, "removed the stale socket") {
		t.Fatalf("the new daemon's log does not say it removed the stale socket:\n%s", log)
	}
}

// TestDaemonStaleSocket: a socket file nothing listens on (left by a
// daemon that died) does not stop the next run.
func TestDaemonStaleSocket(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	sock := filepath.Join(c.state, "daemon", "sock")
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		t.Fatal(err)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()
	if r := c.mustRun("", "run", "--", "echo", "hi"); r.stdout != "hi\n" || r.stderr != "" {
		t.Fatalf("with a stale socket: %+v", r)
	}
	if !strings.Contains(c.daemonLog(), "removed the stale socket") {
		t.Fatalf("log:\n%s", c.daemonLog())
	}
}

// TestDaemonFailsToStart: when the daemon cannot start, run says so with
// the end of its log, where the log is, and how to go without it.
func TestDaemonFailsToStart(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	// A folder where the socket should be: the daemon cannot listen.
	if err := os.MkdirAll(filepath.Join(c.state, "daemon", "sock", "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	r := c.run("", "run", "--", "echo", "hi")
	logFile := filepath.Join(c.state, "daemon", "daemon.log")
	if r.code != 1 || !strings.Contains(r.stderr, "exited (exit status 1) before it answered") || !strings.Contains(r.stderr, "listen on") ||
		!strings.Contains(r.stderr, "hint: the daemon's log is "+logFile) || !strings.Contains(r.stderr, "--no-daemon") {
		t.Fatalf("a daemon that cannot start: %+v", r)
	}
	if r := c.mustRun("", "run", "--no-daemon", "--", "echo", "hi"); r.stdout != "hi\n" {
		t.Fatalf("--no-daemon: %+v", r)
	}
	// A state "folder" that is a file: no daemon can live there.
	c = newCLI(t)
	c.state = filepath.Join(c.state, "a-file")
	if err := os.WriteFile(c.state, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := c.run("", "run", "--", "echo", "hi"); r.code != 1 || !strings.Contains(r.stderr, "hint: set $AGENTENKIT_STATE_DIR to a folder you can write, or run with --no-daemon") {
		t.Fatalf("a state folder that is a file: %+v", r)
	}
}

// TestDaemonIdleExit: the daemon ends by itself after
// $AGENTENKIT_DAEMON_IDLE with no client.
func TestDaemonIdleExit(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	c.env = []string{envDaemonIdle + "=2s"}
	c.mustRun("", "run", "--", "true")
	pid := c.daemonPID()
	if pid == 0 {
		t.Fatal("no daemon")
	}
	deadline := time.Now().Add(time.Minute)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("the daemon (pid %d) is still up a minute after its 2 s idle timeout", pid)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(c.daemonLog(), "stopping: no client for 2s") {
		t.Fatalf("log:\n%s", c.daemonLog())
	}
}

// TestDaemonOfAnotherBuild: a run replaces the daemon of another build of
// the CLI with its own.
func TestDaemonOfAnotherBuild(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	other := filepath.Join(t.TempDir(), "agentenkit-other")
	if out, err := exec.Command("go", "build", "-ldflags=-X=main.buildSalt=other", "-o", other, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if goBuildID(other) == testBuildID(t) {
		t.Fatal("the two builds have one build id")
	}
	c := newCLI(t)
	cmd := c.command(context.Background(), "run", "--", "echo", "from-other")
	cmd.Path = other
	if out, err := cmd.Output(); err != nil || string(out) != "from-other\n" {
		t.Fatalf("the other build's run: %q, %v", out, err)
	}
	old := c.daemonPID()
	if r := c.mustRun("", "daemon", "status"); !strings.Contains(r.stdout, "another build") {
		t.Fatalf("status does not say the daemon is of another build:\n%s", r.stdout)
	}
	if r := c.mustRun("", "run", "--", "echo", "hi"); r.stdout != "hi\n" || r.stderr != "" {
		t.Fatalf("the run that replaces it: %+v", r)
	}
	if !gone(old) {
		t.Fatalf("the other build's daemon (pid %d) lives on", old)
	}
	if r := c.mustRun("", "daemon", "status"); !strings.Contains(r.stdout, "build: "+testBuildID(t)+"\n") {
		t.Fatalf("status after the replacement:\n%s", r.stdout)
	}
}

// TestDaemonLongStatePath: a state folder whose daemon/sock would be too
// long for a unix socket gets its socket in a private folder of the
// user's under the temp folder.
func TestDaemonLongStatePath(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	c.state = filepath.Join(c.state, strings.Repeat("long-state-folder-name/", 5))
	if err := os.MkdirAll(c.state, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := c.mustRun("", "run", "--", "echo", "hi"); r.stdout != "hi\n" {
		t.Fatalf("run: %+v", r)
	}
	r := c.mustRun("", "daemon", "status")
	m := regexp.MustCompile(`(?m)^socket: (.+)$`).FindStringSubmatch(r.stdout)
	if m == nil || len(m[1]) > maxSocketPath || !strings.HasPrefix(m[1], filepath.Join(os.TempDir(), fmt.Sprintf("agentenkit-%d", os.Getuid()))+"/") {
		t.Fatalf("status:\n%s", r.stdout)
	}
	fi, err := os.Stat(filepath.Dir(m[1]))
	if err != nil || fi.Mode() != 0o700|os.ModeDir {
		t.Fatalf("the socket's folder: %v, %v", fi.Mode(), err)
	}
	c.stopDaemon()
	if _, err := os.Lstat(m[1]); err == nil {
		t.Error("the socket is left after stop")
	}
}

// TestDaemonLoadsNodeLazily: the daemon loads busybox and python for its
// runs but node only when a command runs node (its compiled code is
// about 34 MiB of the daemon's memory); node -e still works through it.
func TestDaemonLoadsNodeLazily(t *testing.T) {
	t.Parallel()
	needDaemon(t)
	c := newCLI(t)
	images := func() string {
		t.Helper()
		for _, line := range strings.Split(c.mustRun("", "daemon", "status").stdout, "\n") {
			if v, ok := strings.CutPrefix(line, "images: "); ok {
				return v
			}
		}
		t.Fatal("daemon status has no images line")
		return ""
	}
	if r := c.mustRun("", "run", "--", "echo hi"); r.stdout != "hi\n" {
		t.Fatalf("echo: %+v", r)
	}
	if r := c.mustRun("", "run", "--", "python3 -c 'print(6*7)'"); r.stdout != "42\n" {
		t.Fatalf("python3: %+v", r)
	}
	if got := images(); got != "busybox python" {
		t.Fatalf("after echo and python3 the daemon loaded %q, want busybox python", got)
	}
	if r := c.mustRun("", "run", "--", "node -e 'console.log(6*7)'"); r.stdout != "42\n" {
		t.Fatalf("node -e: %+v", r)
	}
	if got := images(); got != "busybox node python" {
		t.Fatalf("after node the daemon loaded %q, want busybox node python", got)
	}
}

// TestPythonImage: a run hands the daemon the python image that runs now,
// by name: the built one wherever it is there (so that a daemon started
// before `make python-image` does not keep serving the fetched one), the
// fetched one when $AGENTENKIT_PYTHON_IMAGE says npm or nothing is built,
// and an unknown name is an error.
func TestPythonImage(t *testing.T) {
	dir := images.DefaultDir()
	paths, err := images.Find(dir)
	if err != nil {
		testenv.Missing(t, "wasm-images", "run `make images`: "+err.Error())
	}
	def := images.PythonImageNPM
	if paths.BuiltPython != "" {
		def = images.PythonImageBuilt
	}
	for _, tt := range []struct{ env, want string }{
		{"", def},
		{images.PythonImageBuilt, def},
		{images.PythonImageNPM, images.PythonImageNPM},
		{"fast", ""},
	} {
		t.Setenv(images.EnvPythonImage, tt.env)
		got, err := pythonImage(paths)
		if tt.want == "" {
			if err == nil {
				t.Errorf("env %q: %q, want an error", tt.env, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("env %q: %q, %v; want %q", tt.env, got, err, tt.want)
		}
	}
}
