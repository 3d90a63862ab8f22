//go:build unix

package shell

// The differential compatibility corpus: every script in testdata/compat/
// runs through the host's bash (with the host's GNU tools) and through
// shell.Run over a memory filesystem, both starting in the same fixture
// tree; stdout and exit codes must match. The pass rate is printed and must
// be at least compatMinRate. Whether stderr was empty is compared too, as a
// softer check that is reported but never fails the test (error texts
// legitimately differ, their presence should not).
//
// Writing a script: it starts in a folder holding compatFixture, with HOME
// set to that folder and LC_ALL=C. It must be deterministic on the host:
// no dates, pids, $RANDOM, host paths other than the folder itself (which is
// rewritten to /home/user), user names, timing, or file modes set by the
// umask; and nothing that depends on the order in which the host's
// filesystem lists a folder (GNU find, grep -r, du and tar list in that
// order, so pipe their multi-line output through sort).
// TestCorpusDeterministicUnderBash checks this by running each script in two
// more folders, the second on a different filesystem where one is
// available, with the fixture written in the opposite order.
//
// Run one script: go test ./shell -run 'TestCompat/script/042-' -v
// The summary is printed; go test ./shell hides a passing package's output,
// so use -v, run go test inside shell/, or set AGENTENKIT_COMPAT_REPORT to a
// file that receives the diffs and the summary.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/vfs"

	"github.com/spf13/afero"
)

const (
	compatHome    = "/home/user"
	compatTimeout = 10 * time.Second
	compatMinRate = 95.0
)

// compatKnown are the scripts allowed to differ from bash where every
// other must match it (under AGENTENKIT_REQUIRE=bash, as CI runs): each
// with the reason.
var compatKnown = map[string]string{
	"339-jq-invalid-json": "the host's jq 1.6 exits 4 on invalid JSON, the shell's (gojq) 2",
}

type compatFile struct {
	path    string // slash-separated, relative; a trailing slash makes an empty folder
	content string
	mode    fs.FileMode
}

// compatFixture is the tree every script starts in. Scripts rely on its exact
// content: change it only together with the scripts.
var compatFixture = []compatFile{
	{"README.md", `# demo project

A small demo used by the compat corpus.

## Usage

Run make build to compile.
Run make test to test.
Costs $5 per run.

## License

MIT
`, 0o644},
	{"notes.txt", `apple banana
Cherry date
apple pie
banana split
elderberry
fig and grape
Apple Crumble
`, 0o644},
	{"words.txt", "pear\napple\nfig\napple\nbanana\npear\napple\ncherry\n", 0o644},
	{"numbers.txt", "10\n2\n33\n4\n100\n2\n7\n", 0o644},
	{"a.txt", "apple\nbanana\ncherry\ndate\n", 0o644},
	{"b.txt", "banana\ncherry\nelderberry\nfig\n", 0o644},
	{"data.csv", `name,qty,price,city
widget,4,2.50,Berlin
gadget,10,1.25,Paris
doohickey,1,10.00,Berlin
gizmo,7,3.75,Rome
thingamajig,3,0.99,Paris
`, 0o644},
	{"tabs.tsv", "id\tname\tscore\n1\tann\t90\n2\tben\t85\n3\tcid\t77\n", 0o644},
	{"users.txt", `root:x:0:0:root:/root:/bin/bash
alice:x:1000:1000:Alice:/home/alice:/bin/zsh
bob:x:1001:1001:Bob:/home/bob:/bin/bash
`, 0o644},
	{"log.txt", `2024-01-01 10:00:00 INFO server started on port 8080
2024-01-01 10:00:05 WARN disk usage at 85%
2024-01-01 10:01:00 ERROR failed to connect to db: timeout
2024-01-01 10:01:30 INFO retrying connection
2024-01-01 10:02:00 ERROR failed to connect to db: refused
2024-01-01 10:03:00 INFO connected to db
2024-01-01 10:05:00 WARN slow query took 2300ms
`, 0o644},
	{"people.json", `[
  {"name": "alice", "age": 31, "role": "admin", "tags": ["ops", "dev"]},
  {"name": "bob", "age": 25, "role": "user", "tags": []},
  {"name": "carol", "age": 42, "role": "user", "tags": ["dev"]}
]
`, 0o644},
	{"config.json", `{
  "name": "demo",
  "version": "1.2.3",
  "private": true,
  "scripts": {
    "build": "go build ./...",
    "test": "go test ./..."
  },
  "dependencies": {
    "lodash": "4.17.21",
    "left-pad": "^1.3.0"
  },
  "ports": [8080, 8443]
}
`, 0o644},
	{"mixed.txt", "line one\r\nline two\r\n", 0o644},
	{"empty.txt", "", 0o644},
	{"nonl.txt", "no trailing newline", 0o644},
	{"my notes.txt", "first note\nsecond note\n", 0o644},
	{"dir with spaces/file one.txt", "one\n", 0o644},
	{"dir with spaces/file two.txt", "two\nlines\n", 0o644},
	{".hidden", "secret=1\n", 0o644},
	{".gitignore", "*.log\nbin/\n", 0o644},
	{"Makefile", "build:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n", 0o644},
	{"scripts/build.sh", `#!/bin/bash
set -e
echo "building ${1:-debug}"
echo "done"
`, 0o644},
	{"src/main.go", `package main

import (
	"fmt"
	"os"
)

// TODO: parse flags properly
func main() {
	name := "world"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	fmt.Println(greet(name)) // TODO handle errors
}

func greet(name string) string {
	return "hello, " + name
}
`, 0o644},
	{"src/util/strings.go", `package util

import "strings"

// Reverse returns s reversed.
func Reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// TODO: unicode normalization
func Upper(s string) string { return strings.ToUpper(s) }
`, 0o644},
	{"src/util/strings_test.go", `package util

import "testing"

func TestReverse(t *testing.T) {
	if Reverse("abc") != "cba" {
		t.Fatal("bad")
	}
}
`, 0o644},
	{"src/server/http.go", `package server

import "net/http"

// FIXME: make the port configurable
const Port = 8080

func Handler(w http.ResponseWriter, r *http.Request) {
	// todo: log requests
	w.Write([]byte("ok"))
}
`, 0o644},
	{"src/server/NOTES", "server package notes\n", 0o644},
	{"docs/guide.md", `# Guide

Install with go install.
See api/endpoints.md for the API.
TODO: write the tutorial
`, 0o644},
	{"docs/api/endpoints.md", "GET /health\nGET /users\nPOST /users\nDELETE /users/{id}\n", 0o644},
	{"tmp/", "", 0o755},
}

