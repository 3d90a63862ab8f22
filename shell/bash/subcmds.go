package bash

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash/alias"
	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
	"github.com/agentenkit/agentenkit/shell/bash/dirs"
	"github.com/agentenkit/agentenkit/shell/bash/getopts"
	"github.com/agentenkit/agentenkit/shell/bash/jobs"
	"github.com/agentenkit/agentenkit/shell/bash/lookup"
	"github.com/agentenkit/agentenkit/shell/bash/mapfile"
	"github.com/agentenkit/agentenkit/shell/bash/parse"
	"github.com/agentenkit/agentenkit/shell/bash/redir"
	"github.com/agentenkit/agentenkit/shell/bash/shopt"
	"github.com/agentenkit/agentenkit/shell/bash/trap"
	"github.com/agentenkit/agentenkit/shell/bash/ulimit"
	"github.com/agentenkit/agentenkit/shell/bash/umask"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// ulimitBuiltin is ulimit over the runner's limits (subshells get a
// copy).
func ulimitBuiltin(r *Runner, args []string) int {
	return ulimit.Run(&r.limits, args[1:], r.stdout(), r.stderr(), r.errf)
}

// umaskBuiltin is umask over the runner's mask.
func umaskBuiltin(r *Runner, args []string) int {
	out, status := umask.Run(args[1:], r.umask, r.stderr(), r.errf)
	if status != 0 || out == "" {
		return status
	}
	return r.writeOut(out)
}

// host is the runner as the builtin packages see it (their Shell
// interfaces).
type host struct{ r *Runner }

func (h host) Errf(format string, a ...any)   { h.r.errf(format, a...) }
func (h host) Stdout() io.Writer              { return h.r.stdout() }
func (h host) Stderr() io.Writer              { return h.r.stderr() }
func (h host) Var(name string) (string, bool) { return h.r.getVar(name) }
func (h host) SetVar(name, val string) error  { return h.r.setVar(name, val) }
func (h host) UnsetVar(name string)           { h.r.unsetVar(name) }
func (h host) SetGlobal(name, val string) {
	h.r.vars.Global().Vars[name] = &vars.Var{Set: true, Str: val}
}
func (h host) Dir() string       { return h.r.dir }
func (h host) Cd(dir string) int { return cdBuiltin(h.r, []string{"cd", dir}) }
func (h host) Home() string {
	home, _ := h.r.getVar("HOME")
	return home
}

func pushdBuiltin(r *Runner, args []string) int {
	return dirs.Pushd(cdHost{host{r}}, &r.dirStack, args[1:])
}
func popdBuiltin(r *Runner, args []string) int {
	return dirs.Popd(cdHost{host{r}}, &r.dirStack, args[1:])
}
func dirsBuiltin(r *Runner, args []string) int {
	return dirs.Dirs(cdHost{host{r}}, &r.dirStack, args[1:])
}

func getoptsBuiltin(r *Runner, args []string) int {
	return getopts.Run(host{r}, r.name, args[1:], r.params)
}

// mapfileBuiltin is mapfile over the runner's file descriptors and
// variables: without -O the array is replaced, with it kept and filled
// from the origin.
func mapfileBuiltin(r *Runner, args []string) int {
	o, err := mapfile.Parse(args[1:])
	if me := (*mapfile.Error)(nil); errors.As(err, &me) {
		r.errf("%s: %s", args[0], me.Msg)
		return 1
	} else if err != nil {
		return builtinopt.Usage(r.errf, r.stdout(), r.stderr(), args[0], mapfile.Synopsis(args[0]), err)
	}
	d, ok := r.fds[o.FD]
	if !ok || d.R == nil {
		r.errf("%s: %d: invalid file descriptor: Bad file descriptor", args[0], o.FD)
		return 1
	}
	v := r.lookupVar(o.Name)
	if v == nil || o.Origin == 0 {
		nv := &vars.Var{Set: true, Kind: vars.Indexed, Idx: map[int]string{}}
		if v != nil {
			if v.ReadOnly {
				r.errf("%s: %s: readonly variable", args[0], o.Name)
				return 1
			}
			*v = *nv
		} else {
			v = nv
			r.vars.Global().Vars[o.Name] = v
		}
	}
	if v.Idx == nil {
		v.Kind, v.Idx = vars.Indexed, map[int]string{}
	}
	v.Set = true
	for i, line := range mapfile.Lines(d.R, o) {
		v.Idx[o.Origin+i] = line
	}
	return 0
}

