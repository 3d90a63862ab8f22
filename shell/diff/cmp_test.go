package shell

import (
	"strings"
	"testing"
)

func TestTextCmp(t *testing.T) {
	files := map[string]string{"a": "abc\ndef\n", "b": "abc\ndxf\n", "c": "abc", "e": ""}
	runTextCases(t, "cmp", []textCase{
		{args: textArgs("a", "a"), files: files},
		{args: textArgs("a", "b"), files: files, want: "a b differ: byte 6, line 2\n", code: 1},
		{args: textArgs("-s", "a", "b"), files: files, code: 1},
		{args: textArgs("-l", "a", "b"), files: files, want: "6 145 170\n", code: 1},
		{args: textArgs("a", "c"), files: files, code: 1, stderr: "cmp: EOF on c after byte 3, in line 1\n"},
		{args: textArgs("e", "a"), files: files, code: 1, stderr: "cmp: EOF on e which is empty\n"},
		{args: textArgs("a", "nope"), files: files, code: 2, stderr: "cmp: nope: No such file or directory\n"},
		{args: textArgs("a", "-"), stdin: "abc\ndef\n", files: files},
	})
}

func TestTextCmpGNU(t *testing.T) {
	files := map[string]string{"a": "abc\ndef\nghi\n", "b": "abc\ndxf\nghj\n", "c": "abc", "e": "", "h": "\x01\x80\xff\n", "h2": "\x02\x81\xfe\n"}
	byteWord := func(s string) string { return strings.Replace(s, "differ: char ", "differ: byte ", 1) }
	var cases []textGNUCase
	for _, a := range [][]string{
		{"a", "a"}, {"a", "b"}, {"b", "a"}, {"-s", "a", "b"}, {"-l", "a", "b"}, {"-b", "a", "b"}, {"-lb", "a", "b"},
		{"a", "c"}, {"c", "a"}, {"e", "a"}, {"a", "e"}, {"-l", "a", "c"}, {"-s", "a", "c"}, {"-n", "5", "a", "b"},
		{"-n", "7", "a", "b"}, {"-i", "6", "a", "b"}, {"-i", "1:1", "a", "b"}, {"a", "b", "6", "6"}, {"-l", "h", "h2"},
		{"-lb", "h", "h2"}, {"-b", "h", "h2"}, {"e", "e"}, {"-l", "-n", "2", "a", "b"},
	} {
		cases = append(cases, textGNUCase{args: a, files: files, gnuFix: byteWord})
	}
	cases = append(cases,
		textGNUCase{args: textArgs("a", "c"), files: files, stderr: true},
		textGNUCase{args: textArgs("e", "a"), files: files, stderr: true},
		textGNUCase{args: textArgs("-l", "a", "c"), files: files, stderr: true},
		textGNUCase{args: textArgs("a", "missing"), files: files, stderr: true},
		textGNUCase{args: textArgs("a", "-"), stdin: "abc\ndef\nghi\n", files: files},
		textGNUCase{args: textArgs("a"), stdin: "abc\nd", files: files, gnuFix: byteWord},
		textGNUCase{args: textArgs(), files: files, stderr: true},
	)
	textGNUDiff(t, "cmp", "cmp", cases)
}