// writeCompatFixtureOS writes the fixture under dir on the host, in the
// listed order or its reverse, with exact modes (not the umask's).
func writeCompatFixtureOS(dir string, reverse bool) error {
	files := append([]compatFile(nil), compatFixture...)
	if reverse {
		for i, j := 0, len(files)-1; i < j; i, j = i+1, j-1 {
			files[i], files[j] = files[j], files[i]
		}
	}
	var dirs []string
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.path))
		if strings.HasSuffix(f.path, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			dirs = append(dirs, p)
			continue
		}
		for d := filepath.Dir(p); d != dir; d = filepath.Dir(d) {
			dirs = append(dirs, d)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(f.content), f.mode); err != nil {
			return err
		}
		if err := os.Chmod(p, f.mode); err != nil {
			return err
		}
	}
	for _, d := range dirs {
		if err := os.Chmod(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// writeCompatFixtureFS writes the fixture under dir on fsys.
func writeCompatFixtureFS(fsys afero.Fs, dir string) error {
	if err := fsys.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range compatFixture {
		p := path.Join(dir, f.path)
		if strings.HasSuffix(f.path, "/") {
			if err := fsys.MkdirAll(p, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := fsys.MkdirAll(path.Dir(p), 0o755); err != nil {
			return err
		}
		if err := afero.WriteFile(fsys, p, []byte(f.content), f.mode); err != nil {
			return err
		}
		if err := fsys.Chmod(p, f.mode); err != nil {
			return err
		}
	}
	return nil
}

type compatScript struct {
	name string // file name without .sh
	text string
}

func loadCompatScripts(t *testing.T) []compatScript {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "compat", "*.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("compat: no scripts in testdata/compat")
	}
	sort.Strings(paths)
	scripts := make([]compatScript, 0, len(paths))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		scripts = append(scripts, compatScript{strings.TrimSuffix(filepath.Base(p), ".sh"), string(b)})
	}
	return scripts
}

// compatOutcome is what one run of a script gave.
type compatOutcome struct {
	stdout string
	stderr string
	code   int
	// runErr is the error Run returned beside the exit code (a script
	// that does not parse, say): an outcome like stderr output, compared
	// only in the soft stderr check.
	runErr error
	// err is a failure to run at all (a timeout, a panic, bash missing):
	// the script counts as differing.
	err     error
	timeout bool
}

// stderrEmpty tells whether the run reported nothing on stderr.
func (o compatOutcome) stderrEmpty() bool { return o.stderr == "" && o.runErr == nil }

// compatHostTools are the host programs the corpus's expected outputs come
// from; the GNU ones must be GNU's.
var compatHostTools = []string{
	"awk", "base64", "basename", "bc", "cat", "cmp", "comm", "cp", "cut", "diff",
	"dirname", "du", "env", "find", "grep", "gzip", "gunzip", "head", "jq",
	"ln", "ls", "md5sum", "mkdir", "mv", "printenv", "readlink", "realpath",
	"rm", "sed", "seq", "sha256sum", "sort", "stat", "tail", "tar", "tee",
	"timeout", "touch", "tr", "uniq", "wc", "which", "xargs", "yes", "zcat",
}

// lookBash finds the host's bash (5 or later) and checks that the GNU tools
// are there, or skips (fails under AGENTENKIT_REQUIRE=bash).
func lookBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	var problems []string
	if err != nil {
		problems = append(problems, "bash is not on PATH")
	} else if out, err := exec.Command(bash, "--noprofile", "--norc", "-c", "echo ${BASH_VERSINFO[0]}").Output(); err != nil || strings.TrimSpace(string(out)) < "5" {
		problems = append(problems, fmt.Sprintf("bash is not version 5 or later (%q)", strings.TrimSpace(string(out))))
	}
	var missing []string
	for _, tool := range compatHostTools {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		problems = append(problems, "missing on PATH: "+strings.Join(missing, " "))
	}
	for _, tool := range []string{"ls", "sed", "grep", "find", "diff", "tar"} {
		if out, err := exec.Command(tool, "--version").Output(); err == nil && !strings.Contains(string(out), "GNU") {
			problems = append(problems, tool+" is not GNU's")
		}
	}
	if len(problems) > 0 {
		msg := "compat: the differential corpus compares the shell with the host's bash and GNU tools: " + strings.Join(problems, "; ")
		if strings.Contains(os.Getenv("AGENTENKIT_REQUIRE"), "bash") {
			t.Fatal(msg + " (required by AGENTENKIT_REQUIRE)")
		}
		t.Skip(msg + " (set AGENTENKIT_REQUIRE=bash to make this a failure)")
	}
	return bash
}

// runCompatBash runs script with the host's bash in dir (which holds the
// fixture) and rewrites dir to compatHome in its stdout.
func runCompatBash(bash, dir, script string) compatOutcome {
	ctx, cancel := context.WithTimeout(context.Background(), compatTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LC_ALL=C"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	// A script's own background children are killed with it.
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	o := compatOutcome{stdout: rewriteCompatPath(stdout.String(), dir), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		o.timeout, o.code, o.err = true, -1, fmt.Errorf("timed out after %v", compatTimeout)
	case err == nil:
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		o.code = ee.ExitCode()
	default:
		o.code, o.err = -1, err
	}
	return o
}

func rewriteCompatPath(s, dir string) string {
	dirs := []string{dir}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		dirs = append(dirs, real)
	}
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		s = strings.ReplaceAll(s, d, compatHome)
	}
	return s
}

