package wasm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// TestPythonEndsLikeHost: python3 ends in the sandbox exactly as the host's
// CPython run by bash -c does: exit status (as the caller of bash sees
// it: a death by SIGINT is 130), stdout and stderr byte for byte, argv.
// Each case runs on both start paths (a clone of the provider's template,
// and a new CPython: an environment no template was made for) and both
// command paths (a plain python3 command run without the shell, and the
// same through the shell).
//
// The host side runs with the sandbox's environment in a temporary folder
// holding the same files, python3 being a link to the host's CPython in a
// folder first on $PATH; its output is compared with that folder read as
// /usr/bin and the temporary folder as the work folder, and addresses
// (0x...) left out on both sides.
func TestPythonEndsLikeHost(t *testing.T) {
	clones := poolProvider(t, Options{Prewarm: true})
	host := findHostPython(t, clones.pythonVersion())
	cold := poolProvider(t, Options{WarmPythons: -1, PooledClones: -1})
	files := map[string]string{
		"boom.py": "def f():\n    raise ValueError(\"boom\")\nf()\n",
		"s.py":    "import sys\nprint(sys.argv, sys.orig_argv, sys.executable, __file__, sys.path[0])\nsys.exit(sys.argv[1:] and sys.argv[1])\n",
		// Not sys.path[0]: CPython on Linux makes it the real path of the
		// script's folder (/home/user), on WASI the folder as written
		// (/home/user/.).
		"t.py": "import sys\nprint(sys.argv, sys.orig_argv, __file__)\n",
	}
	cases := []struct {
		name, cmd string
		shellOnly bool // not a plain python3 command
	}{
		{name: "exit -1", cmd: `python3 -c 'import sys; sys.exit(-1)'`},
		{name: "KeyboardInterrupt", cmd: `python3 -c 'print("before"); raise KeyboardInterrupt'`},
		{name: "KeyboardInterrupt status", cmd: `python3 -c 'raise KeyboardInterrupt'; echo "status $?"`, shellOnly: true},
		{name: "unclosed file", cmd: `python3 -c 'f = open("out.txt", "w"); f.write("data")'; cat out.txt; rm out.txt`, shellOnly: true},
		{name: "unclosed file in a list", cmd: `python3 -c 'l = [open("o2.txt", "w")]; l[0].write("x")'; cat o2.txt; rm o2.txt`, shellOnly: true},
		{name: "__del__ at exit", cmd: "python3 -c 'class C:\n    def __del__(self): print(\"del\")\nc = C()\nprint(\"end\")'"},
		{name: "KeyboardInterrupt subclass", cmd: "python3 -c 'class K(KeyboardInterrupt): pass\nraise K'"},
		{name: "exit message", cmd: `python3 -c 'import sys; sys.exit("msg")'`},
		{name: "exit None", cmd: `python3 -c 'import sys; sys.exit(None)'`},
		{name: "exit 256", cmd: `python3 -c 'import sys; sys.exit(256)'`},
		{name: "exit True", cmd: `python3 -c 'import sys; sys.exit(True)'`},
		{name: "os._exit", cmd: `python3 -c 'import os; print("lost?"); os._exit(3)'`},
		{name: "exit in try/finally", cmd: "python3 -c 'try:\n  exit(4)\nfinally:\n  print(\"finally\")'"},
		{name: "traceback", cmd: "python3 -c 'def f():\n    return 1/0\nf()'"},
		{name: "script traceback", cmd: `python3 boom.py`},
		{name: "syntax error", cmd: `python3 -c 'print('`},
		{name: "no such file", cmd: `python3 nosuchfile.py`},
		{name: "no such module", cmd: `python3 -m nosuchmod`},
		{name: "argv", cmd: `python3 -c 'import sys; print(sys.argv, sys.orig_argv, sys.executable)' a 'b c'`},
		{name: "script argv", cmd: `python3 s.py 5`},
		{name: "script argv in dot", cmd: `python3 ./t.py`},
		{name: "no such folder", cmd: `python3 nosuchdir/s.py x`},
		{name: "no such file, U+FFFD in its name", cmd: `python3 $'\xef\xbf\xbd.py'`, shellOnly: true},
		{name: "argv not UTF-8", cmd: `python3 -c 'import sys; print(ascii(sys.argv))' $'\xff' $'a\xe9b' $'\xef\xbf\xbd'`, shellOnly: true},
		{name: "env not UTF-8", cmd: `X=$'\xfe' python3 -c 'import os; print(os.environb[b"X"])'`, shellOnly: true},
		{name: "subprocess argv not UTF-8", cmd: `python3 -c 'import subprocess; print(subprocess.run(["printf", "%s", b"\xff\xe9"], capture_output=True).stdout)'`},
	}
	ctx := context.Background()
	n := 0
	for _, start := range []string{"clone", "cold"} {
		p := clones
		if start == "cold" {
			p = cold
		}
		sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
		require.NoError(t, err)
		t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
		for name, body := range files {
			require.NoError(t, sb.FileSystem().WriteFile(ctx, name, []byte(body)))
		}
		img, err := p.image(ctx, "python")
		require.NoError(t, err)
		for _, path := range []string{"direct", "shell"} {
			for _, tc := range cases {
				if tc.shellOnly && path == "direct" {
					continue
				}
				t.Run(start+"/"+path+"/"+tc.name, func(t *testing.T) {
					n++
					cmd := tc.cmd
					if path == "shell" && !tc.shellOnly {
						cmd = "command " + cmd // not plain: the shell runs it
					}
					env := map[string]string{}
					if start == "cold" {
						// No template was made for this environment.
						env["LC_AGENTENKIT_TEST"] = fmt.Sprint(n)
					}
					want := host.run(t, cmd, env, files)
					direct := p.directRuns.Load()
					warm := p.pythonsUsed.Load() + p.pool.pythonsTaken.Load() + img.CloneRuns()
					got, err := sb.RunCommand(ctx, cmd, sandbox.RunCommandOptions{Env: env})
					require.NoError(t, err)
					if path == "direct" {
						require.Equal(t, direct+1, p.directRuns.Load(), "ran without the shell")
					} else {
						require.Equal(t, direct, p.directRuns.Load(), "ran in the shell")
					}
					if warmed := p.pythonsUsed.Load() + p.pool.pythonsTaken.Load() + img.CloneRuns(); start == "cold" {
						require.Equal(t, warm, warmed, "a new CPython ran it")
					} else {
						require.Greater(t, warmed, warm, "a clone ran it")
					}
					assert.Equal(t, want.stdout, noAddrs(got.Stdout), "stdout")
					assert.Equal(t, want.stderr, noAddrs(got.Stderr), "stderr")
					assert.Equal(t, want.code, got.ExitCode, "exit status")
				})
			}
		}
	}
}

