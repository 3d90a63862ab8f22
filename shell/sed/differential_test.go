package sed

// Differential tests: grep and sed against the host's GNU grep and sed on
// the same files (LC_ALL=C), comparing stdout, exit status and, for sed -i,
// the edited files.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
	"github.com/spf13/afero"
)

// grepSedDiffCase is one command run by both implementations.
type grepSedDiffCase struct {
	args  []string
	stdin string
	// sorted compares stdout lines sorted (GNU's recursion order is the
	// directory's, ours is sorted).
	sorted bool
	// check lists files whose content is compared afterwards (sed -i).
	check []string
	// files overrides the shared fixture.
	files map[string]string
}

// grepSedFixture is the tree both implementations search.
var grepSedFixture = map[string]string{
	"a.txt":           "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\n",
	"b.txt":           "foo bar\nFoo Bar\nfoobar\nbar foo baz\n  indented foo\nfoo_bar\nend\n",
	"c.txt":           "l1\nfoo\nl3\nl4\nl5\nfoo\nfoo\nl8\nl9\nl10\nfoo\n",
	"nums.txt":        "1\n22\n333\n4444\n55555\n10\n20\nabc123def\n",
	"noeol.txt":       "one\ntwo\nthree",
	"code.go":         "package main\n\n// TODO: fix\nfunc main() {\n\tx := 1 // TODO later\n\tprintln(x)\n}\n",
	"special.txt":     "a.b\na*b\na+b\n(x)\n[y]\n{z}\n$HOME\n^caret\nback\\slash\na|b\ntab\there\n",
	"words.txt":       "the cat sat\nconcatenate\ncat\n@cat@\ncats and dogs\nthe_cat\n",
	"empty.txt":       "",
	"blank.txt":       "a\n\nb\n\n\nc\n",
	"pats.txt":        "alpha\neta\n",
	"dir/one.txt":     "hello world\nTODO item\n",
	"dir/two.md":      "# title\nhello\n",
	"dir/sub/x.go":    "// TODO go\npackage x\n",
	"dir/sub/y.txt":   "nothing here\n",
	"dir/vendor/v.go": "// TODO vendored\n",
	"script.sed":      "s/alpha/ALPHA/\n/beta/d\n",
}

func grepSedHave(t *testing.T, tool string) string {
	p, err := exec.LookPath(tool)
	if err != nil {
		t.Skipf("host %s not found", tool)
	}
	out, _ := exec.Command(p, "--version").Output()
	if !bytes.Contains(out, []byte("GNU")) {
		t.Skipf("host %s is not GNU", tool)
	}
	return p
}

// grepSedHostRun runs the host tool in a fresh folder holding files.
func grepSedHostRun(t *testing.T, tool string, files map[string]string, tc grepSedDiffCase) (string, int, map[string]string) {
	dir := t.TempDir()
	for n, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(tool, tc.args...)
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
	cmd.Stdin = strings.NewReader(tc.stdin)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &bytes.Buffer{}
	code := 0
	if err := cmd.Run(); err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatal(err)
		}
		code = ee.ExitCode()
	}
	after := map[string]string{}
	for _, n := range tc.check {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			after[n] = "<missing>"
		} else {
			after[n] = string(b)
		}
	}
	return out.String(), code, after
}

func grepSedSortLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	sort.Strings(lines)
	return strings.Join(lines, "")
}

// grepSedDiff runs every case on both sides and fails below 95% agreement.
func grepSedDiff(t *testing.T, tool string, cases []grepSedDiffCase) {
	host := grepSedHave(t, tool)
	pass := 0
	var diffs []string
	for _, tc := range cases {
		files := tc.files
		if files == nil {
			files = grepSedFixture
		}
		wantOut, wantCode, wantFiles := grepSedHostRun(t, host, files, tc)
		fsys := afero.NewMemMapFs()
		gotOut, gotErr, gotCode := cmdtest.RunFS(t, fsys, tool, tc.stdin, files, tc.args...)
		if tc.sorted {
			wantOut, gotOut = grepSedSortLines(wantOut), grepSedSortLines(gotOut)
		}
		ok := wantOut == gotOut && wantCode == gotCode
		var fileDiff []string
		for _, n := range tc.check {
			if got := cmdtest.ReadFSFile(fsys, n); got != wantFiles[n] {
				ok = false
				fileDiff = append(fileDiff, n+": want "+grepSedQuote(wantFiles[n])+" got "+grepSedQuote(got))
			}
		}
		if ok {
			pass++
			continue
		}
		diffs = append(diffs, tool+" "+strings.Join(grepSedQuoteArgs(tc.args), " ")+
			"\n    want code "+strconv.Itoa(wantCode)+" out "+grepSedQuote(wantOut)+
			"\n    got  code "+strconv.Itoa(gotCode)+" out "+grepSedQuote(gotOut)+" err "+grepSedQuote(gotErr)+
			strings.Join(fileDiff, "\n    "))
	}
	t.Logf("%s differential: %d/%d cases agree with GNU %s", tool, pass, len(cases), tool)
	for _, d := range diffs {
		t.Logf("DIFF %s", d)
	}
	if pass*100 < len(cases)*95 {
		t.Errorf("%s: only %d/%d cases agree (need 95%%)", tool, pass, len(cases))
	}
}

