package shell

import "testing"

func TestTextCut(t *testing.T) {
	runTextCases(t, "cut", []textCase{
		{args: textArgs("-d:", "-f1"), stdin: "a:b:c\nd:e\n", want: "a\nd\n"},
		{args: textArgs("-d", ":", "-f", "2-"), stdin: "a:b:c\n", want: "b:c\n"},
		{args: textArgs("-d:", "-f1,3", "--output-delimiter= "), stdin: "a:b:c\n", want: "a c\n"},
		{args: textArgs("-c", "2-3"), stdin: "abcd\n", want: "bc\n"},
		{args: textArgs("-b", "-2"), stdin: "abcd\n", want: "ab\n"},
		{args: textArgs("-d:", "-s", "-f1"), stdin: "a:b\nnone\n", want: "a\n"},
		{args: textArgs("-d:", "--complement", "-f2"), stdin: "a:b:c\n", want: "a:c\n"},
		{args: textArgs("-f1"), stdin: "a\tb\n", want: "a\n"},
		{args: textArgs(), code: 1, stderr: "cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n"},
		{args: textArgs("-f0"), code: 1},
		{args: textArgs("-f", "3-1"), code: 1},
		{args: textArgs("-f1", "nope"), code: 1, stderr: "cut: nope: No such file or directory\n"},
	})
}

func TestTextCutGNU(t *testing.T) {
	in := "a:b:c:d\nno delim\n:lead\ntrail:\n::\n\none:two\nlast:x"
	tabs := "a\tb\tc\nd\te\n"
	bytesIn := "abcdefghij\nxy\n\nhello world"
	var cases []textGNUCase
	for _, a := range [][]string{
		{"-d:", "-f1"}, {"-d:", "-f2"}, {"-d:", "-f1,3"}, {"-d:", "-f2-"}, {"-d:", "-f-2"}, {"-d:", "-f1-2,4"}, {"-d:", "-f3,1"},
		{"-d:", "-s", "-f1"}, {"-d:", "-f2", "--complement"}, {"-d:", "-f1,3", "--output-delimiter=::"}, {"-d:", "-f5"},
		{"-d:", "-f1-"}, {"-d", ":", "-f", "1,2,3,4,5"}, {"-d:", "-f2,2,2"}, {"-d:", "-sf2", "--complement"},
		{"-d:", "-f", "1 3"}, {"-d:", "-f1-2,2-3"}, {"-d:", "--output-delimiter=", "-f1,2"},
	} {
		cases = append(cases, textGNUCase{args: a, stdin: in})
	}
	for _, a := range [][]string{{"-f1"}, {"-f2-"}, {"-f", "2", "-s"}, {"-f1,3", "--output-delimiter=,"}} {
		cases = append(cases, textGNUCase{args: a, stdin: tabs})
	}
	for _, a := range [][]string{
		{"-b1"}, {"-b1-3"}, {"-c2-"}, {"-c-2"}, {"-b1,3,5"}, {"-b1-2,5-6", "--output-delimiter=|"}, {"-b1,2", "--output-delimiter=|"},
		{"-b3", "--complement"}, {"-c1-3,2-5"}, {"-b", "20"}, {"-c", "1-3", "-n"}, {"-b5-", "--complement", "--output-delimiter=X"},
	} {
		cases = append(cases, textGNUCase{args: a, stdin: bytesIn})
	}
	files := map[string]string{"a": "1:2\n", "b": "3:4"}
	cases = append(cases,
		textGNUCase{args: textArgs("-d:", "-f2", "a", "b"), files: files},
		textGNUCase{args: textArgs("-d:", "-f2", "a", "missing", "b"), files: files, stderr: true},
		textGNUCase{args: textArgs("-z", "-d:", "-f2"), stdin: "a:b\x00c:d"},
		textGNUCase{args: textArgs(), stderr: true},
		textGNUCase{args: textArgs("-f0"), stderr: true},
		textGNUCase{args: textArgs("-f", "3-1"), stderr: true},
		textGNUCase{args: textArgs("-f", "-"), stderr: true},
		textGNUCase{args: textArgs("-f", "x"), stderr: true},
		textGNUCase{args: textArgs("-b", "1", "-f", "2"), stderr: true},
		textGNUCase{args: textArgs("-d", "ab", "-f", "2"), stderr: true},
		textGNUCase{args: textArgs("-b", "1", "-d", ":"), stderr: true},
		textGNUCase{args: textArgs("-b", "1", "-s"), stderr: true},
		textGNUCase{args: textArgs("-c", "0"), stderr: true},
	)
	textGNUDiff(t, "cut", "cut", cases)
}
