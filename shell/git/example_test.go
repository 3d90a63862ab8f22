package git_test

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell"
)

// The git command runs inside the project's shell over any afero
// filesystem; nothing of the host is read.
func Example() {
	fsys := afero.NewMemMapFs()
	_ = fsys.MkdirAll("/work", 0o755)
	script := `git init -q && echo hi > hello.txt && git add -A && git commit -qm "first" && echo more >> hello.txt
git status --short
git diff --stat
git log --format='%an: %s'`
	code, err := shell.Run(context.Background(), script, shell.Options{
		FS: fsys, Dir: "/work", Stdout: os.Stdout, Stderr: os.Stdout,
		Env: map[string]string{"GIT_AUTHOR_NAME": "Agent", "GIT_AUTHOR_EMAIL": "agent@example.com",
			"GIT_COMMITTER_NAME": "Agent", "GIT_COMMITTER_EMAIL": "agent@example.com"},
	})
	fmt.Println(code, err)
	// Output:
	//  M hello.txt
	//  hello.txt | 1 +
	//  1 file changed, 1 insertion(+)
	// Agent: first
	// 0 <nil>
}