// runCompatOurs runs script with Run over the sandboxes' own filesystem
// (vfs, with links) holding the fixture at compatHome.
func runCompatOurs(script string) compatOutcome {
	fsys := vfs.New(vfs.Options{})
	if err := writeCompatFixtureFS(fsys, compatHome); err != nil {
		return compatOutcome{code: -1, err: fmt.Errorf("writing the fixture: %v", err)}
	}
	var stdout, stderr testenv.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), compatTimeout)
	defer cancel()
	type result struct {
		code int
		err  error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- result{-1, &compatPanic{fmt.Sprintf("panic: %v\n%s", p, debug.Stack())}}
			}
		}()
		code, err := Run(ctx, script, Options{
			FS:     fsys,
			Dir:    compatHome,
			Env:    map[string]string{"HOME": compatHome, "PATH": "/usr/bin:/bin", "LC_ALL": "C"},
			Stdin:  strings.NewReader(""),
			Stdout: &stdout,
			Stderr: &stderr,
			Name:   "bash",
		})
		done <- result{code, err}
	}()
	var r result
	timeout := false
	select {
	case r = <-done:
		if ctx.Err() != nil {
			timeout = true
		}
	case <-time.After(compatTimeout + 2*time.Second):
		// Run ignored its context: report it and leave it behind.
		r, timeout = result{-1, nil}, true
	}
	o := compatOutcome{stdout: stdout.String(), stderr: stderr.String(), code: r.code, runErr: r.err, timeout: timeout}
	var p *compatPanic
	if errors.As(r.err, &p) {
		o.runErr, o.err = nil, p
	}
	if timeout {
		o.code = -1
		o.err = errors.Join(fmt.Errorf("timed out after %v", compatTimeout), r.err)
	}
	return o
}

