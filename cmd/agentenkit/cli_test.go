package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/docker"
	"github.com/agentenkit/agentenkit/providers/e2b/e2btest"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/providers/wasm"
)

// binary is the CLI, built once for all the tests by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agentenkit-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "agentenkit")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	if left := daemonsOf(binary); len(left) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: daemons of the test binary outlived their tests (killed now): pids %v\n", left)
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// daemonsOf returns the pids of the processes running exe (Linux's /proc;
// none elsewhere): after the tests, daemons left behind.
func daemonsOf(exe string) []int {
	// A daemon stopping in the last test's cleanup may still be exiting.
	deadline := time.Now().Add(5 * time.Second)
	for {
		var pids []int
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if target, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && target == exe {
				pids = append(pids, pid)
			}
		}
		if len(pids) == 0 || time.Now().After(deadline) {
			return pids
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// testProvider is the provider the tests run on: $AGENTENKIT_TEST_PROVIDER,
// else wasm when its images are here (the tests never fetch them), else
// local.
func testProvider(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("AGENTENKIT_TEST_PROVIDER"); p != "" {
		return p
	}
	dir := images.DefaultDir()
	if _, err := images.Find(dir); err == nil {
		if fi, err := os.Stat(filepath.Join(dir, wasm.BusyboxFile)); err == nil && fi.Size() > 0 {
			return "wasm"
		}
	}
	t.Logf("the wasm images are not in %s (make images); testing on the local provider", dir)
	return "local"
}

// cli is one invocation of the CLI with its own state folder.
type cli struct {
	t     *testing.T
	state string   // AGENTENKIT_STATE_DIR
	env   []string // more of the environment
}

// newCLI returns a CLI with a state folder of its own, whose daemon (when
// a run starts one) the test's cleanup stops.
func newCLI(t *testing.T) *cli {
	c := &cli{t: t, state: t.TempDir()}
	t.Cleanup(c.stopDaemon)
	return c
}

// stopDaemon stops the state folder's daemon, if one runs.
func (c *cli) stopDaemon() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if out, err := c.command(ctx, "daemon", "stop").CombinedOutput(); err != nil {
		c.t.Errorf("agentenkit daemon stop: %v\n%s", err, out)
	}
}

func (c *cli) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(os.Environ(), "AGENTENKIT_STATE_DIR="+c.state, "AGENTENKIT_PROVIDER=")
	cmd.Env = append(cmd.Env, c.env...)
	return cmd
}

type result struct {
	stdout, stderr string
	code           int
}

// running is a CLI command started by start: its stdout read through
// Out as it comes, its stderr kept (safe to read while it runs).
type running struct {
	*exec.Cmd
	Out    *bufio.Reader
	stderr testenv.Buffer
}

// Stderr is what the command wrote on stderr so far.
func (r *running) Stderr() string { return r.stderr.String() }

// start starts the CLI with args and returns it running (the caller
// Waits); ctx ends it.
func (c *cli) start(ctx context.Context, args ...string) (*running, error) {
	r := &running{Cmd: c.command(ctx, args...)}
	out, err := r.StdoutPipe()
	if err != nil {
		return nil, err
	}
	r.Cmd.Stderr = &r.stderr
	if err := r.Start(); err != nil {
		return nil, fmt.Errorf("agentenkit %s: %w", strings.Join(args, " "), err)
	}
	r.Out = bufio.NewReader(out)
	return r, nil
}

// run runs the CLI to its end, with stdin (may be empty).
func (c *cli) run(stdin string, args ...string) result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := c.command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(stdin), &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		c.t.Fatalf("agentenkit %s: %v", strings.Join(args, " "), err)
	}
	r := result{stdout: stdout.String(), stderr: stderr.String(), code: cmd.ProcessState.ExitCode()}
	c.t.Logf("agentenkit %s → %d\nstdout: %q\nstderr: %q", strings.Join(args, " "), r.code, short(r.stdout), short(r.stderr))
	return r
}

func (c *cli) mustRun(stdin string, args ...string) result {
	c.t.Helper()
	r := c.run(stdin, args...)
	if r.code != 0 {
		c.t.Fatalf("agentenkit %s: exit %d, want 0\nstderr: %s", strings.Join(args, " "), r.code, r.stderr)
	}
	return r
}

