package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// shTestDir is where the Run tests start (and HOME).
const shTestDir = "/home/user"

// shTestMtime is the modification time of everything the Run tests write.
var shTestMtime = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// shTestFiles is the tree the Run tests start with (paths relative to
// shTestDir; a trailing slash makes a folder). Tests rely on its content.
var shTestFiles = map[string]string{
	"a.txt":              "apple\nbanana\ncherry\n",
	"b.txt":              "one\ntwo\n",
	"empty.txt":          "",
	"notes.md":           "# notes\nTODO: write\n",
	".hidden":            "h\n",
	"src/main.go":        "package main\n\n// TODO: more\nfunc main() {}\n",
	"src/util/u.go":      "package util\n",
	"src/util/u_test.go": "package util\n\nfunc TestU() {}\n",
	"empty/":             "",
}

// shCase is one script run through Run over shTestFiles: its stdout and
// status. host marks cases whose expectation is also checked against the
// host's bash and GNU tools (TestRunConfirm): no sandbox identity (user
// names, fixed uname), no symbolic links, no paths outside the folder.
type shCase struct {
	name   string
	script string
	stdout string
	exit   int
	host   bool
}

// newShTestFS makes a MemMapFs holding files under shTestDir, every file
// and folder dated shTestMtime.
func newShTestFS(t testing.TB, files map[string]string) afero.Fs {
	t.Helper()
	fsys := afero.NewMemMapFs()
	if err := writeShTestTree(files, func(p string, dir bool, data string) error {
		if dir {
			return fsys.MkdirAll(p, 0o755)
		}
		if err := fsys.MkdirAll(path.Dir(p), 0o755); err != nil {
			return err
		}
		return afero.WriteFile(fsys, p, []byte(data), 0o644)
	}, func(p string) error { return fsys.Chtimes(p, shTestMtime, shTestMtime) }, shTestDir); err != nil {
		t.Fatal(err)
	}
	return fsys
}

// writeShTestTree writes files under root with mk, then dates every path
// (deepest first, so that folders keep their date) with date.
func writeShTestTree(files map[string]string, mk func(p string, dir bool, data string) error, date func(p string) error, root string) error {
	if err := mk(root, true, ""); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	seen := map[string]bool{root: true}
	var all []string
	for _, n := range names {
		p := path.Join(root, n)
		if err := mk(p, strings.HasSuffix(n, "/"), files[n]); err != nil {
			return err
		}
		for d := p; d != root && d != "/" && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			all = append(all, d)
		}
	}
	all = append(all, root)
	sort.Slice(all, func(i, j int) bool { return strings.Count(all[i], "/") > strings.Count(all[j], "/") })
	for _, p := range all {
		if err := date(p); err != nil {
			return err
		}
	}
	return nil
}

// shTestEnv is the environment of the Run tests.
var shTestEnv = map[string]string{"HOME": shTestDir, "PATH": "/usr/bin:/bin", "LC_ALL": "C", "TZ": "UTC"}

// runSh runs script on fsys in shTestDir and returns stdout, stderr and
// the status.
func runSh(t testing.TB, fsys afero.Fs, script string) (string, string, int) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code, err := Run(ctx, script, Options{
		FS:     fsys,
		Dir:    shTestDir,
		Env:    shTestEnv,
		Stdin:  strings.NewReader(""),
		Stdout: &stdout,
		Stderr: &stderr,
	})
	if err != nil {
		t.Fatalf("Run(%q): %v", script, err)
	}
	return stdout.String(), stderr.String(), code
}

// runShCases runs each case on a fresh fixture.
func runShCases(t *testing.T, cases []shCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, errOut, code := runSh(t, newShTestFS(t, shTestFiles), tc.script)
			if out != tc.stdout || code != tc.exit {
				t.Errorf("script:\n%s\nstdout:\n%s\nwant:\n%s\nexit %d, want %d\nstderr:\n%s", tc.script, out, tc.stdout, code, tc.exit, errOut)
			}
		})
	}
}

