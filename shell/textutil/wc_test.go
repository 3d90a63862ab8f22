package textutil

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextWc(t *testing.T) {
	files := map[string]string{"a": "one two\nthree\n", "b": "x", "d/": ""}
	cmdtest.RunCases(t, "wc", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: "hello world\n", Want: "      1       2      12\n"},
		{Args: cmdtest.Args("-l"), Stdin: "a\nb\n", Want: "2\n"},
		{Args: cmdtest.Args("a"), Files: files, Want: " 2  3 14 a\n"},
		{Args: cmdtest.Args("a", "b"), Files: files, Want: " 2  3 14 a\n 0  1  1 b\n 2  4 15 total\n"},
		{Args: cmdtest.Args("-l", "a", "b"), Files: files, Want: " 2 a\n 0 b\n 2 total\n"},
		{Args: cmdtest.Args("-m"), Stdin: "h\u00e9\n", Want: "3\n"},
		{Args: cmdtest.Args("-w"), Stdin: "\u4f60\u597d world\n", Want: "2\n"},
		{Args: cmdtest.Args("-L"), Stdin: "ab\tc\nx\n", Want: "9\n"},
		{Args: cmdtest.Args("a", "nope"), Files: files, Want: " 2  3 14 a\n 2  3 14 total\n", Code: 1,
			Stderr: "wc: nope: No such file or directory\n"},
		{Args: cmdtest.Args("d"), Files: files, Want: "      0       0       0 d\n", Code: 1, Stderr: "wc: d: Is a directory\n"},
	})
}

func TestTextWcGNU(t *testing.T) {
	files := map[string]string{
		"a": "one two\nthree\n", "b": "x", "e": "", "ctl": "\x01 a\x02b \x80\n\x7f\v\f\rq\n",
		"big": strings.Repeat("lorem ipsum dolor\tsit amet\n", 5000), "d/": "",
	}
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{{}, {"-l"}, {"-w"}, {"-c"}, {"-m"}, {"-L"}, {"-lw"}, {"-cl"}, {"-wmL"}, {"-lwmcL"}} {
		cases = append(cases,
			cmdtest.GNUCase{Args: a, Stdin: "hello world\nfoo  bar baz\n"},
			cmdtest.GNUCase{Args: append(append([]string{}, a...), "a"), Files: files},
			cmdtest.GNUCase{Args: append(append([]string{}, a...), "a", "b", "e", "ctl"), Files: files},
			cmdtest.GNUCase{Args: append(append([]string{}, a...), "big", "a"), Files: files},
			cmdtest.GNUCase{Args: append(append([]string{}, a...), "a", "-"), Stdin: "in put\n", Files: files},
		)
	}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("a", "missing", "b"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("missing", "a"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("d"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "d"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("ctl"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-"), Stdin: "x y\n"},
		cmdtest.GNUCase{Args: cmdtest.Args("-x"), Stderr: true},
		// An empty operand is an error and no file (nor the folder).
		cmdtest.GNUCase{Args: cmdtest.Args(""), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("", "a"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", ""), Files: files, Stderr: true},
	)
	cmdtest.GNUDiff(t, "wc", "wc", cases)
}

// TestWcLinesOnly: wc -l's count (newlines only) gives the lines and
// bytes of the full count, over chunks and any bytes.
func TestWcLinesOnly(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "\n\n\nb", strings.Repeat("x y\n\xff\xfe é\t\n", 20000), "no newline at all"} {
		full, err := wcCount(context.Background(), iotest.HalfReader(strings.NewReader(s)), false)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := wcCount(context.Background(), iotest.HalfReader(strings.NewReader(s)), true)
		if err != nil || lines.lines != full.lines || lines.bytes != full.bytes {
			t.Errorf("%d bytes: -l %d lines %d bytes (%v), full count %d, %d", len(s), lines.lines, lines.bytes, err, full.lines, full.bytes)
		}
	}
	errRead := errors.New("read failed")
	if _, err := wcCount(context.Background(), iotest.ErrReader(errRead), true); err != errRead {
		t.Errorf("a read error: %v", err)
	}
}
