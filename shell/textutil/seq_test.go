package textutil

import (
	"bufio"
	"bytes"
	"context"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextSeq(t *testing.T) {
	cmdtest.RunCases(t, "seq", []cmdtest.Case{
		{Args: cmdtest.Args("3"), Want: "1\n2\n3\n"},
		{Args: cmdtest.Args("2", "4"), Want: "2\n3\n4\n"},
		{Args: cmdtest.Args("1", "2", "6"), Want: "1\n3\n5\n"},
		{Args: cmdtest.Args("-1", "1"), Want: "-1\n0\n1\n"},
		{Args: cmdtest.Args("3", "-1", "1"), Want: "3\n2\n1\n"},
		{Args: cmdtest.Args("-s", ",", "3"), Want: "1,2,3\n"},
		{Args: cmdtest.Args("-w", "8", "10"), Want: "08\n09\n10\n"},
		{Args: cmdtest.Args("1", "0.5", "2"), Want: "1.0\n1.5\n2.0\n"},
		{Args: cmdtest.Args("-f", "%.2f", "2"), Want: "1.00\n2.00\n"},
		{Args: cmdtest.Args("5", "1")},
		{Args: cmdtest.Args(), Code: 1},
		{Args: cmdtest.Args("x"), Code: 1, Stderr: "seq: invalid floating point argument: 'x'\nTry 'seq --help' for more information.\n"},
		{Args: cmdtest.Args("1", "0", "2"), Code: 1},
	})
}

func TestTextSeqGNU(t *testing.T) {
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{"5"}, {"0"}, {"-3"}, {"2", "5"}, {"5", "2"}, {"1", "3", "10"}, {"10", "-3", "1"}, {"-5", "-1"}, {"-1", "1"},
		{"1", "0.5", "3"}, {"0.1", "0.1", "1"}, {"0", "0.000001", "0.000003"}, {"1.5", "4"}, {"1", "1.25", "5"},
		{"-w", "1", "10"}, {"-w", "-5", "5"}, {"-w", "-10", "2", "1"}, {"-w", "-100", "7", "3"}, {"-w", "1", "0.5", "3"}, {"-w", "0.5", "10"}, {"-w", "001", "3"}, {"-w", "-1", "0.5", "1"},
		{"-s", ",", "5"}, {"-s", "", "3"}, {"-s", ", ", "1", "3"}, {"--separator=:", "3"},
		{"-f", "%.3f", "3"}, {"-f", "%g", "1", "0.5", "3"}, {"-f", "%e", "3"}, {"-f", "%05.1f", "1", "3"}, {"-f", "x%gy", "2"},
		{"-f", "%-6gX", "2"}, {"-f", "%+g", "-1", "1"}, {"-f", "%%%g", "2"}, {"-f", "%G", "1e10", "1e10"}, {"-f", "%#g", "2"},
		{"1e2", "1e2"}, {"1e-2", "1e-2", "3e-2"}, {"100000", "100002"}, {"999999", "1000001"}, {"-w", "98", "101"},
		{"1", "1e6", "3e6"}, {"-f", "%.0f", "0.5", "2.5"}, {"+3"}, {"2", "+1", "3"}, {"-w", "0.1", "0.1", "0.3"},
		{"--", "-2", "0"}, {"-ws", ",", "9", "11"}, {"1.0", "3"}, {"1.", "3"}, {".5", "2"}, {"-w", ".5", "2"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a})
	}
	for _, a := range [][]string{
		{}, {"x"}, {"1", "x"}, {"1", "0", "2"}, {"1", "2", "3", "4"}, {"nan"}, {"-f", "%d", "3"}, {"-f", "abc", "3"},
		{"-f", "%g%g", "3"}, {"-w", "-f", "%g", "3"}, {"-q"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stderr: true})
	}
	cmdtest.GNUDiff(t, "seq", "seq", cases)
}

// TestSeqFast: counting in decimal digits prints what formatting each
// number prints: across carries, past a chunk, up to the largest int64,
// with any separator, nothing for an empty range.
func TestSeqFast(t *testing.T) {
	for _, c := range []struct {
		first, last int64
		sep         string
	}{
		{1, 10000, "\n"}, {0, 0, "\n"}, {5, 3, "\n"}, {8, 12, ","}, {99, 101, ""},
		{999999, 1000001, ", "}, {math.MaxInt64 - 3, math.MaxInt64, "\n"},
	} {
		var want strings.Builder
		for n := c.first; n <= c.last; n++ {
			if n > c.first {
				want.WriteString(c.sep)
			}
			want.WriteString(strconv.FormatInt(n, 10))
			if n == c.last {
				want.WriteString("\n")
				break // n++ would overflow at MaxInt64
			}
		}
		var got bytes.Buffer
		out := cmdutil.Out{Writer: bufio.NewWriter(&got)}
		if err := seqFast(context.Background(), out, c.first, c.last, c.sep); err != nil {
			t.Fatal(err)
		}
		out.Flush()
		if got.String() != want.String() {
			t.Errorf("%d..%d sep %q: %d bytes differ from the formatted %d", c.first, c.last, c.sep, got.Len(), want.Len())
		}
	}
}