// confirmShCases checks the expectations of the cases marked host against
// the host's bash and GNU tools, in a host folder holding the same tree.
func confirmShCases(t *testing.T, cases []shCase) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not on PATH")
	}
	for _, tc := range cases {
		if !tc.host {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			home := filepath.Join(dir, "home", "user")
			err := writeShTestTree(shTestFiles, func(p string, isDir bool, data string) error {
				if isDir {
					return os.MkdirAll(p, 0o755)
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					return err
				}
				if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
					return err
				}
				return os.Chmod(p, 0o644)
			}, func(p string) error {
				if err := os.Chmod(p, 0o755); err != nil && !strings.HasSuffix(p, ".txt") {
					return err
				}
				if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
					_ = os.Chmod(p, 0o644)
				}
				return os.Chtimes(p, shTestMtime, shTestMtime)
			}, home)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc", "-c", "umask 022\n"+tc.script)
			cmd.Dir = home
			cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LC_ALL=C", "TZ=UTC"}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err = cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			out := strings.ReplaceAll(stdout.String(), home, shTestDir)
			if out != tc.stdout || code != tc.exit {
				t.Errorf("the host's bash disagrees with the expectation\nscript:\n%s\nhost stdout:\n%s\nwant:\n%s\nhost exit %d, want %d\nhost stderr:\n%s", tc.script, out, tc.stdout, code, tc.exit, stderr.String())
			}
		})
	}
}