// trapBuiltin is trap over the runner's traps.
func trapBuiltin(r *Runner, args []string) int {
	st := trap.Run(r.traps, &r.shownTraps, args[1:], r.stdout(), r.stderr(), r.errf)
	if r.pid == r.rootPID {
		r.noteTraps()
	}
	return st
}

func (h host) Opt(name string) bool             { return h.r.opt[name] }
func (h host) SetOpt(name string, on bool)      { h.r.setOpt(name, on) }
func (h host) Shopt(name string) bool           { return h.r.shopt[name] }
func (h host) SetShopt(name string, on bool)    { h.r.shopt[name] = on }
func shoptBuiltin(r *Runner, args []string) int { return shopt.Run(host{r}, args[1:]) }

func aliasBuiltin(r *Runner, args []string) int {
	return alias.Alias(r.aliases, args[1:], r.stdout(), r.errf)
}

func unaliasBuiltin(r *Runner, args []string) int {
	return alias.Unalias(&r.aliases, args[1:], r.stderr(), r.errf)
}

// jobHost is the runner as the job builtins see it (jobs.KillShell).
type jobHost struct{ host }

func (h jobHost) Done() <-chan struct{}           { return h.r.ctx.Done() }
func (h jobHost) SetVar(name, value string) error { return h.r.setVar(name, value) }
func (h jobHost) UnsetVar(name string)            { h.r.unsetVar(name) }
func (h jobHost) Self(pid string) bool {
	return pid == strconv.Itoa(h.r.rootPID) || pid == strconv.Itoa(h.r.pid)
}

// Signal sends the signal to another shell of the process table by its
// $$ (a bash -c this shell or one of its callers started).
func (h jobHost) Signal(pid, name string, handledOnly bool) bool {
	return h.r.signalOther(pid, name, handledOnly)
}

// SignalSelf runs the shell's trap for the signal, or without one makes
// the shell exit as the signal ends it.
func (h jobHost) SignalSelf(name string) bool {
	if t, ok := h.r.traps[name]; ok {
		h.r.runTrap(t)
		return false
	}
	h.r.exit(128 + trap.Numbers[name])
	return true
}

func waitBuiltin(r *Runner, args []string) int { return jobs.Wait(jobHost{host{r}}, r.jobs, args[1:]) }
func killBuiltin(r *Runner, args []string) int { return jobs.Kill(jobHost{host{r}}, r.jobs, args[1:]) }
func disownBuiltin(r *Runner, args []string) int {
	return jobs.Disown(jobHost{host{r}}, r.jobs, args[1:])
}

// noJobControl is fg and bg: bash -c runs without job control.
func noJobControl(r *Runner, args []string) int {
	r.errf("%s: no job control", args[0])
	return 1
}

func jobsBuiltin(r *Runner, args []string) int {
	return jobs.List(jobHost{host{r}}, r.visibleJobs(), args[1:], r.rootPID, func(args []string) int {
		r.runArgs(args, nil)
		return r.status
	})
}

// visibleJobs are the jobs the jobs builtin lists: the shell's own, or
// in a pipeline stage or command substitution its parent's (bash forks
// those with the job table).
func (r *Runner) visibleJobs() []*jobs.Job {
	if len(r.jobs) == 0 {
		return r.shownJobs
	}
	return r.jobs
}

// lookupHost is the runner as the lookup builtins see it (lookup.Shell).
type lookupHost struct{ host }

func (h lookupHost) Alias(name string) (string, bool) {
	a, ok := h.r.aliases[name]
	return a, ok && h.r.shopt["expand_aliases"]
}
func (h lookupHost) IsFunc(name string) bool     { _, ok := h.r.funcs[name]; return ok }
func (h lookupHost) FuncText(name string) string { return parse.FuncText(name, h.r.funcs[name]) }
func (h lookupHost) IsBuiltin(name string) bool  { _, ok := builtins[name]; return ok }
func (h lookupHost) Path() string                { p, _ := h.r.getVar("PATH"); return p }
func (h lookupHost) Find(name, pathList string) (kind, where string) {
	if h.r.opts.Lookup == nil {
		return "", ""
	}
	return h.r.opts.Lookup(name, pathList, h.r.dir)
}