func TestRunThreadAcrossProcesses(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	c.mustRun("", "run", "--provider", p, "--thread", "demo", "--", "echo hi > f")
	if r := c.mustRun("", "run", "--provider", p, "--thread", "demo", "--", "cat f"); r.stdout != "hi\n" {
		t.Fatalf("cat f in the thread's sandbox printed %q, want %q", r.stdout, "hi\n")
	}
	// Another thread has other files.
	if r := c.run("", "run", "--provider", p, "--thread", "other", "--", "cat f"); r.code == 0 {
		t.Fatalf("thread other sees f: %+v", r)
	}
	// Without a thread, the sandbox lasts for the command only.
	c.mustRun("", "run", "--provider", p, "--", "echo hi > g")
	if r := c.run("", "run", "--provider", p, "--", "cat g"); r.code == 0 {
		t.Fatalf("a thread-less run sees the last one's file: %+v", r)
	}
}

func TestRunArguments(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	// Several arguments are one command and its arguments, quoted.
	if r := c.mustRun("", "run", "--provider", p, "--", "python3", "-c", "print(6*7)"); r.stdout != "42\n" {
		t.Fatalf("python3 -c 'print(6*7)' printed %q", r.stdout)
	}
	if r := c.mustRun("", "run", "--provider", p, "--", "echo", "it's", "a b"); r.stdout != "it's a b\n" {
		t.Fatalf("echo printed %q", r.stdout)
	}
	if r := c.run("", "run", "--provider", p); r.code != 2 || !strings.Contains(r.stderr, "no command given") {
		t.Fatalf("run without a command: %+v", r)
	}
}

func TestRunExitCodes(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	for _, tc := range []struct {
		command string
		code    int
	}{
		{"exit 7", 7},
		{"true", 0},
		{"no-such-command-here", 127},
		{"echo out; echo err >&2; exit 3", 3},
	} {
		r := c.run("", "run", "--provider", p, "--", tc.command)
		if r.code != tc.code {
			t.Errorf("run -- %q: exit %d, want %d (stderr %q)", tc.command, r.code, tc.code, r.stderr)
		}
		if tc.code == 3 && (r.stdout != "out\n" || !strings.Contains(r.stderr, "err")) {
			t.Errorf("run -- %q: stdout %q, stderr %q", tc.command, r.stdout, r.stderr)
		}
	}
	// The time limit: exit 124, and a line that says what happened.
	r := c.run("", "run", "--provider", p, "--timeout", "5s", "--", "echo started; sleep 30")
	if r.code != 124 || r.stdout != "started\n" || !strings.Contains(r.stderr, "timed out") {
		t.Fatalf("a command past --timeout: %+v", r)
	}
}

func TestRunStreamsBeforeExit(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd, err := c.start(ctx, "run", "--provider", p, "--", "echo first; sleep 2; echo second")
	if err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	first, err := cmd.Out.ReadString('\n')
	if err != nil {
		t.Fatalf("read the first line: %v (stderr %q)", err, cmd.Stderr())
	}
	go func() {
		defer close(exited)
		_, _ = cmd.Out.ReadString(0) // to the end
	}()
	select {
	case <-exited:
		t.Fatal("the first line came only when the command ended")
	default:
	}
	if first != "first\n" {
		t.Fatalf("first line %q", first)
	}
	<-exited
	if err := cmd.Wait(); err != nil {
		t.Fatalf("run: %v (stderr %q)", err, cmd.Stderr())
	}
}

