package shell

import "testing"

func TestTextTr(t *testing.T) {
	runTextCases(t, "tr", []textCase{
		{args: textArgs("a-z", "A-Z"), stdin: "hello\n", want: "HELLO\n"},
		{args: textArgs("[:lower:]", "[:upper:]"), stdin: "Hi there\n", want: "HI THERE\n"},
		{args: textArgs("-d", "[:digit:]"), stdin: "a1b22c\n", want: "abc\n"},
		{args: textArgs("-s", " "), stdin: "a   b  c\n", want: "a b c\n"},
		{args: textArgs("-cd", "[:alnum:]\\n"), stdin: "a-b_c!\n", want: "abc\n"},
		{args: textArgs("\\n", " "), stdin: "a\nb\n", want: "a b "},
		{args: textArgs("-s", "a-z", "A-Z"), stdin: "aabbcc\n", want: "ABC\n"},
		{args: textArgs("abc", "x"), stdin: "abcd", want: "xxxd"},
		{args: textArgs("-t", "abc", "xy"), stdin: "abcd", want: "xycd"},
		{args: textArgs("a-c", "[x*]"), stdin: "abcd", want: "xxxd"},
		{args: textArgs(), code: 1, stderr: "tr: missing operand\nTry 'tr --help' for more information.\n"},
		{args: textArgs("z-a", "x"), code: 1, stderr: "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n"},
	})
}

func TestTextTrGNU(t *testing.T) {
	in := "Hello, World! 123\n\tTabs  and   spaces\n\\back\\slash\nxxyyzz aaaa\n\x01\x7f\xff end"
	var cases []textGNUCase
	for _, a := range [][]string{
		{"a-z", "A-Z"}, {"A-Z", "a-z"}, {"[:lower:]", "[:upper:]"}, {"[:upper:]", "[:lower:]"}, {"-d", "[:digit:]"},
		{"-d", "[:space:]"}, {"-d", "[:punct:]"}, {"-d", "[:alpha:]"}, {"-d", "[:alnum:]"}, {"-cd", "[:alnum:]"},
		{"-cd", "[:print:]\\n"}, {"-s", " "}, {"-s", "[:space:]"}, {"-s", "a-z"}, {"-s", "a-z", "A-Z"},
		{"-ds", "0-9", "a-z"}, {"abc", "x"}, {"-t", "abc", "xy"}, {"a-c", "[x*]"}, {"a-e", "x[y*2]z"},
		{"\\n\\t", "_-"}, {"\\\\", "/"}, {"-c", "a-z\\n", "_"}, {"-C", "a-z\\n", "."}, {"-cs", "a-z", "\\n"},
		{"\\101", "z"}, {"aa", "xy"}, {"[=a=]", "Q"}, {"-d", "\\001\\177\\377"}, {"[:digit:]", "#"},
		{"-d", "lo"}, {"lo", "01"}, {"a-zA-Z", "n-za-mN-ZA-M"}, {"-s", "x-z"}, {"[:blank:]", "."}, {"-d", "[:cntrl:]"},
		{"[:xdigit:]", "X"}, {"-d", "[:graph:]"}, {"-d", "a-"}, {"-d", "-a"},
	} {
		cases = append(cases, textGNUCase{args: a, stdin: in})
	}
	cases = append(cases,
		textGNUCase{args: textArgs(), stderr: true},
		textGNUCase{args: textArgs("abc"), stderr: true},
		textGNUCase{args: textArgs("-d", "a", "b"), stderr: true},
		textGNUCase{args: textArgs("a", "b", "c"), stderr: true},
		textGNUCase{args: textArgs("z-a", "x"), stderr: true},
		textGNUCase{args: textArgs("abc", ""), stderr: true},
		textGNUCase{args: textArgs("-ds", "a"), stderr: true},
		textGNUCase{args: textArgs("[:foo:]", "x"), stderr: true},
		textGNUCase{args: textArgs("a", "[:digit:]"), stderr: true},
		textGNUCase{args: textArgs("[a*]", "x"), stderr: true},
	)
	textGNUDiff(t, "tr", "tr", cases)
}
