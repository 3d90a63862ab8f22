package textutil

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/internal/cmdtest"
)

func TestTextTee(t *testing.T) {
	c, out, _ := cmdtest.NewCall(t, "hello\n", map[string]string{"old": "x\n"})
	if err := textTee(context.Background(), c, cmdtest.Args("tee", "a", "b")); err != nil {
		t.Fatal(err)
	}
	c.Stdin = strings.NewReader("more\n")
	if err := textTee(context.Background(), c, cmdtest.Args("tee", "-a", "old")); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a": "hello\n", "b": "hello\n", "old": "x\nmore\n"} {
		if got, _ := cmdtest.ReadFile(c, name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	if out.String() != "hello\nmore\n" {
		t.Errorf("stdout %q", out.String())
	}
	cmdtest.RunCases(t, "tee", []cmdtest.Case{
		{Args: cmdtest.Args("no/such/f"), Stdin: "x\n", Want: "x\n", Code: 1, Stderr: "tee: no/such/f: No such file or directory\n"},
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
	c, _, errb := cmdtest.NewCall(t, "", nil)
	w := &textFailWriter{}
	c.Stdout = w
	done := make(chan error, 1)
	go func() { done <- textYes(context.Background(), c, cmdtest.Args("yes", "hi")) }()
	select {
	case err := <-done:
		if command.ExitCode(err) == 0 || errb.Len() != 0 {
			t.Fatalf("yes ended with %v, stderr %q", err, errb.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("yes did not stop when its reader went away")
	}
	out, _, _ := cmdtest.Run(t, "head", "", nil) // keep head linked in this test
	_ = out
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	c.Stdout = io.Discard
	if err := textYes(ctx, c, cmdtest.Args("yes")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("yes under a deadline: %v", err)
	}
	var b strings.Builder
	c.Stdout = &cmdtest.LimitWriter{W: &b, N: 12}
	textYes(context.Background(), c, cmdtest.Args("yes", "a", "b"))
	if !strings.HasPrefix(b.String(), "a b\na b\na b\n") {
		t.Fatalf("yes a b printed %q", b.String())
	}
}

func TestTextBasenameDirname(t *testing.T) {
	cmdtest.RunCases(t, "basename", []cmdtest.Case{
		{Args: cmdtest.Args("/a/b/c.txt"), Want: "c.txt\n"},
		{Args: cmdtest.Args("/a/b/c.txt", ".txt"), Want: "c\n"},
		{Args: cmdtest.Args("-s", ".go", "a.go", "b/c.go"), Want: "a\nc\n"},
		{Args: cmdtest.Args("-a", "x/y", "z/"), Want: "y\nz\n"},
		{Args: cmdtest.Args("/"), Want: "/\n"},
		{Args: cmdtest.Args(".txt", ".txt"), Want: ".txt\n"},
		{Args: cmdtest.Args(), Code: 1},
	})
	cmdtest.RunCases(t, "dirname", []cmdtest.Case{
		{Args: cmdtest.Args("/a/b/c"), Want: "/a/b\n"},
		{Args: cmdtest.Args("a"), Want: ".\n"},
		{Args: cmdtest.Args("/a", "a/b/", "//x", "/"), Want: "/\na\n/\n/\n"},
	})
}

func TestTextBasenameDirnameGNU(t *testing.T) {
	names := []string{"/a/b/c.txt", "a", "a/", "/", "//", "///a//b//", "", ".", "..", "a.txt", "/x/.txt", "dir/sub.tar.gz", "a//b"}
	var bcases, dcases []cmdtest.GNUCase
	for _, n := range names {
		bcases = append(bcases, cmdtest.GNUCase{Args: cmdtest.Args(n)}, cmdtest.GNUCase{Args: cmdtest.Args(n, ".txt")}, cmdtest.GNUCase{Args: cmdtest.Args(n, ".gz")})
		dcases = append(dcases, cmdtest.GNUCase{Args: cmdtest.Args(n)})
	}
	bcases = append(bcases,
		cmdtest.GNUCase{Args: append([]string{"-a"}, names...)},
		cmdtest.GNUCase{Args: append([]string{"-s", ".txt"}, names...)},
		cmdtest.GNUCase{Args: cmdtest.Args("-z", "a/b")},
		cmdtest.GNUCase{Args: cmdtest.Args(), Stderr: true},
		cmdtest.GNUCase{Args: cmdtest.Args("a", "b", "c"), Stderr: true},
	)
	dcases = append(dcases, cmdtest.GNUCase{Args: names}, cmdtest.GNUCase{Args: cmdtest.Args("-z", "a/b", "c")}, cmdtest.GNUCase{Args: cmdtest.Args(), Stderr: true})
	cmdtest.GNUDiff(t, "basename", "basename", bcases)
	cmdtest.GNUDiff(t, "dirname", "dirname", dcases)
}