// shellCases cover the shell itself: the language, redirections, globbing,
// cd, source, scripts, the command lookup.
var shellCases = []shCase{
	{name: "echo", script: "echo hello", stdout: "hello\n", host: true},
	{name: "status", script: "echo $?; false; echo $?", stdout: "0\n1\n", host: true},
	{name: "exit", script: "echo a; exit 3; echo b", stdout: "a\n", exit: 3, host: true},
	{name: "exit-wraps", script: "exit 300", exit: 44, host: true},
	{name: "last-status", script: "false", exit: 1, host: true},
	{name: "set-e", script: "set -e; echo a; false; echo b", stdout: "a\n", exit: 1, host: true},
	{name: "set-e-notfound", script: "set -e\necho begin\nnosuchcmd arg\necho unreachable", stdout: "begin\n", exit: 127, host: true},
	{name: "functions", script: "f() { echo \"f:$1\"; return 4; }; f x; echo $?", stdout: "f:x\n4\n", host: true},
	{name: "function-local", script: "x=1; f() { local x=2; echo $x; }; f; echo $x", stdout: "2\n1\n", host: true},
	{name: "subshell", script: "(cd src && pwd); pwd", stdout: "/home/user/src\n/home/user\n", host: true},
	{name: "subshell-exit", script: "(exit 7); echo $?", stdout: "7\n", host: true},
	{name: "cmdsubst", script: "x=$(echo sub); echo \"[$x]\" `echo back`", stdout: "[sub] back\n", host: true},
	{name: "cmdsubst-file", script: "x=$(<b.txt); echo $x", stdout: "one two\n", host: true},
	{name: "glob", script: "echo *.txt", stdout: "a.txt b.txt empty.txt\n", host: true},
	{name: "glob-dir", script: "echo src/*", stdout: "src/main.go src/util\n", host: true},
	{name: "glob-nomatch", script: "echo nomatch*", stdout: "nomatch*\n", host: true},
	{name: "glob-dirs-only", script: "for d in */; do echo \"dir: $d\"; done", stdout: "dir: empty/\ndir: src/\n", host: true},
	{name: "glob-hidden", script: "echo .h*", stdout: ".hidden\n", host: true},
	{name: "glob-question-class", script: "echo [ab].tx?", stdout: "a.txt b.txt\n", host: true},
	{name: "globstar", script: "shopt -s globstar; echo src/**/*.go", stdout: "src/main.go src/util/u.go src/util/u_test.go\n", host: true},
	{name: "glob-abs", script: "echo \"$HOME\"/src/u*", stdout: "/home/user/src/util\n", host: true},
	{name: "redirect-out-append", script: "echo hi > o.txt; echo more >> o.txt; cat o.txt", stdout: "hi\nmore\n", host: true},
	{name: "redirect-truncate", script: "echo long line > o.txt; echo x > o.txt; cat o.txt", stdout: "x\n", host: true},
	{name: "redirect-in", script: "cat < b.txt", stdout: "one\ntwo\n", host: true},
	{name: "redirect-2to1", script: "nosuchcmd 2>&1 | wc -l", stdout: "1\n", host: true},
	{name: "redirect-stderr-null", script: "ls nosuch 2>/dev/null || echo failed", stdout: "failed\n", host: true},
	{name: "redirect-both", script: "{ echo out; echo err >&2; } &> both.txt; cat both.txt", stdout: "out\nerr\n", host: true},
	{name: "redirect-missing-dir", script: "echo x > nodir/y; echo $?", stdout: "1\n", host: true},
	{name: "redirect-to-folder", script: "echo x > src; echo $?", stdout: "1\n", host: true},
	{name: "redirect-missing-input", script: "cat < nosuch; echo $?", stdout: "1\n", host: true},
	{name: "and-or", script: "true && echo y || echo n; false && echo y || echo n", stdout: "y\nn\n", host: true},
	{name: "pipeline", script: "printf 'b\\na\\nc\\n' | sort | head -2", stdout: "a\nb\n", host: true},
	{name: "pipeline-status", script: "false | true; echo $?; set -o pipefail; false | true; echo $?", stdout: "0\n1\n", host: true},
	{name: "export", script: "export FOO=bar; env | grep '^FOO='", stdout: "FOO=bar\n", host: true},
	{name: "assign-prefix", script: "FOO=1 printenv FOO; echo \"[$FOO]\"", stdout: "1\n[]\n", host: true},
	{name: "unexported", script: "BAR=1; printenv BAR; echo $?", stdout: "1\n", host: true},
	{name: "source", script: "echo 'X=7; g() { echo g$X; }' > lib.sh; source lib.sh; g; X=1; . ./lib.sh; echo $X", stdout: "g7\n7\n", host: true},
	{name: "source-args", script: "echo 'echo \"$# $1\"' > lib.sh; . ./lib.sh one two", stdout: "2 one\n", host: true},
	{name: "source-missing", script: "source nosuch.sh; echo $?", stdout: "1\n", host: true},
	{name: "source-path", script: "mkdir bin; echo 'echo from-path' > bin/lib.sh; PATH=$PWD/bin:$PATH; source lib.sh", stdout: "from-path\n", host: true},
	{name: "source-procsubst", script: "echo 'cat <(echo inside)' > lib.sh; . ./lib.sh", stdout: "inside\n", host: true},
	{name: "read", script: "read -r a b <<< 'one two three'; echo \"$b\"", stdout: "two three\n", host: true},
	{name: "while-read", script: "while read -r l; do echo \"<$l>\"; done < b.txt", stdout: "<one>\n<two>\n", host: true},
	{name: "heredoc-quoted", script: "cat <<'EOF'\n$HOME\nEOF", stdout: "$HOME\n", host: true},
	{name: "heredoc-to-file", script: "cat <<EOF > x.py\nprint('$HOME')\nEOF\ncat x.py", stdout: "print('/home/user')\n", host: true},
	{name: "herestring", script: "cat <<< \"a  b\"", stdout: "a  b\n", host: true},
	{name: "for-wc", script: "for f in *.txt; do wc -l \"$f\"; done", stdout: "3 a.txt\n2 b.txt\n0 empty.txt\n", host: true},
	{name: "find-xargs-wc", script: "find . -name '*.go' | sort | xargs wc -l", stdout: " 4 ./src/main.go\n 1 ./src/util/u.go\n 3 ./src/util/u_test.go\n 8 total\n", host: true},
	{name: "cd-and-list", script: "cd src && find . -type f | sort | head -5", stdout: "./main.go\n./util/u.go\n./util/u_test.go\n", host: true},
	{name: "exec", script: "exec echo replaced; echo never", stdout: "replaced\n", host: true},
	{name: "exec-redirect", script: "echo start; exec > out.txt; echo hidden; cat out.txt >&2", stdout: "start\n", host: true},
	{name: "procsubst", script: "cat <(echo a) <(echo b)", stdout: "a\nb\n", host: true},
	{name: "procsubst-loop", script: "while read l; do echo \"$l\"; done < <(printf 'x\\ny\\n')", stdout: "x\ny\n", host: true},
	{name: "eval-procsubst", script: "eval 'cat <(echo ev)'", stdout: "ev\n", host: true},
	{name: "not-found", script: "nosuchcmd", exit: 127, host: true},
	{name: "not-found-status", script: "nosuchcmd --version; echo \"status=$?\"", stdout: "status=127\n", host: true},
	{name: "syntax-error", script: "if", exit: 2, host: true},
	{name: "syntax-error-late", script: "echo a\nif then", stdout: "a\n", exit: 2, host: true},
	{name: "syntax-error-same-line", script: "echo a; if then", exit: 2, host: true},
	{name: "syntax-error-after-exit", script: "exit 4\nif then", exit: 4},
	{name: "bash-c", script: "bash -c 'echo $0 $1' x y", stdout: "x y\n", host: true},
	{name: "sh-c-exit", script: "sh -c 'exit 5'; echo $?", stdout: "5\n", host: true},
	{name: "bash-script", script: "printf 'echo in script $1\\n' > s.sh; bash s.sh 9", stdout: "in script 9\n", host: true},
	{name: "bash-e", script: "bash -e -c 'false; echo no'; echo $?", stdout: "1\n", host: true},
	{name: "bash-missing", script: "bash nosuch.sh; echo $?", stdout: "127\n", host: true},
	{name: "bash-stdin", script: "echo 'echo piped' | bash", stdout: "piped\n", host: true},
	{name: "bash-syntax", script: "bash -c 'if'; echo $?", stdout: "2\n", host: true},
	{name: "script-exec", script: "printf '#!/bin/sh\\necho ok \"$@\"\\n' > s.sh; ./s.sh; echo $?; chmod +x s.sh; ./s.sh 1 2", stdout: "126\nok 1 2\n", host: true},
	{name: "script-no-shebang", script: "echo 'echo plain' > s; chmod +x s; ./s", stdout: "plain\n", host: true},
	{name: "script-env-shebang", script: "printf '#!/usr/bin/env bash\\necho envbash\\n' > s; chmod 755 s; ./s", stdout: "envbash\n", host: true},
	{name: "script-in-path", script: "mkdir bin; printf '#!/bin/sh\\necho tool\\n' > bin/tool; chmod +x bin/tool; PATH=$PWD/bin:$PATH; tool; command -v tool", stdout: "tool\n/home/user/bin/tool\n", host: true},
	{name: "script-missing", script: "./nosuch; echo $?", stdout: "127\n", host: true},
	{name: "script-folder", script: "./src; echo $?", stdout: "126\n", host: true},
	{name: "script-set-e-inside", script: "printf 'set -e\\nfalse\\necho no\\n' > s.sh; bash s.sh; echo $?", stdout: "1\n", host: true},
	{name: "command-v", script: "command -v ls; command -v cd; command -v nosuchcmd; echo $?", stdout: "/usr/bin/ls\ncd\n1\n", host: true},
	{name: "command-v-kinds", script: "f() { :; }; command -v f; type -t f; type -t ls; type -t cd; type -t if", stdout: "f\nfunction\nfile\nbuiltin\nkeyword\n", host: true},
	{name: "type", script: "type ls; type cd; type nosuchcmd; echo $?", stdout: "ls is /usr/bin/ls\ncd is a shell builtin\n1\n", host: true},
	{name: "type-P", script: "type -P ls", stdout: "/usr/bin/ls\n", host: true},
	{name: "command-V", script: "command -V cd", stdout: "cd is a shell builtin\n", host: true},
	{name: "command-run", script: "command echo hi", stdout: "hi\n", host: true},
	{name: "which", script: "which ls echo nosuchcmd; echo $?", stdout: "/usr/bin/ls\n/usr/bin/echo\n1\n", host: true},
	{name: "which-path-order", script: "PATH=/bin which ls echo; PATH=/nowhere /usr/bin/which ls; echo $?", stdout: "/bin/ls\n/bin/echo\n1\n", host: true},
	{name: "test-files", script: "[ -f a.txt ] && echo f; [ -d src ] && echo d; test -e nosuch || echo no; [ -s empty.txt ] || echo empty; [ -s a.txt ] && echo full", stdout: "f\nd\nno\nempty\nfull\n", host: true},
	{name: "test-access", script: "[ -r a.txt ] && [ -w a.txt ] && [ ! -x a.txt ] && [ -x src ] && echo ok; chmod 000 a.txt; [ -r a.txt ] || echo unreadable", stdout: "ok\nunreadable\n"},
	{name: "test-owner", script: "[ -O a.txt ] && echo mine; [[ -G a.txt ]] && echo ours; test -O nosuch || echo none", stdout: "mine\nours\nnone\n", host: true},
	{name: "dbracket", script: "[[ -d src && a.txt == *.txt ]] && echo yes", stdout: "yes\n", host: true},
	{name: "cd", script: "cd /; pwd; cd; pwd; cd src/util && pwd; cd ../.. && pwd", stdout: "/\n/home/user\n/home/user/src/util\n/home/user\n", host: true},
	{name: "cd-missing", script: "cd nosuch; echo $?; pwd", stdout: "1\n/home/user\n", host: true},
	{name: "cd-file", script: "cd a.txt; echo $?", stdout: "1\n", host: true},
	{name: "cd-dash", script: "cd src; cd -; pwd", stdout: "/home/user\n/home/user\n", host: true},
	{name: "pushd-popd", script: "pushd src > /dev/null; pwd; popd > /dev/null; pwd", stdout: "/home/user/src\n/home/user\n", host: true},
	{name: "pwd-P", script: "mkdir -p a/b && cd a/b && pwd -P && pwd -L", stdout: "/home/user/a/b\n/home/user/a/b\n", host: true},
	{name: "pwd-var", script: "echo $HOME $PWD; cd src; echo $PWD $OLDPWD", stdout: "/home/user /home/user\n/home/user/src /home/user\n", host: true},
	{name: "uid", script: "echo $UID $EUID", stdout: "1000 1000\n"},
	{name: "trap-exit", script: "trap 'echo cleanup' EXIT; echo working; exit 2", stdout: "working\ncleanup\n", exit: 2, host: true},
	{name: "case", script: "case a.txt in *.txt) echo text;; *) echo other;; esac", stdout: "text\n", host: true},
	{name: "arith", script: "i=0; while [ $i -lt 3 ]; do i=$((i+1)); done; echo $i", stdout: "3\n", host: true},
	{name: "background-wait", script: "echo bg > bg.txt & wait; cat bg.txt", stdout: "bg\n", host: true},
	{name: "timeout-builtin", script: "timeout 5 echo ok; echo $?", stdout: "ok\n0\n", host: true},
	{name: "xargs-builtin", script: "echo a b | xargs printf '%s-'", stdout: "a-b-", host: true},
	{name: "env-builtin", script: "env true && echo t", stdout: "t\n", host: true},
	{name: "find-exec-builtin", script: "find src -name '*.go' -exec echo found {} \\; | sort", stdout: "found src/main.go\nfound src/util/u.go\nfound src/util/u_test.go\n", host: true},
}

