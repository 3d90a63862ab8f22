package textutil

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextHead(t *testing.T) {
	ten := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	files := map[string]string{"a": "a1\na2\na3\n", "b": "b1\nb2", "d/": ""}
	cmdtest.RunCases(t, "head", []cmdtest.Case{
		{Args: cmdtest.Args(), Stdin: ten, Want: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"},
		{Args: cmdtest.Args("-n", "2"), Stdin: ten, Want: "1\n2\n"},
		{Args: cmdtest.Args("-n2"), Stdin: ten, Want: "1\n2\n"},
		{Args: cmdtest.Args("-3"), Stdin: ten, Want: "1\n2\n3\n"},
		{Args: cmdtest.Args("-n", "-10"), Stdin: ten, Want: "1\n2\n"},
		{Args: cmdtest.Args("-c", "3"), Stdin: ten, Want: "1\n2"},
		{Args: cmdtest.Args("-c", "-20"), Stdin: ten, Want: "1\n2\n3\n4"},
		{Args: cmdtest.Args("a", "b"), Files: files, Want: "==> a <==\na1\na2\na3\n\n==> b <==\nb1\nb2"},
		{Args: cmdtest.Args("-q", "-n1", "a", "b"), Files: files, Want: "a1\nb1\n"},
		{Args: cmdtest.Args("-v", "-n1", "a"), Files: files, Want: "==> a <==\na1\n"},
		{Args: cmdtest.Args("-n1", "a", "nope", "b"), Files: files, Want: "==> a <==\na1\n\n==> b <==\nb1\n", Code: 1,
			Stderr: "head: cannot open 'nope' for reading: No such file or directory\n"},
		{Args: cmdtest.Args("-n", "x"), Code: 1, Stderr: "head: invalid number of lines: 'x'\n"},
		{Args: cmdtest.Args("-y"), Code: 1, Stderr: "head: invalid option -- 'y'\nTry 'head --help' for more information.\n"},
		{Args: cmdtest.Args("d"), Files: files, Code: 1, Stderr: "head: error reading 'd': Is a directory\n"},
		{Args: cmdtest.Args("-n", "1K"), Stdin: ten, Want: ten},
		{Args: cmdtest.Args("-z", "-n1"), Stdin: "a\x00b\x00", Want: "a\x00"},
	})
}

// headStopReader fails the test when read past its limit.
type headStopReader struct {
	t *testing.T
	n int
}

func (r *headStopReader) Read(p []byte) (int, error) {
	r.n++
	if r.n > 100 {
		r.t.Fatal("head kept reading an endless input")
		return 0, io.EOF
	}
	for i := range p {
		p[i] = 'y'
		if i%2 == 1 {
			p[i] = '\n'
		}
	}
	return len(p), nil
}

func TestTextHeadStopsEarly(t *testing.T) {
	c, out, _ := cmdtest.NewCall(t, "", nil)
	c.Stdin = &headStopReader{t: t}
	if err := textHead(context.Background(), c, []string{"head", "-n", "3"}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "y\ny\ny\n" {
		t.Fatalf("got %q", out.String())
	}
	c.Stdin = &headStopReader{t: t}
	out.Reset()
	if err := textHead(context.Background(), c, []string{"head", "-c", "5"}); err != nil {
		t.Fatal(err)
	}
	if out.String() != "y\ny\ny" {
		t.Fatalf("got %q", out.String())
	}
}

func TestTextHeadCancelled(t *testing.T) {
	c, _, _ := cmdtest.NewCall(t, "", nil)
	c.Stdin = strings.NewReader(strings.Repeat("x\n", 1000))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := textHead(ctx, c, []string{"head"}); err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestTextHeadGNU(t *testing.T) {
	files := map[string]string{"a": "a1\na2\na3\na4\n", "b": "b1\nb2", "e": "", "d/": ""}
	lines := strings.Repeat("line\n", 30) + "last"
	var cases []cmdtest.GNUCase
	for _, a := range [][]string{
		{}, {"-n", "3"}, {"-n", "-3"}, {"-n", "0"}, {"-n", "-0"}, {"-c", "7"}, {"-c", "-7"}, {"-5"},
		{"-c", "1k"}, {"-n", "+2"}, {"-n", "-100"}, {"-2c"},
	} {
		cases = append(cases, cmdtest.GNUCase{Args: a, Stdin: lines})
		cases = append(cases, cmdtest.GNUCase{Args: append(append([]string{}, a...), "a", "b", "e"), Files: files})
	}
	cases = append(cases,
		cmdtest.GNUCase{Args: cmdtest.Args("-q", "a", "b"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("-v", "a"), Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "-", "b"), Stdin: "in\n", Files: files},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "missing", "b"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "d", "b"), Files: files, Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-n", "bad"), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("-z", "-n", "1"), Stdin: "a\x00b\x00"},
		cmdtest.GNUCase{Args: cmdtest.Args("-n", "2", "--", "a"), Files: files},
	)
	cmdtest.GNUDiff(t, "head", "head", cases)
}
