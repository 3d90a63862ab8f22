package printf

import (
	"fmt"
	"strings"
)

// DecodeEscapes decodes backslash escapes as $'...' does (echo: as
// echo -e and %b do, where \c ends the output and \0NNN is octal); stop
// reports \c. Unknown escapes are kept with their backslash.
func DecodeEscapes(s string, echo bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte(11)
		case '\\':
			b.WriteByte('\\')
		case '\'':
			if echo {
				b.WriteString("\\'")
			} else {
				b.WriteByte('\'')
			}
		case '"':
			if echo {
				b.WriteString("\\\"")
			} else {
				b.WriteByte('"')
			}
		case '?':
			if echo {
				b.WriteString("\\?")
			} else {
				b.WriteByte('?')
			}
		case 'c':
			if echo {
				return b.String(), true
			}
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			} else {
				b.WriteString("\\c")
			}
		case 'x':
			n, j := 0, i+1
			for ; j < len(s) && j < i+3 && isHex(s[j]); j++ {
				n = n*16 + hexVal(s[j])
			}
			if j == i+1 {
				b.WriteString("\\x")
				continue
			}
			b.WriteByte(byte(n))
			i = j - 1
		case 'u', 'U':
			maxd := 4
			if c == 'U' {
				maxd = 8
			}
			n, j := 0, i+1
			for ; j < len(s) && j < i+1+maxd && isHex(s[j]); j++ {
				n = n*16 + hexVal(s[j])
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(c)
				continue
			}
			b.WriteRune(rune(n))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			limit := i + 3
			if echo {
				if c != '0' {
					b.WriteByte('\\')
					b.WriteByte(c)
					continue
				}
				j, limit = i+1, i+4
			}
			for ; j < len(s) && j < limit && s[j] >= '0' && s[j] <= '7'; j++ {
				n = n*8 + int(s[j]-'0')
			}
			b.WriteByte(byte(n))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String(), false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// SingleQuote quotes s as ${x@Q} (and declare -p, alias) does: in
// single quotes, or as $'...' when s has a control character.
func SingleQuote(s string) string {
	needsDollar := false
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			needsDollar = true
		}
	}
	if !needsDollar {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	var b strings.Builder
	b.WriteString("$'")
	for _, c := range []byte(s) {
		switch c {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case 27:
			b.WriteString(`\E`)
		case 7:
			b.WriteString(`\a`)
		case 8:
			b.WriteString(`\b`)
		case 11:
			b.WriteString(`\v`)
		case 12:
			b.WriteString(`\f`)
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// Echo is the text echo prints for its arguments (without the command's
// name): -n, -e and -E (combined as -neE, any order, the last of -e and
// -E counting) until the first other word, the words joined by blanks,
// escapes decoded with -e or xpgEcho (shopt xpg_echo) until -E, \c
// ending the text and its newline.
func Echo(args []string, xpgEcho bool) string {
	newline, escapes := true, xpgEcho
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, c := range a[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	s := strings.Join(args, " ")
	if escapes {
		var stop bool
		s, stop = DecodeEscapes(s, true)
		if stop {
			newline = false
		}
	}
	if newline {
		s += "\n"
	}
	return s
}
