package git_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
)

// hostRepo makes a real git repository on the host (with real git) and
// returns its folder: what guest git must never reach.
func hostRepo(t *testing.T) string {
	t.Helper()
	needGit(t)
	dir := t.TempDir()
	cmd := exec.Command("bash", "-c", "git init -q && echo secret > secret.txt && git add -A && git -c user.name=h -c user.email=h@h commit -qm host")
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1"}
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return dir
}

func run(t *testing.T, sb sandbox.Sandbox, script string, env map[string]string) sandbox.CommandResult {
	t.Helper()
	res, err := sb.RunCommand(context.Background(), script, sandbox.RunCommandOptions{Env: env, Timeout: time.Minute})
	require.NoError(t, err)
	return res
}

// securityChecks tries to reach the host through git and checks each try
// fails inside the sandbox.
func securityChecks(t *testing.T, sb sandbox.Sandbox) {
	host := hostRepo(t)
	marker := filepath.Join(t.TempDir(), "hook-ran")
	env := map[string]string{}
	for k, v := range gitEnv {
		env[k] = v
	}
	cases := []struct {
		name, script, stderr string
		code                 int
	}{
		{"clone-host-path", "git clone " + host + " x", "fatal: repository '" + host + "' does not exist\n", 128},
		{"clone-host-file-url", "git clone file://" + host + " x", "fatal: repository '" + host + "' does not exist\n", 128},
		{"clone-etc", "git clone /etc x", "fatal: repository '/etc' does not exist\n", 128},
		{"clone-https", "git clone https://github.com/git/git x", "fatal: unable to access 'https://github.com/git/git': the sandbox's git has no network; only a repository inside the sandbox (a path) can be cloned\n", 128},
		{"clone-ssh", "git clone git@github.com:git/git.git x", "fatal: unable to access 'git@github.com:git/git.git': the sandbox's git has no network; only a repository inside the sandbox (a path) can be cloned\n", 128},
		{"clone-git-proto", "git clone git://example.com/r x", "fatal: unable to access 'git://example.com/r': the sandbox's git has no network; only a repository inside the sandbox (a path) can be cloned\n", 128},
		{"git-dir-host", "GIT_DIR=" + host + "/.git git log", "fatal: not a git repository: '" + host + "/.git'\n", 128},
		{"dash-C-host", "git -C " + host + " log", "fatal: cannot change to '" + host + "': No such file or directory\n", 128},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, sb, c.script, env)
			assert.Equal(t, c.stderr, res.Stderr)
			assert.Equal(t, c.code, res.ExitCode)
			assert.Equal(t, "", res.Stdout)
		})
	}
	t.Run("hooks-never-run", func(t *testing.T) {
		// hooks that would write a file in the sandbox and on the host
		script := `mkdir -p /tmp/hooks && cd /tmp/hooks && git init -q && for h in pre-commit commit-msg post-commit post-checkout; do
printf '#!/bin/sh\necho ran > /tmp/hooks/%s.ran\ntouch ` + marker + `\n' $h > .git/hooks/$h; chmod +x .git/hooks/$h; done
echo a > a && git add a && git commit -qm one && git checkout -q -b b && ls /tmp/hooks`
		res := run(t, sb, script, env)
		assert.Equal(t, 0, res.ExitCode, res.Stderr)
		assert.Equal(t, "a\n", res.Stdout, "no hook wrote its .ran file")
		assert.NoFileExists(t, marker)
	})
	t.Run("secret-unchanged", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(host, "secret.txt"))
		require.NoError(t, err)
		assert.Equal(t, "secret\n", string(b))
	})
}

func TestSecurityMemory(t *testing.T) {
	securityChecks(t, memory.NewSandbox(memory.Options{}))
}

func TestSecurityWasm(t *testing.T) {
	securityChecks(t, wasmSandbox(t))
}

// No identity anywhere: the host's git config (HOME, XDG_CONFIG_HOME of
// the test process) is not read; the sandbox's default identity is used
// and git's "configured automatically" advice printed.
func TestDefaultIdentityNotFromHost(t *testing.T) {
	home := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = HOST LEAK\n\temail = leak@host\n"), 0o644))
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_AUTHOR_NAME", "HOST ENV LEAK")
	sb := memory.NewSandbox(memory.Options{})
	res := run(t, sb, "git init -q r && cd r && echo a > a && git add a && git commit -m one && git log --format='%an <%ae>|%cn <%ce>'", nil)
	require.Equal(t, 0, res.ExitCode, res.Stderr)
	assert.NotContains(t, res.Stdout, "LEAK")
	assert.True(t, strings.HasSuffix(res.Stdout, "user <user@sandbox>|user <user@sandbox>\n"), res.Stdout)
	assert.Contains(t, res.Stdout, " Committer: user <user@sandbox>\nYour name and email address were configured automatically")
	// a config in the sandbox's HOME is used, as git does
	res = run(t, sb, `git config --global user.name "Sandbox User" && git config --global user.email su@example.com && cd r && git commit -q --allow-empty -m two && git log -1 --format='%an <%ae>'`, nil)
	require.Equal(t, 0, res.ExitCode, res.Stderr)
	assert.Equal(t, "Sandbox User <su@example.com>\n", res.Stdout)
}
