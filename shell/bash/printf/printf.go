// Package printf is bash's printf format language (the printf builtin
// without its options: width, precision and flags on every conversion,
// %b, %q, %(fmt)T, 'c arguments, the format reused while arguments
// remain) and the escape and quoting languages it shares with the rest
// of the shell: $'...' and echo -e escapes (DecodeEscapes), ${x@Q}
// quoting (SingleQuote).
package printf

import (
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
)

// Format formats args by format as bash's printf builtin does: the
// format is applied again while arguments remain and the last pass used
// one; a missing argument is "" or 0. Messages ("printf: x: invalid
// number") go to warn without bash's "bash: line N: " prefix. status is
// 1 after a bad number or conversion, else 0; output stops at \c or
// %b's \c.
func Format(format string, args []string, warn func(msg string)) (out string, status int) {
	var b strings.Builder
	p := &printfState{warn: warn, args: args}
	for {
		stop := p.once(&b, format)
		if stop || p.i >= len(p.args) || !p.consumed {
			break
		}
	}
	return b.String(), p.status
}

type printfState struct {
	warn     func(msg string)
	args     []string
	i        int
	consumed bool
	status   int
}

func (p *printfState) errf(format string, a ...any) {
	p.warn(fmt.Sprintf(format, a...))
}

func (p *printfState) next() (string, bool) {
	if p.i < len(p.args) {
		p.i++
		p.consumed = true
		return p.args[p.i-1], true
	}
	return "", false
}

// once formats format once; stop is true after \c.
func (p *printfState) once(out *strings.Builder, format string) bool {
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' {
			j := i + 1
			if j < len(format) && format[j] == 'c' {
				return true
			}
			s, n := printfEscape(format[i:])
			out.WriteString(s)
			i += n - 1
			continue
		}
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			out.WriteByte('%')
			i++
			continue
		}
		// %[flags][width][.prec]conv
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
			j++
		}
		flags := format[i+1 : j]
		width := ""
		if j < len(format) && format[j] == '*' {
			a, _ := p.next()
			n, _ := strconv.Atoi(a)
			width = strconv.Itoa(n)
			if n < 0 {
				flags += "-"
				width = strconv.Itoa(-n)
			}
			j++
		} else {
			k := j
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
			width = format[k:j]
		}
		prec, hasPrec := "", false
		if j < len(format) && format[j] == '.' {
			hasPrec = true
			j++
			if j < len(format) && format[j] == '*' {
				a, _ := p.next()
				n, _ := strconv.Atoi(a)
				prec = strconv.Itoa(n)
				j++
			} else {
				k := j
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					j++
				}
				prec = format[k:j]
				if prec == "" {
					prec = "0"
				}
			}
		}
		// length modifiers are accepted and ignored
		for j < len(format) && strings.IndexByte("hlL", format[j]) >= 0 {
			j++
		}
		if j >= len(format) {
			p.errf("printf: `%s': missing format character", format[i:])
			p.status = 1
			return true
		}
		conv := format[j]
		if conv == '(' {
			end := strings.Index(format[j:], ")T")
			if end < 0 {
				p.errf("printf: `%c': invalid format character", conv)
				p.status = 1
				return true
			}
			tfmt := format[j+1 : j+end]
			a, _ := p.next()
			out.WriteString(pad(strftime(tfmt, a), flags, width))
			i = j + end + 1
			continue
		}
		i = j
		spec := "%" + flags + width
		if hasPrec {
			spec += "." + prec
		}
		switch conv {
		case 's':
			a, _ := p.next()
			if hasPrec {
				n, _ := strconv.Atoi(prec)
				if n < len(a) {
					a = a[:n]
				}
			}
			out.WriteString(pad(a, flags, width))
		case 'b':
			a, _ := p.next()
			s, stop := DecodeEscapes(a, true)
			if hasPrec {
				n, _ := strconv.Atoi(prec)
				if n < len(s) {
					s = s[:n]
				}
			}
			out.WriteString(pad(s, flags, width))
			if stop {
				return true
			}
		case 'q':
			a, _ := p.next()
			out.WriteString(pad(printfQuote(a), flags, width))
		case 'c':
			a, _ := p.next()
			s := ""
			if a != "" {
				s = a[:1] // one byte, as bash's printf
			}
			out.WriteString(pad(s, flags, width))
		case 'd', 'i', 'u', 'o', 'x', 'X':
			a, _ := p.next()
			n, ok := p.intArg(a)
			if !ok {
				p.status = 1
			}
			f := spec
			switch conv {
			case 'i', 'u':
				f += "d"
			default:
				f += string(conv)
			}
			if conv == 'u' && n < 0 {
				out.WriteString(fmt.Sprintf(f, uint64(n)))
			} else if conv != 'd' && conv != 'i' && n < 0 {
				out.WriteString(fmt.Sprintf(f, uint64(n)))
			} else {
				out.WriteString(fmt.Sprintf(f, n))
			}
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			a, _ := p.next()
			x, ok := p.floatArg(a)
			if !ok {
				p.status = 1
			}
			out.WriteString(formatFloat(spec, conv, x))
		default:
			p.errf("printf: `%c': invalid format character", conv)
			p.status = 1
			return true
		}
	}
	return false
}

