// Package mapfile is the option parsing and line splitting of bash's
// mapfile (readarray) builtin; the shell stores the lines in its array.
package mapfile

import (
	"io"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
	"github.com/agentenkit/agentenkit/shell/bash/read"
)

// Options are mapfile's options and array name.
type Options struct {
	Delim  byte   // -d: the line's end ('\n'; 0 for -d '')
	Trim   bool   // -t: drop the delimiter
	Count  int    // -n: at most Count lines; <= 0 for all
	Origin int    // -O: the first index (the array is kept when > 0)
	Skip   int    // -s: lines to drop first
	FD     int    // -u: the file descriptor to read
	Name   string // the array (MAPFILE by default)
}

// Synopsis is the usage of name (mapfile or readarray) as bash words it.
func Synopsis(name string) string {
	return name + " [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]"
}

// Error is a bad option value, in bash's words without the builtin's
// name ("x: invalid line count"); mapfile's status for it is 1.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// Parse parses mapfile's arguments (without the command's name): a bad
// option or a missing value is builtinopt's error (status 2, with the
// usage line), a bad number an *Error. -C and -c (a callback and how
// often it runs) are checked and ignored.
func Parse(args []string) (Options, error) {
	o := Options{Delim: '\n', Count: -1, Name: "MAPFILE"}
	opts, rest, err := builtinopt.Parse("d:n:O:s:tu:C:c:", args)
	if err != nil {
		return o, err
	}
	for _, x := range opts {
		v := x.Value
		n, nerr := strconv.Atoi(strings.TrimSpace(v))
		bad := func(what string) error { return &Error{v + ": invalid " + what} }
		switch x.Letter {
		case 't':
			o.Trim = true
		case 'd':
			o.Delim = 0
			if v != "" {
				o.Delim = v[0]
			}
		case 'n', 's':
			if nerr != nil || n < 0 {
				return o, bad("line count")
			}
			if x.Letter == 'n' {
				o.Count = n
			} else {
				o.Skip = n
			}
		case 'O':
			if nerr != nil || n < 0 {
				return o, bad("array origin")
			}
			o.Origin = n
		case 'u':
			if nerr != nil || n < 0 {
				return o, bad("file descriptor specification")
			}
			o.FD = n
		case 'c':
			if nerr != nil || n <= 0 {
				return o, bad("callback quantum")
			}
		}
	}
	if len(rest) > 0 {
		o.Name = rest[0]
	}
	return o, nil
}

// Lines reads rd a byte at a time (never past the last line it takes)
// and returns the lines as mapfile stores them: the delimiter kept
// unless o.Trim, a line cut at a NUL byte, o.Skip lines dropped, at most
// o.Count lines.
func Lines(rd io.Reader, o Options) []string {
	var lines []string
	skip := o.Skip
	var cur []byte
	flush := func(withDelim bool) bool {
		line := string(cur)
		cur = cur[:0]
		if skip > 0 {
			skip--
			return true
		}
		if withDelim && !o.Trim {
			line += string(o.Delim)
		}
		if i := strings.IndexByte(line, 0); i >= 0 {
			// bash keeps a line as a C string: it ends at a NUL byte.
			line = line[:i]
		}
		lines = append(lines, line)
		return o.Count <= 0 || len(lines) < o.Count
	}
	for {
		b, err := read.Byte(rd)
		if err != nil {
			if len(cur) > 0 {
				flush(false)
			}
			break
		}
		if b == o.Delim {
			if !flush(true) {
				break
			}
			continue
		}
		cur = append(cur, b)
	}
	return lines
}
