// Package pyrepr writes Python 3's repr() of a str, for messages that must
// read as CPython's (the wasm engine's "can't open file" line) and for
// tests that stand in for a Python program.
package pyrepr

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Str is repr(s) for the str that s's bytes decode to as CPython decodes
// argv and paths (UTF-8, surrogateescape): a byte that is not UTF-8 is a
// lone surrogate, \udcXX. It quotes with ' unless s holds a ' and no ",
// escapes the quote and \, writes \t, \n, \r, other control characters and
// what Unicode calls unprintable as \x, \u or \U escapes, and the rest as
// it is.
func Str(s string) string {
	q := byte('\'')
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\udc%02x`, s[i])
			i++
			continue
		}
		i += n
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x7f || unicode.IsPrint(r):
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}
