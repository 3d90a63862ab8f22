package bash

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/agentenkit/agentenkit/shell/bash/trap"
)

// procs is the process table of a Run and of the shells it starts (bash
// -c, scripts: Runs given a context of one of its commands): the process
// ids they all draw from, so that a nested shell's $$ is its own and its
// $PPID the caller's, and the shells a signal can reach by $$.
type procs struct {
	mu     sync.Mutex
	last   int             // the last pid given
	shells map[int]*shared // the running shells by $$
}

// alloc returns a new process id.
func (p *procs) alloc() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.last++
	return p.last
}

// procsKey is the context key of a procRef: the context a shell gives the
// commands it runs.
type procsKey struct{}

// procRef is the calling shell's process table and its process id
// ($BASHPID): a nested shell's $PPID. With exec set, the command is a
// background job's only one, which bash's forked child execs: a shell it
// starts has pid (the job's, $!) as its $$ and ppid as its $PPID.
type procRef struct {
	p         *procs
	pid, ppid int
	exec      bool
	async     bool   // with exec: the command of a background job, which starts with INT and QUIT ignored
	argv0     string // exec -a's name for the command, "" for none
}

// Argv0 is the name exec -a gave the command ctx is the context of, for a
// command that shows its argv[0] (bash -c's $0); false without exec -a.
func Argv0(ctx context.Context) (string, bool) {
	ref, ok := ctx.Value(procsKey{}).(procRef)
	return ref.argv0, ok && ref.argv0 != ""
}

// attachProcs gives sh its process table and ids: the caller's table, a
// new $$ and $PPID the caller's pid when ctx is a command's context of
// another shell; else a new table, $$ 4242 and $PPID 4241. It returns the
// $PPID.
func (sh *shared) attachProcs(ctx context.Context) int {
	ppid := 4241
	if ref, ok := ctx.Value(procsKey{}).(procRef); ok && ref.exec {
		sh.procs, sh.rootPID, ppid = ref.p, ref.pid, ref.ppid
		sh.intIgnored = ref.async
	} else if ok {
		sh.procs, ppid = ref.p, ref.pid
		sh.rootPID = sh.procs.alloc()
	} else {
		sh.procs = &procs{last: 4242, shells: map[int]*shared{}}
		sh.rootPID = 4242
	}
	sh.procs.mu.Lock()
	sh.procs.shells[sh.rootPID] = sh
	sh.procs.mu.Unlock()
	return ppid
}

// detachProcs takes sh out of its table: signals no longer reach it.
func (sh *shared) detachProcs() {
	sh.procs.mu.Lock()
	if sh.procs.shells[sh.rootPID] == sh {
		delete(sh.procs.shells, sh.rootPID)
	}
	sh.procs.mu.Unlock()
}

// cmdContext is the context r gives a command: r's, carrying the process
// table and r's pid for a shell the command starts.
func (r *Runner) cmdContext() context.Context {
	if r.jobExec != 0 || r.execArgv0 != "" {
		ref := procRef{p: r.procs, pid: r.pid, ppid: r.jobExec, exec: r.jobExec != 0, async: r.jobAsync, argv0: r.execArgv0}
		r.jobExec, r.jobAsync, r.execArgv0 = 0, false, "" // the one command only
		return context.WithValue(r.ctx, procsKey{}, ref)
	}
	if r.cmdCtx == nil || r.cmdCtxOf != r.ctx || r.cmdCtxPID != r.pid {
		r.cmdCtx = context.WithValue(r.ctx, procsKey{}, procRef{p: r.procs, pid: r.pid})
		r.cmdCtxOf, r.cmdCtxPID = r.ctx, r.pid
	}
	return r.cmdCtx
}

// noteTraps keeps which signals the main shell traps where other shells'
// kill can read it (signalOther, with handledOnly).
func (r *Runner) noteTraps() {
	r.sigMu.Lock()
	defer r.sigMu.Unlock()
	r.trapped = make(map[string]bool, len(r.traps))
	for k := range r.traps {
		r.trapped[k] = true
	}
}

// signalOther sends the signal name to another shell of the table by its
// $$ (pid as written); false when no running shell has that pid, or with
// handledOnly when that shell neither traps the signal nor goes on after
// it (INT and QUIT: bash waiting for a command that they did not end goes
// on). The signal waits there until that shell's current command ends
// (runPending), as a signal a bash gets while it waits for a child.
func (r *Runner) signalOther(pid, name string, handledOnly bool) bool {
	n, err := strconv.Atoi(pid)
	if err != nil {
		return false
	}
	r.procs.mu.Lock()
	sh := r.procs.shells[n]
	r.procs.mu.Unlock()
	if sh == nil || sh == r.shared {
		return false
	}
	sh.sigMu.Lock()
	if handledOnly && !sh.trapped[name] && name != "INT" && name != "QUIT" {
		sh.sigMu.Unlock()
		return false
	}
	sh.pendingSigs = append(sh.pendingSigs, name)
	sh.sigMu.Unlock()
	sh.sigPending.Store(true)
	return true
}

// runPending runs what the signals other shells sent do, in the main
// shell (not a subshell, which has a pid of its own): the trap set for
// each, nothing for one ignored or ignored by default, nor for INT and
// QUIT (bash goes on when the command it waited for did not end by
// them), else the shell exits with 128+N as the signal ends it.
func (r *Runner) runPending() {
	if !r.sigPending.Load() || r.pid != r.rootPID {
		return
	}
	r.sigMu.Lock()
	sigs := r.pendingSigs
	r.pendingSigs = nil
	r.sigPending.Store(false)
	r.sigMu.Unlock()
	for _, name := range sigs {
		if r.exiting {
			return
		}
		if r.intIgnored && (name == "INT" || name == "QUIT") {
			continue // ignored at entry: a trap cannot catch them
		}
		if t, ok := r.traps[name]; ok {
			if t != "" {
				r.trapName = "signal trap"
				r.runTrap(t)
			}
			continue
		}
		if trap.IgnoredByDefault[name] || name == "INT" || name == "QUIT" {
			continue
		}
		r.exit(128 + trap.Numbers[name])
	}
}

// sigState is what shared keeps of the signals sent to the shell.
type sigState struct {
	sigMu       sync.Mutex
	pendingSigs []string
	sigPending  atomic.Bool
	trapped     map[string]bool // the main shell's trapped signals (noteTraps)
	intIgnored  bool            // a background job's shell: INT and QUIT ignored from its start
}
