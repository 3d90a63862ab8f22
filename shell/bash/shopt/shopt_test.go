package shopt

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

type fakeShell struct {
	opt, shopt map[string]bool
	out        bytes.Buffer
}

func (f *fakeShell) Opt(name string) bool          { return f.opt[name] }
func (f *fakeShell) SetOpt(name string, on bool)   { f.opt[name] = on }
func (f *fakeShell) Shopt(name string) bool        { return f.shopt[name] }
func (f *fakeShell) SetShopt(name string, on bool) { f.shopt[name] = on }
func (f *fakeShell) Errf(format string, a ...any) {
	fmt.Fprintf(&f.out, "bash: line 1: "+format+"\n", a...)
}
func (f *fakeShell) Stdout() io.Writer { return &f.out }
func (f *fakeShell) Stderr() io.Writer { return &f.out }

// TestSequence runs a sequence of shopt commands and compares with
// bash 5.2's output (stdout and stderr merged; "st=N" after some).
func TestSequence(t *testing.T) {
	sh := &fakeShell{
		opt:   map[string]bool{"braceexpand": true, "hashall": true},
		shopt: map[string]bool{"checkwinsize": true, "cmdhist": true, "complete_fullquote": true},
	}
	st := func(args ...string) { fmt.Fprintf(&sh.out, "st=%d\n", Run(sh, args)) }
	Run(sh, []string{"-p", "nullglob"})
	Run(sh, []string{"-s", "nullglob", "extglob"})
	st("nullglob", "extglob")
	Run(sh, []string{"-u", "extglob"})
	st("-q", "extglob")
	st("bogus")
	Run(sh, []string{"-o", "-p", "pipefail"})
	Run(sh, []string{"-so", "pipefail"})
	Run(sh, []string{"-o", "pipefail"})
	st("-o", "bogus")
	st("-s", "-o", "bogus", "pipefail") // reported, yet status 0 in bash 5.2
	st("-uo", "bogus")
	st("-x")
	var ps bytes.Buffer
	sh.out, ps = ps, sh.out
	Run(sh, []string{"-ps"})
	first3 := strings.Join(strings.SplitAfter(sh.out.String(), "\n")[:3], "")
	sh.out.Reset()
	ListSet(sh, true)
	on := strings.Join(strings.SplitAfter(sh.out.String(), "\n")[:3], "")
	sh.out.Reset()
	ListSet(sh, false)
	plus := strings.Join(strings.SplitAfter(sh.out.String(), "\n")[9:12], "")
	got := ps.String() + first3 + on + plus
	want := `shopt -u nullglob
nullglob       	on
extglob        	on
st=0
st=1
bash: line 1: shopt: bogus: invalid shell option name
st=1
set +o pipefail
pipefail       	on
bash: line 1: shopt: bogus: invalid option name
st=1
bash: line 1: shopt: bogus: invalid option name
st=0
bash: line 1: shopt: bogus: invalid option name
st=0
bash: line 1: shopt: -x: invalid option
shopt: usage: shopt [-pqsu] [-o] [optname ...]
st=2
shopt -s checkwinsize
shopt -s cmdhist
shopt -s complete_fullquote
allexport      	off
braceexpand    	on
emacs          	off
set +o ignoreeof
set -o interactive-comments
set +o keyword
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