func TestRun(t *testing.T) { runShCases(t, shellCases) }

func TestRunConfirm(t *testing.T) { confirmShCases(t, shellCases) }

// TestRunStderr checks the wording of the shell's own messages.
func TestRunStderr(t *testing.T) {
	for _, tc := range []struct{ script, stderr string }{
		{"nosuchcmd", "bash: line 1: nosuchcmd: command not found\n"},
		{"echo\n\nnosuchcmd", "bash: line 3: nosuchcmd: command not found\n"},
		{"./nosuch", "bash: line 1: ./nosuch: No such file or directory\n"},
		{"echo x > nodir/y", "bash: line 1: nodir/y: No such file or directory\n"},
		{"cat < nosuch", "bash: line 1: nosuch: No such file or directory\n"},
		{"echo x > src", "bash: line 1: src: Is a directory\n"},
		{"source nosuch.sh", "bash: line 1: nosuch.sh: No such file or directory\n"},
		{"echo \"unterminated", "bash: -c: line 1: unexpected EOF while looking for matching `\"'\n"},
		{"type nosuchcmd", "bash: line 1: type: nosuchcmd: not found\n"},
	} {
		_, errOut, _ := runSh(t, newShTestFS(t, shTestFiles), tc.script)
		if errOut != tc.stderr {
			t.Errorf("%q: stderr %q, want %q", tc.script, errOut, tc.stderr)
		}
	}
}