func grepSedQuoteArgs(args []string) []string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return q
}

func grepCase(args ...string) grepSedDiffCase { return grepSedDiffCase{args: args} }

func grepCaseSorted(args ...string) grepSedDiffCase { return grepSedDiffCase{args: args, sorted: true} }

func grepCaseIn(stdin string, args ...string) grepSedDiffCase {
	return grepSedDiffCase{args: args, stdin: stdin}
}

// litIn has lines with multibyte and invalid UTF-8 bytes for the plain
// text search.
const litIn = "a\xffb\n\u00e9\n\u00c9t\u00e9\nx7y\nX7Y\n7\n\n77 7\n"

var grepDiffCases = []grepSedDiffCase{
	grepCase("alpha", "a.txt"),
	grepCase("eta", "a.txt"),
	grepCase("-n", "eta", "a.txt"),
	grepCase("-c", "eta", "a.txt"),
	grepCase("-v", "eta", "a.txt"),
	grepCase("-vc", "eta", "a.txt"),
	grepCase("-i", "foo", "b.txt"),
	grepCase("-w", "foo", "b.txt"),
	grepCase("-x", "foobar", "b.txt"),
	grepCase("-o", "o*", "b.txt"),
	grepCase("-on", "fo*", "b.txt"),
	grepCase("-ow", "cat", "words.txt"),
	grepCase("-w", "cat", "words.txt"),
	grepCase("-w", "@cat", "words.txt"),
	grepCase("-ob", "cat", "words.txt"),
	grepCase("-l", "foo", "a.txt", "b.txt", "c.txt"),
	grepCase("-L", "foo", "a.txt", "b.txt", "c.txt"),
	grepCase("-H", "alpha", "a.txt"),
	grepCase("-h", "foo", "b.txt", "c.txt"),
	grepCase("foo", "b.txt", "c.txt"),
	grepCase("-q", "foo", "b.txt"),
	grepCase("-q", "nomatch", "b.txt"),
	grepCase("nomatch", "a.txt"),
	grepCase("foo", "missing.txt"),
	grepCase("-s", "foo", "missing.txt", "b.txt"),
	grepCase("-m", "2", "foo", "c.txt"),
	grepCase("-m1", "-A3", "foo", "c.txt"),
	grepCase("-A1", "foo", "c.txt"),
	grepCase("-B1", "foo", "c.txt"),
	grepCase("-C1", "-n", "foo", "c.txt", "b.txt"),
	grepCase("-2", "l5", "c.txt"),
	grepCase("-A0", "foo", "c.txt"),
	grepCase("-o", "-C1", "foo", "c.txt"),
	grepCase("-E", "a|e", "a.txt"),
	grepCase("-E", "^(al|be)", "a.txt"),
	grepCase("-E", "t+a$", "a.txt"),
	grepCase("-E", "[0-9]{3,4}", "nums.txt"),
	grepCase("-Eo", "[0-9]+", "nums.txt"),
	grepCase("[0-9]\\{2\\}", "nums.txt"),
	grepCase("-x", "[0-9]\\+", "nums.txt"),
	grepCase("al\\|ze", "a.txt"),
	grepCase("^\\(be\\|ga\\)", "a.txt"),
	grepCase("-F", "a.b", "special.txt"),
	grepCase("a.b", "special.txt"),
	grepCase("a\\.b", "special.txt"),
	grepCase("a*b", "special.txt"),
	grepCase("-F", "a*b", "special.txt"),
	grepCase("a+b", "special.txt"),
	grepCase("-E", "a\\+b", "special.txt"),
	grepCase("(x)", "special.txt"),
	grepCase("-E", "\\(x\\)", "special.txt"),
	grepCase("\\[y\\]", "special.txt"),
	grepCase("[[]y", "special.txt"),
	grepCase("{z}", "special.txt"),
	grepCase("\\$HOME", "special.txt"),
	grepCase("^^", "special.txt"),
	grepCase("\\\\", "special.txt"),
	grepCase("[\\]", "special.txt"),
	grepCase("a|b", "special.txt"),
	grepCase("-E", "a\\|b", "special.txt"),
	grepCase("[[:space:]]", "special.txt"),
	grepCase("[[:upper:]]", "special.txt", "b.txt"),
	grepCase("-c", "[[:digit:]]", "nums.txt"),
	grepCase("[^a-z]", "a.txt"),
	grepCase("\\<cat\\>", "words.txt"),
	grepCase("\\bcat", "words.txt"),
	grepCase("cat\\b", "words.txt"),
	grepCase("\\w\\+_\\w\\+", "b.txt", "words.txt"),
	grepCase("-o", "\\s\\S", "b.txt"),
	grepCase("-e", "alpha", "-e", "zeta", "a.txt"),
	grepCase("-f", "pats.txt", "a.txt"),
	grepCase("-x", "-f", "pats.txt", "a.txt"),
	grepCase("-wf", "pats.txt", "a.txt"),
	grepCase("", "blank.txt"),
	grepCase("-c", "^$", "blank.txt"),
	grepCase("-v", "-c", ".", "blank.txt"),
	grepCase("-n", "e", "noeol.txt"),
	grepCase("-c", "x", "empty.txt"),
	grepCase("-L", "x", "empty.txt"),
	grepCaseSorted("-r", "TODO", "dir"),
	grepCaseSorted("-rn", "TODO", "."),
	grepCaseSorted("-rl", "TODO", "dir"),
	grepCaseSorted("-r", "--include=*.go", "TODO", "dir"),
	grepCaseSorted("-r", "--exclude=*.go", "TODO", "dir"),
	grepCaseSorted("-r", "--exclude-dir=vendor", "TODO", "dir"),
	grepCaseSorted("-rc", "hello", "dir/"),
	grepCaseSorted("-rh", "TODO", "dir"),
	grepCase("-r", "TODO", "code.go"),
	grepCase("TODO", "dir"),
	grepCase("-ri", "todo", "dir/one.txt", "dir/two.md"),
	// Patterns without metacharacters are searched as plain text.
	grepCaseIn(litIn, "7"),
	grepCaseIn(litIn, "-c", "7"),
	grepCaseIn(litIn, "-v", "7"),
	grepCaseIn(litIn, "-x", "7"),
	grepCaseIn(litIn, "-xF", "x7y"),
	grepCaseIn(litIn, "-i", "7"),
	grepCaseIn(litIn, "-i", "X7"),
	grepCaseIn(litIn, "é"),
	grepCaseIn(litIn, "-e", "7", "-e", "é"),
	grepCaseIn(litIn, "-F", "-e", "b", "-e", "y"),
	grepCaseIn(litIn, "-c", ""),
	grepCaseIn(litIn, "-x", ""),
	grepCaseIn(litIn, "-E", "7|é"),
	grepCaseIn(litIn, "-o", "7"),
	grepCaseIn(litIn, "-a", "\xff"),
	grepCaseIn(litIn, "-w", "7"),
	grepCaseIn("x\ny\nxx\n", "x"),
	grepCaseIn("x\ny\nxx\n", "-c", "x"),
	grepCaseIn("x\ny\nxx\n", "-H", "y"),
	grepCaseIn("x\ny\n", "x", "-", "a.txt"),
	grepCase("-E", "(a|b)*c", "a.txt"),
	grepCase("-E", "x{0}eta", "a.txt"),
	grepCase("-E", "*alpha", "a.txt"),
	grepCase("\\(", "a.txt"),
	grepCase("-E", "(", "a.txt"),
	grepCase("[z-a]", "a.txt"),
	grepCase("\\(a\\)\\1", "a.txt"),
	grepCase("--color=never", "-n", "beta", "a.txt"),
	grepCase("-ni", "THETA", "a.txt"),
	grepCase("-y", "ALPHA", "a.txt"),
	grepCase("-e", "alpha", "-v", "-n", "a.txt"),
	grepCase("-Fx", "eta", "a.txt"),
	grepCase("-Fw", "foo", "b.txt"),
	grepCase("-Fi", "FOO BAR", "b.txt"),
	grepCase("-Fo", "o", "noeol.txt"),
	grepCase("--max-count=1", "foo", "b.txt", "c.txt"),
	grepCase("--line-number", "--with-filename", "foo", "b.txt"),
	grepCase("-c", "foo", "b.txt", "missing.txt"),
	grepCase("-k", "foo", "b.txt"),
	grepCase("-E", "a{,2}b", "special.txt"),
	grepCase("-E", "^[^ ]+ [^ ]+$", "b.txt"),
	grepCase("-o", "[[:alpha:]]*", "nums.txt"),
	grepCase("-bo", "[0-9]\\+", "nums.txt"),
	grepCase("-n", "-e", "eta", "-e", "alpha", "-A", "1", "a.txt"),
	grepCase("--no-group-separator", "-A1", "foo", "c.txt"),
	grepCase("--group-separator=XX", "-A1", "foo", "c.txt"),
	grepCase("-z", "beta", "a.txt"),
	grepCase("-cv", "foo", "b.txt", "c.txt"),
	grepCase("-lv", "foo", "b.txt", "c.txt", "a.txt"),
	grepCase("-nb", "eta", "a.txt"),
	grepCase("-w", "fo*", "b.txt"),
	grepCase("-oi", "foo", "b.txt"),
	grepCase("-e", "foo", "-e", "", "-c", "a.txt"),
	grepCase("-x", "", "blank.txt"),
	grepCase("-xn", "", "blank.txt"),
	grepCase("-w", "", "blank.txt", "b.txt"),
	grepCase("-A1", "-B2", "-n", "foo", "c.txt"),
	grepCase("-C5", "foo", "c.txt"),
	grepCase("-m1", "-c", "foo", "c.txt"),
	grepCase("-m1", "-l", "foo", "c.txt", "b.txt"),
	grepCase("-m2", "-A1", "foo", "c.txt"),
	grepCase("-m2", "-A5", "foo", "c.txt"),
	grepCase("-ho", "o", "b.txt", "a.txt"),
	grepCase("-Hc", "foo", "b.txt"),
	grepCaseSorted("-r", "hello"),
	grepCaseSorted("-rl", "TODO", "--include=*.txt"),
	grepCase("--include=*.go", "TODO", "code.go", "dir/one.txt"),
	grepCase("--exclude=*.go", "TODO", "code.go", "dir/one.txt"),
	grepCase("-i", "[A-Z]ETA", "a.txt"),
	grepCase("-F", "-e", "alpha", "-e", "zeta", "a.txt"),
	grepCase("-F", "", "blank.txt"),
	grepCase("-e", "-foo", "b.txt"),
	grepCase("--", "-foo", "b.txt"),
	grepCase("-v", "", "a.txt"),
	grepCase("a\\{2\\}", "special.txt", "nums.txt", "b.txt"),
	grepCase("-o", "\\(ab\\)*c", "nums.txt"),
	grepCase("-E", "(^|h)e", "a.txt"),
	grepCase("[[:alpha:]]\\{5\\}", "a.txt"),
	grepCase("-o", "b*", "b.txt"),
	grepCase("-c", "", "noeol.txt"),
	grepCase("-E", "a|", "a.txt"),
	grepCase("x*", "noeol.txt"),
	grepCase("-wo", "a.*", "b.txt"),
	grepCaseIn("in1\nin2\n", "--label=stdin", "-H", "in"),
	grepCase("-n", ".", "noeol.txt", "empty.txt"),
	grepCase("-Lv", "foo", "b.txt", "a.txt"),
	grepCase("-s", "nomatch", "missing.txt"),
	grepCase("-d", "skip", "hello", "dir", "dir/one.txt"),
	grepCase("-l", "", "empty.txt", "a.txt"),
	grepCase("-c", ".", "empty.txt", "blank.txt"),
	grepCase("-ow", "foo\\|bar", "b.txt"),
	grepCase("-n", "-w", "bar", "b.txt"),
	grepCase("-x", "-E", "[a-z]+", "b.txt"),
	grepCase("-i", "-w", "FOO", "b.txt"),
	grepCase("-E", "o{2}", "b.txt"),
	grepCase("-E", "^.{4}$", "a.txt", "nums.txt"),
	grepCase("-e", "a", "-f", "pats.txt", "-c", "a.txt"),
	grepCase("-f", "empty.txt", "a.txt"),
	grepCase("-vf", "empty.txt", "-c", "a.txt"),
	grepCase("-E", "\\<(cat|dog)s?\\>", "words.txt"),
	grepCase("-o", "[^ ]*t\\b", "words.txt"),
	grepCase("\\Bcat", "words.txt"),
	grepCase("-P", "\\d+", "nums.txt"),
	grepCase("--count", "--invert-match", "e", "a.txt"),
	grepCase("--files-with-match", "foo", "a.txt", "b.txt"),
	grepCase("-rc", "TODO", "dir/sub"),
	grepCase("-A", "x", "foo", "c.txt"),
	grepCase("-m", "x", "foo", "c.txt"),
	grepCase("[[:alpha:]", "a.txt"),
	grepCase("[:space:]", "a.txt"),
	grepCase("-E", "a{1,2", "special.txt"),
	grepCase("-E", "a{1,2}{3}", "special.txt"),
	grepCase("\\(", "special.txt"),
	grepCase("\\)", "special.txt"),
	grepCase("-E", ")", "special.txt"),
	grepCase("-E", "a**", "special.txt"),
	grepCase("-E", "+x", "special.txt"),
	grepCase("*b", "special.txt"),
	grepCase("\\(*b\\)", "special.txt"),
	grepCase("x\\|*b", "special.txt"),
	grepCase("^*", "special.txt"),
	grepCase("-E", "a$|^b", "special.txt"),
	grepCase("a$\\|^b", "special.txt"),
	grepCase("a\\$", "special.txt"),
	grepCase("$HOME", "special.txt"),
	grepCase("^\\$", "special.txt"),
	grepCase("-c", "$", "special.txt"),
	grepCase("[a-]b", "special.txt"),
	grepCase("[]y[]", "special.txt"),
	grepCase("[^][]", "-c", "special.txt"),
	grepCase("[.]", "special.txt"),
	grepCase("[[.-.]]", "special.txt", "b.txt"),
	grepCase("[[=a=]]b", "special.txt"),
	grepCase("\\.\\*", "special.txt"),
	grepCaseSorted("-rn", "TODO", "--include=*.go", "."),
	grepCaseSorted("-E", "hello|TODO", "-r", "dir", "-c"),
	grepCaseSorted("-ril", "todo", "--exclude-dir=sub", "dir"),
	grepCase("-n", "-i", "-e", "BETA", "--", "a.txt"),
	grepCase("-m1", "-n", "-A1", "foo", "c.txt"),
	grepCase("-n", "-m2", "-A1", "foo", "c.txt"),
	grepCase("-c", "-m3", "-v", "foo", "c.txt"),
	grepCase("-ob", "-w", "foo", "b.txt"),
	grepCase("-E", "\\s+$", "b.txt", "code.go"),
	grepCase("-n", "^\\s*//", "code.go"),
	grepCase("-A1", "-B1", "func", "code.go"),
	grepCase("-cl", "foo", "c.txt", "a.txt"),
	grepCase("-cL", "foo", "c.txt", "a.txt"),
	grepCase("-co", "foo", "c.txt"),
	grepCase("-T", "-n", "foo", "c.txt"),
	grepCase("-T", "-H", "foo", "c.txt"),
	grepCase("-cZ", "foo", "c.txt", "b.txt"),
	{args: []string{"foo", "bin.dat"}},
	{args: []string{"-c", "foo", "bin.dat"}},
	{args: []string{"-a", "more", "bin.dat"}},
	{args: []string{"-I", "foo", "bin.dat"}},
	{args: []string{"-l", "foo", "bin.dat", "a.txt"}},
}

