package bash

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash/read"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

func readBuiltin(r *Runner, args []string) int {
	args = args[1:]
	raw, silent := false, false
	delim := byte('\n')
	nchars, exact := -1, false
	arrayName, prompt := "", ""
	fd := 0
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for k := 1; k < len(a); k++ {
			c := a[k]
			optArg := func() (string, bool) {
				if k+1 < len(a) {
					v := a[k+1:]
					k = len(a)
					return v, true
				}
				if len(args) == 0 {
					r.errf("read: -%c: option requires an argument", c)
					fmt.Fprintln(r.stderr(), "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]")
					return "", false
				}
				v := args[0]
				args = args[1:]
				return v, true
			}
			switch c {
			case 'r':
				raw = true
			case 's':
				silent = true
			case 'e':
			case 'a', 'd', 'n', 'N', 'p', 't', 'u', 'i':
				v, ok := optArg()
				if !ok {
					return 2
				}
				switch c {
				case 'a':
					arrayName = v
				case 'd':
					if v == "" {
						delim = 0
					} else {
						delim = v[0]
					}
				case 'n', 'N':
					n, err := strconv.Atoi(v)
					if err != nil || n < 0 {
						r.errf("read: %s: invalid number", v)
						return 1
					}
					nchars, exact = n, c == 'N'
				case 'p':
					prompt = v
				case 't':
					if _, err := strconv.ParseFloat(v, 64); err != nil {
						r.errf("read: %s: invalid timeout specification", v)
						return 1
					}
				case 'u':
					n, err := strconv.Atoi(v)
					if err != nil {
						r.errf("read: %s: invalid file descriptor specification", v)
						return 1
					}
					fd = n
				}
			default:
				r.errf("read: -%c: invalid option", c)
				fmt.Fprintln(r.stderr(), "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]")
				return 2
			}
		}
	}
	_, _ = silent, prompt
	d, ok := r.fds[fd]
	if !ok || d.r == nil {
		r.errf("read: %d: invalid file descriptor: Bad file descriptor", fd)
		return 1
	}
	line, quotedMask, eof := read.Line(d.r, read.Options{Raw: raw, Delim: delim, N: nchars, Exact: exact})
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
