package textutil

import (
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextTail(t *testing.T) {
	ten := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	files := map[string]string{"a": "a1\na2\na3\n", "b": "b1\nb2", "big": strings.Repeat("0123456789\n", 20000)}
	cmdtest.RunCases(t, "tail", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: ten, Want: "3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"},
		{Args: cmdtest.Args("-n", "2"), Stdin: ten, Want: "11\n12\n"},
		{Args: cmdtest.Args("-n", "+11"), Stdin: ten, Want: "11\n12\n"},
		{Args: cmdtest.Args("-2"), Stdin: ten, Want: "11\n12\n"},
		{Args: cmdtest.Args("+12"), Stdin: ten, Want: "12\n"},
		{Args: cmdtest.Args("-c", "3"), Stdin: ten, Want: "12\n"},
		{Args: cmdtest.Args("-c", "+3"), Stdin: "abcdef", Want: "cdef"},
		{Args: cmdtest.Args("-n1", "a", "b"), Files: files, Want: "==> a <==\na3\n\n==> b <==\nb2"},
		{Args: cmdtest.Args("-n2", "big"), Files: files, Want: "0123456789\n0123456789\n"},
		{Args: cmdtest.Args("-c4", "big"), Files: files, Want: "789\n"},
		{Args: cmdtest.Args("-f", "a"), Files: files, Code: 1},
		{Args: cmdtest.Args("a", "nope"), Files: files, Want: "==> a <==\na1\na2\na3\n", Code: 1,
			Stderr: "tail: cannot open 'nope' for reading: No such file or directory\n"},
	})
}

func TestTextTailGNU(t *testing.T) {
	files := map[string]string{"a": "a1\na2\na3\na4\n", "b": "b1\nb2", "e": "", "nl": "\n\n\n", "d/": "",
		"big": strings.Repeat("abcdefghij\n", 10000) + "end"}
	lines := strings.Repeat("line\n", 30) + "last"
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{}, {"-n", "3"}, {"-n", "+3"}, {"-n", "0"}, {"-n", "+0"}, {"-c", "7"}, {"-c", "+7"}, {"-5"}, {"+5"},
		{"-c", "1k"}, {"-n", "-2"}, {"-n", "100"}, {"-2c"}, {"-n", "1"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: lines})
		cases = append(cases, cmdtest.GNUCase{Args: append(append([]string{}, a...), "a", "b", "e", "nl", "big"), Files: files})
	}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("-q", "a", "b"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-v", "a"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "-", "b"), Stdin: "in\n", Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "missing", "b"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "d", "b"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-z", "-n", "1"), Stdin: "a\x00b\x00"},
		cmdtest.GNUCase{Args: cmdtest.Args("-n", "20001", "big"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-n", "10001", "big"), Files: files},
	)
	cmdtest.GNUDiff(t, "tail", "tail", cases)
}
