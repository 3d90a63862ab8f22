package read

import (
	"strconv"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
)

// Synopsis is read's usage as bash words it ("read: usage: " + Synopsis
// follows a bad option).
const Synopsis = "read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]"

// Args are read's arguments: the options that change how the line is
// read, where it goes and from which fd.
type Args struct {
	Options
	Array string   // -a: the array the fields go to
	FD    int      // -u: the fd to read (0)
	Names []string // the variables the fields go to (REPLY when none)
}

// Error is a bad value of one of read's options: Msg is bash's message
// ("read: x: invalid number"); the status is 1.
type Error struct {
	Msg string
}

func (e *Error) Error() string { return e.Msg }

// Parse parses read's arguments (without the command's name) as bash
// does: options may be grouped (-rs) and take their value joined (-d:)
// or as the next argument. -e, -i, -p, -s and -t are accepted (-t's
// number checked) and have no effect in the sandbox, which has no
// terminal. A bad option or a missing value is builtinopt's error
// (status 2, with the usage line); a bad value is an *Error (status 1).
func Parse(args []string) (Args, error) {
	a := Args{Options: Options{Delim: '\n', N: -1}}
	opts, rest, err := builtinopt.Parse("ersa:d:i:n:N:p:t:u:", args)
	if err != nil {
		return a, err
	}
	for _, o := range opts {
		switch o.Letter {
		case 'r':
			a.Raw = true
		case 's', 'e':
		default:
			if err := a.set(o.Letter, o.Value); err != nil {
				return a, err
			}
		}
	}
	a.Names = rest
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
			return &Error{"read: " + v + ": invalid number"}
		}
		a.N, a.Exact = n, c == 'N'
	case 't':
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return &Error{"read: " + v + ": invalid timeout specification"}
		}
	case 'u':
		n, err := strconv.Atoi(v)
		if err != nil {
			return &Error{"read: " + v + ": invalid file descriptor specification"}
		}
		a.FD = n
	}
	return nil
}
