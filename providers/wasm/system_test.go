package wasm_test

import (
	"bytes"
	"os"
	"os/exec"
	"os/user"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Python sees the system folders as a non-root user of Debian does:
// testdata/system_probe.py prints what os, shutil and subprocess say of
// /usr/bin, /bin and the rest, and the sandbox's Python prints what
// Debian 12's Python printed as nobody (system_probe.debian.txt), line for
// line. Where this machine is Debian, the test is root and runuser is
// there, the recording is checked against the host's Python again.
func TestSystemFoldersPython(t *testing.T) {
	t.Parallel()
	probe, err := os.ReadFile("testdata/system_probe.py")
	require.NoError(t, err)
	want, err := os.ReadFile("testdata/system_probe.debian.txt")
	require.NoError(t, err)
	if host := hostProbe(t); host != nil {
		assert.Equal(t, string(want), string(host), "testdata/system_probe.debian.txt is no longer what this Debian's Python prints as nobody")
	}
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	require.NoError(t, sb.FileSystem().WriteFile(t.Context(), "probe.py", probe))
	res := run(t, sb, "python3 probe.py", sandbox.RunCommandOptions{})
	assert.Equal(t, string(want), res.Stdout, res.Stderr)
}

// hostProbe is the probe's output under the host's /usr/bin/python3 as
// nobody, or nil when that cannot be had here.
func hostProbe(t *testing.T) []byte {
	t.Helper()
	if os.Geteuid() != 0 {
		return nil
	}
	if b, err := os.ReadFile("/etc/debian_version"); err != nil || !strings.HasPrefix(string(b), "12.") {
		return nil
	}
	runuser, err := exec.LookPath("runuser")
	if err != nil {
		return nil
	}
	if _, err := user.Lookup("nobody"); err != nil {
		return nil
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		return nil
	}
	probe, err := os.ReadFile("testdata/system_probe.py")
	require.NoError(t, err)
	cmd := exec.Command(runuser, "-u", "nobody", "--", "/usr/bin/python3", "-")
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(probe), &out, &errb
	if err := cmd.Run(); err != nil {
		t.Logf("the host's python3 as nobody: %v: %s", err, errb.String())
		return nil
	}
	return out.Bytes()
}

// Python and the shell of one sandbox see the same system folders: the
// same listings, modes, owners, sizes, times, link targets and file
// contents, through links of the sandbox's own too; and the same
// refusals.
func TestSystemFoldersLikeShell(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	run(t, sb, "ln -s /bin b && ln -s /usr/bin/python3 py && mkdir -p /usr/local/bin && echo tool > /usr/local/bin/tool", sandbox.RunCommandOptions{})
	const paths = "/usr/bin/ls /bin/sh /usr/bin/python3 /usr/bin /usr/sbin /bin /sbin /usr/bin/[ b/ls py"
	for _, c := range []struct{ name, shell, python string }{
		{"list /usr/bin", "LC_ALL=C ls -A /usr/bin",
			"import os; print('\\n'.join(sorted(os.listdir('/usr/bin'))))"},
		{"list /usr/sbin and /bin", "LC_ALL=C ls -A /usr/sbin; echo --; LC_ALL=C ls -A /bin/",
			"import os\nprint('\\n'.join(sorted(os.listdir('/usr/sbin')) + ['--'] + sorted(os.listdir('/bin/'))))"},
		{"list /", "LC_ALL=C ls -A /", "import os; print('\\n'.join(sorted(os.listdir('/'))))"},
		{"lstat", "stat -c '%n %f %u %g %s %Y' " + paths,
			"import os\nfor p in '" + paths + "'.split():\n    s = os.lstat(p)\n    print(p, '%x' % s.st_mode, s.st_uid, s.st_gid, s.st_size, int(s.st_mtime))"},
		{"stat", "stat -L -c '%n %f %u %g %s %Y' " + paths,
			"import os\nfor p in '" + paths + "'.split():\n    s = os.stat(p)\n    print(p, '%x' % s.st_mode, s.st_uid, s.st_gid, s.st_size, int(s.st_mtime))"},
		{"links", "readlink /bin /sbin b py; readlink -f b/ls py",
			"import os\nfor p in ('/bin', '/sbin', 'b', 'py'): print(os.readlink(p))\nfor p in ('b/ls', 'py'): print(os.path.realpath(p))"},
		{"contents", "for f in /usr/bin/*; do cat \"$f\"; done; cat b/ls py",
			"import os, sys\nfor p in ['/usr/bin/' + n for n in sorted(os.listdir('/usr/bin'))] + ['b/ls', 'py']:\n    sys.stdout.buffer.write(open(p, 'rb').read())"},
		{"every command runs", "for f in /usr/bin/*; do [ -x \"$f\" ] && [ -f \"$f\" ] && [ ! -w \"$f\" ] && echo \"${f##*/}\"; done",
			"import os, shutil\nfor n in sorted(os.listdir('/usr/bin')):\n    p = '/usr/bin/' + n\n    if os.access(p, os.X_OK) and os.path.isfile(p) and not os.access(p, os.W_OK) and shutil.which(n) == p:\n        print(n)"},
		{"refusals", "for f in /usr/bin/x /usr/bin/ls b/ls b/new /sbin/x; do (: > \"$f\") 2>/dev/null || echo \"$f\"; done; rm -f /usr/bin/ls 2>/dev/null || echo rm; mkdir /usr/sbin/d 2>/dev/null || echo mkdir; chmod 777 /usr/bin/ls 2>/dev/null || echo chmod",
			"import os\nfor f in ('/usr/bin/x', '/usr/bin/ls', 'b/ls', 'b/new', '/sbin/x'):\n    try: open(f, 'w')\n    except PermissionError: print(f)\nfor name, f in (('rm', lambda: os.remove('/usr/bin/ls')), ('mkdir', lambda: os.mkdir('/usr/sbin/d')), ('chmod', lambda: os.chmod('/usr/bin/ls', 0o777))):\n    try: f()\n    except PermissionError: print(name)"},
		{"run", "ls /; /usr/bin/env printf '%s\\n' hi", "import shutil, subprocess; subprocess.run([shutil.which('ls'), '/']); subprocess.run(['/usr/bin/env', 'printf', '%s\\n', 'hi'])"},
	} {
		sh := run(t, sb, c.shell, sandbox.RunCommandOptions{})
		require.NoError(t, sb.FileSystem().WriteFile(t.Context(), "t.py", []byte(c.python)))
		py := run(t, sb, "python3 t.py", sandbox.RunCommandOptions{})
		require.Equal(t, 0, sh.ExitCode, "%s: the shell: %s", c.name, sh.Stderr)
		require.NotEmpty(t, sh.Stdout, c.name)
		assert.Equal(t, sh.Stdout, py.Stdout, "%s (python's stderr %q)", c.name, py.Stderr)
	}
	// /usr/local stays the user's, beside the system's folders.
	res := run(t, sb, "LC_ALL=C ls /usr; echo more >> /usr/local/bin/tool; cat /usr/local/bin/tool; stat -c '%U %a' /usr/local /usr", sandbox.RunCommandOptions{})
	assert.Equal(t, "bin\nlocal\nsbin\ntool\nmore\nuser 755\nroot 755\n", res.Stdout, res.Stderr)
}
