package shell

import "testing"

func TestTextExpr(t *testing.T) {
	runTextCases(t, "expr", []textCase{
		{args: textArgs("1", "+", "2"), want: "3\n"},
		{args: textArgs("7", "/", "2"), want: "3\n"},
		{args: textArgs("2", "*", "3", "+", "1"), want: "7\n"},
		{args: textArgs("(", "1", "+", "2", ")", "*", "3"), want: "9\n"},
		{args: textArgs("length", "hello"), want: "5\n"},
		{args: textArgs("substr", "hello", "2", "3"), want: "ell\n"},
		{args: textArgs("index", "hello", "l"), want: "3\n"},
		{args: textArgs("hello", ":", "h\\(.*\\)o"), want: "ell\n"},
		{args: textArgs("abc", ":", "a.*"), want: "3\n"},
		{args: textArgs("0"), want: "0\n", code: 1},
		{args: textArgs("1", "/", "0"), code: 2, stderr: "expr: division by zero\n"},
		{args: textArgs("a", "+", "1"), code: 2, stderr: "expr: non-integer argument\n"},
		{args: textArgs("1", "+"), code: 2},
		{args: textArgs("99999999999999999999", "+", "1"), want: "100000000000000000000\n"},
	})
}

func TestTextExprGNU(t *testing.T) {
	var cases []textGNUCase
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
		{"abc", ":", "b"}, {"a$", ":", "a$"}, {"--", "5"},
	} {
		cases = append(cases, textGNUCase{args: a})
	}
	for _, a := range [][]string{{}, {"1", "+"}, {"1", "/", "0"}, {"a", "+", "1"}, {"(", "1"}, {"1", "2"}, {")"}, {"1", "%", "0"}} {
		cases = append(cases, textGNUCase{args: a, stderr: true})
	}
	textGNUDiff(t, "expr", "expr", cases)
}
