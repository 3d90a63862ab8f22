package quotearg_test

import (
	"bytes"
	"os"
	"os/exec"
	"testing"

	_ "github.com/agentenkit/agentenkit/shell/fileutil" // cat, ls
	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
	"github.com/agentenkit/agentenkit/shell/quotearg"
	_ "github.com/agentenkit/agentenkit/shell/textutil" // head, wc, sort
)

// names are file names that no quoting rule leaves alone.
var names = []string{
	"plain", "it's", "a b", "it's a", `a"b`, "x$y", "it's$", "*", "a:b", "a@b",
	"#a", "a#", "~a", "a~", "{", "{a", "}", "a=b", "a?b", `a\b`, "it's\\",
	"new\nline", "tab\there", "\x01", "a\x7fb", "é", "it's\n", "-", "", "'",
	"a'b'c", "x!y", "[a]", "a|b", "a;b", "a&b", "(a)", "a<b>", "a^b", "a`b",
	"\n'", "%+,-./09:]_",
}

// TestQuoteTable pins the two styles on names whose quoting is known.
func TestQuoteTable(t *testing.T) {
	for _, tc := range []struct{ name, quote, bare string }{
		{"plain", "'plain'", "plain"},
		{"it's", `"it's"`, `"it's"`},
		{"it's$", `'it'\''s$'`, `'it'\''s$'`},
		{"a b", "'a b'", "'a b'"},
		{"a:b", "'a:b'", "'a:b'"},
		{"new\nline", `'new'$'\n''line'`, `'new'$'\n''line'`},
		{"é", `''$'\303\251'`, `''$'\303\251'`},
		{"", "''", "''"},
		{"a#", "'a#'", "a#"},
	} {
		if got := quotearg.Quote(tc.name); got != tc.quote {
			t.Errorf("Quote(%q) = %s, want %s", tc.name, got, tc.quote)
		}
		if got := quotearg.Name(tc.name); got != tc.bare {
			t.Errorf("Name(%q) = %s, want %s", tc.name, got, tc.bare)
		}
	}
}

// gnuStderr runs GNU's tool with args in an empty folder under the C
// locale and returns its standard error; ok is false without the tool.
func gnuStderr(t *testing.T, tool string, args ...string) (string, bool) {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		return "", false
	}
	cmd := exec.Command(p, args...)
	cmd.Args[0] = tool
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	_ = cmd.Run()
	return errb.String(), true
}

// TestQuoteGNU compares both styles with GNU coreutils' own: ls quotes
// an operand it cannot access with quoteaf, cat with quotef.
func TestQuoteGNU(t *testing.T) {
	if _, err := exec.LookPath("ls"); err != nil {
		t.Skip("no GNU ls on this machine")
	}
	for _, name := range names {
		got, _ := gnuStderr(t, "ls", "--", name)
		if want := "ls: cannot access " + quotearg.Quote(name) + ": No such file or directory\n"; got != want {
			t.Errorf("Quote(%q):\n gnu  %q\n ours %q", name, got, want)
		}
		if name == "-" {
			continue // cat reads standard input
		}
		got, _ = gnuStderr(t, "cat", "--", name)
		if want := "cat: " + quotearg.Name(name) + ": No such file or directory\n"; got != want {
			t.Errorf("Name(%q):\n gnu  %q\n ours %q", name, got, want)
		}
	}
}

// TestCommandsQuoteAsGNU runs cat, head, wc, sort and ls on a missing file
// of each name, here and with GNU's tool, and compares their messages.
func TestCommandsQuoteAsGNU(t *testing.T) {
	if os.Getenv("AGENTENKIT_REQUIRE") == "" {
		if _, err := exec.LookPath("head"); err != nil {
			t.Skip("no GNU coreutils on this machine")
		}
	}
	for _, tool := range []string{"cat", "head", "wc", "sort", "ls"} {
		for _, name := range names {
			if name == "-" {
				continue // standard input
			}
			want, ok := gnuStderr(t, tool, "--", name)
			if !ok {
				t.Fatalf("no %s on this machine", tool)
			}
			_, got, _ := cmdtest.Run(t, tool, "", nil, "--", name)
			if got != want {
				t.Errorf("%s -- %q:\n gnu  %q\n ours %q", tool, name, want, got)
			}
		}
	}
}
