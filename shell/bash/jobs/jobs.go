// Package jobs is bash's table of background jobs and the builtins over
// it: wait, kill, jobs, and the job specs they take (%N, %%, %+, %-,
// %name, %?text).
//
// # Contracts
//
//   - A Job's Done is closed once, by Run, after its Status is final;
//     nothing here closes it or writes Status of a running job.
//   - The builtins write only to the Shell's streams and report errors
//     through Errf (the shell prefixes "bash: line N: "); they return the
//     builtin's exit status as bash 5.2's.
//   - Wait returns when the jobs it waits for end or the shell's Done is
//     closed (status 128); no goroutine it starts outlives a job.
package jobs

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
	"github.com/agentenkit/agentenkit/shell/bash/trap"
)

// Job is a background job: a command run with &.
type Job struct {
	ID     int    // its number in the table: %ID
	PID    int    // its process id: $!
	Text   string // the command as jobs lists it
	Cancel context.CancelFunc
	Sig    atomic.Int32 // the signal kill sent, 0 for none
	Done   chan struct{}
	Status int
	Waited bool // wait reaped it, or disown took it out of the table
}

// New returns a job not yet run; cancel ends its command.
func New(id, pid int, text string, cancel context.CancelFunc) *Job {
	return &Job{ID: id, PID: pid, Text: text, Cancel: cancel, Done: make(chan struct{})}
}

// Run runs the job's command (fn returns its status) and marks the job
// done: its Status is fn's, or 128+N when kill sent it signal N.
func (j *Job) Run(fn func() int) {
	defer close(j.Done)
	j.Status = fn()
	if sig := j.Sig.Load(); sig != 0 {
		j.Status = 128 + int(sig)
	}
}

// Finished reports whether the job's command has ended.
func (j *Job) Finished() bool {
	select {
	case <-j.Done:
		return true
	default:
		return false
	}
}

// Shell is what the job builtins need of the shell.
type Shell interface {
	// Errf reports an error (the shell prefixes "bash: line N: ").
	Errf(format string, a ...any)
	Stdout() io.Writer
	Stderr() io.Writer
	// Done is closed when the shell is told to stop.
	Done() <-chan struct{}
}

// KillShell is what kill needs besides Shell: the shell's own process
// ids and what a signal sent to the shell itself does.
type KillShell interface {
	Shell
	// Self reports whether pid (as written) is the shell's own.
	Self(pid string) bool
	// SignalSelf delivers the signal (its name, "TERM") to the shell: it
	// runs the shell's trap for it and returns false, or with no trap
	// makes the shell exit and returns true.
	SignalSelf(name string) (exited bool)
	// Signal delivers the signal to another shell by its process id (as
	// written); false when no shell has it, or with handledOnly when that
	// shell would end by it (then a job is cancelled instead).
	Signal(pid, name string, handledOnly bool) (found bool)
}

// NextID is the number a new job gets: one more than the highest of the
// jobs still in bash's table (not reaped by wait and not ended: a
// non-interactive bash drops an ended job before it starts the next), 1
// when there is none.
func NextID(list []*Job) int {
	id := 0
	for _, j := range list {
		if !j.Waited && !j.Finished() {
			id = max(id, j.ID)
		}
	}
	return id + 1
}

// Find finds a job of list by process id or by job spec: %N, %% or %+
// (the current job, the last started), %- (the one before), %name (the
// job whose command starts with name), %?text (the one containing
// text). Jobs already reaped by wait count only for %N and a pid.
func Find(list []*Job, spec string) *Job {
	var live []*Job
	for _, j := range list {
		if !j.Waited {
			live = append(live, j)
		}
	}
	if !strings.HasPrefix(spec, "%") {
		for _, j := range slices.Backward(list) {
			if spec == strconv.Itoa(j.PID) {
				return j
			}
		}
		return nil
	}
	s := spec[1:]
	switch {
	case s == "%" || s == "+" || s == "":
		if len(live) > 0 {
			return live[len(live)-1]
		}
	case s == "-":
		if len(live) > 1 {
			return live[len(live)-2]
		}
		if len(live) > 0 {
			return live[0]
		}
	case s[0] >= '0' && s[0] <= '9':
		for _, j := range slices.Backward(list) { // the latest with the number
			if s == strconv.Itoa(j.ID) {
				return j
			}
		}
	case s[0] == '?':
		for _, j := range live {
			if strings.Contains(j.Text, s[1:]) {
				return j
			}
		}
	default:
		for _, j := range live {
			if strings.HasPrefix(j.Text, s) {
				return j
			}
		}
	}
	return nil
}

