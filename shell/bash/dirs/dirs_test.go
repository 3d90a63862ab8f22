package dirs

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

type fakeShell struct {
	dir      string
	out, err bytes.Buffer
}

func (f *fakeShell) Dir() string       { return f.dir }
func (f *fakeShell) Cd(dir string) int { f.dir = dir; return 0 }
func (f *fakeShell) Home() string      { return "/home/u" }
func (f *fakeShell) Errf(format string, a ...any) {
	fmt.Fprintf(&f.err, "bash: "+format+"\n", a...)
}
func (f *fakeShell) Stdout() io.Writer { return &f.out }
func (f *fakeShell) Stderr() io.Writer { return &f.err }

// TestStack runs a sequence of pushd, popd and dirs and compares with
// bash 5.2's output.
func TestStack(t *testing.T) {
	sh := &fakeShell{dir: "/home/u"}
	var stack []string
	steps := []struct {
		cmd  string
		args []string
		st   int
		out  string
		err  string
	}{
		{"pushd", []string{"/tmp"}, 0, "/tmp ~\n", ""},
		{"pushd", []string{"/home/u/src"}, 0, "~/src /tmp ~\n", ""},
		{"dirs", []string{"-v"}, 0, " 0  ~/src\n 1  /tmp\n 2  ~\n", ""},
		{"dirs", []string{"-l"}, 0, "/home/u/src /tmp /home/u\n", ""},
		{"pushd", nil, 0, "/tmp ~/src ~\n", ""},
		{"popd", nil, 0, "~/src ~\n", ""},
		{"popd", []string{"x"}, 2, "", "bash: popd: x: invalid argument\npopd: usage: popd [-n] [+N | -N]\n"},
		{"dirs", []string{"x"}, 2, "", "bash: dirs: x: invalid option\ndirs: usage: dirs [-clpv] [+N] [-N]\n"},
		{"dirs", []string{"-c"}, 0, "", ""},
		{"popd", nil, 1, "", "bash: popd: directory stack empty\n"},
		{"pushd", nil, 1, "", "bash: pushd: no other directory\n"},
	}
	for _, s := range steps {
		sh.out.Reset()
		sh.err.Reset()
		run := map[string]func(Shell, *[]string, []string) int{"pushd": Pushd, "popd": Popd, "dirs": Dirs}[s.cmd]
		st := run(sh, &stack, s.args)
		if st != s.st || sh.out.String() != s.out || sh.err.String() != s.err {
			t.Errorf("%s %q: status %d, out %q, err %q; want %d, %q, %q", s.cmd, s.args, st, sh.out.String(), sh.err.String(), s.st, s.out, s.err)
		}
	}
}