var addrRe = regexp.MustCompile(`0x[0-9a-f]+`)

// noAddrs is s with addresses (0x...) left out.
func noAddrs(s string) string { return addrRe.ReplaceAllString(s, "0x") }

// hostPython is the host's bash and CPython, run as the sandbox runs them.
type hostPython struct{ bash, bin string }

type hostResult struct {
	stdout, stderr string
	code           int
}

// equivalentMinors are CPython versions whose output for
// TestPythonEndsLikeHost's cases is the same (checked by hand: 3.11.2,
// 3.11.7 and 3.12.1 against each other).
var equivalentMinors = map[string]bool{"3.11": true, "3.12": true}

// findHostPython returns the host's bash and a CPython of the minor version
// of py (the sandbox's, "3.12.0"), or one whose output is the same: it
// skips (fails under AGENTENKIT_REQUIRE=bash or python3) when there is
// none.
func findHostPython(t *testing.T, py string) *hostPython {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		testenv.Missing(t, "bash", "no bash in $PATH to compare with")
	}
	major, rest, _ := strings.Cut(py, ".")
	minor, _, _ := strings.Cut(rest, ".")
	want := major + "." + minor
	var seen []string
	for _, name := range []string{"python" + want, "python3"} {
		out, err := exec.Command(name, "-c", "import sys; print(sys.executable); print('%d.%d' % sys.version_info[:2])").Output()
		if err != nil {
			continue
		}
		exe, ver, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		if ver == want || equivalentMinors[ver] && equivalentMinors[want] {
			bin := t.TempDir()
			require.NoError(t, os.Symlink(exe, filepath.Join(bin, "python3")))
			return &hostPython{bash: bash, bin: bin}
		}
		seen = append(seen, name+" is "+ver)
	}
	if len(seen) == 0 {
		testenv.Missing(t, "python3", "no python3 in $PATH to compare with")
	}
	t.Skipf("no host CPython like the sandbox's %s to compare with (%s)", want, strings.Join(seen, ", "))
	return nil
}

// run runs command with bash -c in a new folder holding files, with the
// sandbox's environment and env, and returns what a caller of bash sees,
// with the host's paths read as the sandbox's.
func (h *hostPython) run(t *testing.T, command string, env map[string]string, files map[string]string) hostResult {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	cmd := exec.Command(h.bash, "-c", command)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "PATH=" + h.bin + ":/usr/local/bin:/usr/bin:/bin", "USER=user", "LANG=C.UTF-8",
		"PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		require.True(t, errors.As(err, &ee), "run bash: %v", err)
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal()) // as a shell reports it
		}
	}
	local := func(s string) string {
		s = strings.ReplaceAll(s, filepath.Join(h.bin, "python3"), "/usr/bin/python3")
		return noAddrs(strings.ReplaceAll(s, dir, DefaultWorkdir))
	}
	return hostResult{stdout: local(stdout.String()), stderr: local(stderr.String()), code: code}
}
