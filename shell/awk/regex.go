package awk

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// compileRegex compiles an awk extended regular expression. The result
// matches leftmost-longest, '.' matches a newline, and ^ and $ anchor at
// the ends of the string only.
func compileRegex(src string) (*regexp.Regexp, error) {
	goSrc, err := translateERE(src)
	if err != nil {
		return nil, fmt.Errorf("invalid regex /%s/: %v", src, err)
	}
	re, err := regexp.Compile("(?s)" + goSrc)
	if err != nil {
		msg := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			msg = string(se.Code)
		}
		return nil, fmt.Errorf("invalid regex /%s/: %s", src, msg)
	}
	re.Longest()
	return re, nil
}

// translateERE turns POSIX ERE syntax, with awk's escapes and the common
// gawk extensions (\y \< \> \s \S \w \W \` \'), into Go's RE2 syntax.
func translateERE(src string) (string, error) {
	var b strings.Builder
	// canRepeat: a repetition operator here applies to something; when
	// false (start of regex, after '(' or '|'), *, + and ? are literal.
	canRepeat := false
	for i := 0; i < len(src); {
		c := src[i]
		switch c {
		case '\\':
			if i+1 >= len(src) {
				b.WriteString(`\\`)
				i++
				canRepeat = true
				continue
			}
			n, s := translateEscape(src[i:], false)
			b.WriteString(s)
			i += n
			canRepeat = true
		case '[':
			n, s, err := translateBracket(src[i:])
			if err != nil {
				return "", err
			}
			b.WriteString(s)
			i += n
			canRepeat = true
		case '(':
			b.WriteByte('(')
			i++
			canRepeat = false
		case ')':
			b.WriteByte(')')
			i++
			canRepeat = true
		case '|':
			b.WriteByte('|')
			i++
			canRepeat = false
		case '^':
			b.WriteByte('^')
			i++
			canRepeat = false
		case '*', '+', '?':
			if !canRepeat {
				b.WriteByte('\\')
				b.WriteByte(c)
				canRepeat = true
			} else {
				b.WriteByte(c)
				// Go rejects a second repetition like "a**"; awk takes it
				// as one.
				for i+1 < len(src) && (src[i+1] == '*' || src[i+1] == '+' || src[i+1] == '?') {
					if src[i+1] == '?' && c != '?' {
						break // "a*?" is no lazy match in awk, but keep Go's
					}
					i++
				}
			}
			i++
		case '{':
			if n, s, ok := interval(src[i:]); ok && canRepeat {
				b.WriteString(s)
				i += n
			} else {
				b.WriteString(`\{`)
				i++
				canRepeat = true
			}
		case '}':
			b.WriteString(`\}`)
			i++
			canRepeat = true
		default:
			b.WriteByte(c)
			i++
			canRepeat = true
		}
	}
	return b.String(), nil
}

// interval recognises "{n}", "{n,}", "{n,m}" and "{,m}" at the start of s.
func interval(s string) (int, string, bool) {
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return 0, "", false
	}
	body := s[1:end]
	lo, hi, comma := body, "", false
	if k := strings.IndexByte(body, ','); k >= 0 {
		lo, hi, comma = body[:k], body[k+1:], true
	}
	allDigits := func(t string) bool {
		for i := 0; i < len(t); i++ {
			if !isDigit(t[i]) {
				return false
			}
		}
		return true
	}
	if !allDigits(lo) || !allDigits(hi) || (lo == "" && hi == "") {
		return 0, "", false
	}
	if lo == "" {
		lo = "0"
	}
	if comma {
		return end + 1, "{" + lo + "," + hi + "}", true
	}
	return end + 1, "{" + lo + "}", true
}