func typeBuiltin(r *Runner, args []string) int { return lookup.Type(lookupHost{host{r}}, args[1:]) }
func hashBuiltin(r *Runner, args []string) int {
	return lookup.Hash(lookupHost{host{r}}, &r.hash, args[1:])
}
func helpBuiltin(r *Runner, args []string) int {
	return lookup.Help(lookupHost{host{r}}, slices.Collect(maps.Keys(builtins)), args[1:])
}

// commandBuiltin is command [-pVv] command [arg ...]: with -v or -V what
// runs each name; else the command, skipping functions. -p looks it up
// in the standard $PATH (getconf PATH).
func commandBuiltin(r *Runner, args []string) int {
	h := lookupHost{host{r}}
	std, v, bigV, args, ok := lookup.CommandFlags(h, args[1:])
	if !ok {
		return 2
	}
	if len(args) == 0 {
		return 0
	}
	if std {
		saved, had := r.getVar("PATH")
		defer func() {
			if had {
				_ = r.setVar("PATH", saved)
			} else {
				r.unsetVar("PATH")
			}
		}()
		_ = r.setVar("PATH", "/bin:/usr/bin")
	}
	if v || bigV {
		return lookup.Command(h, args, v, bigV)
	}
	if b, ok := builtins[args[0]]; ok {
		return b(r, args)
	}
	r.external(args, nil)
	return r.status
}

// hashed applies the table of remembered command paths to a command
// line (hashall): args[0] becomes the path it was found at before. When
// it searched $PATH for the name now, found is that search, to be handed
// to the command's Call (command.Call.SetFound).
func (r *Runner) hashed(args []string) (_ []string, found command.Found, searched bool) {
	name := args[0]
	if strings.Contains(name, "/") || !r.opt["hashall"] || r.opts.Lookup == nil {
		return args, found, false
	}
	p, pathList, where, searched := r.hash.Run(lookupHost{host{r}}, name)
	if p != name {
		return append([]string{p}, args[1:]...), found, false
	}
	return args, command.Found{Name: name, PathList: pathList, Dir: r.dir, Path: where}, searched
}

// cdHost is the runner as cd and pwd see it (dirs.CdShell).
type cdHost struct{ host }

func (h cdHost) Export(name string) {
	if v := h.r.lookupVar(name); v != nil {
		v.Exported = true
	}
}

// Dir is the folder as cd, pwd and the directory stack show it: with
// the leading // cd kept.
func (h cdHost) Dir() string {
	if h.r.dirSlash {
		return "/" + h.r.dir
	}
	return h.r.dir
}

// SetDir changes folder; the runner keeps the path with one leading
// slash (as the filesystem and commands see it) and remembers a //.
func (h cdHost) SetDir(dir string) {
	h.r.dirSlash = strings.HasPrefix(dir, "//")
	if h.r.dirSlash {
		dir = dir[1:]
	}
	h.r.dir = dir
}
func (h cdHost) Physical() bool                    { return h.r.opt["physical"] }
func (h cdHost) ErrText(err error) string          { return redir.ErrText(err) }
func (h cdHost) Readlink(p string) (string, error) { return posixfs.Readlink(h.r.fs, p) }
func (h cdHost) Realpath(p string) (string, error) {
	return posixfs.Realpath(h.r.fs, p, true)
}

// Stat stats p as commands see the filesystem: with /dev and its
// devices when the filesystem has no /dev of its own.
func (h cdHost) Stat(p string) (fs.FileInfo, error) {
	fi, err := h.r.fs.Stat(p)
	if err != nil && strings.HasPrefix(p, "/dev") {
		return posixfs.WithDev(h.r.fs, nil, nil, nil).Stat(p)
	}
	return fi, err
}

func cdBuiltin(r *Runner, args []string) int { return dirs.Cd(cdHost{host{r}}, args[1:]) }
func pwdBuiltin(r *Runner, args []string) int {
	out, st := dirs.Pwd(cdHost{host{r}}, args[1:])
	if st != 0 {
		return st
	}
	return r.writeOut(out)
}

// setHost is the runner as the set builtin sees it (shopt.SetShell).
type setHost struct{ host }

func (h setHost) SetParams(p []string) { h.r.params = p }
func (h setHost) ListVars() {
	for _, n := range h.r.vars.Names() {
		if v := h.r.lookupVar(n); v != nil && v.Set {
			fmt.Fprintln(h.r.stdout(), vars.SetLine(n, v))
		}
	}
}

func setBuiltin(r *Runner, args []string) int { return shopt.Set(setHost{host{r}}, args[1:]) }
