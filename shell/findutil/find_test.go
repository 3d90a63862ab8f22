package findutil

import (
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

// TestFindRegexTypeGNU: -regextype selects POSIX basic or extended syntax
// (shell/posixre) for the -regex and -iregex after it, as GNU find does;
// each case matches at most one file, so the order of the walk is moot.
func TestFindRegexTypeGNU(t *testing.T) {
	files := map[string]string{"ab": "", "a+": "", "aab": "", "sub/": "", "sub/X.txt": ""}
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"posix-basic", "-regex", `\./a+`},
		{"posix-extended", "-regex", `\./a+`},
		{"posix-extended", "-regex", `\./a{2}b`},
		{"posix-basic", "-regex", `\./a\{2\}b`},
		{"posix-extended", "-regex", `\./(ab|xy)`},
		{"posix-basic", "-regex", `\./\(ab\|xy\)`},
		{"egrep", "-iregex", `\./SUB/x\.TXT`},
		{"sed", "-regex", `.*/a[+]`},
		{"emacs", "-regex", `\./a\(b\|x\)`},
		{"posix-extended", "-regex", `\./(a`},
		{"posix-basic", "-regex", `\./a\{1`},
		{"nosuch", "-regex", `x`},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: append([]string{".", "-regextype"}, a...), Files: files, Stderr: true})
	}
	cmdtest.GNUDiff(t, "find", "find", cases)
}
