package bash

import (
	"errors"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
	"github.com/agentenkit/agentenkit/shell/bash/read"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

// readBuiltin is read over the runner's file descriptors and variables.
func readBuiltin(r *Runner, args []string) int {
	a, err := read.Parse(args[1:])
	if re := (*read.Error)(nil); errors.As(err, &re) {
		r.errf("%s", re.Msg)
		return 1
	} else if err != nil {
		return builtinopt.Usage(r.errf, r.stdout(), r.stderr(), "read", read.Synopsis, err)
	}
	fd, exact, arrayName := a.FD, a.Exact, a.Array
	args = a.Names
	d, ok := r.fds[fd]
	if !ok || d.R == nil {
		r.errf("read: %d: invalid file descriptor: Bad file descriptor", fd)
		return 1
	}
	line, quotedMask, eof := read.Line(d.R, a.Options)
	status := 0
	if eof {
		status = 1
	}
	s := line
	if exact {
		name := "REPLY"
		if len(args) > 0 {
			name = args[0]
		}
		if err := r.setVar(name, s); err != nil {
			r.reportSoft(err)
			return 1
		}
		return status
	}
	ifs := r.ifs()
	if arrayName != "" {
		fields := read.Split(s, quotedMask, ifs, -1)
		v := r.lookupVar(arrayName)
		if v != nil && v.ReadOnly {
			r.errf("read: %s: readonly variable", arrayName)
			return 1
		}
		nv := &vars.Var{Set: true, Kind: vars.Indexed, Idx: map[int]string{}}
		for i, f := range fields {
			nv.Idx[i] = f
		}
		if v != nil {
			*v = *nv
		} else {
			r.vars.Global().Vars[arrayName] = nv
		}
		return status
	}
	if len(args) == 0 {
		if err := r.setVar("REPLY", s); err != nil {
			r.reportSoft(err)
			return 1
		}
		return status
	}
	fields := read.Split(s, quotedMask, ifs, len(args))
	for i, name := range args {
		val := ""
		if i < len(fields) {
			val = fields[i]
		}
		if err := r.setVar(name, val); err != nil {
			r.reportSoft(err)
			return 1
		}
	}
	return status
}

func (r *Runner) unsetVar(name string) {
	if _, i := r.vars.Lookup(name); i >= 0 {
		delete(r.vars.Frames[i].Vars, name)
	}
}
