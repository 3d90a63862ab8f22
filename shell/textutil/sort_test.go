package textutil

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextSort(t *testing.T) {
	files := map[string]string{"a": "b\na\n", "b": "d\nc"}
	cmdtest.RunCases(t, "sort", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: "b\na\nc\n", Want: "a\nb\nc\n"},
		{Args: cmdtest.Args("-r"), Stdin: "b\na\nc", Want: "c\nb\na\n"},
		{Args: cmdtest.Args("-n"), Stdin: "10\n9\n-1\n", Want: "-1\n9\n10\n"},
		{Args: cmdtest.Args("-u"), Stdin: "a\nb\na\n", Want: "a\nb\n"},
		{Args: cmdtest.Args("-t", ",", "-k2,2n"), Stdin: "x,10\ny,2\n", Want: "y,2\nx,10\n"},
		{Args: cmdtest.Args("-k2"), Stdin: "a b\nc a\n", Want: "c a\na b\n"},
		{Args: cmdtest.Args("-h"), Stdin: "1G\n10K\n5M\n", Want: "10K\n5M\n1G\n"},
		{Args: cmdtest.Args("-V"), Stdin: "v1.10\nv1.9\nv1.2\n", Want: "v1.2\nv1.9\nv1.10\n"},
		{Args: cmdtest.Args("a", "b"), Files: files, Want: "a\nb\nc\nd\n"},
		{Args: cmdtest.Args("-o", "out", "a"), Files: files, Want: ""},
		{Args: cmdtest.Args("-c"), Stdin: "a\nc\nb\n", Code: 1, Stderr: "sort: -:3: disorder: b\n"},
		{Args: cmdtest.Args("-C"), Stdin: "a\nb\n"},
		{Args: cmdtest.Args("nope"), Code: 2, Stderr: "sort: cannot read: nope: No such file or directory\n"},
		{Args: cmdtest.Args("-k0"), Code: 2, Stderr: "sort: field number is zero: invalid field specification '0'\n"},
		{Args: cmdtest.Args("-t", "ab"), Code: 2, Stderr: "sort: multi-character tab 'ab'\n"},
	})
}

func TestTextSortOutputFile(t *testing.T) {
	c, _, _ := cmdtest.NewCall(t, "", map[string]string{"a": "b\na\n"})
	if err := textSort(t.Context(), c, cmdtest.Args("sort", "-o", "a", "a")); err != nil {
		t.Fatal(err)
	}
	got, _ := cmdtest.ReadFile(c, "a")
	if got != "a\nb\n" {
		t.Fatalf("sort -o a a wrote %q", got)
	}
}