func pad(s, flags, width string) string {
	w, _ := strconv.Atoi(width)
	n := len(s) // widths count bytes, as C's printf
	if n >= w {
		return s
	}
	if strings.Contains(flags, "-") {
		return s + strings.Repeat(" ", w-n)
	}
	return strings.Repeat(" ", w-n) + s
}

// intArg converts a printf number argument: 'c is the character's code,
// 0x/0 prefixes are hex/octal.
func (p *printfState) intArg(a string) (int64, bool) {
	if a == "" {
		return 0, true
	}
	if a[0] == '\'' || a[0] == '"' {
		if len(a) == 1 {
			return 0, true
		}
		rn, _ := utf8.DecodeRuneInString(a[1:])
		return int64(rn), true
	}
	t := strings.TrimLeft(a, " \t\n")
	n, err := strconv.ParseInt(t, 0, 64)
	if err == nil {
		return n, true
	}
	// The longest numeric prefix, as strtol does.
	var ne *strconv.NumError
	if e, ok := err.(*strconv.NumError); ok {
		ne = e
	}
	if ne != nil && ne.Err == strconv.ErrRange {
		p.errf("printf: %s: Numerical result out of range", a)
		if strings.HasPrefix(t, "-") {
			return -1 << 63, false
		}
		return 1<<63 - 1, false
	}
	k := 0
	if k < len(t) && (t[k] == '-' || t[k] == '+') {
		k++
	}
	for k < len(t) && t[k] >= '0' && t[k] <= '9' {
		k++
	}
	n, _ = strconv.ParseInt(t[:k], 10, 64)
	p.errf("printf: %s: invalid number", a)
	return n, false
}

func (p *printfState) floatArg(a string) (*big.Float, bool) {
	if a == "" {
		return new(big.Float), true
	}
	if a[0] == '\'' || a[0] == '"' {
		rn, _ := utf8.DecodeRuneInString(a[1:])
		return new(big.Float).SetInt64(int64(rn)), true
	}
	t := strings.TrimSpace(a)
	f, _, err := big.ParseFloat(t, 0, 64, big.ToNearestEven)
	if err == nil {
		return f, true
	}
	if n, err := strconv.ParseInt(t, 0, 64); err == nil {
		return new(big.Float).SetInt64(n), true
	}
	p.errf("printf: %s: invalid number", a)
	return new(big.Float), false
}

// formatFloat formats as C's printf does with long double: Go's fmt
// rounds the exact binary value too, so %.1f of 2.25 is 2.2.
func formatFloat(spec string, conv byte, x *big.Float) string {
	f, _ := x.Float64()
	c := conv
	if c == 'F' {
		c = 'f'
	}
	s := fmt.Sprintf(spec+string(c), f)
	if conv == 'F' {
		s = strings.ToUpper(s)
	}
	return s
}