func TestRunOptions(t *testing.T) {
	ctx := context.Background()
	fsys := newShTestFS(t, shTestFiles)
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"no FS", Options{Dir: "/"}},
		{"relative Dir", Options{FS: fsys, Dir: "home"}},
		{"missing Dir", Options{FS: fsys, Dir: "/nosuch"}},
		{"file Dir", Options{FS: fsys, Dir: "/home/user/a.txt"}},
	} {
		if _, err := Run(ctx, "echo", tc.opts); err == nil {
			t.Errorf("%s: Run succeeded", tc.name)
		}
	}
	// Defaults: Dir "/", HOME, PATH, Name; nil streams.
	var out bytes.Buffer
	code, err := Run(ctx, `pwd; echo "$HOME|$PATH|$0"; cat`, Options{FS: fsys, Stdout: &out})
	if err != nil || code != 0 {
		t.Fatalf("Run: %d, %v", code, err)
	}
	if want := "/\n/|" + DefaultPath + "|bash\n"; out.String() != want {
		t.Errorf("stdout %q, want %q", out.String(), want)
	}
	// Name and Args.
	out.Reset()
	var errOut bytes.Buffer
	code, _ = Run(ctx, `echo "$0 $1 $#"; nosuchcmd`, Options{FS: fsys, Name: "sh", Args: []string{"x", "y"}, Stdout: &out, Stderr: &errOut})
	if out.String() != "sh x 2\n" || errOut.String() != "sh: line 1: nosuchcmd: command not found\n" || code != 127 {
		t.Errorf("got %q %q %d", out.String(), errOut.String(), code)
	}
	// Stdin, and the same writer for both streams.
	out.Reset()
	_, _ = Run(ctx, `read l; echo "got $l"; echo err >&2`, Options{FS: fsys, Stdin: strings.NewReader("line\n"), Stdout: &out, Stderr: &out})
	if out.String() != "got line\nerr\n" {
		t.Errorf("stdin: %q", out.String())
	}
	// Nothing of the host's environment.
	t.Setenv("AGENTENKIT_HOST_VAR", "leak")
	out.Reset()
	_, _ = Run(ctx, `env; echo "[$AGENTENKIT_HOST_VAR]"`, Options{FS: fsys, Env: map[string]string{"A": "1"}, Stdout: &out})
	if want := "A=1\nHOME=/\nPATH=" + DefaultPath + "\nPWD=/\n[]\n"; out.String() != want {
		t.Errorf("environment %q, want %q", out.String(), want)
	}
}

