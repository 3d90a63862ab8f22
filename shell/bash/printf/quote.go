package printf

import (
	"fmt"
	"strings"
)

// Bash's quoting styles, each as the builtin or expansion that prints it.

// SetQuote quotes a value as set and declare -p print it.
func SetQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_/.,:=+-@%^", c)) {
			safe = false
		}
	}
	if safe {
		return s
	}
	return SingleQuote(s)
}

// TraceQuote quotes a traced word as bash does: in single quotes when it
// holds a shell metacharacter (a lone quote as \'), as $'...' when it
// holds another control character than tab and newline.
func TraceQuote(s string) string {
	switch s {
	case "":
		return "''"
	case "'":
		return `\'`
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t' && c != '\n') || c == 0x7f {
			return ANSICQuote(s)
		}
	}
	meta := strings.ContainsAny(s, " \t\n'\"\\|&;()<>!{}*[?]^$`") || s[0] == '~' || s[0] == '#'
	if meta {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// ANSICQuote is bash's $'...' quoting: C escapes, other control
// characters in octal.
func ANSICQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\v':
			b.WriteString(`\v`)
		case 0x1b:
			b.WriteString(`\E`)
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			if c < 0x20 || c == 0x7f {
				fmt.Fprintf(&b, "\\%03o", c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// DeclQuote quotes a value as declare -p prints it: in double quotes,
// or as $'...' when it has control characters.
func DeclQuote(s string) string {
	for _, c := range []byte(s) {
		if c < 0x20 || c == 0x7f {
			return SingleQuote(s)
		}
	}
	return DoubleQuote(s)
}

// AssocKeyQuote quotes an associative array's key as declare -p does.
func AssocKeyQuote(k string) string {
	if strings.ContainsAny(k, " \t\n\"'$`\\|&;()<>*?[]") || k == "" {
		return DeclQuote(k)
	}
	return k
}

// DoubleQuote is s in double quotes, with \ before " \ $ and `.
func DoubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		if c == '"' || c == '\\' || c == '$' || c == '`' {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	b.WriteByte('"')
	return b.String()
}

// SingleQuotePlain is s in single quotes, a quote in it as '\”.
func SingleQuotePlain(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
