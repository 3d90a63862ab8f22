// Package umask is bash's umask builtin: octal and symbolic modes
// (u=rwx,g-w,...), -S and -p, over a mask the shell keeps.
package umask

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
)

// umaskBuiltin is bash's umask [-p] [-S] [mode]: it prints the mask (0022,
// u=rwx,g=rx,o=rx with -S, as a command with -p) or sets it from an octal
// number or a symbolic mode (the permissions to leave: "u=rwx,g=rx,o=",
// "g-w"), parsed as bash's umask.def does: clauses of who letters, one
// operator and r, w, x.
// Run is umask [-p] [-S] [mode] (args without the command's name) over
// the shell's mask: mask(false, 0) reads it, mask(true, m) sets it.
// errf reports an error (bash prefixes "bash: line N: "), usage goes to
// stderr; out is what the command prints (the caller writes it to its
// standard output), status its exit status.
func Run(args []string, mask func(set bool, m uint32) uint32, stderr io.Writer, errf func(format string, a ...any)) (out string, status int) {
	opts, args, err := builtinopt.Parse("Sp", args)
	if err != nil {
		var help strings.Builder // --help: the usage line is the output
		st := builtinopt.Usage(errf, &help, stderr, "umask", "umask [-p] [-S] [mode]", err)
		return help.String(), st
	}
	symbolic, print := opts.Has('S'), opts.Has('p')
	m := mask(false, 0)
	if len(args) > 0 {
		spec := args[0]
		if spec != "" && spec[0] >= '0' && spec[0] <= '9' {
			n, err := strconv.ParseUint(spec, 8, 32)
			if err != nil || n > 0o7777 {
				errf("umask: %s: octal number out of range", spec)
				return "", 1
			}
			m = uint32(n) & 0o777
		} else {
			allowed, err := symbolicUmask(spec, ^m&0o777)
			if err != "" {
				errf("umask: %s", err)
				return "", 1
			}
			m = ^allowed & 0o777
		}
		mask(true, m)
		if !symbolic {
			return "", 0
		}
	}
	out = fmt.Sprintf("%04o", m)
	if symbolic {
		out = umaskSymbolic(m)
		if print {
			out = "-S " + out
		}
	}
	if print {
		out = "umask " + out
	}
	return out + "\n", 0
}

// symbolicUmask applies a symbolic mode to perm (the permissions the mask
// leaves) as bash does, or returns bash's error text.
func symbolicUmask(spec string, perm uint32) (uint32, string) {
	s := spec
	at := func(i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	i := 0
	for {
		who := uint32(0)
	whoLoop:
		for ; i < len(s); i++ {
			switch s[i] {
			case 'u':
				who |= 0o700
			case 'g':
				who |= 0o070
			case 'o':
				who |= 0o007
			case 'a':
				who |= 0o777
			default:
				break whoLoop
			}
		}
		op := at(i)
		i++
		if op != '+' && op != '-' && op != '=' {
			return 0, fmt.Sprintf("`%c': invalid symbolic mode operator", op)
		}
		bits := uint32(0)
	permLoop:
		for ; i < len(s); i++ {
			switch s[i] {
			case 'r':
				bits |= 0o444
			case 'w':
				bits |= 0o222
			case 'x':
				bits |= 0o111
			default:
				break permLoop
			}
		}
		if c := at(i); c != 0 && c != ',' {
			return 0, fmt.Sprintf("`%c': invalid symbolic mode character", c)
		}
		if who == 0 {
			who = 0o777
		}
		switch op {
		case '+':
			perm |= bits & who
		case '-':
			perm &^= bits & who
		case '=':
			perm = perm&^who | bits&who
		}
		if i >= len(s) {
			return perm & 0o777, ""
		}
		i++ // the comma
	}
}

// umaskSymbolic is mask as umask -S prints it: the permissions it leaves.
func umaskSymbolic(mask uint32) string {
	var parts []string
	for i, who := range []string{"u", "g", "o"} {
		allowed := ^mask >> uint(6-3*i) & 7
		p := who + "="
		for j, c := range "rwx" {
			if allowed&(4>>j) != 0 {
				p += string(c)
			}
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ",")
}
