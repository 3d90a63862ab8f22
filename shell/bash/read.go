package bash

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash/read"
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
		nv := &Var{Set: true, Kind: kIndexed, Idx: map[int]string{}}
		for i, f := range fields {
			nv.Idx[i] = f
		}
		if v != nil {
			*v = *nv
		} else {
			r.vars.global().vars[arrayName] = nv
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

func mapfileBuiltin(r *Runner, args []string) int {
	args = args[1:]
	delim := byte('\n')
	trim := false
	count, origin, skip := -1, 0, 0
	fd := 0
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		a := args[0]
		args = args[1:]
		c := a[1]
		val := a[2:]
		if strings.IndexByte("dnOsuCc", c) >= 0 && val == "" {
			if len(args) == 0 {
				r.errf("%s: -%c: option requires an argument", "mapfile", c)
				return 2
			}
			val = args[0]
			args = args[1:]
		}
		switch c {
		case 't':
			trim = true
		case 'd':
			if val == "" {
				delim = 0
			} else {
				delim = val[0]
			}
		case 'n':
			count, _ = strconv.Atoi(val)
		case 'O':
			origin, _ = strconv.Atoi(val)
		case 's':
			skip, _ = strconv.Atoi(val)
		case 'u':
			fd, _ = strconv.Atoi(val)
		case 'C', 'c':
		default:
			r.errf("mapfile: -%c: invalid option", c)
			return 2
		}
	}
	name := "MAPFILE"
	if len(args) > 0 {
		name = args[0]
	}
	d, ok := r.fds[fd]
	if !ok || d.r == nil {
		r.errf("mapfile: %d: invalid file descriptor: Bad file descriptor", fd)
		return 1
	}
	v := r.lookupVar(name)
	if v == nil || origin == 0 {
		nv := &Var{Set: true, Kind: kIndexed, Idx: map[int]string{}}
		if v != nil {
			if v.ReadOnly {
				r.errf("mapfile: %s: readonly variable", name)
				return 1
			}
			*v = *nv
		} else {
			v = nv
			r.vars.global().vars[name] = v
		}
	}
	if v.Idx == nil {
		v.Kind, v.Idx = kIndexed, map[int]string{}
	}
	v.Set = true
	idx := origin
	var cur []byte
	n := 0
	flush := func(withDelim bool) bool {
		line := string(cur)
		cur = cur[:0]
		if skip > 0 {
			skip--
			return true
		}
		if withDelim && !trim {
			line += string(delim)
		}
		if i := strings.IndexByte(line, 0); i >= 0 {
			// bash keeps a line as a C string: it ends at a NUL byte.
			line = line[:i]
		}
		v.Idx[idx] = line
		idx++
		n++
		return count <= 0 || n < count
	}
	for {
		b, err := read.Byte(d.r)
		if err != nil {
			if len(cur) > 0 {
				flush(false)
			}
			break
		}
		if b == delim {
			if !flush(true) {
				break
			}
			continue
		}
		cur = append(cur, b)
	}
	return 0
}

func getoptsBuiltin(r *Runner, args []string) int {
	if len(args) < 3 {
		r.errf("getopts: usage: getopts optstring name [arg ...]")
		return 2
	}
	optstring, name := args[1], args[2]
	params := r.params
	if len(args) > 3 {
		params = args[3:]
	}
	silent := strings.HasPrefix(optstring, ":")
	if silent {
		optstring = optstring[1:]
	}
	optind := 1
	if s, ok := r.getVar("OPTIND"); ok {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			optind = n
		}
	}
	sub := 0
	if s, ok := r.getVar("__GETOPTS_SUB"); ok {
		sub, _ = strconv.Atoi(s)
	}
	if sub > 0 && optind > 0 {
		// keep position inside a group of options
	}
	status := 0
	setOpt := func(v string) {
		if err := r.setVar(name, v); err != nil {
			r.errf("getopts: %s", err)
			status = 1
		}
	}
	if optind > len(params) {
		// past the arguments: OPTIND is where they end, as bash's
		// sh_getopt sets it.
		_ = r.setVar("OPTIND", strconv.Itoa(len(params)+1))
		r.vars.global().vars["__GETOPTS_SUB"] = &Var{Set: true, Str: "0"}
		r.unsetVar("OPTARG")
		setOpt("?")
		return 1
	}
	arg := params[optind-1]
	if sub == 0 {
		if arg == "--" {
			_ = r.setVar("OPTIND", strconv.Itoa(optind+1))
			r.unsetVar("OPTARG")
			setOpt("?")
			return 1
		}
		if len(arg) < 2 || arg[0] != '-' {
			r.unsetVar("OPTARG")
			setOpt("?")
			return 1
		}
		sub = 1
	}
	c := arg[sub]
	sub++
	advance := func() {
		if sub >= len(arg) {
			optind++
			sub = 0
		}
		_ = r.setVar("OPTIND", strconv.Itoa(optind))
		r.vars.global().vars["__GETOPTS_SUB"] = &Var{Set: true, Str: strconv.Itoa(sub)}
	}
	k := strings.IndexByte(optstring, c)
	if k < 0 || c == ':' {
		if silent {
			_ = r.setVar("OPTARG", string(c))
		} else {
			fmt.Fprintf(r.stderr(), "%s: illegal option -- %c\n", r.name, c)
			r.unsetVar("OPTARG")
		}
		setOpt("?")
		advance()
		return status
	}
	if k+1 < len(optstring) && optstring[k+1] == ':' {
		if sub < len(arg) {
			_ = r.setVar("OPTARG", arg[sub:])
			sub = len(arg)
			advance()
		} else {
			if optind >= len(params) {
				if silent {
					setOpt(":")
					_ = r.setVar("OPTARG", string(c))
				} else {
					fmt.Fprintf(r.stderr(), "%s: option requires an argument -- %c\n", r.name, c)
					setOpt("?")
					r.unsetVar("OPTARG")
				}
				sub = len(arg)
				advance()
				return status
			}
			_ = r.setVar("OPTARG", params[optind])
			optind++
			sub = len(arg)
			advance()
		}
		setOpt(string(c))
		return status
	}
	r.unsetVar("OPTARG")
	setOpt(string(c))
	advance()
	return status
}

func (r *Runner) unsetVar(name string) {
	if _, i := r.vars.lookup(name); i >= 0 {
		delete(r.vars.frames[i].vars, name)
	}
}
