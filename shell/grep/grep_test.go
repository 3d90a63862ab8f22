package grep

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
	"github.com/spf13/afero"
)

// grepTestTree is the tree most grep tests search.
var grepTestTree = map[string]string{
	"a/b.go":        "package a\n\n// TODO: one\nfunc f() {}\n",
	"a/c.txt":       "nothing\nTODO two\n",
	"a/z/deep.md":   "todo lower\nTODO deep\n",
	"top.txt":       "alpha\nbeta\nTODO top\n",
	"bin.dat":       "head\x00TODO binary\n",
	"vendor/v.go":   "// TODO vendored\n",
	"lines.txt":     "1\n2\nmatch 3\n4\n5\n6\nmatch 7\n8\n9\n10\n11\nmatch 12\n",
	"words.txt":     "foo foo\nfoobar\nbar_foo\n(foo)\n",
	"/etc/abs.conf": "key=value\n",
}

func TestGrepTable(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		args  []string
		out   string
		err   string // substring of stderr
		code  int
	}{
		{"simple", "", []string{"beta", "top.txt"}, "beta\n", "", 0},
		{"no match", "", []string{"zzz", "top.txt"}, "", "", 1},
		{"stdin", "x\ny\nx2\n", []string{"x"}, "x\nx2\n", "", 0},
		{"stdin name", "x\n", []string{"-H", "x"}, "(standard input):x\n", "", 0},
		{"stdin dash", "x\n", []string{"-c", "x", "-", "top.txt"}, "(standard input):1\ntop.txt:0\n", "", 0},
		{"recursive dot", "", []string{"-rn", "TODO", "."},
			"./a/b.go:3:// TODO: one\n./a/c.txt:2:TODO two\n./a/z/deep.md:2:TODO deep\n./top.txt:3:TODO top\n./vendor/v.go:1:// TODO vendored\n", "grep: ./bin.dat: binary file matches\n", 0},
		{"recursive implicit", "", []string{"-r", "deep"}, "a/z/deep.md:TODO deep\n", "", 0},
		{"recursive dir", "", []string{"-rl", "TODO", "a"}, "a/b.go\na/c.txt\na/z/deep.md\n", "", 0},
		{"recursive dir slash", "", []string{"-rl", "TODO", "a/"}, "a/b.go\na/c.txt\na/z/deep.md\n", "", 0},
		{"recursive single file", "", []string{"-r", "TODO", "top.txt"}, "TODO top\n", "", 0},
		{"include", "", []string{"-rl", "--include=*.go", "TODO", "."}, "./a/b.go\n./vendor/v.go\n", "", 0},
		{"exclude", "", []string{"-rl", "--exclude=*.go", "--exclude=*.dat", "TODO"}, "a/c.txt\na/z/deep.md\ntop.txt\n", "", 0},
		{"exclude-dir", "", []string{"-rl", "--exclude-dir=vendor", "--exclude-dir=z", "TODO"}, "a/b.go\na/c.txt\nbin.dat\ntop.txt\n", "", 0},
		{"binary", "", []string{"TODO", "bin.dat"}, "", "grep: bin.dat: binary file matches\n", 0},
		{"binary text", "", []string{"-a", "TODO", "bin.dat"}, "head\x00TODO binary\n", "", 0},
		{"binary count", "", []string{"-c", "TODO", "bin.dat"}, "1\n", "", 0},
		{"binary skip", "", []string{"-I", "TODO", "bin.dat"}, "", "", 1},
		{"directory", "", []string{"TODO", "a"}, "", "grep: a: Is a directory\n", 2},
		{"directory skip", "", []string{"-d", "skip", "TODO", "a", "top.txt"}, "top.txt:TODO top\n", "", 0},
		{"missing", "", []string{"x", "nope"}, "", "grep: nope: No such file or directory\n", 2},
		{"missing quiet -s", "", []string{"-s", "x", "nope"}, "", "", 2},
		{"missing with match", "", []string{"beta", "nope", "top.txt"}, "top.txt:beta\n", "nope", 2},
		{"missing with -q match", "", []string{"-q", "beta", "nope", "top.txt"}, "", "nope: No such file", 0},
		{"absolute path", "", []string{"key", "/etc/abs.conf"}, "key=value\n", "", 0},
		{"bad regex", "", []string{"a\\(", "top.txt"}, "", "grep: Unmatched ( or \\(\n", 2},
		{"backref", "", []string{"\\(a\\)\\1", "top.txt"}, "", "grep: back-references in patterns are not supported\n", 2},
		{"usage", "", []string{}, "", "Usage: grep [OPTION]... PATTERNS [FILE]...", 2},
		{"bad option", "", []string{"-k", "x"}, "", "grep: invalid option -- 'k'\n", 2},
		{"bad long option", "", []string{"--frobnicate", "x"}, "", "unrecognized option '--frobnicate'", 2},
		{"abbreviated long option", "", []string{"--line-n", "beta", "top.txt"}, "2:beta\n", "", 0},
		{"word -o continuation", "", []string{"-ow", "foo", "words.txt"}, "foo\nfoo\nfoo\n", "", 0},
		{"word", "", []string{"-w", "foo", "words.txt"}, "foo foo\n(foo)\n", "", 0},
		{"line", "", []string{"-x", "foobar", "words.txt"}, "foobar\n", "", 0},
		{"fixed", "", []string{"-F", "(foo)", "words.txt"}, "(foo)\n", "", 0},
		{"multiple -e", "", []string{"-e", "alpha", "-e", "beta", "top.txt"}, "alpha\nbeta\n", "", 0},
		{"newline patterns", "", []string{"alpha\nbeta", "top.txt"}, "alpha\nbeta\n", "", 0},
		{"-f file", "", []string{"-f", "pats", "top.txt"}, "", "grep: pats: No such file or directory\n", 2},
		{"max count", "", []string{"-m1", "match", "lines.txt"}, "match 3\n", "", 0},
		{"context", "", []string{"-n", "-C1", "match", "lines.txt"},
			"2-2\n3:match 3\n4-4\n--\n6-6\n7:match 7\n8-8\n--\n11-11\n12:match 12\n", "", 0},
		{"after context", "", []string{"-A1", "match 1", "lines.txt"}, "match 12\n", "", 0},
		{"before context", "", []string{"-B2", "match 7", "lines.txt"}, "5\n6\nmatch 7\n", "", 0},
		{"count files", "", []string{"-c", "TODO", "top.txt", "a/c.txt"}, "top.txt:1\na/c.txt:1\n", "", 0},
		{"files without", "", []string{"-L", "TODO", "top.txt", "lines.txt"}, "lines.txt\n", "", 0},
		{"ignore case", "", []string{"-ic", "todo", "a/z/deep.md"}, "2\n", "", 0},
		{"invert", "", []string{"-v", "a", "top.txt"}, "TODO top\n", "", 0},
		{"only matching", "", []string{"-o", "[0-9]\\+", "lines.txt"}, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "", 0},
		{"byte offset", "", []string{"-b", "beta", "top.txt"}, "6:beta\n", "", 0},
		{"egrep", "", []string{"al|be", "top.txt"}, "alpha\nbeta\n", "", 0},
		{"color accepted", "", []string{"--color=never", "beta", "top.txt"}, "beta\n", "", 0},
		{"perl", "", []string{"-P", "\\d{2}", "lines.txt"}, "10\n11\nmatch 12\n", "", 0},
		{"perl look-ahead", "", []string{"-P", "a(?=b)", "top.txt"}, "", "grep: -P uses Go's RE2 syntax: invalid or unsupported Perl syntax: `(?=`\n", 2},
		{"null names", "", []string{"-lZ", "beta", "top.txt"}, "top.txt\x00", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := "grep"
			if tc.name == "egrep" {
				name = "egrep"
			}
			out, errOut, code := cmdtest.RunGrepSed(t, name, tc.stdin, grepTestTree, tc.args...)
			if out != tc.out || code != tc.code || !strings.Contains(errOut, tc.err) || (tc.err == "" && errOut != "") {
				t.Errorf("grep %q\n got out %q err %q code %d\nwant out %q err %q code %d", tc.args, out, errOut, code, tc.out, tc.err, tc.code)
			}
		})
	}
}

