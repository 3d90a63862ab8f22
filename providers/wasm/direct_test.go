package wasm

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/vfs"
)

func TestPlainWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // nil: not plain
	}{
		{"python3 -c 'print(1)'", []string{"python3", "-c", "print(1)"}},
		{"  python3\t-c'print(1)'x  ", []string{"python3", "-cprint(1)x"}},
		{"python3 -c ''", []string{"python3", "-c", ""}},
		{"python3 -c 'a\nb \"$x\" `y` * ~ #'", []string{"python3", "-c", "a\nb \"$x\" `y` * ~ #"}},
		{"python3 a.py x=1 -y,z:w+@%", []string{"python3", "a.py", "x=1", "-y,z:w+@%"}},
		{"", nil},
		{"   ", nil},
		{"python3 -c 'print(1)", nil},
		{`python3 -c "print(1)"`, nil},
		{"python3 -c print\\(1\\)", nil},
		{"python3 $x", nil},
		{"python3 *.py", nil},
		{"python3 ~/a.py", nil},
		{"python3 a.py # c", nil},
		{"python3 a.py > out", nil},
		{"python3 a.py; echo", nil},
		{"python3 a.py\necho", nil},
		{"python3 a.py &", nil},
		{"python3 {a,b}.py", nil},
		{"python3 'a\x00'", nil},
		{"python3 '\xff'", nil},
		{"python3 é.py", nil},
	} {
		got, ok := plainWords(tc.in)
		if tc.want == nil {
			assert.False(t, ok, "%q: %q", tc.in, got)
			continue
		}
		assert.True(t, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
}

func TestDirectArgs(t *testing.T) {
	files := vfs.New(vfs.Options{})
	require.NoError(t, files.MkdirAll("/home/user/bin", 0o755))
	require.NoError(t, files.MkdirAll("/opt", 0o755))
	require.NoError(t, files.WriteFile("/opt/python3", []byte("#!/bin/sh\necho mine\n"), 0o755))
	env := func(kv ...string) map[string]string {
		m := map[string]string{"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/home/user", "PWD": "/home/user"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return m
	}
	_, ok := directArgs("python3 -c 1", env(), files, "")
	assert.False(t, ok, "the image's version unknown")
	_, ok = directArgs("python3.11 -c 1", env(), files, "3.11.2")
	assert.True(t, ok, "python3.11 on a 3.11 image")
	for _, tc := range []struct {
		cmd  string
		env  map[string]string
		want bool
	}{
		{"python3 -c 'print(1)'", env(), true},
		{"python -V", env(), true},
		{"python3.12 a.py", env(), true},
		{"python3 -m json.tool", env("A-B", "1", "_", "x", "SHLVL", "3"), true},
		{"python3 -m pip list", env(), false},                 // the shell's pip
		{"python3.11 -c 1", env(), false},                     // not a name of the python image
		{"echo hi", env(), false},                             // the shell's own
		{"python3 -c 1", env("PATH", "/opt:/usr/bin"), false}, // a python3 of the sandbox's first
		{"python3 -c 1", env("PATH", "/home/user/bin:/usr/bin"), true},
		{"python3 -c 1", env("PATH", "bin:/usr/bin"), false}, // relative
		{"python3 -c 1", env("PATH", ":/usr/bin"), false},    // the folder
		{"python3 -c 1", env("PATH", ""), false},
		{"python3 -c 1", map[string]string{"HOME": "/"}, false}, // no PATH
		{"python3 -c 1", env("SHELLOPTS", "xtrace"), false},
		{"python3 -c 1", env("BASH_ENV", "/x"), false},
		{"python3 -c 1", env("ENV", "/x"), false},
		{"python3 -c 1", env("BASHOPTS", "x"), false},
		{"python3 -c 1", env("POSIXLY_CORRECT", "1"), false},
		{"python3 -c 1", env("BASH_FUNC_f%%", "() { :; }"), false},
		{"python3 -c 1", env("X", "\xff"), false},
		{"python3 -c 1", env("X=Y", "1"), false},
	} {
		_, got := directArgs(tc.cmd, tc.env, files, "3.12.0")
		assert.Equal(t, tc.want, got, "%q with %v", tc.cmd, tc.env)
	}
}

// TestDirectLikeShell: a plain python3 command run without the shell
// gives what the same command run by the shell (`command python3 ...`,
// which is not plain) gives: output, errors, exit status, environment,
// argv, folder, umask, stdin, the files and the processes it starts.
func TestDirectLikeShell(t *testing.T) {
	p := poolProvider(t, Options{Prewarm: true})
	ctx := context.Background()
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Envs: map[string]string{"A-B": "1", "SHLVL": "4", "_": "u"}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "sub/s.py", []byte("import sys\nprint('script', sys.argv)\nsys.exit(3)\n")))
	major, rest, _ := strings.Cut(p.pythonVersion(), ".")
	minor, _, _ := strings.Cut(rest, ".")
	pyName := "python" + major + "." + minor // python3.12 on the npm image
	for _, tc := range []struct {
		cmd  string
		opts sandbox.RunCommandOptions
	}{
		{cmd: "python3 -c 'print(1)'"},
		{cmd: "python3 -c 'import os, sys; print(sorted(os.environ.items()), sys.argv, sys.orig_argv, sys.executable, os.getcwd())' a 'b c' ''"},
		{cmd: "python -c 'import os; print(sorted(os.environ.items()), os.getcwd())'", opts: sandbox.RunCommandOptions{Cwd: "sub", Env: map[string]string{"PWD": "/x", "OLDPWD": "/y"}}},
		{cmd: "python3 s.py x", opts: sandbox.RunCommandOptions{Cwd: "sub"}},
		{cmd: "python3 sub/nosuch.py"},
		{cmd: "python3 -c 'import os; print(oct(os.umask(0)))'"},
		{cmd: "python3 -c 'import sys; print(repr(sys.stdin.read()), sys.stdin.isatty(), sys.stdout.isatty())'"},
		{cmd: "python3 -c 'import sys; print(\"out\"); print(\"err\", file=sys.stderr); 1/0'"},
		{cmd: "python3 -c 'import sys; sys.exit(\"bye\")'"},
		{cmd: "python3 -c 'import os; os._exit(300)'"},
		{cmd: "python3 -c 'import os; print(os.system(\"echo from sh; exit 3\")); open(\"made.txt\", \"w\").write(\"x\")'"},
		{cmd: "python3 -c 'import subprocess; print(subprocess.run([\"cat\", \"made.txt\"], capture_output=True).stdout)'"},
		{cmd: "python3 -c 'print(\"é\" * 3)'"},
		{cmd: "python3 -m json.tool sub/nosuch.json"},
		{cmd: pyName + " -V"},
	} {
		direct := p.directRuns.Load()
		a, err := sb.RunCommand(ctx, tc.cmd, tc.opts)
		require.NoError(t, err, tc.cmd)
		assert.Equal(t, direct+1, p.directRuns.Load(), "%q ran without the shell", tc.cmd)
		b, err := sb.RunCommand(ctx, "command "+tc.cmd, tc.opts)
		require.NoError(t, err, tc.cmd)
		assert.Equal(t, direct+1, p.directRuns.Load(), "command %q ran in the shell", tc.cmd)
		assert.Equal(t, b.Stdout, a.Stdout, tc.cmd)
		assert.Equal(t, b.Stderr, a.Stderr, tc.cmd)
		assert.Equal(t, b.ExitCode, a.ExitCode, tc.cmd)
	}
}

