// Package read is the argument parsing, line reading and field
// splitting of bash's read builtin: its options (Parse), a line read a
// byte at a time (never past its delimiter, so the rest stays for the
// next reader), backslash escapes, -d, -n and -N, and IFS field
// splitting with bash's rules for empty fields and the last field. The
// shell stores the fields in its variables.
package read

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Options are read's options that change how a line is read.
type Options struct {
	Raw   bool // -r: a backslash is an ordinary byte
	Delim byte // -d: the line's end ('\n'; 0 for -d '')
	N     int  // -n/-N: at most N characters; < 0 for no limit
	Exact bool // -N: exactly N characters, the delimiter included
}

// Line reads a line from rd as read does: NUL bytes are dropped, a
// backslash quotes the next byte (and a backslash-newline is removed)
// unless o.Raw; quoted marks the bytes of line that were quoted. eof
// reports that the input ended before the line did (read's status 1),
// never with o.N == 0.
func Line(rd io.Reader, o Options) (line string, quoted []bool, eof bool) {
	var buf []byte
	count := 0
	for o.N < 0 || count < o.N {
		b, err := Byte(rd)
		if err != nil {
			eof = true
			break
		}
		if !o.Exact && b == o.Delim {
			break
		}
		if b == 0 {
			continue // bash drops NUL bytes
		}
		if !o.Raw && b == '\\' && !o.Exact {
			b2, err := Byte(rd)
			if err != nil {
				eof = true
				break
			}
			if b2 == '\n' {
				continue
			}
			buf = append(buf, b2)
			quoted = append(quoted, true)
			count++
			continue
		}
		buf = append(buf, b)
		quoted = append(quoted, false)
		if utf8.RuneStart(b) {
			count++
		}
	}
	if o.N == 0 {
		eof = false
	}
	return string(buf), quoted, eof
}

// Byte reads one byte from rd (read must not consume past its line).
func Byte(rd io.Reader) (byte, error) {
	var b [1]byte
	for {
		n, err := rd.Read(b[:])
		if n == 1 {
			return b[0], nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// Split splits a line read by read (quoted marks its bytes that a
// backslash quoted) into at most n fields (n < 0:
// all); the last takes the rest of the line, with trailing IFS
// whitespace removed.
func Split(s string, quoted []bool, ifs string, n int) []string {
	isWS := func(i int) bool {
		c := s[i]
		return !quoted[i] && (c == ' ' || c == '\t' || c == '\n') && strings.IndexByte(ifs, c) >= 0
	}
	isDelim := func(i int) bool {
		return !quoted[i] && strings.IndexByte(ifs, s[i]) >= 0
	}
	var out []string
	i := 0
	for i < len(s) && isWS(i) {
		i++
	}
	for i < len(s) {
		if n > 0 && len(out) == n-1 {
			// The rest, trailing IFS whitespace trimmed.
			end := len(s)
			for end > i && isWS(end-1) {
				end--
			}
			rest := s[i:end]
			// A single trailing non-whitespace delimiter is dropped.
			if end > i && isDelim(end-1) && !isWS(end-1) {
				k := end - 1
				for k > i && isWS(k-1) {
					k--
				}
				if !strings.ContainsFunc(s[i:k], func(rn rune) bool { return strings.ContainsRune(ifs, rn) && rn != ' ' && rn != '\t' && rn != '\n' }) {
					rest = s[i:k]
				}
			}
			out = append(out, rest)
			return out
		}
		start := i
		for i < len(s) && !isDelim(i) {
			i++
		}
		out = append(out, s[start:i])
		// Skip the delimiter: whitespace, at most one non-whitespace
		// delimiter, whitespace.
		for i < len(s) && isWS(i) {
			i++
		}
		if i < len(s) && isDelim(i) && !isWS(i) {
			i++
			for i < len(s) && isWS(i) {
				i++
			}
		}
	}
	return out
}