func TestGrepFgrepAlias(t *testing.T) {
	out, _, code := cmdtest.RunGrepSed(t, "fgrep", "", map[string]string{"f": "a.b\naxb\n"}, "a.b", "f")
	if out != "a.b\n" || code != 0 {
		t.Errorf("fgrep: got %q %d", out, code)
	}
}

func TestGrepLongLine(t *testing.T) {
	long := strings.Repeat("x", 200000) + "NEEDLE" + strings.Repeat("y", 100000)
	files := map[string]string{"big": "short\n" + long + "\nend\n"}
	out, _, code := cmdtest.RunGrepSed(t, "grep", "", files, "-n", "-o", "NEEDLE", "big")
	if out != "2:NEEDLE\n" || code != 0 {
		t.Errorf("long line: got %q %d", out, code)
	}
	out, _, _ = cmdtest.RunGrepSed(t, "grep", "", files, "-c", "y$", "big")
	if out != "1\n" {
		t.Errorf("long line count: got %q", out)
	}
}

func TestGrepContextCanceled(t *testing.T) {
	fsys := afero.NewMemMapFs()
	afero.WriteFile(fsys, "/f", []byte(strings.Repeat("line\n", 1000)), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b, _ := command.Lookup("grep")
	var out bytes.Buffer
	c := &command.Call{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Dir: "/", FS: fsys,
		Env: func(string) (string, bool) { return "", false }, Environ: func() []string { return nil }}
	if err := b(ctx, c, []string{"grep", "line", "/f"}); err == nil {
		t.Errorf("grep with a canceled context succeeded; output %q", out.String())
	}
}

func TestGrepQuietStopsReading(t *testing.T) {
	// -q must stop at the first match: an endless stdin would hang otherwise.
	b, _ := command.Lookup("grep")
	var out bytes.Buffer
	c := &command.Call{Stdin: cmdtest.Endless{}, Stdout: &out, Stderr: &out, Dir: "/", FS: afero.NewMemMapFs(),
		Env: func(string) (string, bool) { return "", false }, Environ: func() []string { return nil }}
	if err := b(context.Background(), c, []string{"grep", "-q", "y"}); err != nil {
		t.Errorf("grep -q: %v", err)
	}
	if err := b(context.Background(), c, []string{"grep", "-m1", "y"}); err != nil || out.String() != "y\n" {
		t.Errorf("grep -m1: %v %q", err, out.String())
	}
}

func TestGrepNeverPanicsOnOddArgs(t *testing.T) {
	odd := [][]string{
		{"-A"}, {"-e"}, {"-m", "-1", "x"}, {"-C", "-5", "x"}, {"--context"}, {"-"}, {"--", "--"},
		{"-E", "(((("}, {"-F", ""}, {"-w", ""}, {"-x", "-w", ""}, {"-P", "(?<x>a)"}, {"-P", "a(?=b)"},
		{"--binary-files=zzz", "x"}, {"-d", "zzz", "x"}, {"--color=zzz", "x"}, {"-1234567890123456789", "x"},
		{"-ro", "", "."}, {"-c", "-L", "-l", "x"}, {"--include", "[", "-r", "x", "."},
	}
	for _, args := range odd {
		cmdtest.RunGrepSed(t, "grep", "a\nb\n", grepTestTree, args...)
	}
}

// FuzzGrep: random patterns, options and input never panic.
func FuzzGrep(f *testing.F) {
	for _, p := range []string{"a", "\\(a\\)*", "[[:alpha:]]\\+", "a|b", "^$", "\\<w", "", "x\\{2\\}", "(", "*a"} {
		f.Add(p, "a b\nab\n\nxyz\x00", uint16(0))
		f.Add(p, "aa aa a", uint16(0x3ff))
	}
	f.Fuzz(func(t *testing.T, pat, input string, flags uint16) {
		if len(pat) > 200 || len(input) > 2000 {
			return
		}
		args := []string{"grep"}
		for k, opt := range []string{"-E", "-F", "-i", "-v", "-w", "-x", "-o", "-c", "-n", "-C1", "-m2", "-b", "-a", "-z", "-h", "-L"} {
			if flags&(1<<k) != 0 {
				args = append(args, opt)
			}
		}
		args = append(args, "-e", pat, "-", "/f")
		fsys := afero.NewMemMapFs()
		afero.WriteFile(fsys, "/f", []byte(input), 0o644)
		b, _ := command.Lookup("grep")
		var out bytes.Buffer
		c := &command.Call{Stdin: strings.NewReader(input), Stdout: &out, Stderr: &out, Dir: "/", FS: fsys,
			Env: func(string) (string, bool) { return "", false }, Environ: func() []string { return nil }}
		b(context.Background(), c, args)
	})
}

// TestGrepLiteralGNU: searches of one plain literal printing only the
// selected lines (searchLiteral) against the host's GNU grep: many lines,
// several files, a last line without newline, lines longer than the
// buffer, a NUL past the first bytes, -z, -T, -F.
func TestGrepLiteralGNU(t *testing.T) {
	var seq strings.Builder
	for i := 1; i <= 10000; i++ {
		fmt.Fprintf(&seq, "%d\n", i)
	}
	long := strings.Repeat("x", 70<<10)
	nulLate := strings.Repeat("ab line\n", 6000) + "ab\x00nul\n" + "ab after\n"
	files := map[string]string{
		"seq":    seq.String(),
		"f1":     "ab\ncd\nxab\nabab\n\nab",
		"f2":     "no\nyes ab\n",
		"long":   long + "ab\n" + "ab" + long + "\nshort\n" + long,
		"nul":    nulLate,
		"z":      "ab\x00cd\x00\nab\x00",
		"adjac":  "ab\nab\nab\n",
		"noend":  "x\ny\nab at end",
		"noend2": "ab\ny",
	}
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"7", "seq"}, {"99", "seq"}, {"ab", "f1"}, {"ab", "f1", "f2"}, {"-h", "ab", "f1", "f2"}, {"-H", "ab", "f1"},
		{"ab", "long"}, {"x", "long"}, {"-z", "ab", "z"}, {"ab", "adjac"}, {"ab", "noend"}, {"ab", "noend2"},
		{"-T", "-H", "ab", "f2"}, {"-F", "b\nc", "f1"}, {"-F", "yes a", "f2"}, {"zz", "f1", "f2"}, {"-i", "7", "seq"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Files: files, Stderr: true})
	}
	cases = append(cases, cmdtest.GNUCase{Args: []string{"ab"}, Stdin: files["f1"] + files["long"]})
	cmdtest.GNUDiff(t, "grep", "grep", cases)

	// A NUL in a selected line past the first bytes: GNU's answer depends
	// on its buffer size; the literal search prints what the line by
	// line search (taken for -n) prints, without the numbers.
	num := regexp.MustCompile(`(?m)^([a-z0-9]+:)?[0-9]+:`)
	for _, a := range [][]string{{"ab", "nul"}, {"ab", "f1", "f2"}, {"7", "seq"}, {"ab", "long"}, {"ab", "noend"}} {
		out, errOut, code := cmdtest.Run(t, "grep", "", files, a...)
		nOut, nErr, nCode := cmdtest.Run(t, "grep", "", files, append([]string{"-n"}, a...)...)
		if nOut = num.ReplaceAllString(nOut, "$1"); out != nOut || errOut != nErr || code != nCode {
			t.Errorf("grep %q: %d bytes, %q, %d; line by line %d bytes, %q, %d", a, len(out), errOut, code, len(nOut), nErr, nCode)
		}
	}
}
