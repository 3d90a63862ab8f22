// Package mapfile is the option parsing and line splitting of bash's
// mapfile (readarray) builtin; the shell stores the lines in its array.
package mapfile

import (
	"fmt"
	"io"
	"strconv"
	"strings"

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

// UsageError is a bad option; mapfile's status for it is 2.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Parse parses mapfile's arguments (without the command's name). -C and
// -c (a callback) are accepted and ignored.
func Parse(args []string) (Options, error) {
	o := Options{Delim: '\n', Count: -1, Name: "MAPFILE"}
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		a := args[0]
		args = args[1:]
		c := a[1]
		val := a[2:]
		if strings.IndexByte("dnOsuCc", c) >= 0 && val == "" {
			if len(args) == 0 {
				return o, &UsageError{fmt.Sprintf("%s: -%c: option requires an argument", "mapfile", c)}
			}
			val = args[0]
			args = args[1:]
		}
		switch c {
		case 't':
			o.Trim = true
		case 'd':
			if val == "" {
				o.Delim = 0
			} else {
				o.Delim = val[0]
			}
		case 'n':
			o.Count, _ = strconv.Atoi(val)
		case 'O':
			o.Origin, _ = strconv.Atoi(val)
		case 's':
			o.Skip, _ = strconv.Atoi(val)
		case 'u':
			o.FD, _ = strconv.Atoi(val)
		case 'C', 'c':
		default:
			return o, &UsageError{fmt.Sprintf("mapfile: -%c: invalid option", c)}
		}
	}
	if len(args) > 0 {
		o.Name = args[0]
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