// TestDirectNotTaken: a python3 file of the sandbox in $PATH, or pip, runs
// as the shell runs it.
func TestDirectNotTaken(t *testing.T) {
	p := poolProvider(t, Options{Prewarm: true})
	ctx := context.Background()
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "/usr/local/bin/python3", []byte("#!/bin/sh\necho mine \"$@\"\n")))
	res, err := sb.RunCommand(ctx, "chmod +x /usr/local/bin/python3 && python3 -c 'print(1)'", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "mine -c print(1)\n", res.Stdout, res.Stderr)
	res, err = sb.RunCommand(ctx, "python3 -c 'print(1)'", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "mine -c print(1)\n", res.Stdout, res.Stderr)
	assert.Zero(t, p.directRuns.Load())
}

// TestDirectEnds: a plain python3 command is ended as the shell's would
// be: at its time limit (exit 124, TimedOut, its output so far) and by
// Destroy (ErrGone).
func TestDirectEnds(t *testing.T) {
	p := poolProvider(t, Options{Prewarm: true})
	ctx := context.Background()
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	res, err := sb.RunCommand(ctx, "python3 -c 'print(\"up\", flush=True)\nwhile True: pass'", sandbox.RunCommandOptions{Timeout: time.Second})
	require.NoError(t, err)
	assert.Equal(t, int64(1), p.directRuns.Load())
	assert.True(t, res.TimedOut)
	assert.Equal(t, 124, res.ExitCode)
	assert.Equal(t, "up\n", res.Stdout)

	done := make(chan error, 1)
	go func() {
		_, err := sb.RunCommand(ctx, "python3 -c 'import time; time.sleep(60)'", sandbox.RunCommandOptions{})
		done <- err
	}()
	time.Sleep(500 * time.Millisecond)
	require.NoError(t, sb.Destroy(ctx))
	select {
	case err := <-done:
		assert.ErrorIs(t, err, sandbox.ErrGone)
	case <-time.After(30 * time.Second):
		t.Fatal("the command outlived Destroy")
	}
	assert.Equal(t, int64(2), p.directRuns.Load())
}