// VarShell is what wait -p needs besides Shell: setting and unsetting
// a variable. A Shell without it makes wait -p a usage error.
type VarShell interface {
	SetVar(name, value string) error
	UnsetVar(name string)
}

// Wait is wait [-fn] [-p var] [id ...] (args without the command's
// name) over the shell's jobs: with no id every job, with -n the next
// to end (127 when none is left), else each id (a pid or a job spec) in
// turn; the status is the last job's (wait -n id ...: the next of those
// to end, an id naming none "no such job"). -p var is unset, then set to the
// process id of the job whose status wait returns; -f changes nothing
// (no job control). A job a signal ended is reported as bash's wait
// reports it.
func Wait(sh Shell, list []*Job, args []string) int {
	opts, args, err := builtinopt.Parse("fnp:", args)
	if err != nil {
		return builtinopt.Usage(sh.Errf, sh.Stdout(), sh.Stderr(), "wait", "wait [-fn] [-p var] [id ...]", err)
	}
	setPID := func(*Job) {}
	if name, ok := opts.Value('p'); ok {
		vs, can := sh.(VarShell)
		if !can || !validName(name) {
			sh.Errf("wait: `%s': not a valid identifier", name)
			return 1
		}
		vs.UnsetVar(name)
		setPID = func(j *Job) {
			if err := vs.SetVar(name, strconv.Itoa(j.PID)); err != nil {
				sh.Errf("wait: %v", err)
			}
		}
	}
	if opts.Has('n') {
		if len(args) == 0 {
			return waitNext(sh, list, setPID)
		}
		// wait -n id ...: the next of those jobs to end; an id naming
		// no job that wait has not reaped is "no such job"
		var some []*Job
		for _, a := range args {
			var j *Job
			if strings.HasPrefix(a, "%") {
				j = Find(list, a)
			} else if n, err := strconv.Atoi(a); err == nil {
				for _, c := range list {
					if c.PID == n {
						j = c
					}
				}
			}
			if j == nil || j.Waited {
				sh.Errf("wait: %s: no such job", a)
				continue
			}
			some = append(some, j)
		}
		return waitNext(sh, some, setPID)
	}
	if len(args) == 0 {
		for _, j := range list {
			if j.Waited {
				continue
			}
			select {
			case <-j.Done:
			case <-sh.Done():
				return 128
			}
			j.Waited = true
		}
		return 0
	}
	status := 0
	for _, a := range args {
		var found *Job
		if strings.HasPrefix(a, "%") {
			found = Find(list, a)
			if found == nil || found.Waited {
				sh.Errf("wait: %s: no such job", a)
				status = 127
				continue
			}
		} else {
			n, err := strconv.Atoi(a)
			if err != nil {
				sh.Errf("wait: `%s': not a pid or valid job spec", a)
				status = 1
				continue
			}
			for _, j := range list {
				if j.PID == n {
					found = j
				}
			}
		}
		if found == nil {
			sh.Errf("wait: pid %s is not a child of this shell", a)
			status = 127
			continue
		}
		<-found.Done
		found.Waited = true
		status = found.Status
		setPID(found)
		reportSignaled(sh, found)
	}
	return status
}

// waitNext is wait -n: the status of the next job to end that wait has
// not reaped (setPID is given it), 127 when there is none.
func waitNext(sh Shell, list []*Job, setPID func(*Job)) int {
	var pending []*Job
	for _, j := range list {
		if !j.Waited {
			pending = append(pending, j)
		}
	}
	if len(pending) == 0 {
		return 127
	}
	for {
		for _, j := range pending {
			if j.Finished() {
				j.Waited = true
				setPID(j)
				return j.Status
			}
		}
		select {
		case <-pending[0].Done:
		case <-sh.Done():
			return 128
		case <-waitAny(pending):
		}
	}
}