func TestSandboxesListAndKill(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	r := c.mustRun("", "sandboxes", "list")
	if strings.TrimSpace(r.stdout) != "" || !strings.Contains(r.stderr, "no live sandboxes") {
		t.Fatalf("list with none: %+v", r)
	}
	c.mustRun("", "run", "--provider", p, "--thread", "demo", "--", "echo hi > f")
	r = c.mustRun("", "sandboxes", "list")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "ID") || !strings.Contains(lines[0], "THREAD") || !strings.Contains(lines[0], "ENDS") {
		t.Fatalf("list: want a header and one row, got\n%s", r.stdout)
	}
	f := strings.Fields(lines[1])
	if len(f) < 6 || f[1] != p || f[2] != "demo" || f[3] != "thread" || !strings.HasPrefix(f[5], "in") {
		t.Fatalf("row %q: want id, %s, demo, thread, age, ends", lines[1], p)
	}
	id := f[0]

	r = c.mustRun("", "sandboxes", "kill", id)
	if !strings.Contains(r.stdout, "killed sandbox "+id) {
		t.Fatalf("kill: %+v", r)
	}
	if r := c.mustRun("", "sandboxes", "list"); strings.Contains(r.stdout, id) {
		t.Fatalf("the killed sandbox is still listed:\n%s", r.stdout)
	}
	r = c.run("", "sandboxes", "kill", id)
	if r.code != 1 || !strings.Contains(r.stderr, "gone") {
		t.Fatalf("kill of a gone id: %+v", r)
	}
	// The thread goes on in a fresh sandbox, without the old files.
	if r := c.run("", "run", "--provider", p, "--thread", "demo", "--", "cat f"); r.code == 0 {
		t.Fatalf("the killed sandbox's file is still there: %+v", r)
	}
	// kill takes a thread's name too.
	r = c.mustRun("", "sandboxes", "kill", "demo")
	if !strings.Contains(r.stdout, "thread demo") {
		t.Fatalf("kill by thread: %+v", r)
	}
}

