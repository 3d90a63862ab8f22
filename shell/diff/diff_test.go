package diff

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextDiff(t *testing.T) {
	files := map[string]string{"a": "a\n", "b": "b\n", "a2": "a\n", "x": "1\n2\n3\n", "y": "1\n3\n4\n", "nonl": "a"}
	cmdtest.RunCases(t, "diff", []cmdtest.Case{
		{Args: cmdtest.Args("a", "b"), Files: files, Want: "1c1\n< a\n---\n> b\n", Code: 1},
		{Args: cmdtest.Args("a", "a2"), Files: files},
		{Args: cmdtest.Args("x", "y"), Files: files, Want: "2d1\n< 2\n3a3\n> 4\n", Code: 1},
		{Args: cmdtest.Args("-q", "a", "b"), Files: files, Want: "Files a and b differ\n", Code: 1},
		{Args: cmdtest.Args("-s", "a", "a2"), Files: files, Want: "Files a and a2 are identical\n"},
		{Args: cmdtest.Args("-u", "a", "b"), Files: files, Code: 1,
			Want: "--- a\t2024-01-02 03:04:05.123456789 +0000\n+++ b\t2024-01-02 03:04:05.123456789 +0000\n@@ -1 +1 @@\n-a\n+b\n"},
		{Args: cmdtest.Args("a", "nonl"), Files: files, Want: "1c1\n< a\n---\n> a\n\\ No newline at end of file\n", Code: 1},
		{Args: cmdtest.Args("a", "nope"), Files: files, Code: 2, Stderr: "diff: nope: No such file or directory\n"},
		{Args: cmdtest.Args("a"), Files: files, Code: 2},
		{Args: cmdtest.Args("-", "a"), Stdin: "a\n", Files: files},
	})
}

// diffRandomPair makes two files of lines from a small alphabet, the
// second an edit of the first, so that lines repeat and the matching has
// choices to make.
func diffRandomPair(r *rand.Rand, n, alphabet int) (string, string) {
	var a []string
	for i := 0; i < n; i++ {
		a = append(a, fmt.Sprintf("l%d", r.Intn(alphabet)))
	}
	var b []string
	for i := 0; i < len(a); i++ {
		switch r.Intn(8) {
		case 0: // delete
		case 1: // change
			b = append(b, fmt.Sprintf("c%d", r.Intn(alphabet)))
		case 2: // insert
			b = append(b, fmt.Sprintf("l%d", r.Intn(alphabet)), a[i])
		default:
			b = append(b, a[i])
		}
	}
	ja := strings.Join(a, "\n") + "\n"
	jb := strings.Join(b, "\n") + "\n"
	if r.Intn(5) == 0 {
		jb = strings.TrimSuffix(jb, "\n")
	}
	return ja, jb
}

func TestTextDiffGNU(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var cases []cmdtest.GNUCase
	for i := 0; i < 120; i++ {
		n := 5 + r.Intn(60)
		alphabet := 2 + r.Intn(12)
		if i%10 == 9 {
			n = 400 + r.Intn(400)
			alphabet = 30
		}
		a, b := diffRandomPair(r, n, alphabet)
		files := map[string]string{"a": a, "b": b}
		cases = append(cases,
			cmdtest.GNUCase{Args: cmdtest.Args("a", "b"), Files: files},
			cmdtest.GNUCase{Args: cmdtest.Args("-u", "a", "b"), Files: files},
			cmdtest.GNUCase{Args: cmdtest.Args("-c", "a", "b"), Files: files},
		)
		if i%4 == 0 {
			cases = append(cases, cmdtest.GNUCase{Args: cmdtest.Args("-C", "1", "a", "b"), Files: files},
				cmdtest.GNUCase{Args: cmdtest.Args("-C0", "b", "a"), Files: files})
			cases = append(cases, cmdtest.GNUCase{Args: cmdtest.Args("-U", "1", "a", "b"), Files: files},
				cmdtest.GNUCase{Args: cmdtest.Args("-U0", "b", "a"), Files: files})
		}
	}
	ws := map[string]string{"a": "Hello  World\nfoo\tbar\nx \nCRLF\r\n", "b": "hello world\nfoo bar\nx\nCRLF\n", "e": "", "bin": "a\x00b", "bin2": "a\x00c"}
	for _, a := range [][]string{{}, {"-i"}, {"-w"}, {"-b"}, {"-iw"}, {"--strip-trailing-cr"}, {"-u", "-b"}, {"-q"}} {
		cases = append(cases, cmdtest.GNUCase{Args: append(append([]string{}, a...), "a", "b"), Files: ws})
	}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("e", "a"), Files: ws},
		cmdtest.GNUCase{Args: cmdtest.Args("-u", "e", "a"), Files: ws},
		cmdtest.GNUCase{Args: cmdtest.Args("-u", "a", "e"), Files: ws},
		cmdtest.GNUCase{Args: cmdtest.Args("bin", "bin2"), Files: ws},
		cmdtest.GNUCase{Args: cmdtest.Args("-s", "a", "a"), Files: ws},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "missing"), Files: ws, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a"), Files: ws, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-u", "--label", "L1", "--label", "L2", "a", "b"), Files: ws},
	)
	dirs := map[string]string{"da/f": "x\n", "db/f": "y\n", "da/only": "o\n", "da/sub/s": "s\n", "db/sub/s": "t\n",
		"db/sub/q": "q\n", "da/same": "1\n", "db/same": "1\n", "da/sub2/": "", "db/sub2/": "", "db/f2": "z\n"}
	for _, a := range [][]string{{"-r"}, {"-ru"}, {"-r", "-u"}, {"-rq"}, {"-rN"}, {"-ruN"}, {}, {"-q"}} {
		cases = append(cases, cmdtest.GNUCase{Args: append(append([]string{}, a...), "da", "db"), Files: dirs})
	}
	cases = append(cases, cmdtest.GNUCase{Args: cmdtest.Args("da/f", "db"), Files: dirs}, cmdtest.GNUCase{Args: cmdtest.Args("da", "db/f"), Files: dirs})
	cmdtest.GNUDiff(t, "diff", "diff", cases)
}
