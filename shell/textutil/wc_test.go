package shell

import (
	"strings"
	"testing"
)

func TestTextWc(t *testing.T) {
	files := map[string]string{"a": "one two\nthree\n", "b": "x", "d/": ""}
	runTextCases(t, "wc", []textCase{
		{args: textArgs(), stdin: "hello world\n", want: "      1       2      12\n"},
		{args: textArgs("-l"), stdin: "a\nb\n", want: "2\n"},
		{args: textArgs("a"), files: files, want: " 2  3 14 a\n"},
		{args: textArgs("a", "b"), files: files, want: " 2  3 14 a\n 0  1  1 b\n 2  4 15 total\n"},
		{args: textArgs("-l", "a", "b"), files: files, want: " 2 a\n 0 b\n 2 total\n"},
		{args: textArgs("-m"), stdin: "h\u00e9\n", want: "3\n"},
		{args: textArgs("-w"), stdin: "\u4f60\u597d world\n", want: "2\n"},
		{args: textArgs("-L"), stdin: "ab\tc\nx\n", want: "9\n"},
		{args: textArgs("a", "nope"), files: files, want: " 2  3 14 a\n 2  3 14 total\n", code: 1,
			stderr: "wc: nope: No such file or directory\n"},
		{args: textArgs("d"), files: files, want: "      0       0       0 d\n", code: 1, stderr: "wc: d: Is a directory\n"},
	})
}

func TestTextWcGNU(t *testing.T) {
	files := map[string]string{
		"a": "one two\nthree\n", "b": "x", "e": "", "ctl": "\x01 a\x02b \x80\n\x7f\v\f\rq\n",
		"big": strings.Repeat("lorem ipsum dolor\tsit amet\n", 5000), "d/": "",
	}
	var cases []textGNUCase
	for _, a := range [][]string{{}, {"-l"}, {"-w"}, {"-c"}, {"-m"}, {"-L"}, {"-lw"}, {"-cl"}, {"-wmL"}, {"-lwmcL"}} {
		cases = append(cases,
			textGNUCase{args: a, stdin: "hello world\nfoo  bar baz\n"},
			textGNUCase{args: append(append([]string{}, a...), "a"), files: files},
			textGNUCase{args: append(append([]string{}, a...), "a", "b", "e", "ctl"), files: files},
			textGNUCase{args: append(append([]string{}, a...), "big", "a"), files: files},
			textGNUCase{args: append(append([]string{}, a...), "a", "-"), stdin: "in put\n", files: files},
		)
	}
	cases = append(cases,
		textGNUCase{args: textArgs("a", "missing", "b"), files: files, stderr: true},
		textGNUCase{args: textArgs("missing", "a"), files: files, stderr: true},
		textGNUCase{args: textArgs("d"), files: files, stderr: true},
		textGNUCase{args: textArgs("a", "d"), files: files, stderr: true},
		textGNUCase{args: textArgs("ctl"), files: files},
		textGNUCase{args: textArgs("-"), stdin: "x y\n"},
		textGNUCase{args: textArgs("-x"), stderr: true},
	)
	textGNUDiff(t, "wc", "wc", cases)
}
