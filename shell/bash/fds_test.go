package bash

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/command"
)

// countFS counts the files open through it, as the wasm provider's
// spare-shell recycler does (a shell with a file open is not reused).
type countFS struct {
	afero.Fs
	open *atomic.Int64
}

type countFile struct {
	afero.File
	open   *atomic.Int64
	closed atomic.Bool
}

func (f *countFile) Close() error {
	if !f.closed.CompareAndSwap(false, true) {
		return os.ErrClosed
	}
	f.open.Add(-1)
	return f.File.Close()
}

func (c countFS) Open(name string) (afero.File, error) { return c.OpenFile(name, os.O_RDONLY, 0) }
func (c countFS) Create(name string) (afero.File, error) {
	return c.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}
func (c countFS) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := c.Fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	c.open.Add(1)
	return &countFile{File: f, open: c.open}, nil
}

// TestFilesClosed checks that every file the shell opens for a
// redirection is closed once no descriptor of the shell or of a shell it
// started refers to it: openfiles prints how many files are open at that
// point, in all the shells of the run. The outputs were checked against
// bash 5.2.15 with openfiles counting the descriptors above 2 in
// /proc/$BASHPID/fd (less the ones bash -c had at its start): they are
// the same where every such descriptor is a file of its own in the one
// process; bash counts a copy of stdout too (3>&1), each descriptor of
// one file (the copies of 1 and 2 it saves for f >f 2>&1), and only its
// own process's (the parent still holds 3 when $(exec 3>&-) closed it).
func TestFilesClosed(t *testing.T) {
	for _, tc := range []struct{ name, script, out string }{
		{"exec n>file then n>&-", "exec 3>f; openfiles; exec 3>&-; openfiles", "1\n0\n"},
		{"exec n<file then n<&-", "echo hi >f; exec 3<f; read -u 3 l; echo $l; exec 3<&-; openfiles", "hi\n0\n"},
		{"exec n<>file", "exec 3<>f; exec 3>&-; openfiles", "0\n"},
		{"dup of stdout", "exec 3>&1; exec 3>&-; openfiles; echo out", "0\nout\n"},
		{"a dup keeps the file open", "exec 3>f 4>&3; exec 3>&-; openfiles; echo x >&4; exec 4>&-; openfiles; cat f", "1\n0\nx\n"},
		{"move", "exec 3>f; exec 4>&3-; openfiles; echo y >&4; exec 4>&-; openfiles; cat f", "1\n0\ny\n"},
		{"replaced by another file", "exec 3>f; exec 3>g; openfiles; exec 3>&-; openfiles", "1\n0\n"},
		{"replaced by a dup", "exec 3>f; exec 3>&1; openfiles", "0\n"},
		{"{var}", "exec {fd}>f; openfiles; exec {fd}>&-; openfiles", "1\n0\n"},
		{"{var} on a command stays open", ": {fd}>f; openfiles; exec {fd}>&-; openfiles", "1\n0\n"},
		{"function and group", "f() { openfiles >&2; }; f >f 2>&1; openfiles; { openfiles; } >g; openfiles; cat f g", "0\n0\n1\n1\n"},
		{"exec inside a redirected group stays", "{ exec 3>f; } >g; openfiles; echo x >&3; exec 3>&-; openfiles; cat f", "1\n0\nx\n"},
		{"a command's close of an exec'd fd is undone", "exec 3>f; : 3>&-; openfiles; { exec 3>&-; openfiles; } 3>g; openfiles; echo x >&3; exec 3>&-; openfiles; cat f", "1\n1\n1\n0\nx\n"},
		{"here-document and here-string", "cat <<EOF\nx\nEOF\ncat <<<y; openfiles", "x\ny\n0\n"},
		{"process substitution", "cat <(echo a); echo b > >(cat); openfiles", "a\nb\n0\n"},
		{"a redirection that fails", "echo x >f >/home; openfiles", "0\n"},
		{"exec whose redirection fails", "exec 3>f >/home; openfiles; echo x >&3", "0\n"},
		{"subshell", "(exec 3>f; openfiles); openfiles", "1\n0\n"},
		{"pipeline stage", "exec 3>f | cat; echo | { exec 4>g; }; openfiles", "0\n"},
		{"lastpipe", "shopt -s lastpipe; exec 3>f; echo | exec 3>&-; openfiles", "0\n"},
		{"command substitution", "exec 3>f; x=$(openfiles; exec 3>&-; openfiles); echo $x; openfiles; exec 3>&-; openfiles", "1 1\n1\n0\n"},
		{"background job", "exec 3>f; { echo x >&3; } & exec 3>&-; wait; openfiles; cat f", "0\nx\n"},
		{"stdin of a loop", "printf 'a\\nb\\n' >f; while read l; do echo $l; done <f; openfiles", "a\nb\n0\n"},
		{"exec stdout", "exec 5>&1 >f; echo x; exec >&5 5>&-; openfiles; cat f", "0\nx\n"},
		{"|&", "f() { echo e >&2; }; f |& cat >g; openfiles; cat g", "0\ne\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var open atomic.Int64
			mem := afero.NewMemMapFs()
			_ = mem.MkdirAll("/home/user", 0o755)
			fsys := countFS{mem, &open}
			var out, errb strings.Builder
			exec := func(ctx context.Context, c *command.Call, args []string) error {
				if args[0] == "openfiles" {
					_, err := fmt.Fprintln(c.Stdout, open.Load())
					return err
				}
				if args[0] == "cat" && len(args) > 1 {
					for _, n := range args[1:] {
						if !strings.HasPrefix(n, "/") {
							n = "/home/user/" + n
						}
						b, err := afero.ReadFile(mem, n)
						if err != nil {
							return err
						}
						if _, err := c.Stdout.Write(b); err != nil {
							return err
						}
					}
					return nil
				}
				return testExec(ctx, c, args)
			}
			_, err := Run(context.Background(), tc.script, Options{FS: fsys, Dir: "/home/user", Stdout: &out, Stderr: &errb, Exec: exec})
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.out {
				t.Errorf("%s\nstdout %q, want %q (stderr %q)", tc.script, out.String(), tc.out, errb.String())
			}
			if n := open.Load(); n != 0 {
				t.Errorf("%d files open after Run", n)
			}
		})
	}
}
