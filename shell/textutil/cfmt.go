package textutil

import (
	"math"
	"strconv"
	"strings"
)

// textCFloatSpec is one C printf floating-point conversion:
// %[flags][width][.prec]conv.
type textCFloatSpec struct {
	minus, plus, space, zero, alt bool
	width, prec                   int // prec < 0: the default
	conv                          byte
}

// textParseCFloat parses the conversion at the start of s (just after the
// '%'); it returns the spec and the rest of s.
func textParseCFloat(s string) (textCFloatSpec, string, bool) {
	sp := textCFloatSpec{prec: -1}
	i := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '-':
			sp.minus = true
		case '+':
			sp.plus = true
		case ' ':
			sp.space = true
		case '0':
			sp.zero = true
		case '#':
			sp.alt = true
		case '\'':
		default:
			goto width
		}
	}
width:
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		sp.width = min(sp.width*10+int(s[i]-'0'), 1<<20)
	}
	if i < len(s) && s[i] == '.' {
		i++
		sp.prec = 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			sp.prec = min(sp.prec*10+int(s[i]-'0'), 1<<20)
		}
	}
	if i < len(s) && s[i] == 'L' {
		i++
	}
	if i >= len(s) || !strings.ContainsRune("aAeEfFgG", rune(s[i])) {
		return sp, s, false
	}
	sp.conv = s[i]
	return sp, s[i+1:], true
}

// format formats x as C's printf does with this conversion.
func (sp textCFloatSpec) format(x float64) string {
	neg := math.Signbit(x)
	if neg {
		x = -x
	}
	upper := sp.conv >= 'A' && sp.conv <= 'Z'
	var body string
	zeroOK := true
	switch {
	case math.IsInf(x, 0):
		body, zeroOK = "inf", false
	case math.IsNaN(x):
		body, zeroOK = "nan", false
	default:
		prec := sp.prec
		switch sp.conv | 0x20 {
		case 'f':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(x, 'f', prec, 64)
			if sp.alt && prec == 0 {
				body += "."
			}
		case 'e':
			if prec < 0 {
				prec = 6
			}
			body = strconv.FormatFloat(x, 'e', prec, 64)
			if sp.alt && prec == 0 {
				body = strings.Replace(body, "e", ".e", 1)
			}
		case 'g':
			body = textCFormatG(x, prec, sp.alt)
		case 'a':
			body = strconv.FormatFloat(x, 'x', prec, 64)
		}
	}
	if upper {
		body = strings.ToUpper(body)
	}
	sign := ""
	switch {
	case neg:
		sign = "-"
	case sp.plus:
		sign = "+"
	case sp.space:
		sign = " "
	}
	pad := sp.width - len(sign) - len(body)
	switch {
	case pad <= 0:
		return sign + body
	case sp.minus:
		return sign + body + strings.Repeat(" ", pad)
	case sp.zero && zeroOK:
		return sign + strings.Repeat("0", pad) + body
	}
	return strings.Repeat(" ", pad) + sign + body
}

// textCFormatG is C's %g of a non-negative finite x.
func textCFormatG(x float64, prec int, alt bool) string {
	if prec < 0 {
		prec = 6
	}
	if prec == 0 {
		prec = 1
	}
	exp := 0
	if x != 0 {
		e := strconv.FormatFloat(x, 'e', prec-1, 64)
		exp, _ = strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	}
	var s string
	if exp < -4 || exp >= prec {
		s = strconv.FormatFloat(x, 'e', prec-1, 64)
		if !alt {
			mant, ex, _ := strings.Cut(s, "e")
			if strings.Contains(mant, ".") {
				mant = strings.TrimRight(strings.TrimRight(mant, "0"), ".")
			}
			s = mant + "e" + ex
		}
		return s
	}
	s = strconv.FormatFloat(x, 'f', prec-1-exp, 64)
	if !alt && strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if alt && !strings.Contains(s, ".") {
		s += "."
	}
	return s
}
