package textutil

import (
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextNlRevTac(t *testing.T) {
	cmdtest.RunCases(t, "nl", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: "a\n\nb\n", Want: "     1\ta\n       \n     2\tb\n"},
		{Args: cmdtest.Args("-ba"), Stdin: "a\n\nb", Want: "     1\ta\n     2\t\n     3\tb\n"},
		{Args: cmdtest.Args("-w", "2", "-s", ": ", "-n", "rz"), Stdin: "a\n", Want: "01: a\n"},
	})
	cmdtest.RunCases(t, "rev", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: "abc\nh\u00e9\nx", Want: "cba\n\u00e9h\nx"},
	})
	cmdtest.RunCases(t, "tac", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: "1\n2\n3\n", Want: "3\n2\n1\n"},
		{Args: cmdtest.Args(), Stdin: "a\nb", Want: "ba\n"},
		{Args: cmdtest.Args("-s", ","), Stdin: "a,b,c", Want: "cb,a,"},
	})
}

func TestTextLinesGNU(t *testing.T) {
	in := "one\n\ntwo three\n\tfour\nlast"
	var nl, tac []cmdtest.GNUCase
	for _, a := range [][]string{{}, {"-ba"}, {"-bn"}, {"-bt"}, {"-bpt"}, {"-nln"}, {"-nrz"}, {"-nrn"}, {"-w3"}, {"-s", "|"},
		{"-v", "10"}, {"-i", "5"}, {"-ba", "-l", "2"}, {"-v", "-3", "-nrz", "-w4"}} {
		nl = append(nl, cmdtest.GNUCase{Args: a, Stdin: in + "\n\n\n"})
	}
	nl = append(nl, cmdtest.GNUCase{Args: cmdtest.Args("a", "b"), Files: map[string]string{"a": "x\n", "b": "y\n"}})
	// -bp takes a POSIX basic regular expression: '+' is a literal, \+ and
	// \{1,\} repeat, a bad one is an error.
	re := "ab\na+\naab\nb\n(x)\nx|y\n"
	for _, p := range []string{"a+", `a\+`, "^a", "b$", `a\{2\}`, `\(x\)`, "(x)", `x\|y`, "x|y", "[[:upper:]]", `\(`, "[a"} {
		nl = append(nl, cmdtest.GNUCase{Args: cmdtest.Args("-bp" + p), Stdin: re, Stderr: true})
	}
	for _, a := range [][]string{{}, {"-s", "o"}, {"-b"}, {"-b", "-s", "o"}, {"-s", "ee"}, {"-s", "\n\n"}} {
		for _, s := range []string{in, in + "\n", "", "\n", "x", "oo", "a\n\nb\n\n"} {
			tac = append(tac, cmdtest.GNUCase{Args: a, Stdin: s})
		}
	}
	tac = append(tac, cmdtest.GNUCase{Args: cmdtest.Args("a", "b"), Files: map[string]string{"a": "1\n2\n", "b": "3\n4"}})
	cmdtest.GNUDiff(t, "nl", "nl", nl)
	cmdtest.GNUDiff(t, "tac", "tac", tac)
	cmdtest.GNUDiff(t, "rev", "rev", []cmdtest.GNUCase{{Stdin: in}, {Stdin: ""}, {Args: cmdtest.Args("a"), Files: map[string]string{"a": "ab\ncd\n"}}})
}

func TestTextFoldExpandGNU(t *testing.T) {
	text := "The quick brown fox jumps over the lazy dog and keeps running far away\n" +
		"tab\tseparated\tvalues\there\n" + strings.Repeat("x", 100) + "\nshort\n\b\bback\rcr\n" + "a b c d e f g h i j k l m n o p"
	var fold []cmdtest.GNUCase
	for _, a := range [][]string{{}, {"-w", "10"}, {"-w10", "-s"}, {"-sw", "7"}, {"-b", "-w", "5"}, {"-bs", "-w", "12"}, {"-w", "1"}, {"-20"}} {
		fold = append(fold, cmdtest.GNUCase{Args: a, Stdin: text})
	}
	cmdtest.GNUDiff(t, "fold", "fold", fold)
	tabbed := "a\tb\tc\n\tlead\n  \t mixed\tx\n12345678\tnext\nno tabs\n\b\tbs\n"
	var exp []cmdtest.GNUCase
	for _, a := range [][]string{{}, {"-t", "4"}, {"-t4"}, {"-4"}, {"-i"}, {"-t", "2,5,9"}, {"-t", "1"}} {
		exp = append(exp, cmdtest.GNUCase{Args: a, Stdin: tabbed})
	}
	cmdtest.GNUDiff(t, "expand", "expand", exp)
	spaced := "        a       b\n    x\n         y\na       b\n                two\n   \t z\nab      c\n"
	var unexp []cmdtest.GNUCase
	for _, a := range [][]string{{}, {"-a"}, {"-t", "4"}, {"--first-only"}, {"-t", "2,6"}} {
		unexp = append(unexp, cmdtest.GNUCase{Args: a, Stdin: spaced})
	}
	cmdtest.GNUDiff(t, "unexpand", "unexpand", unexp)
}

func TestTextPasteColumnGNU(t *testing.T) {
	files := map[string]string{"a": "1\n2\n3\n", "b": "x\ny\n", "e": "", "n": "p\nq"}
	var paste []cmdtest.GNUCase
	for _, a := range [][]string{{"a", "b"}, {"a", "b", "n"}, {"-d,", "a", "b"}, {"-d", ",;", "a", "b", "a"}, {"-s", "a", "b"},
		{"-s", "-d,", "a", "e", "n"}, {"-d", "\\t\\n", "a", "a", "a"}, {"-d", "\\0", "a", "b"}, {"e", "a"}, {"-s", "e"},
		{"-", "-"}, {"-s", "-"}, {"-d", ":", "-", "a"}, {"-z", "a"}} {
		paste = append(paste, cmdtest.GNUCase{Args: a, Stdin: "s1\ns2\ns3\n", Files: files})
	}
	paste = append(paste, cmdtest.GNUCase{Args: cmdtest.Args("a", "missing"), Files: files, Stderr: true})
	cmdtest.GNUDiff(t, "paste", "paste", paste)
	tbl := "name age city\nalice 30 paris\nbob 4 rome\n\n  carol   100   new-york\n"
	var col []cmdtest.GNUCase
	for _, a := range [][]string{{"-t"}, {"-t", "-o", "|"}, {"-t", "-s", ":"}, {"-t", "-s", ": "}} {
		col = append(col, cmdtest.GNUCase{Args: a, Stdin: tbl}, cmdtest.GNUCase{Args: a, Stdin: "a::b\nccc:d\n:x\n"})
	}
	words := strings.Repeat("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu\n", 3)
	words = strings.ReplaceAll(words, " ", "\n")
	for _, a := range [][]string{{}, {"-c", "40"}, {"-x"}, {"-x", "-c", "30"}, {"-c", "5"}} {
		col = append(col, cmdtest.GNUCase{Args: a, Stdin: words})
	}
	cmdtest.GNUDiff(t, "column", "column", col)
}
