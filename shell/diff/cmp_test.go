package diff

import (
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextCmp(t *testing.T) {
	files := map[string]string{"a": "abc\ndef\n", "b": "abc\ndxf\n", "c": "abc", "e": ""}
	cmdtest.RunCases(t, "cmp", []cmdtest.Case{
		{Args: cmdtest.Args("a", "a"), Files: files},
		{Args: cmdtest.Args("a", "b"), Files: files, Want: "a b differ: byte 6, line 2\n", Code: 1},
		{Args: cmdtest.Args("-s", "a", "b"), Files: files, Code: 1},
		{Args: cmdtest.Args("-l", "a", "b"), Files: files, Want: "6 145 170\n", Code: 1},
		{Args: cmdtest.Args("a", "c"), Files: files, Code: 1, Stderr: "cmp: EOF on c after byte 3, in line 1\n"},
		{Args: cmdtest.Args("e", "a"), Files: files, Code: 1, Stderr: "cmp: EOF on e which is empty\n"},
		{Args: cmdtest.Args("a", "nope"), Files: files, Code: 2, Stderr: "cmp: nope: No such file or directory\n"},
		{Args: cmdtest.Args("a", "-"), Stdin: "abc\ndef\n", Files: files},
	})
}

func TestTextCmpGNU(t *testing.T) {
	files := map[string]string{"a": "abc\ndef\nghi\n", "b": "abc\ndxf\nghj\n", "c": "abc", "e": "", "h": "\x01\x80\xff\n", "h2": "\x02\x81\xfe\n"}
	byteWord := func(s string) string { return strings.Replace(s, "differ: char ", "differ: byte ", 1) }
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"a", "a"}, {"a", "b"}, {"b", "a"}, {"-s", "a", "b"}, {"-l", "a", "b"}, {"-b", "a", "b"}, {"-lb", "a", "b"},
		{"a", "c"}, {"c", "a"}, {"e", "a"}, {"a", "e"}, {"-l", "a", "c"}, {"-s", "a", "c"}, {"-n", "5", "a", "b"},
		{"-n", "7", "a", "b"}, {"-i", "6", "a", "b"}, {"-i", "1:1", "a", "b"}, {"a", "b", "6", "6"}, {"-l", "h", "h2"},
		{"-lb", "h", "h2"}, {"-b", "h", "h2"}, {"e", "e"}, {"-l", "-n", "2", "a", "b"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Files: files, GNUFix: byteWord})
	}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("a", "c"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("e", "a"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-l", "a", "c"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "missing"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "-"), Stdin: "abc\ndef\nghi\n", Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("a"), Stdin: "abc\nd", Files: files, GNUFix: byteWord},
		cmdtest.GNUCase{Args: cmdtest.Args(), Files: files, Stderr: true},
	)
	cmdtest.GNUDiff(t, "cmp", "cmp", cases)
}
