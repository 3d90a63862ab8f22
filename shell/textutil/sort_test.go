package shell

import (
	"strings"
	"testing"
)

func TestTextSort(t *testing.T) {
	files := map[string]string{"a": "b\na\n", "b": "d\nc"}
	runTextCases(t, "sort", []textCase{
		{args: textArgs(), stdin: "b\na\nc\n", want: "a\nb\nc\n"},
		{args: textArgs("-r"), stdin: "b\na\nc", want: "c\nb\na\n"},
		{args: textArgs("-n"), stdin: "10\n9\n-1\n", want: "-1\n9\n10\n"},
		{args: textArgs("-u"), stdin: "a\nb\na\n", want: "a\nb\n"},
		{args: textArgs("-t", ",", "-k2,2n"), stdin: "x,10\ny,2\n", want: "y,2\nx,10\n"},
		{args: textArgs("-k2"), stdin: "a b\nc a\n", want: "c a\na b\n"},
		{args: textArgs("-h"), stdin: "1G\n10K\n5M\n", want: "10K\n5M\n1G\n"},
		{args: textArgs("-V"), stdin: "v1.10\nv1.9\nv1.2\n", want: "v1.2\nv1.9\nv1.10\n"},
		{args: textArgs("a", "b"), files: files, want: "a\nb\nc\nd\n"},
		{args: textArgs("-o", "out", "a"), files: files, want: ""},
		{args: textArgs("-c"), stdin: "a\nc\nb\n", code: 1, stderr: "sort: -:3: disorder: b\n"},
		{args: textArgs("-C"), stdin: "a\nb\n"},
		{args: textArgs("nope"), code: 2, stderr: "sort: cannot read: nope: No such file or directory\n"},
		{args: textArgs("-k0"), code: 2, stderr: "sort: field number is zero: invalid field specification '0'\n"},
		{args: textArgs("-t", "ab"), code: 2, stderr: "sort: multi-character tab 'ab'\n"},
	})
}

func TestTextSortOutputFile(t *testing.T) {
	c, _, _ := newTextCall(t, "", map[string]string{"a": "b\na\n"})
	if err := textSort(t.Context(), c, textArgs("sort", "-o", "a", "a")); err != nil {
		t.Fatal(err)
	}
	got, _ := readTextFile(c, "a")
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
	var cases []textGNUCase
	for _, a := range [][]string{
		{}, {"-r"}, {"-f"}, {"-u"}, {"-fu"}, {"-b"}, {"-d"}, {"-i"}, {"-n"}, {"-nr"}, {"-nu"}, {"-g"}, {"-h"}, {"-V"}, {"-M"},
		{"-s", "-k1,1"}, {"-k2"}, {"-k2,2"}, {"-k2n"}, {"-k2,2n"}, {"-k2,2nr"}, {"-k2,2n", "-k1,1"}, {"-k2,2n", "-k1,1r"},
		{"-k1.2"}, {"-k1.2,1.3"}, {"-k2b"}, {"-k2.2b,2.3"}, {"-b", "-k2"}, {"-r", "-k2,2"}, {"-k3,3", "-u"},
		{"-k1,1f", "-s"}, {"-k1f", "-k2n"}, {"-n", "-k2"}, {"-sr"}, {"-rs", "-k1,1"}, {"-k1,1d"}, {"-k1.1,1.1"},
		{"-k2,1"}, {"-k3"}, {"-k1.10"}, {"-du"}, {"-iu"}, {"-k2,2h"}, {"-k2V"}, {"-fr"}, {"-bf", "-k1,1"},
	} {
		cases = append(cases, textGNUCase{args: a, stdin: mixed}, textGNUCase{args: a, stdin: nums})
	}
	for _, a := range [][]string{
		{"-t", ","}, {"-t", ",", "-k2"}, {"-t", ",", "-k2,2"}, {"-t", ",", "-k2,2n"}, {"-t", ",", "-k2n,2", "-k3"},
		{"-t", ",", "-k3,3", "-k1,1r"}, {"-t", ",", "-u", "-k2,2"}, {"-t", ",", "-k2.1,2.1"}, {"-t", ",", "-k1.2,2.0"},
		{"-t", ",", "-k4"}, {"-t", ",", "-s", "-k2,2n"}, {"-t", ",", "-r", "-k2,2n"},
	} {
		cases = append(cases, textGNUCase{args: a, stdin: csv})
	}
	for _, a := range [][]string{{"-V"}, {"-Vr"}, {"-V", "-u"}, {"-k1V"}} {
		cases = append(cases, textGNUCase{args: a, stdin: vers})
	}
	for _, a := range [][]string{{"-M"}, {"-Mr"}, {"-k1M"}, {"-M", "-s"}} {
		cases = append(cases, textGNUCase{args: a, stdin: months})
	}
	for _, a := range [][]string{{"-h"}, {"-hr"}, {"-hu"}, {"-n"}} {
		cases = append(cases, textGNUCase{args: a, stdin: hum})
	}
	for _, a := range [][]string{{"-d"}, {"-df"}, {"-i"}, {"-d", "-u"}, {"-k1,1d", "-s"}} {
		cases = append(cases, textGNUCase{args: a, stdin: dict})
	}
	files := map[string]string{"a": "b\na\nd\n", "b": "c\na", "e": ""}
	cases = append(cases,
		textGNUCase{args: textArgs("a", "b", "e"), files: files},
		textGNUCase{args: textArgs("-u", "a", "-", "b"), stdin: "a\nz\n", files: files},
		textGNUCase{args: textArgs("-c"), stdin: "a\nb\nb\n", stderr: true},
		textGNUCase{args: textArgs("-c"), stdin: "a\nc\nb\n", stderr: true},
		textGNUCase{args: textArgs("-cu"), stdin: "a\nb\nb\n", stderr: true},
		textGNUCase{args: textArgs("-C"), stdin: "b\na\n", stderr: true},
		textGNUCase{args: textArgs("-c", "a"), files: files, stderr: true},
		textGNUCase{args: textArgs("-c", "-k2,2n"), stdin: "x 1\ny 2\nz 10\n", stderr: true},
		textGNUCase{args: textArgs("missing"), stderr: true},
		textGNUCase{args: textArgs("-z"), stdin: "b\x00a\x00c"},
		textGNUCase{args: textArgs("-t", "ab"), stderr: true},
		textGNUCase{args: textArgs("-k", "0"), stderr: true},
		textGNUCase{args: textArgs("-k", "1.0"), stderr: true},
		textGNUCase{args: textArgs("-k", "x"), stderr: true},
		textGNUCase{args: textArgs("-k", "1,2x"), stderr: true},
		textGNUCase{args: textArgs("-S", "1M", "--parallel=2", "-T", "/tmp"), stdin: "b\na\n"},
		textGNUCase{args: textArgs("--sort=numeric"), stdin: nums},
		textGNUCase{args: textArgs("--numeric-sort", "--reverse", "--key=1,1"), stdin: nums},
		textGNUCase{args: textArgs(), stdin: strings.Repeat("zz\nyy\nxx\n", 2000)},
	)
	textGNUDiff(t, "sort", "sort", cases)
}
