// Package quotearg quotes file names in messages as GNU coreutils do in
// the C locale (gnulib's quotearg with coreutils' two styles): Quote is
// quoteaf ("cannot open 'x' for reading": always quoted), Name is quotef
// ("cat: x: No such file or directory": quoted only when the name holds a
// character the shell or the message's colons would misread).
//
// The quoted text is a shell word that gives back the name: 'a b', "it's"
// (a single quote among characters that mean nothing to the shell),
// 'it'\”s$' (with others), 'new'$'\n”line' (control characters and
// bytes outside ASCII as $'...' escapes, in octal unless C has a letter).
package quotearg

import "strings"

// Quote quotes name always, as coreutils' quoteaf (gnulib's
// shell_escape_always_quoting_style).
func Quote(name string) string { return quote(name) }

// Name quotes name only when it must be, as coreutils' quotef (gnulib's
// shell_escape_quoting_style with ':' quoted too): an empty name, a
// character special to the shell, a space, a ':', a control character or
// a byte outside ASCII makes it Quote(name); otherwise it is name.
func Name(name string) string {
	if name == "" {
		return quote(name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '#' || c == '~':
			if i == 0 {
				return quote(name)
			}
		case c == '{' || c == '}':
			if len(name) == 1 {
				return quote(name)
			}
		case strings.IndexByte(" !\"$&()*;<=>[^`|'?\\:", c) >= 0:
			return quote(name)
		case !printable(c):
			return quote(name)
		}
	}
	return name
}

// printable is isprint in the C locale.
func printable(c byte) bool { return c >= 0x20 && c < 0x7f }

// compatible tells whether c at index i of s reads the same inside C's
// double quotes as inside the shell's single quotes (gnulib's
// c_and_shell_quote_compat): a name that holds a single quote and only
// such characters is quoted as "it's".
func compatible(s string, i int) bool {
	c := s[i]
	switch {
	case c == ' ' || c == '\'':
		return true
	case c == '#' || c == '~':
		return i == 0
	case c == '{' || c == '}':
		return len(s) == 1
	case strings.IndexByte("!\"$&()*;<=>[^`|?\\", c) >= 0:
		return false
	}
	return printable(c)
}

// escapes are the control characters C writes with a letter.
var escapes = map[byte]byte{'\a': 'a', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v'}

func quote(s string) string {
	single, compat := false, true
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			single = true
		}
		if !compatible(s, i) {
			compat = false
		}
	}
	if single && compat {
		return `"` + s + `"`
	}
	out, pending := quoteFrom(s, false)
	if single && pending {
		// gnulib quotes a name with a single quote twice (the first pass
		// only measures), and its second pass starts in the escape state
		// the first ended in: "it's\n" comes out as '''it'\''s'$'\n'.
		out, _ = quoteFrom(s, true)
	}
	return out
}

// quoteFrom is the single-quoted form of s; inEscape is the state it
// starts in (inside a $'...' that a plain byte first closes with ”),
// pending the state it ends in.
func quoteFrom(s string, inEscape bool) (quoted string, pending bool) {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\'':
			b.WriteString(`'\''`)
			inEscape = false
		case !printable(c):
			if !inEscape {
				b.WriteString(`'$'`)
				inEscape = true
			}
			b.WriteByte('\\')
			if e, ok := escapes[c]; ok {
				b.WriteByte(e)
			} else {
				b.WriteByte('0' + c>>6)
				b.WriteByte('0' + c>>3&7)
				b.WriteByte('0' + c&7)
			}
		default:
			if inEscape {
				b.WriteString(`''`)
				inEscape = false
			}
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String(), inEscape
}