func TestRunFinalDir(t *testing.T) {
	for _, tc := range []struct{ script, dir string }{
		{"cd src", "/home/user/src"},
		{"cd src/util; exit 3", "/home/user/src/util"},
		{"set -e; cd src; false; cd util", "/home/user/src"},
		{"(cd src)", "/home/user"},
		{"cd /; nosuchcmd", "/"},
		{"cd src; if", "/home/user"},
	} {
		var dir string
		_, err := Run(context.Background(), tc.script, Options{FS: newShTestFS(t, shTestFiles), Dir: shTestDir, FinalDir: &dir})
		if err != nil || dir != tc.dir {
			t.Errorf("%q: FinalDir %q (%v), want %q", tc.script, dir, err, tc.dir)
		}
	}
	// Also when ctx ends.
	var dir string
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := Run(ctx, "cd src; sleep 10", Options{FS: newShTestFS(t, shTestFiles), Dir: shTestDir, FinalDir: &dir}); err == nil || dir != "/home/user/src" {
		t.Errorf("timeout: FinalDir %q, err %v", dir, err)
	}
}

// TestRunContext checks that the end of ctx stops each kind of busy
// script within a second.
func TestRunContext(t *testing.T) {
	for _, script := range []string{
		"while true; do :; done",
		"sleep 100",
		"yes | cat > /dev/null",
		"cat",
		"read x",
		"cat /dev/zero > /dev/null",
		"cat /dev/urandom | cat > /dev/null",
		"f() { f; }; while :; do echo x > /dev/null; done",
		"timeout 100 sleep 100",
		"find / -name x; while :; do ls -R / > /dev/null; done",
		"bash -c 'while :; do :; done'",
		"echo | xargs sleep 100",
		"sleep 100 | sleep 100",
		"tar cf - / | tar tf - > /dev/null; sleep 100",
		"(sleep 100) & wait",
	} {
		t.Run(script, func(t *testing.T) {
			t.Parallel()
			pr, pw := io.Pipe()
			defer pw.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			start := time.Now()
			code, err := Run(ctx, script, Options{FS: newShTestFS(t, shTestFiles), Dir: shTestDir, Stdin: pr})
			took := time.Since(start)
			if !errors.Is(err, context.DeadlineExceeded) || code != TimeoutExitCode {
				t.Errorf("Run = %d, %v; want %d, DeadlineExceeded", code, err, TimeoutExitCode)
			}
			if took > 1200*time.Millisecond {
				t.Errorf("Run took %v after a 200ms deadline", took)
			}
		})
	}
}

