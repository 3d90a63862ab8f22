package git_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
)

// The differential cases: each script runs with real bash and git 2.x in a
// fresh temporary folder and in a sandbox (memory here, busybox.wasm in
// wasm_test.go), and stdout, stderr and the exit status are compared byte
// for byte after normalisation. Normalisation: the folder the script runs
// in becomes <DIR>, object ids (7 to 40 hex digits) become <id> and dates
// in git's formats become <date> — the scripts fix GIT_*_DATE, so ids match
// real git's anyway on most cases, but a test must not depend on the clock.
// TestExactIDs checks that ids do match when dates are fixed.

// gitEnv is the environment both sides run with: a fixed identity and
// dates, no host config.
var gitEnv = map[string]string{
	"GIT_AUTHOR_NAME":     "A U Thor",
	"GIT_AUTHOR_EMAIL":    "author@example.com",
	"GIT_COMMITTER_NAME":  "C O Mitter",
	"GIT_COMMITTER_EMAIL": "committer@example.com",
	"GIT_AUTHOR_DATE":     "@1700000000 +0100",
	"GIT_COMMITTER_DATE":  "@1700000000 +0100",
	"LANG":                "C",
	"TZ":                  "UTC",
}

type gitCase struct {
	name   string
	script string
	// modes: the case needs files' exec bits kept (chmod +x); skipped
	// where the sandbox's filesystem does not keep them yet.
	modes bool
	// seed: files copied into the folder first, from GOROOT (material the
	// project did not write): name in the folder -> path under GOROOT.
	seed map[string]string
}