// compatPanic is a panic in Run, caught so that the corpus goes on.
type compatPanic struct{ msg string }

func (p *compatPanic) Error() string { return p.msg }

type compatResult struct {
	name       string
	bash, ours compatOutcome
}

func (r compatResult) identical() bool {
	return r.bash.err == nil && r.ours.err == nil &&
		r.bash.stdout == r.ours.stdout && r.bash.code == r.ours.code
}

func (r compatResult) stderrAgrees() bool {
	return r.bash.stderrEmpty() == r.ours.stderrEmpty()
}

// reason sums up how a differing result differs, in one line.
func (r compatResult) reason() string {
	var parts []string
	if r.bash.err != nil {
		parts = append(parts, "bash failed to run: "+firstLine(r.bash.err.Error()))
	}
	if r.ours.err != nil {
		parts = append(parts, "shell: "+firstLine(r.ours.err.Error()))
	}
	if r.bash.stdout != r.ours.stdout {
		parts = append(parts, "stdout differs")
	}
	if r.bash.code != r.ours.code {
		parts = append(parts, fmt.Sprintf("exit %d, bash %d", r.ours.code, r.bash.code))
	}
	return strings.Join(parts, "; ")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// report is the full account of a differing result.
func (r compatResult) report(script string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s: %s\n", r.name, r.reason())
	b.WriteString("script:\n")
	b.WriteString(indent(script))
	if r.bash.stdout != r.ours.stdout {
		b.WriteString("stdout (- bash, + shell):\n")
		b.WriteString(indent(lineDiff(r.bash.stdout, r.ours.stdout)))
	}
	if r.ours.stderr != "" {
		b.WriteString("shell stderr:\n")
		b.WriteString(indent(truncate(r.ours.stderr, 2000)))
	}
	if r.bash.stderr != "" {
		b.WriteString("bash stderr:\n")
		b.WriteString(indent(truncate(r.bash.stderr, 2000)))
	}
	if r.ours.runErr != nil {
		b.WriteString("shell.Run error:\n")
		b.WriteString(indent(truncate(r.ours.runErr.Error(), 2000)))
	}
	if r.ours.err != nil {
		b.WriteString("shell failure:\n")
		b.WriteString(indent(truncate(r.ours.err.Error(), 4000)))
	}
	return b.String()
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	s = strings.TrimSuffix(s, "\n")
	return "\t" + strings.ReplaceAll(s, "\n", "\n\t") + "\n"
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("... (%d more bytes)\n", len(s)-n)
}

// lineDiff is a small LCS line diff of want (bash) and got (shell); lines
// are quoted so that whitespace and a missing final newline show.
func lineDiff(want, got string) string {
	a, b := splitKeepEnd(want), splitKeepEnd(got)
	const max = 400
	if len(a) > max || len(b) > max {
		return fmt.Sprintf("(%d lines vs %d lines; the first 20 of each)\n%s",
			len(a), len(b), lineDiff(strings.Join(head(a, 20), ""), strings.Join(head(b, 20), "")))
	}
	// lcs[i][j] = LCS length of a[i:], b[j:]
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = maxInt(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			fmt.Fprintf(&out, "  %s\n", quoteLine(a[i]))
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			fmt.Fprintf(&out, "- %s\n", quoteLine(a[i]))
			i++
		default:
			fmt.Fprintf(&out, "+ %s\n", quoteLine(b[j]))
			j++
		}
	}
	return out.String()
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func splitKeepEnd(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func quoteLine(l string) string {
	if strings.HasSuffix(l, "\n") {
		return fmt.Sprintf("%q", strings.TrimSuffix(l, "\n"))
	}
	return fmt.Sprintf("%q (no newline at end)", l)
}

func TestCompat(t *testing.T) {
	bash := lookBash(t)
	scripts := loadCompatScripts(t)
	results := make([]*compatResult, len(scripts))
	t.Run("script", func(t *testing.T) {
		for i, s := range scripts {
			t.Run(s.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				if err := writeCompatFixtureOS(dir, false); err != nil {
					t.Fatal(err)
				}
				results[i] = &compatResult{name: s.name, bash: runCompatBash(bash, dir, s.text), ours: runCompatOurs(s.text)}
			})
		}
	})
	var ran, same int
	var differ, stderrDiffer, reports []string
	for i, r := range results {
		if r == nil { // filtered out by -run
			continue
		}
		ran++
		if r.identical() {
			same++
		} else {
			if _, known := compatKnown[r.name]; !known && testenv.Required("bash") {
				t.Errorf("compat: %s differs from bash (%s); only compatKnown's may", r.name, r.reason())
			}
			differ = append(differ, fmt.Sprintf("%s: %s", r.name, r.reason()))
			reports = append(reports, r.report(scripts[i].text))
			t.Log("\n" + reports[len(reports)-1])
		}
		if !r.stderrAgrees() {
			what := "shell printed to stderr, bash did not"
			if r.ours.stderrEmpty() {
				what = "bash printed to stderr, the shell did not"
			}
			stderrDiffer = append(stderrDiffer, fmt.Sprintf("%s: %s", r.name, what))
		}
	}
	if ran == 0 {
		t.Skip("compat: no script selected")
	}
	rate := 100 * float64(same) / float64(ran)
	var b strings.Builder
	if len(differ) > 0 {
		fmt.Fprintf(&b, "compat: %d scripts differ from bash (stdout or exit code):\n", len(differ))
		for _, d := range differ {
			fmt.Fprintf(&b, "compat:   %s\n", d)
		}
	}
	if len(stderrDiffer) > 0 {
		fmt.Fprintf(&b, "compat: %d scripts disagree on whether stderr is empty (reported, not failing):\n", len(stderrDiffer))
		for _, d := range stderrDiffer {
			fmt.Fprintf(&b, "compat:   %s\n", d)
		}
	}
	fmt.Fprintf(&b, "compat: %d/%d identical to bash (%.1f%%)", same, ran, rate)
	summary := b.String()
	t.Log("\n" + summary)
	fmt.Println(summary)
	// go test ./... shows a passing package's output only with -v: CI can
	// have the whole report written to a file instead.
	if p := os.Getenv("AGENTENKIT_COMPAT_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(strings.Join(reports, "\n")+"\n"+summary+"\n"), 0o644); err != nil {
			t.Errorf("compat: writing AGENTENKIT_COMPAT_REPORT: %v", err)
		}
	}
	if rate < compatMinRate {
		t.Errorf("compat: pass rate %.1f%% is below %.0f%% (see the diffs above; go test -run 'TestCompat/script/NAME' -v for one)", rate, compatMinRate)
	}
}

