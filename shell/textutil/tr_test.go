package textutil

import (
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextTr(t *testing.T) {
	cmdtest.RunCases(t, "tr", []cmdtest.Case{
		{Args: cmdtest.Args("a-z", "A-Z"), Stdin: "hello\n", Want: "HELLO\n"},
		{Args: cmdtest.Args("[:lower:]", "[:upper:]"), Stdin: "Hi there\n", Want: "HI THERE\n"},
		{Args: cmdtest.Args("-d", "[:digit:]"), Stdin: "a1b22c\n", Want: "abc\n"},
		{Args: cmdtest.Args("-s", " "), Stdin: "a   b  c\n", Want: "a b c\n"},
		{Args: cmdtest.Args("-cd", "[:alnum:]\\n"), Stdin: "a-b_c!\n", Want: "abc\n"},
		{Args: cmdtest.Args("\\n", " "), Stdin: "a\nb\n", Want: "a b "},
		{Args: cmdtest.Args("-s", "a-z", "A-Z"), Stdin: "aabbcc\n", Want: "ABC\n"},
		{Args: cmdtest.Args("abc", "x"), Stdin: "abcd", Want: "xxxd"},
		{Args: cmdtest.Args("-t", "abc", "xy"), Stdin: "abcd", Want: "xycd"},
		{Args: cmdtest.Args("a-c", "[x*]"), Stdin: "abcd", Want: "xxxd"},
		{Args: cmdtest.Args(), Code: 1, Stderr: "tr: missing operand\nTry 'tr --help' for more information.\n"},
		{Args: cmdtest.Args("z-a", "x"), Code: 1, Stderr: "tr: range-endpoints of 'z-a' are in reverse collating sequence order\n"},
	})
}

func TestTextTrGNU(t *testing.T) {
	in := "Hello, World! 123\n\tTabs  and   spaces\n\\back\\slash\nxxyyzz aaaa\n\x01\x7f\xff end"
	var cases []cmdtest.GNUCase
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
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: in})
	}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args(), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("abc"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-d", "a", "b"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "b", "c"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("z-a", "x"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("abc", ""), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-ds", "a"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("[:foo:]", "x"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "[:digit:]"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("[a*]", "x"), Stderr: true},
	)
	cmdtest.GNUDiff(t, "tr", "tr", cases)
}
