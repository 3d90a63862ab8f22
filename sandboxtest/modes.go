package sandboxtest

import (
	"strings"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
)

// modeCases are the file modes every Linux box keeps, and so every
// adapter: the umask 022, chmod, executables run by their #! line.
var modeCases = []Case{
	{
		Name: "modes/created-644-755",
		Rule: "Under the default umask 022 a file a command creates has mode 644 and a folder 755; chmod changes the mode and stat reports it.",
		Check: func(e *Env) {
			res := e.Run("umask; echo x > f; mkdir d; stat -c '%a %F' f d; chmod 750 f; chmod g+w,o=rx d; stat -c %a f d; umask 077; touch g; mkdir h; stat -c %a g h", sandbox.RunCommandOptions{})
			assert.Equal(e.T, "0022\n644 regular file\n755 directory\n750\n775\n600\n700\n", res.Stdout, "stderr: %s", res.Stderr)
			assert.Equal(e.T, 0, res.ExitCode)
		},
	},
	{
		Name: "modes/writefile-644-keeps-mode",
		Rule: "FileSystem().WriteFile makes a new file with mode 644 and keeps the mode of a file it replaces.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "new.txt", []byte("a\n")))
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "run.sh", []byte("#!/bin/sh\necho one\n")))
			res := e.Run("chmod 755 run.sh", sandbox.RunCommandOptions{})
			require.Equal(e.T, 0, res.ExitCode, "stderr: %s", res.Stderr)
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "run.sh", []byte("#!/bin/sh\necho two\n")))
			res = e.Run("stat -c %a new.txt run.sh; ./run.sh", sandbox.RunCommandOptions{})
			assert.Equal(e.T, "644\n755\ntwo\n", res.Stdout, "stderr: %s", res.Stderr)
		},
	},
	{
		Name: "modes/system-paths",
		Rule: "The commands live where a Linux box keeps them: /bin/sh and /usr/bin/env are executable files that run by path, ls is in /bin (ls /bin/ls prints /bin/ls) and which ls is /bin/ls or /usr/bin/ls (which, not command -v: busybox's ash, the docker test image's shell, reports its applets by name); #!/usr/bin/env and #!/bin/sh scripts run.",
		Check: func(e *Env) {
			script := `test -x /bin/sh && test -x /usr/bin/env && [ -d /bin ] && [ -d /usr/bin ] && echo exec-bits
ls /bin/ls; ls /bin | grep -qx sh && echo listed
/bin/sh -c 'echo by-path'; /usr/bin/env sh -c 'echo by-env'
c=$(which ls); case $c in /bin/ls|/usr/bin/ls) echo "which" ;; *) echo "which ls: $c" ;; esac
[ -x "$c" ] && echo found-is-executable
printf '#!/usr/bin/env sh\necho shebang-env "$1"\n' > e.sh; printf '#!/bin/sh\necho shebang-sh\n' > s.sh; chmod +x e.sh s.sh; ./e.sh a; ./s.sh`
			res := e.Run(script, sandbox.RunCommandOptions{})
			assert.Equal(e.T, "exec-bits\n/bin/ls\nlisted\nby-path\nby-env\nwhich\nfound-is-executable\nshebang-env a\nshebang-sh\n", res.Stdout, "stderr: %s", res.Stderr)
			assert.Equal(e.T, 0, res.ExitCode)
		},
	},
	{
		Name:  "modes/system-paths-python",
		Rule:  "A program sees the commands where the shell does: Python's shutil.which('ls') is which ls, os.stat of it and of /usr/bin has the mode and owners stat reports, os.readlink('/bin') is readlink /bin, os.listdir('/usr/bin') is ls -A /usr/bin, and the file is executable.",
		Needs: []Capability{CapPython},
		Check: func(e *Env) {
			shell := `c=$(which ls); echo "$c"; stat -L -c '%a %u %g' "$c" /usr/bin; readlink /bin || echo no-link
[ -f "$c" ] && [ -x "$c" ] && [ -f /bin/sh ] && echo runs; LC_ALL=C ls -A /usr/bin`
			python := `import os, shutil
c = shutil.which('ls')
print(c)
for p in (c, '/usr/bin'):
    s = os.stat(p)
    print('%o %d %d' % (s.st_mode & 0o7777, s.st_uid, s.st_gid))
try:
    print(os.readlink('/bin'))
except OSError:
    print('no-link')
if os.path.isfile(c) and os.access(c, os.X_OK) and os.path.isfile('/bin/sh'):
    print('runs')
print('\n'.join(sorted(os.listdir('/usr/bin'))))
`
			require.NoError(e.T, e.Sandbox.FileSystem().WriteFile(e.Ctx, "system_paths.py", []byte(python)))
			sh := e.Run(shell, sandbox.RunCommandOptions{})
			require.Equal(e.T, 0, sh.ExitCode, "stderr: %s", sh.Stderr)
			assert.Contains(e.T, sh.Stdout, "\nruns\n")
			py := e.Run("python3 system_paths.py", sandbox.RunCommandOptions{})
			assert.Equal(e.T, sh.Stdout, py.Stdout, "python's stderr: %s", py.Stderr)
		},
	},
	{
		Name: "modes/executable-by-shebang",
		Rule: "chmod +x f && ./f runs f by its #! line with its arguments; without the exec bit it is Permission denied, exit 126.",
		Check: func(e *Env) {
			res := e.Run(`printf '#!/bin/sh\necho "ran $1"\n' > s.sh && chmod +x s.sh && ./s.sh one`, sandbox.RunCommandOptions{})
			assert.Equal(e.T, "ran one\n", res.Stdout, "stderr: %s", res.Stderr)
			assert.Equal(e.T, 0, res.ExitCode)
			res = e.Run(`printf '#!/bin/sh\necho ran\n' > n.sh; ./n.sh`, sandbox.RunCommandOptions{})
			assert.Equal(e.T, "", res.Stdout)
			assert.Equal(e.T, 126, res.ExitCode)
			assert.True(e.T, strings.Contains(res.Stderr, "./n.sh: Permission denied"), "stderr: %q", res.Stderr)
		},
	},
}