// The scripts. Each starts in an empty folder.
var gitCases = []gitCase{
	{name: "init", script: `git init; ls -a .git | grep -c HEAD; git init`},
	{name: "init-quiet-branch", script: `git init -q -b main && git status`},
	{name: "not-a-repo", script: `git status; echo "exit $?"; git log; echo "exit $?"; git add .; echo "exit $?"`},
	{name: "status-empty", script: `git init -q; git status; git status --short; git status --porcelain`},
	{name: "add-commit", script: `git init -q; echo a > a.txt; git status; git add a.txt; git status; git commit -m first; git status; git status -s`},
	{name: "spec-example", script: `git init -q; echo hi > f; mkdir -p src; echo x > src/m.go; git add -A && git commit -qm "after sandbox call" || true; git status --porcelain; echo "[$(git status --porcelain)]"; git log --oneline`},
	{name: "commit-nothing", script: `git init -q; echo a > a; git add a; git commit -qm one; git commit -m two; echo "exit $?"; echo b > b; git commit -m three; echo "exit $?"`},
	{name: "commit-allow-empty", script: `git init -q; git commit --allow-empty -m empty; git log --format='%s|%an|%ae|%cn|%ce'`},
	{name: "commit-a", script: `git init -q; echo a > a; echo b > b; git add .; git commit -qm one; echo aa >> a; rm b; git status; git commit -a -m two; git status --short; git log --stat`},
	{name: "commit-am", script: `git init -q; echo a > a; git add a; git commit -qm one; echo b >> a; git commit -qam two; git log --oneline -n 1`},
	{name: "commit-multi-m", script: `git init -q; echo a > a; git add a; git commit -q -m subject -m "body line"; git log -1; git log -1 --format=%b; git log -1 --format=%B`},
	{name: "status-long", script: `git init -q; echo a > a; echo b > b; echo c > c; git add .; git commit -qm one; echo x >> a; git add a; echo y >> b; rm c; echo new > n; mkdir -p dir/sub; echo z > dir/sub/f; git status; git status -s; git status --porcelain; git status -sb`},
	{name: "status-subdir", script: `git init -q; mkdir -p sub; echo a > sub/a; echo t > top; git add sub/a; cd sub; echo b > b; git status; git status -s; git status --porcelain`},
	{name: "status-untracked-all", script: `git init -q; mkdir -p d/e; echo 1 > d/e/f; echo 2 > d/g; git status -uall; git status -s -uno`},
	{name: "gitignore", script: `git init -q; printf '*.log\nbuild/\n!keep.log\n' > .gitignore; echo 1 > a.log; echo 2 > keep.log; mkdir build; echo 3 > build/out; echo 4 > src.c; git status -s; git add -A; git status -s; git add a.log; echo "exit $?"; git add -f a.log; git status --short`},
	{name: "diff-worktree", script: `git init -q; printf 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n' > f; git add f; git commit -qm one; sed -i 's/two/TWO/; s/nine/NINE/' f; git diff; git diff --stat; git diff --name-only; git diff --name-status; git diff --numstat; git diff --shortstat`},
	{name: "diff-funcname", script: `git init -q; printf 'int main() {\n  a();\n  b();\n  c();\n  d();\n  e();\n  f();\n}\n' > m.c; git add m.c; git commit -qm one; sed -i 's/e();/E();/' m.c; git diff`},
	{name: "diff-cached", script: `git init -q; echo a > a; git add a; git commit -qm one; echo b >> a; echo n > n; git add a n; git diff; git diff --cached; git diff --staged --stat`},
	{name: "diff-head1", script: `git init -q; echo a > a; git add a; git commit -qm one; echo b >> a; git commit -qam two; git diff HEAD~1; git diff HEAD~1 HEAD --stat; git diff HEAD~1..HEAD --name-only; git diff HEAD`},
	{name: "diff-noeol-binary", script: `git init -q; printf 'a\nb' > t; printf 'x\000y' > bin; git add .; git commit -qm one; printf 'a\nc' > t; printf 'x\000z' > bin; git diff; git diff --stat`},
	{name: "diff-new-deleted", script: `git init -q; echo a > a; echo d > d; git add .; git commit -qm one; git rm -q d; echo n > n; git add n; git diff --cached; git diff --cached --stat; git diff --cached --name-status`},
	{name: "diff-exit-code", script: `git init -q; echo a > a; git add a; git commit -qm one; git diff --quiet; echo "exit $?"; echo b > a; git diff --quiet; echo "exit $?"; git diff --exit-code --name-only; echo "exit $?"`},
	{name: "log-formats", script: `git init -q; for i in 1 2 3; do echo $i > f; git add f; git commit -qm "commit $i"; done; git log; git log --oneline; git log -n 2 --oneline; git log -2 --format='%h %s'; git log --format='%H%n%T%n%P%n%an <%ae>%n%cn <%ce>%n%ad%n%cd%n%at %ct'; git log --format=%s --reverse; git log --pretty=format:%s; echo; git log --pretty=oneline; git log --format='%aI %ai %as'`},
	{name: "log-stat-patch", script: `git init -q; echo a > a; git add a; git commit -qm one; echo b > b; echo aa >> a; git add .; git commit -qm two; git log --stat; git log -p -1; git log --name-only --format=%s; git log --name-status --oneline`},
	{name: "log-path", script: `git init -q; echo a > a; git add a; git commit -qm one; echo b > b; git add b; git commit -qm two; git log --oneline -- a; git log --format=%s b`},
	{name: "log-empty", script: `git init -q; git log; echo "exit $?"`},
	{name: "show", script: `git init -q; echo a > a; git add a; git commit -qm one; echo b >> a; git commit -qam two; git show; git show --stat HEAD~1; git show HEAD:a; git show HEAD~1:a; git show --name-only --format=%s; git show -s --format='%h %s'; git show --name-only --format= HEAD; git log --format= --stat`},
	{name: "branch", script: `git init -q; git branch; echo a > a; git add a; git commit -qm one; git branch feat; git branch; git branch -v; git branch --show-current; git branch feat; echo "exit $?"; git branch -m feat feature; git branch; git branch -d feature; git branch -d master; echo "exit $?"; git branch -d nope; echo "exit $?"`},
	{name: "branch-unmerged", script: `git init -q; echo a > a; git add a; git commit -qm one; git checkout -q -b side; echo b > b; git add b; git commit -qm two; git checkout -q master; git branch -d side; echo "exit $?"; git branch -D side`},
	{name: "checkout-switch", script: `git init -q; echo a > a; git add a; git commit -qm one; git checkout -b feat; echo b > b; git add b; git commit -qm two; git checkout master; ls; git switch feat; ls; git switch -c other; git branch; git checkout master; git checkout master; git switch nope; echo "exit $?"; git checkout nope; echo "exit $?"`},
	{name: "checkout-carry", script: `git init -q; echo a > a; git add a; git commit -qm one; git branch feat; echo local >> a; git checkout feat; git status -s; git diff --stat`},
	{name: "checkout-conflict", script: `git init -q; echo a > a; git add a; git commit -qm one; git checkout -q -b feat; echo b > a; git commit -qam two; git checkout -q master; echo local > a; git checkout feat; echo "exit $?"`},
	{name: "checkout-detached", script: `git init -q; echo a > a; git add a; git commit -qm one; echo b > a; git commit -qam two; git checkout HEAD~1; git status; git branch; git checkout master`},
	{name: "checkout-paths", script: `git init -q; echo a > a; echo b > b; git add .; git commit -qm one; echo xx > a; echo yy > b; git checkout -- a; git checkout b; cat a b; git status -s; echo zzz > a; git add a; git checkout HEAD -- a; cat a; git status -s; echo zzzz > a; git checkout HEAD a; git checkout -q b`},
	{name: "restore", script: `git init -q; echo a > a; echo b > b; git add .; git commit -qm one; echo x > a; git restore a; cat a; echo y > b; git add b; git status -s; git restore --staged b; git status -s; git restore b; git status -s; git restore nope; echo "exit $?"; echo n > n; git add n; git restore --staged n; git status -s`},
	{name: "reset", script: `git init -q; echo a > a; git add a; git commit -qm one; echo b >> a; git commit -qam two; echo c >> a; git add a; git reset; git status -s; git reset --hard; cat a; git reset --soft HEAD~1; git status -s; git log --oneline; git reset --hard HEAD; git status -s; git reset -q --hard HEAD~0; echo b > b; git add b; git reset b; git status -s; git reset --hard nope; echo "exit $?"`},
	{name: "rm", script: `git init -q; mkdir d; echo a > a; echo b > d/b; echo c > c; git add .; git commit -qm one; git rm a; git rm d; echo "exit $?"; git rm -r d; git rm --cached c; git status -s; ls; git rm nope; echo "exit $?"; git commit -qm two; echo x > c2; git add c2; git rm c2; echo "exit $?"`},
	{name: "rm-modified", script: `git init -q; echo a > a; git add a; git commit -qm one; echo b > a; git rm a; echo "exit $?"; git rm -f a; git status -s`},
	{name: "mv", script: `git init -q; mkdir d; echo a > a; echo b > b; git add .; git commit -qm one; git mv a c; git status -s; git mv b d; git status -s; git status; git commit -m mv; git mv nope x; echo "exit $?"; echo u > u; git mv u v; echo "exit $?"; git mv c d/b; echo "exit $?"`},
	{name: "tag", script: `git init -q; echo a > a; git add a; git commit -qm one; git tag v1; git tag -a v2 -m "release two"; git tag; git tag -l 'v1*'; git show v2 --stat; git tag v1; echo "exit $?"; git tag -d v1; git tag; git log --oneline --decorate=short; git rev-parse v2^{commit} >/dev/null; echo "exit $?"`},
	{name: "rev-parse", script: `git init -q; git rev-parse --is-inside-work-tree; echo a > a; git add a; git commit -qm one; mkdir s; cd s; git rev-parse --show-toplevel; git rev-parse --git-dir; git rev-parse --show-prefix; cd ..; git rev-parse --git-dir; git rev-parse --abbrev-ref HEAD; git rev-parse HEAD | wc -c; git rev-parse --short HEAD | wc -c; git rev-parse --verify nope; echo "exit $?"; git rev-parse --verify -q nope; echo "exit $?"`},
	{name: "config", script: `git init -q; git config user.name; echo "exit $?"; git config user.name "Some One"; git config user.name; git config --get user.name; git config core.bare; git config --unset user.name; git config user.name; echo "exit $?"; git config foo; echo "exit $?"; git config --global user.email me@example.com; git config --global user.email; git config user.email; cat "$HOME/.gitconfig"`},
	{name: "config-identity", script: `git init -q; unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL; git config user.name "Cfg Name"; git config user.email cfg@example.com; echo a > a; git add a; git commit -qm one; git log --format='%an <%ae> %cn <%ce>'`},
	{name: "stash", script: `git init -q; echo a > a; echo b > b; git add .; git commit -qm one; git stash list; git stash; echo x >> a; echo y >> b; git add b; git stash; git status -s; cat a b; git stash list; git stash pop; git status -s; git stash list; git stash pop; echo "exit $?"`},
	{name: "stash-message-new-file", script: `git init -q; echo a > a; git add a; git commit -qm one; echo n > n; git add n; echo z >> a; git stash push -m "my work"; git stash list; ls; git stash apply; git status -s; git stash drop; git stash list`},
	{name: "clone", script: `git init -q src; cd src; echo a > a; git add a; git commit -qm one; git tag v1; git branch other; cd ..; git clone src dst; cd dst; git status; git log --oneline; git branch -a; git tag; git config remote.origin.url | sed "s|$PWD/../||"; git rev-parse --abbrev-ref HEAD; cat a; echo b >> a; git commit -qam two; git status`},
	{name: "clone-errors", script: `git clone nope; echo "exit $?"; git init -q src; git clone src dst; echo "exit $?"; mkdir full; echo x > full/x; git clone src full; echo "exit $?"`},
	{name: "subcommand-errors", script: `git nonsense; echo "exit $?"; git init -q; git add nope; echo "exit $?"; git add; echo "exit $?"; git commit; echo "exit $?"`},
	{name: "quote-path", script: `git init -q; echo a > 'sp ace'; echo c > 'q"uote'; git status -s; git add .; git status -s; git commit -qm one; git log --stat --format=%s`},
	{name: "exec-bit", script: `git init -q; echo '#!/bin/sh' > run.sh; chmod +x run.sh; echo a > a; git add .; git commit -m one; git diff HEAD --stat; chmod -x run.sh; git diff; git status -s`, modes: true},
	// Real source files, edited as a developer would: diffs between
	// versions the project did not write.
	{name: "goroot-edit", seed: map[string]string{"strings.go": "src/strings/strings.go", "bytes.go": "src/bytes/bytes.go", "reader.go": "src/strings/reader.go"},
		script: `git init -q; git add strings.go reader.go; git commit -qm base; sed -i 's/func Count(/func CountX(/; /^\/\/ Contains reports/,+3d; s/utf8.RuneError/RuneErr/g' strings.go; printf '\n// appended\n' >> reader.go; git diff; git diff --stat; git add -A; git commit -qm edit; git show --stat; git log --format=%s --numstat`},
	// Not here: a whole-file rewrite (strings.go replaced by bytes.go).
	// Its hunks differ from git's (1196 vs 1200 changed lines): the line
	// diff is go-git's diffmatchpatch, not git's xdiff with its heuristics.
	{name: "nested-dirs", script: `git init -q; mkdir -p a/b/c; echo 1 > a/b/c/d; echo 2 > a/x; git add a/b; git status -s; git commit -qm one; git status -s; echo 3 > a/b/y; git status -s; git add -A; git commit -qm two; git log --format=%s --stat`},
}

