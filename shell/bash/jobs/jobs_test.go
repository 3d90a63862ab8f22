package jobs

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

type fakeShell struct {
	out  bytes.Buffer
	done chan struct{}
	self []string
}

func (f *fakeShell) Errf(format string, a ...any) {
	fmt.Fprintf(&f.out, "bash: line 1: "+format+"\n", a...)
}
func (f *fakeShell) Stdout() io.Writer     { return &f.out }
func (f *fakeShell) Stderr() io.Writer     { return &f.out }
func (f *fakeShell) Done() <-chan struct{} { return f.done }
func (f *fakeShell) Self(pid string) bool {
	for _, s := range f.self {
		if s == pid {
			return true
		}
	}
	return false
}
func (f *fakeShell) Signal(pid, name string, handledOnly bool) bool { return false }
func (f *fakeShell) SignalSelf(name string) bool {
	fmt.Fprintf(&f.out, "self %s\n", name)
	return name != "USR1"
}

// table makes running jobs for texts, pids from 100; cancelling one ends
// it with status 0 (its signal's status then).
func table(texts ...string) []*Job {
	var list []*Job
	for i, t := range texts {
		var j *Job
		j = New(i+1, 100+i, t, func() { go j.Run(func() int { return 0 }) })
		list = append(list, j)
	}
	return list
}

func TestFind(t *testing.T) {
	list := table("sleep 10", "echo hi", "sleep 12")
	list[2].Waited = true // reaped: only %3 and its pid find it
	for _, c := range []struct {
		spec string
		id   int // 0: none
	}{
		{"%%", 2}, {"%+", 2}, {"%", 2}, {"%-", 1}, {"%1", 1}, {"%3", 3}, {"%4", 0},
		{"%sleep", 1}, {"%echo", 2}, {"%?hi", 2}, {"%?12", 0}, {"%x", 0},
		{"101", 2}, {"102", 3}, {"7", 0},
	} {
		got := 0
		if j := Find(list, c.spec); j != nil {
			got = j.ID
		}
		if got != c.id {
			t.Errorf("Find(%q) = %%%d, want %%%d (0: none)", c.spec, got, c.id)
		}
	}
	if j := Find(list[:1], "%-"); j == nil || j.ID != 1 {
		t.Errorf("Find(%%-) of one job: %v, want %%1", j)
	}
}

// TestSequence runs wait, kill and jobs over one table and compares with
// bash 5.2's output for the same commands (bash -c 'sleep 10 & sleep 11 &
// sleep 12 & ...' and bash -c 'trap ... USR1; kill -USR1 $$ ...'; its pids
// written 100, 101, 102 and 4242; "st=N" after a status). jobs -x
// gives a job's process group: without job control the shell's own
// (4242, as for setsid bash -c, whose group is its pid).
func TestSequence(t *testing.T) {
	sh := &fakeShell{done: make(chan struct{}), self: []string{"4242"}}
	list := table("sleep 10", "sleep 11", "sleep 12")
	st := func(n int) { fmt.Fprintf(&sh.out, "st=%d\n", n) }
	st(Wait(sh, list, []string{"%5"}))
	st(Wait(sh, list, []string{"x"}))
	st(Wait(sh, list, []string{"99"}))
	st(Kill(sh, list, []string{"-s", "FOO", "1"}))
	st(Kill(sh, list, []string{"x"}))
	st(List(sh, list, []string{"-x"}, 4242, nil))
	echo := func(args []string) int { fmt.Fprintln(&sh.out, strings.Join(args[1:], " ")); return 3 }
	st(List(sh, list, []string{"-x", "echo", "%1", "%+", "%-", "%sleep", "%?12", "%9", "a%1"}, 4242, echo))
	st(List(sh, list, []string{"-p", "-x", "echo"}, 4242, echo))
	st(List(sh, list, []string{"-px", "echo"}, 4242, echo))
	st(Kill(sh, list, []string{"%9"}))
	st(Kill(sh, list, []string{"-9"}))
	st(Kill(sh, list, []string{"-s"}))
	st(Kill(sh, list, []string{"99999", "%9", "x"}))
	List(sh, list, nil, 4242, nil)
	List(sh, list, []string{"-p"}, 4242, nil)
	Kill(sh, list, []string{"%1"})
	st(Wait(sh, list, []string{"%1"}))
	Kill(sh, list, []string{"-n", "1", "%2"})
	st(Wait(sh, list, []string{"%2"}))
	st(Kill(sh, list, []string{"%2"}))
	st(Kill(sh, list, []string{"100"}))
	st(Kill(sh, list, []string{"-USR1", "4242"}))
	st(Kill(sh, list, []string{"-s", "INT", "4242"}))
	Kill(sh, list, []string{"%3"})
	st(Wait(sh, list, []string{"-n"}))
	st(Wait(sh, list, []string{"-n"}))
	st(Wait(sh, list, nil))
	want := "bash: line 1: wait: %5: no such job\nst=127\n" +
		"bash: line 1: wait: `x': not a pid or valid job spec\nst=1\n" +
		"bash: line 1: wait: pid 99 is not a child of this shell\nst=127\n" +
		"bash: line 1: kill: FOO: invalid signal specification\nst=1\n" +
		"bash: line 1: kill: x: arguments must be process or job IDs\nst=1\n" +
		"st=0\n" +
		"bash: line 1: jobs: sleep: ambiguous job spec\n4242 4242 4242 %sleep 4242 %9 a%1\nst=3\n" +
		"bash: line 1: jobs: no other options allowed with `-x'\nst=1\n" +
		"bash: line 1: jobs: no other options allowed with `-x'\nst=1\n" +
		"bash: line 1: kill: %9: no such job\nst=1\n" +
		"kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\nst=2\n" +
		"bash: line 1: kill: -s: option requires an argument\nst=1\n" +
		"bash: line 1: kill: (99999) - No such process\nbash: line 1: kill: %9: no such job\nbash: line 1: kill: x: arguments must be process or job IDs\nst=1\n" +
		"[1]   Running                 sleep 10 &\n" +
		"[2]-  Running                 sleep 11 &\n" +
		"[3]+  Running                 sleep 12 &\n" +
		"100\n101\n102\n" +
		"st=143\n" +
		"bash: line 1:   101 Hangup                  sleep 11\nst=129\n" +
		"bash: line 1: kill: %2: no such job\nst=1\n" +
		"bash: line 1: kill: (100) - No such process\nst=1\n" +
		"self USR1\nst=0\n" +
		"self INT\nst=130\n" +
		"st=143\nst=127\nst=0\n"
	if sh.out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", sh.out.String(), want)
	}
}
