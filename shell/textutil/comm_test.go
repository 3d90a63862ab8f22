package textutil

import (
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextComm(t *testing.T) {
	files := map[string]string{"a": "a\nb\nc\n", "b": "b\nc\nd\n"}
	cmdtest.RunCases(t, "comm", []cmdtest.Case{
		{Args: cmdtest.Args("a", "b"), Files: files, Want: "a\n\t\tb\n\t\tc\n\td\n"},
		{Args: cmdtest.Args("-12", "a", "b"), Files: files, Want: "b\nc\n"},
		{Args: cmdtest.Args("-3", "a", "b"), Files: files, Want: "a\n\td\n"},
		{Args: cmdtest.Args("-23", "a", "-"), Stdin: "c\n", Files: files, Want: "a\nb\n"},
		{Args: cmdtest.Args("a"), Files: files, Code: 1},
	})
}

func TestTextCommGNU(t *testing.T) {
	files := map[string]string{
		"a": "apple\nbanana\ncherry\nzebra\n", "b": "banana\ncarrot\ncherry\n", "e": "",
		"u1": "b\na\nc\n", "u2": "a\nb\nc\n", "nonl": "banana\ncherry", "dup": "a\na\nb\n", "dup2": "a\nb\nb\n",
	}
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{{}, {"-1"}, {"-2"}, {"-3"}, {"-12"}, {"-13"}, {"-23"}, {"-123"}, {"--output-delimiter=|"},
		{"--total"}, {"-3", "--total"}, {"--output-delimiter=::", "-2"}} {
		for _, pair := range [][2]string{{"a", "b"}, {"b", "a"}, {"a", "e"}, {"e", "b"}, {"a", "nonl"}, {"dup", "dup2"}} {
			cases = append(cases, cmdtest.GNUCase{Args: append(append([]string{}, a...), pair[0], pair[1]), Files: files})
		}
	}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("u1", "u2"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("u2", "u1"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("u1", "u1"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("--check-order", "u1", "u1"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("--nocheck-order", "u1", "u2"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "-"), Stdin: "banana\n", Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-z", "a", "b"), Files: map[string]string{"a": "x\x00y\x00", "b": "y\x00"}},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "missing"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a"), Files: files, Stderr: true},
	)
	cmdtest.GNUDiff(t, "comm", "comm", cases)
}
