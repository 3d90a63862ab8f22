package textutil

import (
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextExpr(t *testing.T) {
	cmdtest.RunCases(t, "expr", []cmdtest.Case{
		{Args: cmdtest.Args("1", "+", "2"), Want: "3\n"},
		{Args: cmdtest.Args("7", "/", "2"), Want: "3\n"},
		{Args: cmdtest.Args("2", "*", "3", "+", "1"), Want: "7\n"},
		{Args: cmdtest.Args("(", "1", "+", "2", ")", "*", "3"), Want: "9\n"},
		{Args: cmdtest.Args("length", "hello"), Want: "5\n"},
		{Args: cmdtest.Args("substr", "hello", "2", "3"), Want: "ell\n"},
		{Args: cmdtest.Args("index", "hello", "l"), Want: "3\n"},
		{Args: cmdtest.Args("hello", ":", "h\\(.*\\)o"), Want: "ell\n"},
		{Args: cmdtest.Args("abc", ":", "a.*"), Want: "3\n"},
		{Args: cmdtest.Args("0"), Want: "0\n", Code: 1},
		{Args: cmdtest.Args("1", "/", "0"), Code: 2, Stderr: "expr: division by zero\n"},
		{Args: cmdtest.Args("a", "+", "1"), Code: 2, Stderr: "expr: non-integer argument\n"},
		{Args: cmdtest.Args("1", "+"), Code: 2},
		{Args: cmdtest.Args("99999999999999999999", "+", "1"), Want: "100000000000000000000\n"},
	})
}

func TestTextExprGNU(t *testing.T) {
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"1", "+", "2"}, {"10", "-", "20"}, {"6", "*", "7"}, {"7", "/", "2"}, {"-7", "/", "2"}, {"7", "%", "3"}, {"-7", "%", "3"},
		{"1", "<", "2"}, {"10", "<", "9"}, {"a", "<", "b"}, {"10", "<", "9a"}, {"abc", "=", "abc"}, {"1", "==", "01"}, {"a", "!=", "a"},
		{"2", ">=", "2"}, {"3", ">", "20"}, {"0", "|", "5"}, {"", "|", "0"}, {"3", "&", "0"}, {"3", "&", "4"}, {"0", "&", "x"},
		{"length", "abcdef"}, {"length", ""}, {"substr", "hello", "2", "3"}, {"substr", "hello", "0", "2"}, {"substr", "hello", "4", "10"},
		{"substr", "hello", "9", "1"}, {"index", "hello", "ol"}, {"index", "hello", "z"}, {"match", "abc123", "[a-z]*"},
		{"abc123", ":", "[a-z]*\\([0-9]*\\)"}, {"abc", ":", "x"}, {"abc", ":", "\\(x\\)"}, {"a.c", ":", "a\\.c"}, {"aaa", ":", "a*"},
		{"*x", ":", "*x"}, {"ab", ":", "a\\{1,2\\}b"}, {"foo", ":", "fo\\+"}, {"x+y", ":", "x+y"}, {"(", "1", ")"}, {"+", "length"},
		{"0"}, {"00"}, {"-0"}, {""}, {"abc"}, {"1", "+", "2", "*", "3"}, {"(", "1", "+", "2", ")", "*", "3"}, {"2", "-", "1", "-", "1"},
		{"9223372036854775807", "+", "1"}, {"x", ":", "[[:alpha:]]"}, {"hello world", ":", ".*o"}, {"abc", ":", "^abc"},
		{"abc", ":", "b"}, {"a$", ":", "a$"}, {"--", "5"}, {"aab", ":", "a\\+"}, {"abc", ":", "\\(b*\\)"},
		{"a{2}", ":", "a{2}"}, {"aa", ":", "a\\{2\\}"}, {"ab|c", ":", "ab|c"}, {"ab", ":", "\\(a\\)\\(b\\)"},
		{"x", ":", "\\(\\(x\\)\\)"}, {"abc", ":", "a\\(x\\)*"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a})
	}
	for _, a := range [][]string{{}, {"1", "+"}, {"1", "/", "0"}, {"a", "+", "1"}, {"(", "1"}, {"1", "2"}, {")"}, {"1", "%", "0"}, {"abc", ":", "\\("}, {"abc", ":", "[a"}} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stderr: true})
	}
	cmdtest.GNUDiff(t, "expr", "expr", cases)
}