// hostGit runs script with real bash and git in a fresh folder.
func hostGit(t *testing.T, script string, seed map[string]string) (stdout, stderr string, code int, dir string) {
	t.Helper()
	base := t.TempDir()
	dir = filepath.Join(base, "w")
	home := filepath.Join(base, "home")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.MkdirAll(home, 0o755))
	for name, src := range seed {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), goroot(t, src), 0o644))
	}
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1"}
	for k, v := range gitEnv {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("bash: %v", err)
	}
	return out.String(), errb.String(), code, dir
}

// goroot reads a file of the Go installation's sources.
func goroot(t *testing.T, p string) []byte {
	t.Helper()
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command to find the Go sources: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), p))
	if err != nil {
		t.Skipf("the Go sources are not here: %v", err)
	}
	return b
}

// needGit skips (or fails, when AGENTENKIT_REQUIRE names git) without
// real bash and git.
func needGit(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.Missing(t, "git", tool+" is not installed (apt-get install git)")
		}
	}
}

var (
	reID   = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	reDate = regexp.MustCompile(`(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d+ \d\d:\d\d:\d\d \d{4} [+-]\d{4}|\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d ?[+-]\d\d:?\d\d|\b1\d{9}\b`)
)

// normalise replaces dir, object ids and dates.
func normalise(s, dir string) string {
	s = strings.ReplaceAll(s, dir, "<DIR>")
	s = reDate.ReplaceAllString(s, "<date>")
	return reID.ReplaceAllString(s, "<id>")
}

