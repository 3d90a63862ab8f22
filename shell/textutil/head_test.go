package shell

import (
	"context"
	"io"
	"strings"
	"testing"
)

func TestTextHead(t *testing.T) {
	ten := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	files := map[string]string{"a": "a1\na2\na3\n", "b": "b1\nb2", "d/": ""}
	runTextCases(t, "head", []textCase{
		{args: textArgs(), stdin: ten, want: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"},
		{args: textArgs("-n", "2"), stdin: ten, want: "1\n2\n"},
		{args: textArgs("-n2"), stdin: ten, want: "1\n2\n"},
		{args: textArgs("-3"), stdin: ten, want: "1\n2\n3\n"},
		{args: textArgs("-n", "-10"), stdin: ten, want: "1\n2\n"},
		{args: textArgs("-c", "3"), stdin: ten, want: "1\n2"},
		{args: textArgs("-c", "-20"), stdin: ten, want: "1\n2\n3\n4"},
		{args: textArgs("a", "b"), files: files, want: "==> a <==\na1\na2\na3\n\n==> b <==\nb1\nb2"},
		{args: textArgs("-q", "-n1", "a", "b"), files: files, want: "a1\nb1\n"},
		{args: textArgs("-v", "-n1", "a"), files: files, want: "==> a <==\na1\n"},
		{args: textArgs("-n1", "a", "nope", "b"), files: files, want: "==> a <==\na1\n\n==> b <==\nb1\n", code: 1,
			stderr: "head: cannot open 'nope' for reading: No such file or directory\n"},
		{args: textArgs("-n", "x"), code: 1, stderr: "head: invalid number of lines: 'x'\n"},
		{args: textArgs("-y"), code: 1, stderr: "head: invalid option -- 'y'\nTry 'head --help' for more information.\n"},
		{args: textArgs("d"), files: files, code: 1, stderr: "head: error reading 'd': Is a directory\n"},
		{args: textArgs("-n", "1K"), stdin: ten, want: ten},
		{args: textArgs("-z", "-n1"), stdin: "a\x00b\x00", want: "a\x00"},
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
	c, out, _ := newTextCall(t, "", nil)
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
	c, _, _ := newTextCall(t, "", nil)
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
	var cases []textGNUCase
	for _, a := range [][]string{
		{}, {"-n", "3"}, {"-n", "-3"}, {"-n", "0"}, {"-n", "-0"}, {"-c", "7"}, {"-c", "-7"}, {"-5"},
		{"-c", "1k"}, {"-n", "+2"}, {"-n", "-100"}, {"-2c"},
	} {
		cases = append(cases, textGNUCase{args: a, stdin: lines})
		cases = append(cases, textGNUCase{args: append(append([]string{}, a...), "a", "b", "e"), files: files})
	}
	cases = append(cases,
		textGNUCase{args: textArgs("-q", "a", "b"), files: files},
		textGNUCase{args: textArgs("-v", "a"), files: files},
		textGNUCase{args: textArgs("a", "-", "b"), stdin: "in\n", files: files},
		textGNUCase{args: textArgs("a", "missing", "b"), files: files, stderr: true},
		textGNUCase{args: textArgs("a", "d", "b"), files: files, stderr: true},
		textGNUCase{args: textArgs("-n", "bad"), stderr: true},
		textGNUCase{args: textArgs("-z", "-n", "1"), stdin: "a\x00b\x00"},
		textGNUCase{args: textArgs("-n", "2", "--", "a"), files: files},
	)
	textGNUDiff(t, "head", "head", cases)
}
