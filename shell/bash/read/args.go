package read

import (
	"strconv"
	"strings"
)

// Usage is read's usage line, printed after a bad option.
const Usage = "read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]"

// Args are read's arguments: the options that change how the line is
// read, where it goes and from which fd.
type Args struct {
	Options
	Array string   // -a: the array the fields go to
	FD    int      // -u: the fd to read (0)
	Names []string // the variables the fields go to (REPLY when none)
}

// Error is a bad argument of read: Msg is bash's message ("read: -x:
// invalid option"); with Usage the usage line follows and the status is
// 2, else 1.
type Error struct {
	Msg   string
	Usage bool
}

func (e *Error) Error() string { return e.Msg }

// Parse parses read's arguments (without the command's name) as bash
// does: options may be grouped (-rs) and take their value joined (-d:)
// or as the next argument. -e, -i, -p, -s and -t are accepted (-t's
// number checked) and have no effect in the sandbox, which has no
// terminal.
func Parse(args []string) (Args, error) {
	a := Args{Options: Options{Delim: '\n', N: -1}}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		opt := args[0]
		args = args[1:]
		if opt == "--" {
			break
		}
		for k := 1; k < len(opt); k++ {
			c := opt[k]
			switch c {
			case 'r':
				a.Raw = true
			case 's', 'e':
			case 'a', 'd', 'n', 'N', 'p', 't', 'u', 'i':
				var v string
				if k+1 < len(opt) {
					v, k = opt[k+1:], len(opt)
				} else if len(args) > 0 {
					v, args = args[0], args[1:]
				} else {
					return a, &Error{"read: -" + string(c) + ": option requires an argument", true}
				}
				if err := a.set(c, v); err != nil {
					return a, err
				}
			default:
				return a, &Error{"read: -" + string(c) + ": invalid option", true}
			}
		}
	}
	a.Names = args
	return a, nil
}

// set sets the option c with its value v.
func (a *Args) set(c byte, v string) error {
	switch c {
	case 'a':
		a.Array = v
	case 'd':
		a.Delim = 0
		if v != "" {
			a.Delim = v[0]
		}
	case 'n', 'N':
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return &Error{"read: " + v + ": invalid number", false}
		}
		a.N, a.Exact = n, c == 'N'
	case 't':
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return &Error{"read: " + v + ": invalid timeout specification", false}
		}
	case 'u':
		n, err := strconv.Atoi(v)
		if err != nil {
			return &Error{"read: " + v + ": invalid file descriptor specification", false}
		}
		a.FD = n
	}
	return nil
}
