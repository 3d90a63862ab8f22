package shell

import "testing"

func TestTextComm(t *testing.T) {
	files := map[string]string{"a": "a\nb\nc\n", "b": "b\nc\nd\n"}
	runTextCases(t, "comm", []textCase{
		{args: textArgs("a", "b"), files: files, want: "a\n\t\tb\n\t\tc\n\td\n"},
		{args: textArgs("-12", "a", "b"), files: files, want: "b\nc\n"},
		{args: textArgs("-3", "a", "b"), files: files, want: "a\n\td\n"},
		{args: textArgs("-23", "a", "-"), stdin: "c\n", files: files, want: "a\nb\n"},
		{args: textArgs("a"), files: files, code: 1},
	})
}

func TestTextCommGNU(t *testing.T) {
	files := map[string]string{
		"a": "apple\nbanana\ncherry\nzebra\n", "b": "banana\ncarrot\ncherry\n", "e": "",
		"u1": "b\na\nc\n", "u2": "a\nb\nc\n", "nonl": "banana\ncherry", "dup": "a\na\nb\n", "dup2": "a\nb\nb\n",
	}
	var cases []textGNUCase
	for _, a := range [][]string{{}, {"-1"}, {"-2"}, {"-3"}, {"-12"}, {"-13"}, {"-23"}, {"-123"}, {"--output-delimiter=|"},
		{"--total"}, {"-3", "--total"}, {"--output-delimiter=::", "-2"}} {
		for _, pair := range [][2]string{{"a", "b"}, {"b", "a"}, {"a", "e"}, {"e", "b"}, {"a", "nonl"}, {"dup", "dup2"}} {
			cases = append(cases, textGNUCase{args: append(append([]string{}, a...), pair[0], pair[1]), files: files})
		}
	}
	cases = append(cases,
		textGNUCase{args: textArgs("u1", "u2"), files: files, stderr: true},
		textGNUCase{args: textArgs("u2", "u1"), files: files, stderr: true},
		textGNUCase{args: textArgs("u1", "u1"), files: files, stderr: true},
		textGNUCase{args: textArgs("--check-order", "u1", "u1"), files: files, stderr: true},
		textGNUCase{args: textArgs("--nocheck-order", "u1", "u2"), files: files, stderr: true},
		textGNUCase{args: textArgs("a", "-"), stdin: "banana\n", files: files},
		textGNUCase{args: textArgs("-z", "a", "b"), files: map[string]string{"a": "x\x00y\x00", "b": "y\x00"}},
		textGNUCase{args: textArgs("a", "missing"), files: files, stderr: true},
		textGNUCase{args: textArgs("a"), files: files, stderr: true},
	)
	textGNUDiff(t, "comm", "comm", cases)
}