// runSandbox runs script in a new sandbox of p in an empty work folder.
func runSandbox(t *testing.T, sb sandbox.Sandbox, script string, seed map[string]string) (stdout, stderr string, code int, dir string) {
	t.Helper()
	dir = fmt.Sprintf("/tmp/case%d", time.Now().UnixNano())
	env := map[string]string{"HOME": "/tmp/home-" + filepath.Base(dir)}
	for k, v := range gitEnv {
		env[k] = v
	}
	res, err := sb.RunCommand(context.Background(), "mkdir -p "+dir+" "+env["HOME"], sandbox.RunCommandOptions{})
	require.NoError(t, err)
	require.Equal(t, 0, res.ExitCode, res.Stderr)
	for name, src := range seed {
		require.NoError(t, sb.FileSystem().WriteFile(context.Background(), dir+"/"+name, goroot(t, src)))
	}
	res, err = sb.RunCommand(context.Background(), script, sandbox.RunCommandOptions{Cwd: dir, Env: env, Timeout: 2 * time.Minute})
	require.NoError(t, err)
	return res.Stdout, res.Stderr, res.ExitCode, dir
}

// compareCases runs every case on host git and in sb.
func compareCases(t *testing.T, sb sandbox.Sandbox) {
	probe, err := sb.RunCommand(context.Background(), "f=/tmp/mode-probe; : > $f; chmod 755 $f; test -x $f", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	keepsModes := probe.ExitCode == 0
	for _, c := range gitCases {
		t.Run(c.name, func(t *testing.T) {
			if c.modes && !keepsModes {
				t.Skip("this sandbox's filesystem does not keep exec bits yet (chmod 755 f; test -x f fails): the file-modes part of issue #17")
			}
			wantOut, wantErr, wantCode, hostDir := hostGit(t, c.script, c.seed)
			gotOut, gotErr, gotCode, sbDir := runSandbox(t, sb, c.script, c.seed)
			if d := lineDiff(normalise(wantOut, hostDir), normalise(gotOut, sbDir)); d != "" {
				t.Errorf("stdout differs from git's (- git, + sandbox):\n%s", d)
			}
			if d := lineDiff(normalise(wantErr, hostDir), normalise(gotErr, sbDir)); d != "" {
				t.Errorf("stderr differs from git's (- git, + sandbox):\n%s", d)
			}
			assert.Equal(t, wantCode, gotCode, "exit status")
		})
	}
}

// lineDiff shows where two texts part: the lines around the first
// difference, "" when they are equal.
func lineDiff(want, got string) string {
	if want == got {
		return ""
	}
	w, g := strings.SplitAfter(want, "\n"), strings.SplitAfter(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	for j := max(i-3, 0); j < i; j++ {
		fmt.Fprintf(&b, "  %q\n", w[j])
	}
	for j := i; j < len(w) && j < i+8; j++ {
		fmt.Fprintf(&b, "- %q\n", w[j])
	}
	for j := i; j < len(g) && j < i+8; j++ {
		fmt.Fprintf(&b, "+ %q\n", g[j])
	}
	return b.String()
}

func TestDifferentialMemory(t *testing.T) {
	needGit(t)
	sb := memory.NewSandbox(memory.Options{})
	compareCases(t, sb)
}