// printfEscape decodes one backslash escape of a printf format; n is how
// many bytes it used.
func printfEscape(s string) (string, int) {
	if len(s) < 2 {
		return s, len(s)
	}
	switch c := s[1]; c {
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n, j := 0, 1
		for ; j < len(s) && j < 4 && s[j] >= '0' && s[j] <= '7'; j++ {
			n = n*8 + int(s[j]-'0')
		}
		return string([]byte{byte(n)}), j
	case 'x':
		n, j := 0, 2
		for ; j < len(s) && j < 4 && isHex(s[j]); j++ {
			n = n*16 + hexVal(s[j])
		}
		if j == 2 {
			return "\\x", 2
		}
		return string([]byte{byte(n)}), j
	case 'u', 'U':
		maxd := 4
		if c == 'U' {
			maxd = 8
		}
		n, j := 0, 2
		for ; j < len(s) && j < 2+maxd && isHex(s[j]); j++ {
			n = n*16 + hexVal(s[j])
		}
		if j == 2 {
			return s[:2], 2
		}
		return string(rune(n)), j
	case '"':
		return "\"", 2
	case '\'':
		return "'", 2
	case '?':
		return "?", 2
	}
	out, _ := DecodeEscapes(s[:2], false)
	return out, 2
}

// printfQuote is %q: the shortest bash-readable quoting.
func printfQuote(s string) string {
	if s == "" {
		return "''"
	}
	for _, c := range s {
		if c < 0x20 || c == 0x7f {
			return SingleQuote(s)
		}
	}
	var b strings.Builder
	for i, c := range s {
		if strings.ContainsRune(" \t\n'\"\\$`|&;()<>*?[]{}!#^,", c) || (c == '~' && i == 0) || (c == '=' && false) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// strftime formats %(fmt)T: the argument is seconds since the epoch, -1
// or empty for now.
func strftime(f, arg string) string {
	t := time.Now()
	if arg != "" && arg != "-1" && arg != "-2" {
		n, err := strconv.ParseInt(arg, 10, 64)
		if err == nil {
			t = time.Unix(n, 0)
		}
	}
	t = t.UTC()
	if f == "" {
		f = "%X"
	}
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y':
			fmt.Fprintf(&b, "%d", t.Year())
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 's':
			fmt.Fprintf(&b, "%d", t.Unix())
		case 'X', 'T':
			fmt.Fprintf(&b, "%02d:%02d:%02d", t.Hour(), t.Minute(), t.Second())
		case 'F':
			fmt.Fprintf(&b, "%d-%02d-%02d", t.Year(), int(t.Month()), t.Day())
		case 'D':
			fmt.Fprintf(&b, "%02d/%02d/%02d", int(t.Month()), t.Day(), t.Year()%100)
		case 'y':
			fmt.Fprintf(&b, "%02d", t.Year()%100)
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'b', 'h':
			b.WriteString(t.Month().String()[:3])
		case 'B':
			b.WriteString(t.Month().String())
		case 'Z':
			b.WriteString("UTC")
		case 'z':
			b.WriteString("+0000")
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

// Synopsis is the printf builtin's usage ("printf: usage: " + Synopsis).
const Synopsis = "printf [-v var] format [arguments]"

// ErrNoFormat is printf with no format: bash prints only the usage line.
var ErrNoFormat = errors.New("printf: no format")

// IdentError is a -v var that is not a name or name[subscript]: bash
// reports "`1a': not a valid identifier", status 2, without the usage
// line.
type IdentError struct{ Name string }

func (e *IdentError) Error() string { return "`" + e.Name + "': not a valid identifier" }

// Args reads the printf builtin's arguments (without the command's
// name): -v var (or -vvar) names the variable the output goes to; then
// the format and its arguments. A bad option or a missing value is
// builtinopt's error, no format ErrNoFormat (both with the usage line,
// status 2), a bad var an *IdentError; a bad var before a bad option is
// the one reported, as bash reads them in turn.
func Args(args []string) (varName, format string, rest []string, err error) {
	opts, rest, err := builtinopt.Parse("v:", args)
	for _, o := range opts {
		if !validRef(o.Value) {
			return "", "", nil, &IdentError{o.Value}
		}
		varName = o.Value
	}
	if err != nil {
		return "", "", nil, err
	}
	if len(rest) == 0 {
		return "", "", nil, ErrNoFormat
	}
	return varName, rest[0], rest[1:], nil
}

// validRef reports whether s is a name or name[subscript], as printf -v
// takes.
func validRef(s string) bool {
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		s = s[:i]
	}
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range []byte(s) {
		if c != '_' && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
