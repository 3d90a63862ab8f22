package shell

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

func TestTextDiff(t *testing.T) {
	files := map[string]string{"a": "a\n", "b": "b\n", "a2": "a\n", "x": "1\n2\n3\n", "y": "1\n3\n4\n", "nonl": "a"}
	runTextCases(t, "diff", []textCase{
		{args: textArgs("a", "b"), files: files, want: "1c1\n< a\n---\n> b\n", code: 1},
		{args: textArgs("a", "a2"), files: files},
		{args: textArgs("x", "y"), files: files, want: "2d1\n< 2\n3a3\n> 4\n", code: 1},
		{args: textArgs("-q", "a", "b"), files: files, want: "Files a and b differ\n", code: 1},
		{args: textArgs("-s", "a", "a2"), files: files, want: "Files a and a2 are identical\n"},
		{args: textArgs("-u", "a", "b"), files: files, code: 1,
			want: "--- a\t2024-01-02 03:04:05.123456789 +0000\n+++ b\t2024-01-02 03:04:05.123456789 +0000\n@@ -1 +1 @@\n-a\n+b\n"},
		{args: textArgs("a", "nonl"), files: files, want: "1c1\n< a\n---\n> a\n\\ No newline at end of file\n", code: 1},
		{args: textArgs("a", "nope"), files: files, code: 2, stderr: "diff: nope: No such file or directory\n"},
		{args: textArgs("a"), files: files, code: 2},
		{args: textArgs("-", "a"), stdin: "a\n", files: files},
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
	var cases []textGNUCase
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
			textGNUCase{args: textArgs("a", "b"), files: files},
			textGNUCase{args: textArgs("-u", "a", "b"), files: files},
		)
		if i%4 == 0 {
			cases = append(cases, textGNUCase{args: textArgs("-U", "1", "a", "b"), files: files},
				textGNUCase{args: textArgs("-U0", "b", "a"), files: files})
		}
	}
	ws := map[string]string{"a": "Hello  World\nfoo\tbar\nx \nCRLF\r\n", "b": "hello world\nfoo bar\nx\nCRLF\n", "e": "", "bin": "a\x00b", "bin2": "a\x00c"}
	for _, a := range [][]string{{}, {"-i"}, {"-w"}, {"-b"}, {"-iw"}, {"--strip-trailing-cr"}, {"-u", "-b"}, {"-q"}} {
		cases = append(cases, textGNUCase{args: append(append([]string{}, a...), "a", "b"), files: ws})
	}
	cases = append(cases,
		textGNUCase{args: textArgs("e", "a"), files: ws},
		textGNUCase{args: textArgs("-u", "e", "a"), files: ws},
		textGNUCase{args: textArgs("-u", "a", "e"), files: ws},
		textGNUCase{args: textArgs("bin", "bin2"), files: ws},
		textGNUCase{args: textArgs("-s", "a", "a"), files: ws},
		textGNUCase{args: textArgs("a", "missing"), files: ws, stderr: true},
		textGNUCase{args: textArgs("a"), files: ws, stderr: true},
		textGNUCase{args: textArgs("-u", "--label", "L1", "--label", "L2", "a", "b"), files: ws},
	)
	dirs := map[string]string{"da/f": "x\n", "db/f": "y\n", "da/only": "o\n", "da/sub/s": "s\n", "db/sub/s": "t\n",
		"db/sub/q": "q\n", "da/same": "1\n", "db/same": "1\n", "da/sub2/": "", "db/sub2/": "", "db/f2": "z\n"}
	for _, a := range [][]string{{"-r"}, {"-ru"}, {"-r", "-u"}, {"-rq"}, {"-rN"}, {"-ruN"}, {}, {"-q"}} {
		cases = append(cases, textGNUCase{args: append(append([]string{}, a...), "da", "db"), files: dirs})
	}
	cases = append(cases, textGNUCase{args: textArgs("da/f", "db"), files: dirs}, textGNUCase{args: textArgs("da", "db/f"), files: dirs})
	textGNUDiff(t, "diff", "diff", cases)
}