func TestShell(t *testing.T) {
	t.Parallel()
	c, p := newCLI(t), testProvider(t)
	script := strings.Join([]string{
		"mkdir -p a/b && cd a/b",
		"pwd",
		"X=1",
		"echo x=$X",      // variables do not carry over
		"echo hi > here", // in a/b
		"cd ..",
		"ls b",
		"echo to-stderr >&2",
		"echo one \\",
		"two",
		"false",
	}, "\n") + "\n"
	r := c.run(script, "shell", "--provider", p)
	if r.code != 1 {
		t.Errorf("shell whose last line failed: exit %d, want 1", r.code)
	}
	lines := strings.Split(r.stdout, "\n")
	if len(lines) < 4 || !strings.HasSuffix(lines[0], "/a/b") || lines[1] != "x=" || lines[2] != "here" || lines[3] != "one two" {
		t.Fatalf("shell stdout:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "to-stderr") {
		t.Fatalf("shell stderr: %q", r.stderr)
	}
	// exit N ends it with N; the lines after are not run.
	r = c.run("echo before\nexit 4\necho after\n", "shell", "--provider", p)
	if r.code != 4 || r.stdout != "before\n" {
		t.Fatalf("exit 4: %+v", r)
	}
	// A thread's shell keeps its sandbox, and its folder, for the next one.
	c.mustRun("mkdir d && cd d\necho kept > k\n", "shell", "--provider", p, "--thread", "sh")
	if r := c.mustRun("pwd\ncat k\n", "shell", "--provider", p, "--thread", "sh"); !strings.Contains(r.stdout, "/d\nkept\n") {
		t.Fatalf("the thread's second shell: %q", r.stdout)
	}
	// A session's own sandbox ends with it.
	if r := c.mustRun("", "sandboxes", "list"); strings.Count(r.stdout, "\n") != 2 || !strings.Contains(r.stdout, " sh ") {
		t.Fatalf("after the shells, want only thread sh's sandbox:\n%s", r.stdout)
	}
}

func TestHelp(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	for _, args := range [][]string{{}, {"--help"}, {"help"}, {"-h"}} {
		r := c.run("", args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Usage:") {
			t.Fatalf("agentenkit %v: %+v", args, r)
		}
		for _, cmd := range commands {
			if !strings.Contains(r.stdout, "agentenkit "+cmd.name) {
				t.Errorf("the usage does not list %s", cmd.name)
			}
		}
	}
	for _, cmd := range commands {
		for _, args := range [][]string{{cmd.name, "--help"}, {cmd.name, "-h"}, {"help", cmd.name}} {
			r := c.run("", args...)
			if r.code != 0 || !strings.HasPrefix(r.stderr, "usage: agentenkit "+cmd.name) {
				t.Errorf("agentenkit %v: exit %d, stderr %q", args, r.code, r.stderr)
			}
		}
	}
}

func TestBadUsage(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	for _, cmd := range commands {
		r := c.run("", cmd.name, "--no-such-flag")
		if r.code != 2 || !strings.Contains(r.stderr, "flag provided but not defined: -no-such-flag") || !strings.Contains(r.stderr, "usage: agentenkit "+cmd.name) {
			t.Errorf("agentenkit %s --no-such-flag: exit %d, want 2 with the usage; stderr %q", cmd.name, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"frobnicate"},
		{"--provider", "local", "run"},
		{"sandboxes"},
		{"sandboxes", "frob"},
		{"sandboxes", "kill"},
		{"images"},
		{"shell", "extra"},
		{"run", "--timeout", "soon", "--", "true"},
	} {
		if r := c.run("", args...); r.code != 2 || !strings.Contains(strings.ToLower(r.stderr), "usage") {
			t.Errorf("agentenkit %v: exit %d, want 2 with usage; stderr %q", args, r.code, r.stderr)
		}
	}
	// A provider that does not exist says which do.
	r := c.run("", "run", "--provider", "nope", "--", "true")
	if r.code != 1 || !strings.Contains(r.stderr, `unknown provider "nope"`) || !strings.Contains(r.stderr, "hint: use one of: wasm, local, docker, e2b, memory") {
		t.Fatalf("unknown provider: %+v", r)
	}
}

func TestE2BFromEnvironment(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	r := c.run("", "run", "--provider", "e2b", "--", "true")
	if r.code != 1 || !strings.Contains(r.stderr, "E2B_API_KEY") || !strings.Contains(r.stderr, "hint:") {
		t.Fatalf("e2b without a key: %+v", r)
	}
	back := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
	srv := e2btest.New(e2btest.Options{Backend: back, APIKey: "e2b_cli_test"})
	defer srv.Close()
	c.env = []string{"E2B_API_KEY=e2b_cli_test", envE2BAPIURL + "=" + srv.URL(), envE2BSandboxURL + "=" + srv.URL()}
	c.mustRun("", "run", "--provider", "e2b", "--thread", "t", "--", "echo from-e2b > f")
	if r := c.run("", "run", "--provider", "e2b", "--thread", "t", "--", "cat f; exit 5"); r.stdout != "from-e2b\n" || r.code != 5 {
		t.Fatalf("e2b thread: %+v", r)
	}
	if r := c.mustRun("", "sandboxes", "list"); !strings.Contains(r.stdout, " e2b ") {
		t.Fatalf("list: %s", r.stdout)
	}
	if r := c.run("", "run", "--provider", "e2b", "--", "exit 5"); r.code != 5 {
		t.Fatalf("e2b exit code: %+v", r)
	}
	c.env = append(c.env, "E2B_API_KEY=e2b_wrong")
	if r := c.run("", "run", "--provider", "e2b", "--", "true"); r.code != 1 {
		t.Fatalf("e2b with a wrong key: %+v", r)
	}
}

func TestDockerFromEnvironment(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("docker"); err != nil {
		testenv.Missing(t, "docker", "no docker command")
	}
	img := "agentenkit-test-python:1"
	if err := exec.Command("docker", "image", "inspect", img).Run(); err != nil {
		testenv.Missing(t, "docker", img+" is not on the engine (providers/docker/testdata/build-images.sh python)")
	}
	c := newCLI(t)
	c.env = []string{envDockerImage + "=" + img}
	if r := c.run("", "run", "--provider", "docker", "--", "python3 -c 'print(6*7)'; exit 7"); r.code != 7 || r.stdout != "42\n" {
		t.Fatalf("docker: %+v", r)
	}
	c.env = []string{envDockerImage + "=agentenkit-no-such-image:0"}
	r := c.run("", "run", "--provider", "docker", "--", "true")
	if r.code != 1 || !strings.Contains(r.stderr, "agentenkit: docker: agentenkit-no-such-image:0: image is not on this engine, and the CLI pulls none by itself") ||
		!regexp.MustCompile(`hint: set \$AGENTENKIT_DOCKER_IMAGE to an image the engine has .*docker pull agentenkit-no-such-image:0.*providers/docker/testdata/build-images.sh python`).MatchString(r.stderr) {
		t.Fatalf("docker with a missing image: %+v", r)
	}

	// The default image, when the engine lacks it: the same three ways out.
	if exec.Command("docker", "image", "inspect", defaultDockerImage).Run() == nil {
		t.Logf("the engine has %s: its missing-image error not checked here", defaultDockerImage)
		return
	}
	c.env = []string{envDockerImage + "="}
	r = c.run("", "run", "--provider", "docker", "--", "true")
	if r.code != 1 || !strings.Contains(r.stderr, "docker: "+defaultDockerImage+": image is not on this engine") ||
		!strings.Contains(r.stderr, "`docker pull "+defaultDockerImage+"`") ||
		!strings.Contains(r.stderr, "`export AGENTENKIT_DOCKER_IMAGE=agentenkit-test-python:1`") {
		t.Fatalf("docker with its default image missing: %+v", r)
	}
}

func TestDockerCreateError(t *testing.T) {
	t.Parallel()
	missing := fmt.Errorf("docker: x: %w: build or load it first", docker.ErrImageMissing)
	for _, tc := range []struct {
		name      string
		err       error
		img       string
		msg       string
		hint      []string
		notInHint []string
	}{
		{
			name: "default image missing",
			err:  missing, img: defaultDockerImage,
			msg: "docker: python:3.12-slim: image is not on this engine, and the CLI pulls none by itself",
			hint: []string{
				"set $AGENTENKIT_DOCKER_IMAGE to an image the engine has (`docker images`; it needs bash or sh, and python3 for code_execution)",
				"or pull it: `docker pull python:3.12-slim`",
				"build one from Debian packages with providers/docker/testdata/build-images.sh python (in the agentenkit source) and `export AGENTENKIT_DOCKER_IMAGE=agentenkit-test-python:1`",
			},
		},
		{
			name: "chosen image missing",
			err:  missing, img: "my/image:2",
			msg:  "docker: my/image:2: image is not on this engine, and the CLI pulls none by itself",
			hint: []string{"set $AGENTENKIT_DOCKER_IMAGE", "or pull or build it (`docker pull my/image:2`)", "build-images.sh python"},
		},
		{
			name: "another failure",
			err:  errors.New("docker: create container: no space left on device"), img: "my/image:2",
			msg:       "docker: create container: no space left on device",
			hint:      []string{"check $AGENTENKIT_DOCKER_IMAGE (now my/image:2)"},
			notInHint: []string{"docker pull"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := dockerCreateError(tc.err, tc.img)
			if err.Error() != tc.msg {
				t.Errorf("message %q, want %q", err.Error(), tc.msg)
			}
			if !errors.Is(err, tc.err) && !errors.Is(err, docker.ErrImageMissing) {
				t.Errorf("%v does not wrap %v", err, tc.err)
			}
			var h interface{ Hint() string }
			if !errors.As(err, &h) {
				t.Fatalf("no hint on %v", err)
			}
			for _, want := range tc.hint {
				if !strings.Contains(h.Hint(), want) {
					t.Errorf("hint %q lacks %q", h.Hint(), want)
				}
			}
			for _, not := range tc.notInHint {
				if strings.Contains(h.Hint(), not) {
					t.Errorf("hint %q has %q", h.Hint(), not)
				}
			}
		})
	}
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"echo hi > f"}, "echo hi > f"},
		{[]string{"python3", "-c", "print(6*7)"}, "python3 -c 'print(6*7)'"},
		{[]string{"echo", "it's", ""}, `echo 'it'\''s' ''`},
		{[]string{"ls", "-la", "/tmp/a_b.c"}, "ls -la /tmp/a_b.c"},
	} {
		if got := commandLine(tc.args); got != tc.want {
			t.Errorf("commandLine(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestExitLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		line string
		code int
		ok   bool
	}{
		{"exit", 5, true}, {"exit 3", 3, true}, {"logout", 5, true}, {"exit 256", 0, true},
		{"exit 3; echo", 0, false}, {"exits", 0, false}, {"echo exit", 0, false},
	} {
		code, ok := exitLine(tc.line, 5)
		if code != tc.code || ok != tc.ok {
			t.Errorf("exitLine(%q) = %d, %v; want %d, %v", tc.line, code, ok, tc.code, tc.ok)
		}
	}
}
