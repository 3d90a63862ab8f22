package bash

import (
	"errors"
	"io"

	"github.com/agentenkit/agentenkit/shell/bash/alias"
	"github.com/agentenkit/agentenkit/shell/bash/dirs"
	"github.com/agentenkit/agentenkit/shell/bash/getopts"
	"github.com/agentenkit/agentenkit/shell/bash/mapfile"
	"github.com/agentenkit/agentenkit/shell/bash/shopt"
	"github.com/agentenkit/agentenkit/shell/bash/trap"
	"github.com/agentenkit/agentenkit/shell/bash/ulimit"
	"github.com/agentenkit/agentenkit/shell/bash/umask"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
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

func pushdBuiltin(r *Runner, args []string) int { return dirs.Pushd(host{r}, &r.dirStack, args[1:]) }
func popdBuiltin(r *Runner, args []string) int  { return dirs.Popd(host{r}, &r.dirStack, args[1:]) }
func dirsBuiltin(r *Runner, args []string) int  { return dirs.Dirs(host{r}, &r.dirStack, args[1:]) }

func getoptsBuiltin(r *Runner, args []string) int {
	return getopts.Run(host{r}, r.name, args[1:], r.params)
}

// mapfileBuiltin is mapfile over the runner's file descriptors and
// variables: without -O the array is replaced, with it kept and filled
// from the origin.
func mapfileBuiltin(r *Runner, args []string) int {
	o, err := mapfile.Parse(args[1:])
	if ue := (*mapfile.UsageError)(nil); errors.As(err, &ue) {
		r.errf("%s", ue.Msg)
		return 2
	}
	d, ok := r.fds[o.FD]
	if !ok || d.r == nil {
		r.errf("mapfile: %d: invalid file descriptor: Bad file descriptor", o.FD)
		return 1
	}
	v := r.lookupVar(o.Name)
	if v == nil || o.Origin == 0 {
		nv := &vars.Var{Set: true, Kind: vars.Indexed, Idx: map[int]string{}}
		if v != nil {
			if v.ReadOnly {
				r.errf("mapfile: %s: readonly variable", o.Name)
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
	for i, line := range mapfile.Lines(d.r, o) {
		v.Idx[o.Origin+i] = line
	}
	return 0
}

// trapBuiltin is trap over the runner's traps.
func trapBuiltin(r *Runner, args []string) int {
	return trap.Run(r.traps, &r.shownTraps, args[1:], r.stdout(), r.stderr(), r.errf)
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
