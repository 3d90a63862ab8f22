// Package builtinopt reads a bash builtin's options as bash 5.2's
// internal_getopt does, with its error texts, for the builtins of
// shell/bash (type, command, hash, help, jobs, wait, disown, cd, pwd,
// shopt, read, declare and its kin). Commands (GNU-style, with long
// options) use shell/cmdutil instead.
//
// # Contracts
//
//   - A spec lists the option letters; a letter followed by ':' takes a
//     value, joined (-d:) or as the next word (-d :) whatever that word
//     is. A spec starting with '+' also reads words starting with '+'
//     (declare +x), which are kept apart (Option.Plus).
//   - The options end at the first word that is not one ("-" and "+"
//     alone are operands), after "--" (dropped), or at an error.
//   - The first bad letter or missing value ends the parse with an
//     *Error whose text is bash's ("-Z: invalid option", "-d: option
//     requires an argument"); "--help" where an option may stand is
//     ErrHelp. Usage reports either as bash's builtins do (status 2).
//   - Parse never panics and reads nothing but its arguments.
package builtinopt

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Option is one option as given: its letter, whether it was given with
// '+', and the value of a letter that takes one.
type Option struct {
	Letter byte
	Plus   bool
	Value  string
}

// Options are the options of one command line in the order given.
type Options []Option

// Has reports whether letter was given with '-'.
func (o Options) Has(letter byte) bool {
	for _, x := range o {
		if x.Letter == letter && !x.Plus {
			return true
		}
	}
	return false
}

// Value is the value given last to letter (with '-'), and whether it
// was given.
func (o Options) Value(letter byte) (string, bool) {
	v, ok := "", false
	for _, x := range o {
		if x.Letter == letter && !x.Plus {
			v, ok = x.Value, true
		}
	}
	return v, ok
}

// Error is a usage error in bash's words: Opt is the option as bash
// names it ("-Z", "+Z"), Missing tells a letter whose value is missing
// from a letter bash does not know.
type Error struct {
	Opt     string
	Missing bool
}

func (e *Error) Error() string {
	if e.Missing {
		return e.Opt + ": option requires an argument"
	}
	return e.Opt + ": invalid option"
}

// ErrHelp is "--help" given where an option may stand: bash prints the
// builtin's help and returns 2.
var ErrHelp = errors.New("--help")

// Parse reads args (without the command's name) by spec and returns the
// options and the words after them. On an error the options read before
// it are returned with it; rest is then nil.
func Parse(spec string, args []string) (opts Options, rest []string, err error) {
	plus := strings.HasPrefix(spec, "+")
	if plus {
		spec = spec[1:]
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		if len(w) < 2 || (w[0] != '-' && (!plus || w[0] != '+')) {
			return opts, args[i:], nil
		}
		if w == "--help" {
			return opts, nil, ErrHelp
		}
		if w == "--" {
			return opts, args[i+1:], nil
		}
		for k := 1; k < len(w); k++ {
			c := w[k]
			at := strings.IndexByte(spec, c)
			if c == ':' || at < 0 {
				return opts, nil, &Error{Opt: w[:1] + string([]byte{c})}
			}
			o := Option{Letter: c, Plus: w[0] == '+'}
			if at+1 < len(spec) && spec[at+1] == ':' {
				switch {
				case k+1 < len(w):
					o.Value = w[k+1:]
				case i+1 < len(args):
					i++
					o.Value = args[i]
				default:
					return opts, nil, &Error{Opt: w[:1] + string([]byte{c}), Missing: true}
				}
				opts = append(opts, o)
				break
			}
			opts = append(opts, o)
		}
	}
	return opts, nil, nil
}

// Usage reports err, an error of Parse, as bash's builtin name does and
// returns bash's status 2: an *Error through errf (which prefixes the
// shell's "bash: line N: ") as "name: -Z: invalid option", then the
// usage line "name: usage: synopsis" on stderr; ErrHelp as the first
// line of bash's help, "name: synopsis", on stdout (bash's longer help
// texts are bash's own writing and are not reproduced).
func Usage(errf func(format string, a ...any), stdout, stderr io.Writer, name, synopsis string, err error) int {
	if errors.Is(err, ErrHelp) {
		fmt.Fprintf(stdout, "%s: %s\n", name, synopsis)
		return 2
	}
	errf("%s: %v", name, err)
	fmt.Fprintf(stderr, "%s: usage: %s\n", name, synopsis)
	return 2
}