// TestCorpusDeterministicUnderBash checks the corpus itself: each script gives
// bash the same stdout, exit code and stderr emptiness in two more folders,
// the second on another filesystem where /dev/shm is one (so that an output
// relying on the order a folder is listed in shows), with the fixture
// written in reverse order.
func TestCorpusDeterministicUnderBash(t *testing.T) {
	if testing.Short() {
		t.Skip("compat: corpus determinism check skipped in -short mode")
	}
	bash := lookBash(t)
	scripts := loadCompatScripts(t)
	if len(scripts) < 200 {
		t.Errorf("compat: the corpus has %d scripts, want at least 200", len(scripts))
	}
	otherRoot := ""
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "agentenkit-compat-"); err == nil {
			otherRoot = d
			t.Cleanup(func() { os.RemoveAll(d) })
		}
	}
	for _, s := range scripts {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			d1 := t.TempDir()
			var d2 string
			if otherRoot != "" {
				var err error
				if d2, err = os.MkdirTemp(otherRoot, "run-"); err != nil {
					t.Fatal(err)
				}
			} else {
				d2 = filepath.Join(t.TempDir(), "a", "longer", "path")
				if err := os.MkdirAll(d2, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := writeCompatFixtureOS(d1, false); err != nil {
				t.Fatal(err)
			}
			if err := writeCompatFixtureOS(d2, true); err != nil {
				t.Fatal(err)
			}
			o1 := runCompatBash(bash, d1, s.text)
			o2 := runCompatBash(bash, d2, s.text)
			if o1.err != nil || o2.err != nil {
				t.Fatalf("bash failed to run: %v / %v", o1.err, o2.err)
			}
			if o1.stdout != o2.stdout || o1.code != o2.code || (o1.stderr == "") != (o2.stderr == "") {
				t.Errorf("not deterministic under bash: exit %d vs %d, stderr %q vs %q\nstdout (- first, + second):\n%s",
					o1.code, o2.code, o1.stderr, o2.stderr, lineDiff(o1.stdout, o2.stdout))
			}
		})
	}
}
