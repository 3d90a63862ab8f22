package shell

import (
	"strings"
	"testing"
)

func TestTextNlRevTac(t *testing.T) {
	runTextCases(t, "nl", []textCase{
		{args: textArgs(), stdin: "a\n\nb\n", want: "     1\ta\n       \n     2\tb\n"},
		{args: textArgs("-ba"), stdin: "a\n\nb", want: "     1\ta\n     2\t\n     3\tb\n"},
		{args: textArgs("-w", "2", "-s", ": ", "-n", "rz"), stdin: "a\n", want: "01: a\n"},
	})
	runTextCases(t, "rev", []textCase{
		{args: textArgs(), stdin: "abc\nh\u00e9\nx", want: "cba\n\u00e9h\nx"},
	})
	runTextCases(t, "tac", []textCase{
		{args: textArgs(), stdin: "1\n2\n3\n", want: "3\n2\n1\n"},
		{args: textArgs(), stdin: "a\nb", want: "ba\n"},
		{args: textArgs("-s", ","), stdin: "a,b,c", want: "cb,a,"},
	})
}

func TestTextLinesGNU(t *testing.T) {
	in := "one\n\ntwo three\n\tfour\nlast"
	var nl, tac []textGNUCase
	for _, a := range [][]string{{}, {"-ba"}, {"-bn"}, {"-bt"}, {"-bpt"}, {"-nln"}, {"-nrz"}, {"-nrn"}, {"-w3"}, {"-s", "|"},
		{"-v", "10"}, {"-i", "5"}, {"-ba", "-l", "2"}, {"-v", "-3", "-nrz", "-w4"}} {
		nl = append(nl, textGNUCase{args: a, stdin: in + "\n\n\n"})
	}
	nl = append(nl, textGNUCase{args: textArgs("a", "b"), files: map[string]string{"a": "x\n", "b": "y\n"}})
	for _, a := range [][]string{{}, {"-s", "o"}, {"-b"}, {"-b", "-s", "o"}, {"-s", "ee"}, {"-s", "\n\n"}} {
		for _, s := range []string{in, in + "\n", "", "\n", "x", "oo", "a\n\nb\n\n"} {
			tac = append(tac, textGNUCase{args: a, stdin: s})
		}
	}
	tac = append(tac, textGNUCase{args: textArgs("a", "b"), files: map[string]string{"a": "1\n2\n", "b": "3\n4"}})
	textGNUDiff(t, "nl", "nl", nl)
	textGNUDiff(t, "tac", "tac", tac)
	textGNUDiff(t, "rev", "rev", []textGNUCase{{stdin: in}, {stdin: ""}, {args: textArgs("a"), files: map[string]string{"a": "ab\ncd\n"}}})
}

func TestTextFoldExpandGNU(t *testing.T) {
	text := "The quick brown fox jumps over the lazy dog and keeps running far away\n" +
		"tab\tseparated\tvalues\there\n" + strings.Repeat("x", 100) + "\nshort\n\b\bback\rcr\n" + "a b c d e f g h i j k l m n o p"
	var fold []textGNUCase
	for _, a := range [][]string{{}, {"-w", "10"}, {"-w10", "-s"}, {"-sw", "7"}, {"-b", "-w", "5"}, {"-bs", "-w", "12"}, {"-w", "1"}, {"-20"}} {
		fold = append(fold, textGNUCase{args: a, stdin: text})
	}
	textGNUDiff(t, "fold", "fold", fold)
	tabbed := "a\tb\tc\n\tlead\n  \t mixed\tx\n12345678\tnext\nno tabs\n\b\tbs\n"
	var exp []textGNUCase
	for _, a := range [][]string{{}, {"-t", "4"}, {"-t4"}, {"-4"}, {"-i"}, {"-t", "2,5,9"}, {"-t", "1"}} {
		exp = append(exp, textGNUCase{args: a, stdin: tabbed})
	}
	textGNUDiff(t, "expand", "expand", exp)
	spaced := "        a       b\n    x\n         y\na       b\n                two\n   \t z\nab      c\n"
	var unexp []textGNUCase
	for _, a := range [][]string{{}, {"-a"}, {"-t", "4"}, {"--first-only"}, {"-t", "2,6"}} {
		unexp = append(unexp, textGNUCase{args: a, stdin: spaced})
	}
	textGNUDiff(t, "unexpand", "unexpand", unexp)
}

func TestTextPasteColumnGNU(t *testing.T) {
	files := map[string]string{"a": "1\n2\n3\n", "b": "x\ny\n", "e": "", "n": "p\nq"}
	var paste []textGNUCase
	for _, a := range [][]string{{"a", "b"}, {"a", "b", "n"}, {"-d,", "a", "b"}, {"-d", ",;", "a", "b", "a"}, {"-s", "a", "b"},
		{"-s", "-d,", "a", "e", "n"}, {"-d", "\\t\\n", "a", "a", "a"}, {"-d", "\\0", "a", "b"}, {"e", "a"}, {"-s", "e"},
		{"-", "-"}, {"-s", "-"}, {"-d", ":", "-", "a"}, {"-z", "a"}} {
		paste = append(paste, textGNUCase{args: a, stdin: "s1\ns2\ns3\n", files: files})
	}
	paste = append(paste, textGNUCase{args: textArgs("a", "missing"), files: files, stderr: true})
	textGNUDiff(t, "paste", "paste", paste)
	tbl := "name age city\nalice 30 paris\nbob 4 rome\n\n  carol   100   new-york\n"
	var col []textGNUCase
	for _, a := range [][]string{{"-t"}, {"-t", "-o", "|"}, {"-t", "-s", ":"}, {"-t", "-s", ": "}} {
		col = append(col, textGNUCase{args: a, stdin: tbl}, textGNUCase{args: a, stdin: "a::b\nccc:d\n:x\n"})
	}
	words := strings.Repeat("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu\n", 3)
	words = strings.ReplaceAll(words, " ", "\n")
	for _, a := range [][]string{{}, {"-c", "40"}, {"-x"}, {"-x", "-c", "30"}, {"-c", "5"}} {
		col = append(col, textGNUCase{args: a, stdin: words})
	}
	textGNUDiff(t, "column", "column", col)
}