// validName reports a shell variable name: a letter or _, then letters,
// digits and _.
func validName(s string) bool {
	for i, c := range s {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

// reportSignaled prints bash's line for a job a signal ended, as wait
// reaps it: "bash: line N:  PID Hangup                  sleep 1".
func reportSignaled(sh Shell, j *Job) {
	sig := int(j.Sig.Load())
	if sig <= 0 || sig >= len(trap.Names) {
		return
	}
	if text, ok := trap.Text[trap.Names[sig]]; ok {
		sh.Errf("%5d %-24s%s", j.PID, text, j.Text)
	}
}

// waitAny is closed when one of js ends.
func waitAny(js []*Job) <-chan struct{} {
	ch := make(chan struct{})
	for _, j := range js {
		go func(j *Job) {
			<-j.Done
			defer func() { recover() }()
			close(ch)
		}(j)
	}
	return ch
}

// Kill is kill [-s sig | -n num | -sig] id ... and kill -l/-L (args
// without the command's name): a job (pid or spec) is cancelled as its
// signal ends it (a signal ignored by default does nothing); the shell's
// own pid gets the signal itself. As bash 5.2's: each id that is not a
// running job is reported and the others are still signalled; the
// status is 0 when one id was signalled, else 1; no id is a usage error
// (2). A job spec of a job that has ended is "no such job" (bash reaps a
// finished job before the next command), its pid "No such process".
func Kill(sh KillShell, list []*Job, args []string) int {
	sig := "TERM"
	if len(args) > 0 && (args[0] == "-l" || args[0] == "-L") {
		return trap.List(args[1:], sh.Stdout(), sh.Errf)
	}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		a := args[0][1:]
		if a == "-" {
			args = args[1:]
			break
		}
		if a == "s" || a == "n" {
			if len(args) < 2 {
				sh.Errf("kill: %s: option requires an argument", args[0])
				return 1
			}
			sig = args[1]
			args = args[2:]
			continue
		}
		sig = a
		args = args[1:]
	}
	name, ok := trap.Name(sig)
	if !ok {
		sh.Errf("kill: %s: invalid signal specification", sig)
		return 1
	}
	if len(args) == 0 {
		fmt.Fprintln(sh.Stderr(), "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]")
		return 2
	}
	sent := false
	for _, a := range args {
		j := Find(list, a)
		if strings.HasPrefix(a, "%") {
			if j == nil || j.Finished() {
				sh.Errf("kill: %s: no such job", a)
				continue
			}
		}
		if j != nil {
			if j.Finished() {
				sh.Errf("kill: (%d) - No such process", j.PID)
				continue
			}
			sent = true
			if trap.IgnoredByDefault[name] || name == "EXIT" {
				continue
			}
			if sh.Signal(strconv.Itoa(j.PID), name, true) {
				continue // the job is a shell that traps it
			}
			j.Sig.Store(int32(trap.Numbers[name]))
			j.Cancel()
			continue
		}
		if sh.Self(a) {
			sent = true
			if sh.SignalSelf(name) {
				return 128 + trap.Numbers[name]
			}
			continue
		}
		if sh.Signal(a, name, false) {
			sent = true
			continue
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(a, "-")); err != nil || a == "-" {
			sh.Errf("kill: %s: arguments must be process or job IDs", a)
		} else {
			sh.Errf("kill: (%d) - No such process", n)
		}
	}
	if !sent {
		return 1
	}
	return 0
}

// Disown is disown [-ar] [-h] [jobspec | pid ...] (args without the
// command's name): each job named (with none the current one; -a every
// job, -r every running one) leaves the table, so that jobs, wait and
// job specs no longer see it; -h keeps it (a non-interactive shell sends
// no SIGHUP, so -h changes nothing else). A name that is no job is
// reported ("%9: no such job"; "current" for the current one), status 1.
func Disown(sh Shell, list []*Job, args []string) int {
	opts, args, err := builtinopt.Parse("ahr", args)
	if err != nil {
		return builtinopt.Usage(sh.Errf, sh.Stdout(), sh.Stderr(), "disown", "disown [-h] [-ar] [jobspec ... | pid ...]", err)
	}
	keep, all, running := opts.Has('h'), opts.Has('a'), opts.Has('r')
	drop := func(j *Job) {
		if !keep {
			j.Waited = true
		}
	}
	if len(args) == 0 && (all || running) {
		for _, j := range list {
			if !j.Waited && (all || !j.Finished()) {
				drop(j)
			}
		}
		return 0
	}
	if len(args) == 0 {
		j := Find(list, "%+")
		if j == nil {
			sh.Errf("disown: current: no such job")
			return 1
		}
		drop(j)
		return 0
	}
	status := 0
	for _, a := range args {
		j := Find(list, a)
		if j == nil || j.Waited {
			sh.Errf("disown: %s: no such job", a)
			status = 1
			continue
		}
		drop(j)
	}
	return status
}

// Exec is jobs -x command [args] (args after -x): each argument that is
// the job spec of a running job becomes the job's process group id and
// run runs the command line; its status is the command's. Without job
// control (bash -c) a job's process group is the shell's own, pgid. A
// spec that names no job stays as written; one that names more than one
// is reported as ambiguous and stays too.
func Exec(sh Shell, list []*Job, args []string, pgid int, run func(args []string) int) int {
	if len(args) == 0 {
		return 0
	}
	var live []*Job
	for _, j := range list {
		if !j.Finished() && !j.Waited {
			live = append(live, j)
		}
	}
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = a
		if !strings.HasPrefix(a, "%") {
			continue
		}
		if s := a[1:]; s != "" && s[0] != '%' && s[0] != '+' && s[0] != '-' && (s[0] < '0' || s[0] > '9') {
			n := 0
			for _, j := range live {
				if s[0] == '?' && strings.Contains(j.Text, s[1:]) || s[0] != '?' && strings.HasPrefix(j.Text, s) {
					n++
				}
			}
			if n > 1 {
				sh.Errf("jobs: %s: ambiguous job spec", s)
				continue
			}
		}
		if j := Find(live, a); j != nil {
			out[i] = strconv.Itoa(pgid)
		}
	}
	return run(out)
}