func TestTextSortGNU(t *testing.T) {
	mixed := "b 2 x\na 10 y\nB 1 z\n  c 3 w\na 10 a\n\n-5 neg\n3.5 f\n+4 plus\n10k h\n2M h\n1G h\n0x10 hex\nabc\nABC\naBc\n"
	nums := "10\n9\n-1\n-10\n1.5\n01\n1\n.5\n-0\n0\nfoo\n1e3\n2e2\ninf\n-inf\nnan\n 7\n\t8\n1,000\n"
	csv := "x,10,b\ny,2,a\nz,10,a\nw,,c\nv,2\n"
	vers := "v1.10\nv1.9\nv1.2\nfile-1.0.tar.gz\nfile-1.0~rc1.tar.gz\nfile-0.9.tar.gz\n.hidden\n..\n.\na10b\na9b\na09b\n"
	months := "feb x\nJan y\n DEC z\nfoo w\nmar v\n"
	hum := "1K\n1M\n2K\n-1K\n0\n1.5K\n1G\n999\n1k\n-1M\n"
	dict := "a-b\na b\nab\n_ab\na.c\n\x01x\nx\n"
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{}, {"-r"}, {"-f"}, {"-u"}, {"-fu"}, {"-b"}, {"-d"}, {"-i"}, {"-n"}, {"-nr"}, {"-nu"}, {"-g"}, {"-h"}, {"-V"}, {"-M"},
		{"-s", "-k1,1"}, {"-k2"}, {"-k2,2"}, {"-k2n"}, {"-k2,2n"}, {"-k2,2nr"}, {"-k2,2n", "-k1,1"}, {"-k2,2n", "-k1,1r"},
		{"-k1.2"}, {"-k1.2,1.3"}, {"-k2b"}, {"-k2.2b,2.3"}, {"-b", "-k2"}, {"-r", "-k2,2"}, {"-k3,3", "-u"},
		{"-k1,1f", "-s"}, {"-k1f", "-k2n"}, {"-n", "-k2"}, {"-sr"}, {"-rs", "-k1,1"}, {"-k1,1d"}, {"-k1.1,1.1"},
		{"-k2,1"}, {"-k3"}, {"-k1.10"}, {"-du"}, {"-iu"}, {"-k2,2h"}, {"-k2V"}, {"-fr"}, {"-bf", "-k1,1"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: mixed}, cmdtest.GNUCase{Args: a, Stdin: nums})
	}
	for _, a := range [][]string{
		{"-t", ","}, {"-t", ",", "-k2"}, {"-t", ",", "-k2,2"}, {"-t", ",", "-k2,2n"}, {"-t", ",", "-k2n,2", "-k3"},
		{"-t", ",", "-k3,3", "-k1,1r"}, {"-t", ",", "-u", "-k2,2"}, {"-t", ",", "-k2.1,2.1"}, {"-t", ",", "-k1.2,2.0"},
		{"-t", ",", "-k4"}, {"-t", ",", "-s", "-k2,2n"}, {"-t", ",", "-r", "-k2,2n"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: csv})
	}
	for _, a := range [][]string{{"-V"}, {"-Vr"}, {"-V", "-u"}, {"-k1V"}} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: vers})
	}
	for _, a := range [][]string{{"-M"}, {"-Mr"}, {"-k1M"}, {"-M", "-s"}} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: months})
	}
	for _, a := range [][]string{{"-h"}, {"-hr"}, {"-hu"}, {"-n"}} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: hum})
	}
	for _, a := range [][]string{{"-d"}, {"-df"}, {"-i"}, {"-d", "-u"}, {"-k1,1d", "-s"}} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: dict})
	}
	files := map[string]string{"a": "b\na\nd\n", "b": "c\na", "e": ""}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("a", "b", "e"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-u", "a", "-", "b"), Stdin: "a\nz\n", Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-c"), Stdin: "a\nb\nb\n", Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-c"), Stdin: "a\nc\nb\n", Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-cu"), Stdin: "a\nb\nb\n", Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-C"), Stdin: "b\na\n", Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-c", "a"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-c", "-k2,2n"), Stdin: "x 1\ny 2\nz 10\n", Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("missing"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-z"), Stdin: "b\x00a\x00c"},
		cmdtest.GNUCase{Args: cmdtest.Args("-t", "ab"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-k", "0"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-k", "1.0"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-k", "x"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-k", "1,2x"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-S", "1M", "--parallel=2", "-T", "/tmp"), Stdin: "b\na\n"},
		cmdtest.GNUCase{Args: cmdtest.Args("--sort=numeric"), Stdin: nums},
		cmdtest.GNUCase{Args: cmdtest.Args("--numeric-sort", "--reverse", "--key=1,1"), Stdin: nums},
		cmdtest.GNUCase{Args: cmdtest.Args(), Stdin: strings.Repeat("zz\nyy\nxx\n", 2000)},
	)
	cmdtest.GNUDiff(t, "sort", "sort", cases)
}

// TestSortBytes: the radix sort puts lines in bytes.Compare order, as the
// merge sort does: empty lines, prefixes of others, bytes past 0x7f,
// buckets above and below radixMin, lines alike past radixDepth.
func TestSortBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	long := strings.Repeat("p", radixDepth+5)
	for _, n := range []int{0, 1, 2, radixMin - 1, radixMin, 500, 5000} {
		var buf []byte
		var spans []sortSpan
		for i := range n {
			var line string
			switch i % 4 {
			case 0:
				line = strconv.Itoa(rng.IntN(n + 1))
			case 1:
				line = long + strconv.Itoa(rng.IntN(50))
			case 2:
				b := make([]byte, rng.IntN(4))
				for j := range b {
					b[j] = byte(rng.IntN(256))
				}
				line = string(b)
			default:
				line = strconv.Itoa(rng.IntN(10)) + "\xff"
			}
			spans = append(spans, sortSpan{len(buf), len(buf) + len(line)})
			buf = append(buf, line...)
		}
		want := slices.Clone(spans)
		sortMerge(want, make([]sortSpan, len(want)), func(x, y sortSpan) int {
			return bytes.Compare(buf[x.start:x.end], buf[y.start:y.end])
		})
		if !sortBytes(context.Background(), buf, spans, make([]sortSpan, len(spans))) {
			t.Fatalf("%d lines: cancelled", n)
		}
		// Stable: equal lines keep their input order, so the spans match.
		if !slices.Equal(spans, want) {
			t.Errorf("%d lines: radix order differs from bytes.Compare's", n)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	spans := make([]sortSpan, radixMin)
	if sortBytes(ctx, make([]byte, 1), spans, make([]sortSpan, len(spans))) {
		t.Errorf("sortBytes went on past its context's end")
	}
}
