package shell

import (
	"strings"
	"testing"
)

func TestTextTail(t *testing.T) {
	ten := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	files := map[string]string{"a": "a1\na2\na3\n", "b": "b1\nb2", "big": strings.Repeat("0123456789\n", 20000)}
	runTextCases(t, "tail", []textCase{
		{args: textArgs(), stdin: ten, want: "3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"},
		{args: textArgs("-n", "2"), stdin: ten, want: "11\n12\n"},
		{args: textArgs("-n", "+11"), stdin: ten, want: "11\n12\n"},
		{args: textArgs("-2"), stdin: ten, want: "11\n12\n"},
		{args: textArgs("+12"), stdin: ten, want: "12\n"},
		{args: textArgs("-c", "3"), stdin: ten, want: "12\n"},
		{args: textArgs("-c", "+3"), stdin: "abcdef", want: "cdef"},
		{args: textArgs("-n1", "a", "b"), files: files, want: "==> a <==\na3\n\n==> b <==\nb2"},
		{args: textArgs("-n2", "big"), files: files, want: "0123456789\n0123456789\n"},
		{args: textArgs("-c4", "big"), files: files, want: "789\n"},
		{args: textArgs("-f", "a"), files: files, code: 1},
		{args: textArgs("a", "nope"), files: files, want: "==> a <==\na1\na2\na3\n", code: 1,
			stderr: "tail: cannot open 'nope' for reading: No such file or directory\n"},
	})
}

func TestTextTailGNU(t *testing.T) {
	files := map[string]string{"a": "a1\na2\na3\na4\n", "b": "b1\nb2", "e": "", "nl": "\n\n\n", "d/": "",
		"big": strings.Repeat("abcdefghij\n", 10000) + "end"}
	lines := strings.Repeat("line\n", 30) + "last"
	var cases []textGNUCase
	for _, a := range [][]string{
		{}, {"-n", "3"}, {"-n", "+3"}, {"-n", "0"}, {"-n", "+0"}, {"-c", "7"}, {"-c", "+7"}, {"-5"}, {"+5"},
		{"-c", "1k"}, {"-n", "-2"}, {"-n", "100"}, {"-2c"}, {"-n", "1"},
	} {
		cases = append(cases, textGNUCase{args: a, stdin: lines})
		cases = append(cases, textGNUCase{args: append(append([]string{}, a...), "a", "b", "e", "nl", "big"), files: files})
	}
	cases = append(cases,
		textGNUCase{args: textArgs("-q", "a", "b"), files: files},
		textGNUCase{args: textArgs("-v", "a"), files: files},
		textGNUCase{args: textArgs("a", "-", "b"), stdin: "in\n", files: files},
		textGNUCase{args: textArgs("a", "missing", "b"), files: files, stderr: true},
		textGNUCase{args: textArgs("a", "d", "b"), files: files, stderr: true},
		textGNUCase{args: textArgs("-z", "-n", "1"), stdin: "a\x00b\x00"},
		textGNUCase{args: textArgs("-n", "20001", "big"), files: files},
		textGNUCase{args: textArgs("-n", "10001", "big"), files: files},
	)
	textGNUDiff(t, "tail", "tail", cases)
}
