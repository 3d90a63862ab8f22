package sandboxtest

import (
	"github.com/stretchr/testify/assert"

	"github.com/agentenkit/agentenkit/sandbox"
)

// gitIdentity is the identity the git cases commit with: set in the
// command's environment, as an app's AfterSandboxCall would, so that no
// adapter depends on a user's git config.
var gitIdentity = map[string]string{
	"GIT_AUTHOR_NAME":     "Agent",
	"GIT_AUTHOR_EMAIL":    "agent@example.com",
	"GIT_COMMITTER_NAME":  "Agent",
	"GIT_COMMITTER_EMAIL": "agent@example.com",
}

var gitCases = []Case{
	{
		Name: "git/commit-leaves-status-clean",
		Rule: "git is there: `git init && git add -A && git commit -qm x && git status --porcelain` prints nothing and exits 0, and the commit holds the files (identity from GIT_AUTHOR_*/GIT_COMMITTER_*).",
		Check: func(e *Env) {
			opts := sandbox.RunCommandOptions{Env: gitIdentity}
			res := e.Run("mkdir -p repo/sub && printf 'a\\n' > repo/a.txt && printf 'b' > repo/sub/b.txt", opts)
			assert.Equal(e.T, 0, res.ExitCode, "stderr: %s", res.Stderr)
			res = e.Run("cd repo && git init -q && git add -A && git commit -qm x && git status --porcelain", opts)
			assert.Equal(e.T, "", res.Stdout)
			assert.Equal(e.T, 0, res.ExitCode, "stderr: %s", res.Stderr)
			res = e.Run("cd repo && git log --format='%an <%ae> %s' && git show --name-only --format= HEAD", opts)
			assert.Equal(e.T, "Agent <agent@example.com> x\na.txt\nsub/b.txt\n", res.Stdout, "stderr: %s", res.Stderr)
		},
	},
}
