package shell

import "testing"

func TestTextUniq(t *testing.T) {
	in := "a\na\nb\nc\nc\nc\nd\n"
	runTextCases(t, "uniq", []textCase{
		{args: textArgs(), stdin: in, want: "a\nb\nc\nd\n"},
		{args: textArgs("-c"), stdin: in, want: "      2 a\n      1 b\n      3 c\n      1 d\n"},
		{args: textArgs("-d"), stdin: in, want: "a\nc\n"},
		{args: textArgs("-u"), stdin: in, want: "b\nd\n"},
		{args: textArgs("-D"), stdin: in, want: "a\na\nc\nc\nc\n"},
		{args: textArgs("-i"), stdin: "A\na\nb\n", want: "A\nb\n"},
		{args: textArgs("-f", "1"), stdin: "x a\ny a\nz b\n", want: "x a\nz b\n"},
		{args: textArgs("-s", "1"), stdin: "xa\nya\nzb\n", want: "xa\nzb\n"},
		{args: textArgs("-w", "1"), stdin: "ab\nac\nbc\n", want: "ab\nbc\n"},
		{args: textArgs("in", "out"), files: map[string]string{"in": "a\na\n"}},
		{args: textArgs("nope"), code: 1, stderr: "uniq: nope: No such file or directory\n"},
	})
}

func TestTextUniqGNU(t *testing.T) {
	in := "a\na\nb\nc\nc\nc\nd\nA\na\n x\n  x\ny x\nz x\n\n\nab1\nab2\nlast"
	var cases []textGNUCase
	for _, a := range [][]string{
		{}, {"-c"}, {"-d"}, {"-u"}, {"-D"}, {"-i"}, {"-ic"}, {"-id"}, {"-f", "1"}, {"-f1", "-c"}, {"-s", "1"}, {"-s2", "-w1"},
		{"-w", "2"}, {"-w", "2", "-c"}, {"-du"}, {"-cd"}, {"-cu"}, {"--all-repeated=separate"}, {"--all-repeated=prepend"},
		{"-D", "-i"}, {"--group"}, {"--group=prepend"}, {"--group=append"}, {"--group=both"}, {"-f", "5"}, {"-s", "100"},
		{"-Dc"}, {"-z"}, {"-w0"},
	} {
		cases = append(cases, textGNUCase{args: a, stdin: in})
	}
	files := map[string]string{"in": "a\na\nb\n"}
	cases = append(cases,
		textGNUCase{args: textArgs("in"), files: files},
		textGNUCase{args: textArgs("-c", "in", "-"), files: files},
		textGNUCase{args: textArgs("missing"), stderr: true},
		textGNUCase{args: textArgs("a", "b", "c"), stderr: true},
		textGNUCase{args: textArgs("-f", "x"), stderr: true},
		textGNUCase{args: textArgs("-z", "-c"), stdin: "a\x00a\x00b"},
	)
	textGNUDiff(t, "uniq", "uniq", cases)
}
