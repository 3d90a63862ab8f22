package wasm_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/sandbox"
)

// hostRun runs script with the host's program (bash or python3) in a new
// folder and returns its stdout, with the folder written /home/user, and
// its exit code.
func hostRun(t *testing.T, program, script string) (string, int) {
	t.Helper()
	bin, err := exec.LookPath(program)
	if err != nil {
		testenv.Missing(t, program, "the differential tests compare the wasm sandbox with it")
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var cmd *exec.Cmd
	if program == "bash" {
		cmd = exec.CommandContext(ctx, bin, "--noprofile", "--norc", "-c", script)
	} else {
		cmd = exec.CommandContext(ctx, bin, "-c", script)
	}
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LC_ALL=C"}
	var out bytes.Buffer
	cmd.Stdout = &out
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", program, err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	s := strings.ReplaceAll(out.String(), real, "/home/user")
	return strings.ReplaceAll(s, dir, "/home/user"), code
}

// wasmGaps are differential scripts busybox.wasm does not pass yet, with
// the reason; each is compared on the native shell (shell's
// TestToolsLikeBash).
var wasmGaps = map[string]string{}

// TestModesLikeBash runs the shell's differential scripts for file modes
// and the everyday tools (shell/testdata/compat/9??-*.sh: umask, chmod,
// executables, modes kept by cp and tar, file, install, split, getconf,
// flock, patch, ...) on the wasm sandbox and with the host's bash and GNU
// tools; stdout and exit codes must match byte for byte.
func TestModesLikeBash(t *testing.T) {
	t.Parallel()
	scripts, err := filepath.Glob("../../shell/testdata/compat/9[0-9][0-9]-*.sh")
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	p := newProvider(t, nil, wasm.Options{})
	for _, f := range scripts {
		if why, ok := wasmGaps[filepath.Base(f)]; ok {
			t.Logf("%s: not compared on wasm: %s", filepath.Base(f), why)
			continue
		}
		text, err := os.ReadFile(f)
		require.NoError(t, err)
		want, wantCode := hostRun(t, "bash", string(text))
		sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
		res := run(t, sb, string(text), sandbox.RunCommandOptions{})
		assert.Equal(t, want, res.Stdout, "%s (stderr %q)", filepath.Base(f), res.Stderr)
		assert.Equal(t, wantCode, res.ExitCode, "%s", filepath.Base(f))
	}
}

// pySubprocess exercises Python's process API; the wasm sandbox must print
// what CPython on Linux prints.
const pySubprocess = `import os, sys, subprocess
sys.stdout.reconfigure(line_buffering=True)
os.umask(0o022)
open("f", "w").write("x")
print(oct(os.stat("f").st_mode), os.access("f", os.X_OK), os.access("f", os.W_OK))
os.chmod("f", 0o750)
print(oct(os.stat("f").st_mode), os.access("f", os.X_OK), oct(os.lstat("f").st_mode & 0o777))
os.mkdir("d")
print(oct(os.stat("d").st_mode))
r = subprocess.run(["python3", "-c", "print(1)"], capture_output=True)
print(r)
r = subprocess.run("ls | wc -l", shell=True)
print(r.returncode)
print(subprocess.check_output(["echo", "hi"], text=True), end="")
print(subprocess.run(["cat"], input=b"in data", capture_output=True).stdout)
try:
    subprocess.run(["sleep", "5"], timeout=0.5, capture_output=True)
except subprocess.TimeoutExpired as e:
    print("timeout", e)
try:
    subprocess.run("echo partial; sleep 5", shell=True, timeout=1, capture_output=True)
except subprocess.TimeoutExpired as e:
    print("timeout output", e.stdout)
try:
    subprocess.run(["nosuchcmd-agentenkit"])
except FileNotFoundError as e:
    print("not found:", e)
open("g", "w").write("echo g")
os.chmod("g", 0o644)
try:
    subprocess.run(["./g"])
except PermissionError as e:
    print("not executable:", e)
os.chmod("g", 0o755)
try:
    subprocess.run(["./g"])
except OSError as e:
    print("no #!:", e)
try:
    subprocess.run(["d"])
except OSError as e:
    print("folder:", type(e).__name__)
open("h", "w").write("#!/bin/sh\necho h \"$@\"\n")
os.chmod("h", 0o700)
print(subprocess.run(["./h", "x y"], capture_output=True).stdout)
print(subprocess.call("exit 3", shell=True))
print(os.system("echo system; exit 2"))
print(os.popen("echo popen; echo two").read(), end="")
print(subprocess.run([sys.executable, "-c", "import sys; print(sys.argv)", "a"], capture_output=True, text=True).stdout, end="")
p = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
out, _ = p.communicate("hello\n")
print(repr(out), p.returncode)
print(subprocess.run("echo err >&2; echo out", shell=True, stderr=subprocess.STDOUT, stdout=subprocess.PIPE).stdout)
print(subprocess.run(["pwd"], cwd="/tmp", capture_output=True, text=True).stdout, end="")
print(subprocess.run("echo $FOO", shell=True, env={"FOO": "bar", "PATH": os.environ["PATH"]}, capture_output=True, text=True).stdout, end="")
try:
    subprocess.check_call("exit 1", shell=True)
except subprocess.CalledProcessError as e:
    print("called:", e)
p = subprocess.Popen(["sleep", "10"]); p.kill(); print("killed", p.wait())
p = subprocess.Popen(["sleep", "10"]); p.terminate(); print("terminated", p.wait())
with subprocess.Popen(["seq", "3"], stdout=subprocess.PIPE) as p:
    print([l for l in p.stdout], p.wait())
print(subprocess.getoutput("echo get; exit 1"), subprocess.getstatusoutput("exit 4"))
sys.stdout.flush()
subprocess.run(["echo", "inherited"])
print(subprocess.run("cat", shell=True, stdin=open("f"), capture_output=True).stdout)
`

// TestPythonSubprocessLikeCPython runs pySubprocess on the wasm sandbox
// and with the host's python3 (and its real processes).
func TestPythonSubprocessLikeCPython(t *testing.T) {
	t.Parallel()
	want, wantCode := hostRun(t, "python3", pySubprocess)
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	require.NoError(t, sb.FileSystem().WriteFile(context.Background(), "/tmp/t.py", []byte(pySubprocess)))
	res := run(t, sb, "python3 /tmp/t.py", sandbox.RunCommandOptions{})
	assert.Equal(t, want, res.Stdout, "stderr: %s", res.Stderr)
	assert.Equal(t, wantCode, res.ExitCode)
}

// TestPythonSubprocessTimeoutKills: a child past its timeout is killed,
// not left running: its later output never comes and the files it would
// have written are not there.
func TestPythonSubprocessTimeoutKills(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	script := `import subprocess, time
try:
    subprocess.run("sleep 1; echo late > late.txt", shell=True, timeout=0.3)
except subprocess.TimeoutExpired:
    print("expired")
time.sleep(1.5)
import os
print(os.path.exists("late.txt"))`
	res := run(t, sb, "python3 -c '"+script+"'", sandbox.RunCommandOptions{})
	assert.Equal(t, "expired\nFalse\n", res.Stdout, "stderr: %s", res.Stderr)
}

// TestPythonControlFileIsPerProcess: a Python process's control file is
// not reachable from another sandbox, nor under a made-up name.
func TestPythonControlFileIsPerProcess(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	a := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	b := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	tokens := make(chan string, 1)
	w := &lineWriter{lines: tokens}
	done := make(chan sandbox.CommandResult, 1)
	go func() {
		res, _ := a.RunCommand(context.Background(), `python3 -c 'import sitecustomize, time; print(sitecustomize._ctl_token, flush=True); time.sleep(3)'`, sandbox.RunCommandOptions{Stdout: w})
		done <- res
	}()
	var tok string
	select {
	case tok = <-tokens:
	case <-time.After(60 * time.Second):
		t.Fatal("no token from the first sandbox")
	}
	require.Len(t, tok, 32)
	for _, name := range []string{tok, strings.Repeat("0", 32), "../" + tok, ""} {
		script := fmt.Sprintf(`import os
try:
    os.open("/dev/agentenkit-ctl/%s", os.O_RDWR); print("opened")
except OSError as e:
    print(type(e).__name__)`, name)
		res := run(t, b, "python3 -c '"+script+"'", sandbox.RunCommandOptions{})
		assert.Contains(t, []string{"FileNotFoundError\n", "IsADirectoryError\n"}, res.Stdout, "control file %q from another sandbox (stderr %q)", name, res.Stderr)
	}
	res := run(t, b, "ls /dev/agentenkit-ctl; cat /dev/agentenkit-ctl/"+tok, sandbox.RunCommandOptions{})
	assert.NotEqual(t, 0, res.ExitCode)
	assert.Equal(t, "", res.Stdout)
	<-done
}

// lineWriter sends the first line written to it.
type lineWriter struct {
	buf   strings.Builder
	lines chan string
	sent  bool
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.buf.Write(p)
	if line, _, ok := strings.Cut(w.buf.String(), "\n"); ok && !w.sent {
		w.sent = true
		w.lines <- line
	}
	return len(p), nil
}

// pyUmask creates files and folders the ways Python programs do, under
// several umasks, and prints their modes.
const pyUmask = `import os, pathlib, tempfile
def show(*names):
    print(" ".join("%s=%o" % (n, os.stat(n).st_mode & 0o7777) for n in names))
for mask in (0o022, 0o077, 0o027, 0o002, 0o000):
    old = os.umask(mask)
    d = "m%03o" % mask
    os.mkdir(d)
    os.chdir(d)
    open("w", "w").write("x")
    open("a", "a").close()
    open("x", "xb").close()
    open("w", "w").close()
    os.chmod("w", 0o640); open("w", "w").close()
    pathlib.Path("p").write_text("x")
    pathlib.Path("t").touch()
    os.close(os.open("o", os.O_CREAT | os.O_WRONLY))
    os.close(os.open("o6", os.O_CREAT | os.O_WRONLY, 0o600))
    os.mkdir("d")
    os.mkdir("d7", 0o700)
    os.makedirs("n/e/s")
    pathlib.Path("pd").mkdir()
    fd, tmp = tempfile.mkstemp(dir=".")
    os.close(fd)
    os.rename(tmp, "tmp")
    show(".", "w", "a", "x", "p", "t", "o", "o6", "d", "d7", "n", "n/e", "n/e/s", "pd", "tmp")
    os.chdir("..")
print("%o" % os.umask(0o022))
`

// TestPythonUmaskLikeCPython: files and folders a Python program creates
// on wasm get the modes CPython on Linux gives them (mode & ~umask), under
// the umask set by os.umask or inherited from the shell.
func TestPythonUmaskLikeCPython(t *testing.T) {
	t.Parallel()
	want, wantCode := hostRun(t, "python3", pyUmask)
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	require.NoError(t, sb.FileSystem().WriteFile(context.Background(), "/tmp/u.py", []byte(pyUmask)))
	res := run(t, sb, "cd /tmp && python3 /tmp/u.py", sandbox.RunCommandOptions{})
	assert.Equal(t, want, res.Stdout, "stderr: %s", res.Stderr)
	assert.Equal(t, wantCode, res.ExitCode)
	// The shell's umask reaches Python.
	inherit := `umask 077; python3 -c 'import os; open("inh", "w"); os.mkdir("inhd"); print("%o" % os.umask(0))'; stat -c '%a %n' inh inhd`
	want, _ = hostRun(t, "bash", inherit)
	res = run(t, sb, inherit, sandbox.RunCommandOptions{})
	assert.Equal(t, want, res.Stdout, "stderr: %s", res.Stderr)
}
