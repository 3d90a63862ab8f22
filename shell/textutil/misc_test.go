package shell

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestTextTee(t *testing.T) {
	c, out, _ := newTextCall(t, "hello\n", map[string]string{"old": "x\n"})
	if err := textTee(context.Background(), c, textArgs("tee", "a", "b")); err != nil {
		t.Fatal(err)
	}
	c.Stdin = strings.NewReader("more\n")
	if err := textTee(context.Background(), c, textArgs("tee", "-a", "old")); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a": "hello\n", "b": "hello\n", "old": "x\nmore\n"} {
		if got, _ := readTextFile(c, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if out.String() != "hello\nmore\n" {
		t.Errorf("stdout %q", out.String())
	}
	runTextCases(t, "tee", []textCase{
		{args: textArgs("no/such/f"), stdin: "x\n", want: "x\n", code: 1, stderr: "tee: no/such/f: No such file or directory\n"},
	})
}

// textFailWriter fails every write, like a pipe whose reader went away.
type textFailWriter struct{ n int }

func (w *textFailWriter) Write(p []byte) (int, error) {
	w.n++
	if w.n > 3 {
		return 0, io.ErrClosedPipe
	}
	return len(p), nil
}

func TestTextYes(t *testing.T) {
	c, _, errb := newTextCall(t, "", nil)
	w := &textFailWriter{}
	c.Stdout = w
	done := make(chan error, 1)
	go func() { done <- textYes(context.Background(), c, textArgs("yes", "hi")) }()
	select {
	case err := <-done:
		if ExitCode(err) == 0 || errb.Len() != 0 {
			t.Fatalf("yes ended with %v, stderr %q", err, errb.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("yes did not stop when its reader went away")
	}
	out, _, _ := runBuiltin(t, "head", "", nil) // keep head linked in this test
	_ = out
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	c.Stdout = io.Discard
	if err := textYes(ctx, c, textArgs("yes")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("yes under a deadline: %v", err)
	}
	var b strings.Builder
	c.Stdout = &textLimitWriter{w: &b, n: 12}
	textYes(context.Background(), c, textArgs("yes", "a", "b"))
	if !strings.HasPrefix(b.String(), "a b\na b\na b\n") {
		t.Fatalf("yes a b printed %q", b.String())
	}
}

// textLimitWriter accepts n bytes and then fails.
type textLimitWriter struct {
	w io.Writer
	n int
}

func (l *textLimitWriter) Write(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, io.ErrClosedPipe
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	l.n -= len(p)
	return l.w.Write(p)
}

func TestTextBasenameDirname(t *testing.T) {
	runTextCases(t, "basename", []textCase{
		{args: textArgs("/a/b/c.txt"), want: "c.txt\n"},
		{args: textArgs("/a/b/c.txt", ".txt"), want: "c\n"},
		{args: textArgs("-s", ".go", "a.go", "b/c.go"), want: "a\nc\n"},
		{args: textArgs("-a", "x/y", "z/"), want: "y\nz\n"},
		{args: textArgs("/"), want: "/\n"},
		{args: textArgs(".txt", ".txt"), want: ".txt\n"},
		{args: textArgs(), code: 1},
	})
	runTextCases(t, "dirname", []textCase{
		{args: textArgs("/a/b/c"), want: "/a/b\n"},
		{args: textArgs("a"), want: ".\n"},
		{args: textArgs("/a", "a/b/", "//x", "/"), want: "/\na\n/\n/\n"},
	})
}

func TestTextBasenameDirnameGNU(t *testing.T) {
	names := []string{"/a/b/c.txt", "a", "a/", "/", "//", "///a//b//", "", ".", "..", "a.txt", "/x/.txt", "dir/sub.tar.gz", "a//b"}
	var bcases, dcases []textGNUCase
	for _, n := range names {
		bcases = append(bcases, textGNUCase{args: textArgs(n)}, textGNUCase{args: textArgs(n, ".txt")}, textGNUCase{args: textArgs(n, ".gz")})
		dcases = append(dcases, textGNUCase{args: textArgs(n)})
	}
	bcases = append(bcases,
		textGNUCase{args: append([]string{"-a"}, names...)},
		textGNUCase{args: append([]string{"-s", ".txt"}, names...)},
		textGNUCase{args: textArgs("-z", "a/b")},
		textGNUCase{args: textArgs(), stderr: true},
		textGNUCase{args: textArgs("a", "b", "c"), stderr: true},
	)
	dcases = append(dcases, textGNUCase{args: names}, textGNUCase{args: textArgs("-z", "a/b", "c")}, textGNUCase{args: textArgs(), stderr: true})
	textGNUDiff(t, "basename", "basename", bcases)
	textGNUDiff(t, "dirname", "dirname", dcases)
}
