package textutil

import (
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextUniq(t *testing.T) {
	in := "a\na\nb\nc\nc\nc\nd\n"
	cmdtest.RunCases(t, "uniq", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: in, Want: "a\nb\nc\nd\n"},
		{Args: cmdtest.Args("-c"), Stdin: in, Want: "      2 a\n      1 b\n      3 c\n      1 d\n"},
		{Args: cmdtest.Args("-d"), Stdin: in, Want: "a\nc\n"},
		{Args: cmdtest.Args("-u"), Stdin: in, Want: "b\nd\n"},
		{Args: cmdtest.Args("-D"), Stdin: in, Want: "a\na\nc\nc\nc\n"},
		{Args: cmdtest.Args("-i"), Stdin: "A\na\nb\n", Want: "A\nb\n"},
		{Args: cmdtest.Args("-f", "1"), Stdin: "x a\ny a\nz b\n", Want: "x a\nz b\n"},
		{Args: cmdtest.Args("-s", "1"), Stdin: "xa\nya\nzb\n", Want: "xa\nzb\n"},
		{Args: cmdtest.Args("-w", "1"), Stdin: "ab\nac\nbc\n", Want: "ab\nbc\n"},
		{Args: cmdtest.Args("in", "out"), Files: map[string]string{"in": "a\na\n"}},
		{Args: cmdtest.Args("nope"), Code: 1, Stderr: "uniq: nope: No such file or directory\n"},
	})
}

func TestTextUniqGNU(t *testing.T) {
	in := "a\na\nb\nc\nc\nc\nd\nA\na\n x\n  x\ny x\nz x\n\n\nab1\nab2\nlast"
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{}, {"-c"}, {"-d"}, {"-u"}, {"-D"}, {"-i"}, {"-ic"}, {"-id"}, {"-f", "1"}, {"-f1", "-c"}, {"-s", "1"}, {"-s2", "-w1"},
		{"-w", "2"}, {"-w", "2", "-c"}, {"-du"}, {"-cd"}, {"-cu"}, {"--all-repeated=separate"}, {"--all-repeated=prepend"},
		{"-D", "-i"}, {"--group"}, {"--group=prepend"}, {"--group=append"}, {"--group=both"}, {"-f", "5"}, {"-s", "100"},
		{"-Dc"}, {"-z"}, {"-w0"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: in})
	}
	files := map[string]string{"in": "a\na\nb\n"}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("in"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-c", "in", "-"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("missing"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "b", "c"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-f", "x"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-z", "-c"), Stdin: "a\x00a\x00b"},
	)
	cmdtest.GNUDiff(t, "uniq", "uniq", cases)
}