func TestGrepDifferential(t *testing.T) {
	grepSedDiff(t, "grep", grepDiffCases)
}

func grepSedQuote(s string) string {
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return strconv.Quote(s)
}

func sedCase(args ...string) grepSedDiffCase { return grepSedDiffCase{args: args} }

func sedCaseIn(stdin string, args ...string) grepSedDiffCase {
	return grepSedDiffCase{args: args, stdin: stdin}
}

// sedCaseInPlace runs sed -i style args and compares the files afterwards.
func sedCaseInPlace(check []string, args ...string) grepSedDiffCase {
	return grepSedDiffCase{args: args, check: check}
}

var sedDiffCases = []grepSedDiffCase{
	sedCase("s/a/A/", "a.txt"),
	sedCase("s/a/A/g", "a.txt"),
	sedCase("s/a/A/2", "a.txt"),
	sedCase("s/a/A/2g", "a.txt"),
	sedCase("-n", "s/eta/ETA/p", "a.txt"),
	sedCase("s/\\(a\\)\\(l\\)/\\2\\1/", "a.txt"),
	sedCase("-E", "s/(b)(ar)/<\\2|\\1>/g", "b.txt"),
	sedCase("s/o*/X/g", "b.txt"),
	sedCase("s/x*/-/g", "a.txt"),
	sedCase("s/foo/[&]/g", "b.txt"),
	sedCase("s/foo/\\&/", "b.txt"),
	sedCase("s|/|_|g", "code.go"),
	sedCase("s,o,0,g", "b.txt"),
	sedCase("s/FOO/x/I", "b.txt"),
	sedCase("s/foo/a\\nb/", "b.txt"),
	sedCase("s/ /\\t/g", "b.txt"),
	sedCase("-E", "s/(\\w+) (\\w+)/\\U\\1\\E \\u\\2/", "b.txt"),
	sedCase("s/\\w\\+/\\L\\u&/g", "b.txt"),
	sedCase("s/[[:digit:]]\\+/<&>/", "nums.txt"),
	sedCase("-E", "s/[0-9]{2,3}/N/", "nums.txt"),
	sedCase("s/^/> /", "a.txt"),
	sedCase("s/$/;/", "noeol.txt"),
	sedCase("p", "noeol.txt"),
	sedCase("-n", "p", "noeol.txt"),
	sedCase("$d", "noeol.txt"),
	sedCase("2q", "a.txt"),
	sedCase("3q5", "a.txt"),
	sedCase("2Q", "a.txt"),
	sedCase("-n", "2p", "a.txt"),
	sedCase("-n", "$p", "a.txt"),
	sedCase("-n", "2,4p", "a.txt"),
	sedCase("-n", "4,2p", "a.txt"),
	sedCase("-n", "/beta/,/delta/p", "a.txt"),
	sedCase("-n", "/eta/,+1p", "a.txt"),
	sedCase("-n", "2,~4p", "a.txt"),
	sedCase("-n", "1~3p", "a.txt"),
	sedCase("-n", "0~2p", "a.txt"),
	sedCase("0,/a/d", "a.txt"),
	sedCase("1,/a/d", "a.txt"),
	sedCase("-n", "\\%eta%p", "a.txt"),
	sedCase("-n", "/ETA/Ip", "a.txt"),
	sedCase("2!d", "a.txt"),
	sedCase("/a/!s/e/E/", "a.txt"),
	sedCase("/beta/,/zeta/{/delta/d;s/^/  /}", "a.txt"),
	sedCase("-n", "/a/{/l/p}", "a.txt"),
	sedCase("1d;3d", "a.txt"),
	sedCase("-e", "1d", "-e", "s/a/X/", "a.txt"),
	sedCase("-f", "script.sed", "a.txt"),
	sedCase("y/abc/xyz/", "a.txt"),
	sedCase("y/a\\/b/1_2/", "special.txt"),
	sedCase("=", "b.txt"),
	sedCase("-n", "$=", "a.txt", "b.txt"),
	sedCase("-s", "-n", "$=", "a.txt", "b.txt"),
	sedCase("-n", "l", "special.txt"),
	sedCase("-n", "l 5", "a.txt"),
	sedCase("2a\\\nappended", "a.txt"),
	sedCase("2a appended one", "a.txt"),
	sedCase("2i\\\ninserted\\\ntwo lines", "a.txt"),
	sedCase("2,3c\\\nchanged", "a.txt"),
	sedCase("$!c X", "blank.txt"),
	sedCase("/beta/a\\  keep spaces", "a.txt"),
	sedCase("a END", "noeol.txt"),
	sedCase("$a\\", "a.txt"),
	sedCase("G", "blank.txt"),
	sedCase("1!G;h;$!d", "a.txt"),
	sedCase("-n", "h;n;G;p", "a.txt"),
	sedCase("x;$!d;x", "a.txt"),
	sedCase("N;N;s/\\n/+/g", "a.txt"),
	sedCase("$!N;s/\\n/ /", "a.txt"),
	sedCase("N;P;D", "a.txt"),
	sedCase(":a;N;$!ba;s/\\n/,/g", "a.txt"),
	sedCase("-n", "$!{h;d};x;G;p", "a.txt"),
	sedCase("n;d", "a.txt"),
	sedCase("/^$/d", "blank.txt"),
	sedCase("/^$/N;/\\n$/D", "blank.txt"),
	sedCase(":a;s/^\\([^,]*\\)a/\\1A/;ta", "a.txt"),
	sedCase("s/e/E/;T;s/$/!/", "a.txt"),
	sedCase("s/e/E/;t end;s/$/ no-e/;:end", "a.txt"),
	sedCase("/a/b skip;s/$/ no-a/;:skip", "a.txt"),
	sedCase("-n", "/foo/{p;q}", "b.txt"),
	sedCase("-n", "/foo/{=;p}", "b.txt"),
	sedCase("2r b.txt", "a.txt"),
	sedCase("r noeol.txt", "blank.txt"),
	sedCase("R noeol.txt", "a.txt"),
	sedCase("$r missing.txt", "a.txt"),
	sedCase("z;s/^$/empty/", "noeol.txt"),
	sedCase("-n", "/foo/w /dev/stdout", "b.txt"),
	sedCase("s/foo/FOO/w /dev/stdout", "b.txt"),
	sedCase("-n", "F;=", "a.txt", "noeol.txt"),
	sedCase("p", "missing.txt", "noeol.txt"),
	sedCase("s/a/b", "a.txt"),
	sedCase("k", "a.txt"),
	sedCase("/x/{p", "a.txt"),
	sedCase("p}", "a.txt"),
	sedCase("b nolabel", "a.txt"),
	sedCase("s/a/\\1/", "a.txt"),
	sedCase("y/ab/c/", "a.txt"),
	sedCase("1,2q", "a.txt"),
	sedCase("s/a/b/gg", "a.txt"),
	sedCase("-E", "s/(a|e)+/_/g", "a.txt"),
	sedCase("-E", "s/a{2}/X/; s/^(.)(.*)$/\\2\\1/", "a.txt"),
	sedCase("-r", "s/^([^ ]+) (.*)$/\\2 \\1/", "b.txt"),
	sedCase("s/\\bfoo\\b/W/g", "b.txt"),
	sedCase("s/\\<b/B/g", "b.txt"),
	sedCase("s/o\\>/0/g", "b.txt"),
	sedCase("s/\\s\\+/ /g;s/^ //", "b.txt"),
	sedCase("s/[^a-z]/./g", "special.txt"),
	sedCase("s/[]]/R/;s/[[]/L/", "special.txt"),
	sedCase("s/\\./DOT/;s/\\*/STAR/;s/\\$/DOLLAR/", "special.txt"),
	sedCase("s/a|b/OR/", "special.txt"),
	sedCase("-E", "s/a\\|b/OR/", "special.txt"),
	sedCase("s/a\\|b/OR/g", "special.txt"),
	sedCase("s/^\\^/hat/", "special.txt"),
	sedCase("s/a\\+b/P/;s/a\\?b/Q/", "special.txt"),
	sedCase("s/\\\\/BS/", "special.txt"),
	sedCase("s/\\t/TAB/", "special.txt"),
	sedCase("--expression=s/a/A/", "--quiet", "--expression=2p", "a.txt"),
	sedCase("-n", "-e", "2{p", "-e", "}", "a.txt"),
	sedCase("#n\n2p", "a.txt"),
	sedCase("2{s/b/B/;s/e/E/}", "a.txt"),
	sedCase("s/a/A/;# comment\n s/e/E/", "a.txt"),
	sedCase("$!s/$/,/", "a.txt"),
	sedCase("1~2{N;s/\\n/ /}", "a.txt"),
	sedCase("-z", "s/\\n/,/g", "a.txt"),
	sedCaseIn("x\ny\n", "s/x/X/"),
	sedCaseIn("x\ny\n", "s/y/Y/", "-", "noeol.txt"),
	sedCaseIn("a b c\n", "s/ /\\n/g;P;D"),
	sedCaseIn("hello\n", "s/l/L/3"),
	sedCaseIn("abc\n", "s/b*/X/g"),
	sedCaseIn("baaac\n", "s/a*/x/g"),
	sedCaseIn("one two\n", "-E", "s/(one) (two)/\\2 \\1/"),
	sedCaseIn("path/to/file\n", "s#/#\\\\#g"),
	sedCaseInPlace([]string{"a.txt"}, "-i", "s/alpha/ALPHA/", "a.txt"),
	sedCaseInPlace([]string{"a.txt", "a.txt.bak"}, "-i.bak", "2d", "a.txt"),
	sedCaseInPlace([]string{"a.txt", "b.txt"}, "-i", "$a last", "a.txt", "b.txt"),
	sedCaseInPlace([]string{"a.txt", "b.txt"}, "-i", "-e", "1i first", "a.txt", "b.txt"),
	sedCaseInPlace([]string{"noeol.txt"}, "-i", "s/e/E/g", "noeol.txt"),
	sedCaseInPlace([]string{"a.txt"}, "-n", "-i", "3p", "a.txt"),
	sedCaseInPlace([]string{"a.txt"}, "-i", "3q", "a.txt"),
	sedCaseInPlace([]string{"out.txt"}, "-n", "/eta/w out.txt", "a.txt"),
	sedCaseInPlace([]string{"a.txt", "missing.txt"}, "-i", "s/a/b/", "missing.txt", "a.txt"),
	sedCase("s/o/0/3g", "b.txt"),
	sedCase("s/FOO/x/gI", "b.txt"),
	sedCase("s/ /\\\n/", "b.txt"),
	sedCase("-n", "/start/,/end/{//!p}", "ranges.txt"),
	sedCase("-n", "/start/,/end/p", "ranges.txt"),
	sedCase("/start/,/end/d", "ranges.txt"),
	sedCase("/start/,/end/c\\\nBLOCK", "ranges.txt"),
	sedCase("/start/,/end/!d", "ranges.txt"),
	sedCase("-n", "/in/{s//IN/gp}", "ranges.txt"),
	sedCase("-n", "2{p;p}", "a.txt"),
	sedCase("$!N;$!D", "a.txt"),
	sedCase("-n", "$p;h", "a.txt"),
	sedCase("2,4!d", "a.txt"),
	sedCase("/beta/,+2d", "a.txt"),
	sedCase("-n", "/gamma/,$p", "a.txt"),
	sedCase("3,$d", "a.txt"),
	sedCase("0~3d", "a.txt"),
	sedCase("n;n;s/$/!/", "a.txt"),
	sedCase("=", "noeol.txt"),
	sedCase("-e", "2i\\", "-e", "INS", "a.txt"),
	sedCase("-e", "2c\\", "-e", "CHG", "a.txt"),
	sedCase("s/[aeiou]/\\U&/g", "a.txt"),
	sedCase("s/\\(.\\)\\(.*\\)/\\2\\1/", "a.txt"),
	sedCase("-E", "s/^(.)(x)?/[\\1|\\2]/", "a.txt"),
	sedCase("s/a/b/;ta;s/$/ x/;:a", "a.txt"),
	sedCase("-n", "x;p", "a.txt"),
	sedCase("-s", "1F", "a.txt", "b.txt"),
	sedCase("-n", "/e/{n;p}", "a.txt"),
	sedCase("l", "long.txt"),
	sedCase("-l", "20", "-n", "l", "long.txt"),
	sedCase("-n", "l 0", "long.txt"),
	sedCase("-E", "s/(foo|bar)+/X/g", "b.txt"),
	sedCase("-n", "/foo/!p", "b.txt"),
	sedCase("1 { s/a/b/ ; s/l/L/ }", "a.txt"),
	sedCase("-n", "1!{x;p};h", "a.txt"),
	sedCase("$!{N;s/\\n/+/}", "a.txt"),
	sedCase("-n", "/[0-9]\\{3\\}/p", "nums.txt"),
	sedCase("y/abcdefghij/ABCDEFGHIJ/", "long.txt"),
	sedCase("2,3{N;s/\\n/+/}", "a.txt"),
	sedCase("$!d", "a.txt"),
	sedCase("-n", "3,${p}", "a.txt"),
	sedCase("N;l;D", "a.txt"),
	sedCase("1!G;$p;h;d", "a.txt"),
	sedCase("s/a*/<&>/2", "a.txt"),
	sedCase("s/$/\\r/", "a.txt"),
	sedCase("s/\\x61/A/g", "a.txt"),
	sedCase("s/a/\\x41\\o102\\d067/", "a.txt"),
	sedCase("-n", "/\\talpha/p;/a\\tb/p", "special.txt"),
	sedCase("s/[\\t]/T/", "special.txt"),
	sedCase("s/[\\n]/N/", "special.txt"),
	sedCase("s/[\\.]/D/g", "special.txt"),
	sedCase("s/.*/\\L&/;s/\\w\\+/\\u&/g", "b.txt"),
	sedCase("s/\\(foo\\) \\(bar\\)/\\U\\2\\E-\\l\\1/", "b.txt"),
	sedCase("-E", "s/(a)|b/[\\1]/g", "special.txt"),
	sedCase("-n", "/a/,/a/p", "a.txt"),
	sedCase("-n", "2,1p", "a.txt"),
	sedCase("-n", "/beta/,3p", "a.txt"),
	sedCase("-n", "5,/a/p", "a.txt"),
	sedCase("-n", "/eta/,~4p", "a.txt"),
	sedCase("0,/alpha/s//FIRST/", "a.txt"),
	sedCase("1,/alpha/s//FIRST/", "a.txt"),
	sedCase("-s", "$d", "a.txt", "b.txt"),
	sedCase("$d", "a.txt", "b.txt"),
	sedCase("-n", "$p", "a.txt", "empty.txt"),
	sedCase("N", "noeol.txt"),
	sedCase("$!N;P;D", "noeol.txt"),
	sedCase("G;G", "noeol.txt"),
	sedCase("x;G", "noeol.txt"),
	sedCase("-n", "H;${x;s/\\n/,/g;p}", "a.txt"),
	sedCase("-E", "s/*a/X/", "a.txt"),
	sedCase("-E", "s/a{/X/", "a.txt"),
	sedCase("-E", "s/a)/X/", "a.txt"),
	sedCase("s/\\(a/X/", "a.txt"),
	sedCase("s/[[:foo:]]/X/", "a.txt"),
	sedCase("s/a/b/0", "a.txt"),
	sedCase("0p", "a.txt"),
	sedCase("a", "a.txt"),
	sedCase(":", "a.txt"),
	sedCase("unknown", "a.txt"),
	sedCase("s/x/y/;}", "a.txt"),
	sedCase("-n", "/a/I,/E/Ip", "a.txt"),
	sedCase("s/^/X/M", "a.txt"),
	sedCase("N;s/^/>/Mg", "a.txt"),
	sedCase("N;s/a$/A/M", "a.txt"),
	sedCase("-n", "-s", "1p", "a.txt", "b.txt"),
	sedCase("--separate", "-n", "$p", "a.txt", "noeol.txt", "b.txt"),
	sedCase("-n", "$p", "a.txt", "noeol.txt"),
	sedCase("-n", "p", "noeol.txt", "a.txt"),
	sedCase(),
	sedCase("-n"),
	sedCase("$a\\", "noeol.txt"),
	sedCase("-e", ":a", "-e", "$!N;s/\\n/ /;ta", "a.txt"),
	sedCase("3i\\text", "a.txt"),
	sedCase("-n", "/^$/!p", "blank.txt"),
	sedCase("/^\\s*$/d", "blank.txt"),
	sedCase("s/^[ \t]*//", "b.txt"),
	sedCase("-e", "1{h;d}", "-e", "G", "a.txt"),
	sedCase("s/.*/\"&\"/", "a.txt"),
	sedCase("s/'/Q/g;s/\"/D/g", "special.txt"),
	sedCase("-n", "/TODO/{=;p}", "code.go"),
	sedCase("s/\\(\\/\\/\\) *TODO:\\?/\\1 DONE/", "code.go"),
	sedCase("-E", "s/^(\\s*)x :=/\\1y :=/", "code.go"),
	sedCase("/^func/,/^}/s/^/|/", "code.go"),
	sedCase("-n", "/^func/,/^}/{/^func/!{/^}/!p}}", "code.go"),
	sedCase("1~2s/^/odd: /;2~2s/^/even: /", "a.txt"),
	sedCase("-n", "2{N;N;p}", "a.txt"),
	sedCase("$!N;/^\\(.*\\)\\n\\1$/!P;D", "blank.txt"),
}

func TestSedDifferential(t *testing.T) {
	grepSedDiff(t, "sed", sedDiffCases)
}