// TestRunCancelled checks an already ended ctx.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, "echo hi > f", Options{FS: afero.NewMemMapFs()}); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v", err)
	}
}

// TestRunConcurrent runs many scripts at once on one filesystem.
func TestRunConcurrent(t *testing.T) {
	fsys := newShTestFS(t, shTestFiles)
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			script := fmt.Sprintf("mkdir -p w%d && cd w%d && for j in 1 2 3; do echo $j > f$j; done; cat f* | wc -l; ls | sort | head -1 | cat", i, i)
			out, _, code := runSh(t, fsys, script)
			if out != "3\nf1\n" || code != 0 {
				t.Errorf("worker %d: %q %d", i, out, code)
			}
		})
	}
	wg.Wait()
}

func ExampleRun() {
	fsys := afero.NewMemMapFs()
	_ = fsys.MkdirAll("/work", 0o755)
	code, err := Run(context.Background(), `
cat <<EOF > hello.py
print("hello")
EOF
mkdir -p src && mv hello.py src/
ls -R
cd src && pwd
nosuchtool 2>/dev/null || echo "status $?"
`, Options{FS: fsys, Dir: "/work", Stdout: os.Stdout})
	fmt.Println(code, err)
	// Output:
	// .:
	// src
	//
	// ./src:
	// hello.py
	// /work/src
	// status 127
	// 0 <nil>
}

// TestRunBackgroundEnds checks that a background job does not outlive Run.
func TestRunBackgroundEnds(t *testing.T) {
	fsys := newShTestFS(t, shTestFiles)
	out, _, code := runSh(t, fsys, "(while :; do echo x >> bg.txt; sleep 0.01; done) & echo started")
	if out != "started\n" || code != 0 {
		t.Fatalf("got %q %d", out, code)
	}
	time.Sleep(50 * time.Millisecond)
	a, _ := afero.ReadFile(fsys, shTestDir+"/bg.txt")
	time.Sleep(100 * time.Millisecond)
	b, _ := afero.ReadFile(fsys, shTestDir+"/bg.txt")
	if len(b) != len(a) {
		t.Errorf("the background job still writes after Run returned (%d then %d bytes)", len(a), len(b))
	}
}
