package shell

import (
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/posixfs"
	"mvdan.cc/sh/v3/interp"
)

// umaskBuiltin is bash's umask [-p] [-S] [mode]: it prints the mask (0022,
// or u=rwx,g=rx,o=rx with -S, as a command to run again with -p) or sets
// it from an octal number or a symbolic mode (the permissions to leave,
// "u=rwx,g=rx,o=", "g-w"). The mask holds for the rest of the Run — every
// file and folder the shell, its commands and the processes it starts
// create — including the shells it nests; unlike bash, a subshell's
// change is seen after it.
func (s *session) umaskBuiltin(hc interp.HandlerContext, args []string) error {
	return s.umask(hc.Stdout, hc.Stderr, args)
}

// umask is umaskBuiltin writing to stdout and stderr.
func (s *session) umask(stdout, stderr io.Writer, args []string) error {
	symbolic, print := false, false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "pS") != "" {
			if len(a) >= 2 && a[0] == '-' && strings.Trim(a[1:], "rwxXstugoa") != "" {
				fmt.Fprintf(stderr, "%s: umask: -%c: invalid option\numask: usage: umask [-p] [-S] [mode]\n", s.name, a[strings.IndexFunc(a[1:], func(r rune) bool { return r != 'p' && r != 'S' })+1])
				return Exit(2)
			}
			break
		}
		symbolic = symbolic || strings.Contains(a, "S")
		print = print || strings.Contains(a, "p")
	}
	mask := uint32(posixfs.UmaskOf(s.base))
	if i < len(args) {
		spec := args[i]
		if spec != "" && spec[0] >= '0' && spec[0] <= '9' {
			n, err := strconv.ParseUint(spec, 8, 32)
			if err != nil || n > 0o7777 {
				fmt.Fprintf(stderr, "%s: umask: %s: octal number out of range\n", s.name, spec)
				return Exit(1)
			}
			mask = uint32(n) & 0o777
		} else {
			allowed, ok := posixfs.ApplyModeMask(spec, ^mask&0o777, false, 0)
			if !ok {
				fmt.Fprintf(stderr, "%s: umask: `%c': invalid symbolic mode operator\n", s.name, umaskBadOp(spec))
				return Exit(1)
			}
			mask = ^allowed & 0o777
		}
		posixfs.SetUmask(s.base, fs.FileMode(mask))
		if !symbolic {
			return nil
		}
	}
	out := fmt.Sprintf("%04o", mask)
	if symbolic {
		out = umaskSymbolic(mask)
		if print {
			out = "-S " + out
		}
	}
	if print {
		out = "umask " + out
	}
	fmt.Fprintln(stdout, out)
	return nil
}

// umaskSymbolic is mask as umask -S prints it: the permissions it leaves.
func umaskSymbolic(mask uint32) string {
	var parts []string
	for i, who := range []string{"u", "g", "o"} {
		shift := uint(6 - 3*i)
		allowed := ^mask >> shift & 7
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

// umaskBadOp is the character bash names in an invalid symbolic mode: the
// first one after the who letters.
func umaskBadOp(spec string) byte {
	for i := 0; i < len(spec); i++ {
		if !strings.ContainsRune("ugoa", rune(spec[i])) {
			return spec[i]
		}
	}
	return ' '
}
