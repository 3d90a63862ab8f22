package textutil

import (
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextCut(t *testing.T) {
	cmdtest.RunCases(t, "cut", []cmdtest.Case{
		{Args: cmdtest.Args("-d:", "-f1"), Stdin: "a:b:c\nd:e\n", Want: "a\nd\n"},
		{Args: cmdtest.Args("-d", ":", "-f", "2-"), Stdin: "a:b:c\n", Want: "b:c\n"},
		{Args: cmdtest.Args("-d:", "-f1,3", "--output-delimiter= "), Stdin: "a:b:c\n", Want: "a c\n"},
		{Args: cmdtest.Args("-c", "2-3"), Stdin: "abcd\n", Want: "bc\n"},
		{Args: cmdtest.Args("-b", "-2"), Stdin: "abcd\n", Want: "ab\n"},
		{Args: cmdtest.Args("-d:", "-s", "-f1"), Stdin: "a:b\nnone\n", Want: "a\n"},
		{Args: cmdtest.Args("-d:", "--complement", "-f2"), Stdin: "a:b:c\n", Want: "a:c\n"},
		{Args: cmdtest.Args("-f1"), Stdin: "a\tb\n", Want: "a\n"},
		{Args: cmdtest.Args(), Code: 1, Stderr: "cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n"},
		{Args: cmdtest.Args("-f0"), Code: 1},
		{Args: cmdtest.Args("-f", "3-1"), Code: 1},
		{Args: cmdtest.Args("-f1", "nope"), Code: 1, Stderr: "cut: nope: No such file or directory\n"},
	})
}

func TestTextCutGNU(t *testing.T) {
	in := "a:b:c:d\nno delim\n:lead\ntrail:\n::\n\none:two\nlast:x"
	tabs := "a\tb\tc\nd\te\n"
	bytesIn := "abcdefghij\nxy\n\nhello world"
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"-d:", "-f1"}, {"-d:", "-f2"}, {"-d:", "-f1,3"}, {"-d:", "-f2-"}, {"-d:", "-f-2"}, {"-d:", "-f1-2,4"}, {"-d:", "-f3,1"},
		{"-d:", "-s", "-f1"}, {"-d:", "-f2", "--complement"}, {"-d:", "-f1,3", "--output-delimiter=::"}, {"-d:", "-f5"},
		{"-d:", "-f1-"}, {"-d", ":", "-f", "1,2,3,4,5"}, {"-d:", "-f2,2,2"}, {"-d:", "-sf2", "--complement"},
		{"-d:", "-f", "1 3"}, {"-d:", "-f1-2,2-3"}, {"-d:", "--output-delimiter=", "-f1,2"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: in})
	}
	for _, a := range [][]string{{"-f1"}, {"-f2-"}, {"-f", "2", "-s"}, {"-f1,3", "--output-delimiter=,"}} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: tabs})
	}
	for _, a := range [][]string{
		{"-b1"}, {"-b1-3"}, {"-c2-"}, {"-c-2"}, {"-b1,3,5"}, {"-b1-2,5-6", "--output-delimiter=|"}, {"-b1,2", "--output-delimiter=|"},
		{"-b3", "--complement"}, {"-c1-3,2-5"}, {"-b", "20"}, {"-c", "1-3", "-n"}, {"-b5-", "--complement", "--output-delimiter=X"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: bytesIn})
	}
	files := map[string]string{"a": "1:2\n", "b": "3:4"}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("-d:", "-f2", "a", "b"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-d:", "-f2", "a", "missing", "b"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-z", "-d:", "-f2"), Stdin: "a:b\x00c:d"},
		cmdtest.GNUCase{Args: cmdtest.Args(), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-f0"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-f", "3-1"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-f", "-"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-f", "x"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-b", "1", "-f", "2"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-d", "ab", "-f", "2"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-b", "1", "-d", ":"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-b", "1", "-s"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-c", "0"), Stderr: true},
	)
	cmdtest.GNUDiff(t, "cut", "cut", cases)
}