// translateEscape translates the escape at the start of s. In a bracket
// expression (inClass), the result is valid inside Go's [...].
func translateEscape(s string, inClass bool) (int, string) {
	c := s[1]
	lit := func(r byte) string {
		if inClass {
			return classLiteral(r)
		}
		return regexp.QuoteMeta(string(r))
	}
	switch c {
	case 'n':
		return 2, `\n`
	case 't':
		return 2, `\t`
	case 'r':
		return 2, `\r`
	case 'f':
		return 2, `\f`
	case 'v':
		return 2, `\v`
	case 'a':
		return 2, `\x07`
	case 'b':
		if inClass {
			return 2, `\x08`
		}
		return 2, `\b`
	case 'y', '<', '>':
		if inClass {
			return 2, lit(c)
		}
		return 2, `\b`
	case 'B':
		if inClass {
			return 2, "B"
		}
		return 2, `\B`
	case '`':
		if inClass {
			return 2, lit(c)
		}
		return 2, `\A`
	case '\'':
		if inClass {
			return 2, lit(c)
		}
		return 2, `\z`
	case 's', 'S', 'w', 'W', 'd', 'D':
		return 2, `\` + string(c)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n := 0
		i := 1
		for ; i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '7'; i++ {
			n = n*8 + int(s[i]-'0')
		}
		return i, hexByte(byte(n))
	case 'x':
		i := 2
		for i < len(s) && i < 4 && isHex(s[i]) {
			i++
		}
		if i == 2 {
			return 2, "x"
		}
		v, _ := strconv.ParseUint(s[2:i], 16, 8)
		return i, hexByte(byte(v))
	}
	if c >= 0x80 {
		return 1, "" // "\é" is "é"
	}
	return 2, lit(c)
}

func hexByte(c byte) string {
	if c < 0x80 {
		return fmt.Sprintf(`\x%02x`, c)
	}
	// A byte past ASCII can't stand alone in Go's UTF-8 regexps; take it
	// as the code point (Latin-1), which is what a single char means.
	return fmt.Sprintf(`\x{%x}`, c)
}

// classLiteral writes byte c so that it means itself inside Go's [...].
func classLiteral(c byte) string {
	switch c {
	case '\\', ']', '[', '^', '-':
		return `\` + string(c)
	}
	if c < 0x20 || c == 0x7f {
		return fmt.Sprintf(`\x%02x`, c)
	}
	return string(c)
}

// translateBracket translates the bracket expression at the start of s.
func translateBracket(s string) (int, string, error) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(s) && s[i] == '^' {
		b.WriteByte('^')
		i++
	}
	first := true
	afterClass := false
	for {
		if i >= len(s) {
			return 0, "", fmt.Errorf("unterminated [ ]")
		}
		c := s[i]
		switch {
		case c == ']' && !first:
			b.WriteByte(']')
			return i + 1, b.String(), nil
		case c == '[' && i+1 < len(s) && (s[i+1] == ':' || s[i+1] == '.' || s[i+1] == '='):
			delim := s[i+1]
			end := strings.Index(s[i+2:], string(delim)+"]")
			if end < 0 {
				b.WriteString(`\[`)
				i++
				break
			}
			name := s[i+2 : i+2+end]
			switch delim {
			case ':':
				if !validClass[name] {
					return 0, "", fmt.Errorf("invalid character class [:%s:]", name)
				}
				b.WriteString("[:" + name + ":]")
				i += 2 + end + 2
				first, afterClass = false, true
				continue
			default:
				// Collating symbols and equivalence classes: only single
				// characters are supported, as themselves.
				for k := 0; k < len(name); k++ {
					b.WriteString(classLiteral(name[k]))
				}
			}
			i += 2 + end + 2
		case c == '\\' && i+1 < len(s):
			n, t := translateEscape(s[i:], true)
			b.WriteString(t)
			i += n
		case c == '-' && !first && !afterClass && i+1 < len(s) && s[i+1] != ']':
			b.WriteByte('-')
			i++
		case c >= 0x80:
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
		default:
			b.WriteString(classLiteral(c))
			i++
		}
		first, afterClass = false, false
	}
}

var validClass = map[string]bool{
	"alnum": true, "alpha": true, "blank": true, "cntrl": true, "digit": true,
	"graph": true, "lower": true, "print": true, "punct": true, "space": true,
	"upper": true, "xdigit": true, "word": true, "ascii": true,
}