// List is the jobs builtin, jobs [-lnprs] [jobspec ...] (args without the
// command's name): the running jobs of list as bash lists them ('+' the
// current, '-' the previous; -l adds the process id, -p prints it alone;
// -s lists stopped jobs, of which there are none), or only the jobs the
// operands name (%N or N, %%, %+, %-, %name, %?text), in their order and
// whatever -r or -s say. An operand that names no running job is "no such
// job" (status 1); one that names more than one is ambiguous too. A
// finished job is not listed: a non-interactive bash has reaped it. jobs
// -x command [args] is Exec, with the shell's process group pgid and run
// to run the command; -x after -l, -n or -p is bash's error (status 1).
func List(sh Shell, list []*Job, args []string, pgid int, run func(args []string) int) int {
	opts, args, err := builtinopt.Parse("lpnxrs", args)
	if err != nil {
		return builtinopt.Usage(sh.Errf, sh.Stdout(), sh.Stderr(), "jobs", "jobs [-lnprs] [jobspec ...] or jobs -x command [args]", err)
	}
	pids, long, stopped, form := false, false, false, false // form: -l, -n or -p given (bash's listing form)
	exec := false
	for _, o := range opts {
		switch o.Letter {
		case 'x':
			if form {
				sh.Errf("jobs: no other options allowed with `-x'")
				return 1
			}
			exec = true
		case 'p':
			pids, form = true, true
		case 'l':
			long, form = true, true
		case 'n':
			form = true
		case 's':
			stopped = true
		}
	}
	if exec {
		return Exec(sh, list, args, pgid, run)
	}
	show := func(i int, j *Job) {
		if pids {
			fmt.Fprintln(sh.Stdout(), j.PID)
			return
		}
		mark := ' '
		switch i {
		case len(list) - 1:
			mark = '+'
		case len(list) - 2:
			mark = '-'
		}
		if long {
			fmt.Fprintf(sh.Stdout(), "[%d]%c %5d %-24s%s &\n", j.ID, mark, j.PID, "Running", j.Text)
			return
		}
		fmt.Fprintf(sh.Stdout(), "[%d]%c  %-24s%s &\n", j.ID, mark, "Running", j.Text)
	}
	if len(args) == 0 {
		if stopped {
			return 0 // no job is ever stopped
		}
		for i, j := range list {
			if !j.Finished() && !j.Waited {
				show(i, j)
			}
		}
		return 0
	}
	status := 0
	for _, a := range args {
		spec := a
		if spec != "" && strings.Trim(spec, "0123456789") == "" {
			spec = "%" + spec // a number alone is a job number
		}
		if name, many := ambiguous(list, spec); many {
			sh.Errf("jobs: %s: ambiguous job spec", name)
			sh.Errf("jobs: %s: no such job", a)
			status = 1
			continue
		}
		j := Find(list, spec)
		if j == nil || j.Finished() || j.Waited {
			sh.Errf("jobs: %s: no such job", a)
			status = 1
			continue
		}
		show(slices.Index(list, j), j)
	}
	return status
}

// ambiguous reports whether spec, a %name or %?text job spec, names more
// than one running job, and the name bash reports it by (without "%" and
// "?").
func ambiguous(list []*Job, spec string) (string, bool) {
	s, ok := strings.CutPrefix(spec, "%")
	if !ok || s == "" || s[0] == '%' || s[0] == '+' || s[0] == '-' || s[0] >= '0' && s[0] <= '9' {
		return "", false
	}
	text, sub := strings.CutPrefix(s, "?")
	n := 0
	for _, j := range list {
		if !j.Finished() && !j.Waited && (sub && strings.Contains(j.Text, text) || !sub && strings.HasPrefix(j.Text, text)) {
			n++
		}
	}
	return text, n > 1
}
