package awk

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxWidth bounds printf widths and precisions, so that a program can't
// ask for gigabytes of padding (and Go's fmt takes no more).
const maxWidth = 1000000

// sprintfNum formats one number with a CONVFMT/OFMT-style format.
func sprintfNum(format string, n float64) string {
	return formatf(format, []value{num(n)}, "%.6g")
}

// formatf implements awk's printf and sprintf.
func formatf(format string, args []value, convfmt string) string {
	var b strings.Builder
	ai := 0
	nextArg := func() value {
		if ai < len(args) {
			v := args[ai]
			ai++
			return v
		}
		return value{}
	}
	for i := 0; i < len(format); {
		if format[i] != '%' {
			j := strings.IndexByte(format[i:], '%')
			if j < 0 {
				b.WriteString(format[i:])
				break
			}
			b.WriteString(format[i : i+j])
			i += j
			continue
		}
		start := i
		i++
		if i >= len(format) {
			b.WriteByte('%')
			break
		}
		if format[i] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		var flags []byte
		for i < len(format) && strings.IndexByte("-+ #0'", format[i]) >= 0 {
			if format[i] != '\'' {
				flags = append(flags, format[i])
			}
			i++
		}
		width, hasWidth := 0, false
		if i < len(format) && format[i] == '*' {
			w := nextArg().toNum()
			i++
			hasWidth = true
			if w < 0 {
				flags = append(flags, '-')
				w = -w
			}
			width = clampWidth(w)
		} else {
			j := i
			for i < len(format) && isDigit(format[i]) {
				i++
			}
			if i > j {
				hasWidth = true
				w, _ := strconv.ParseFloat(format[j:i], 64)
				width = clampWidth(w)
			}
		}
		prec, hasPrec := 0, false
		if i < len(format) && format[i] == '.' {
			i++
			hasPrec = true
			if i < len(format) && format[i] == '*' {
				p := nextArg().toNum()
				i++
				if p < 0 {
					hasPrec = false
				} else {
					prec = clampWidth(p)
				}
			} else {
				j := i
				for i < len(format) && isDigit(format[i]) {
					i++
				}
				p, _ := strconv.ParseFloat(format[j:i], 64)
				prec = clampWidth(p)
			}
		}
		for i < len(format) && strings.IndexByte("hlLqjzt", format[i]) >= 0 {
			i++
		}
		if i >= len(format) {
			b.WriteString(format[start:])
			break
		}
		conv := format[i]
		i++
		spec := func(fl []byte, verb byte) string {
			var s strings.Builder
			s.WriteByte('%')
			s.Write(fl)
			if hasWidth {
				s.WriteString(strconv.Itoa(width))
			}
			if hasPrec {
				s.WriteByte('.')
				s.WriteString(strconv.Itoa(prec))
			}
			s.WriteByte(verb)
			return s.String()
		}
		switch conv {
		case 'd', 'i':
			n := nextArg().toNum()
			if math.IsNaN(n) || math.IsInf(n, 0) {
				b.WriteString(padSpecial(n, flags, width, false))
				continue
			}
			n = math.Trunc(n)
			if n > -9.2e18 && n < 9.2e18 {
				fmt.Fprintf(&b, spec(flags, 'd'), int64(n))
			} else {
				bi, _ := new(big.Float).SetFloat64(n).Int(nil)
				fmt.Fprintf(&b, spec(flags, 'd'), bi)
			}
		case 'o', 'x', 'X', 'u':
			n := nextArg().toNum()
			if math.IsNaN(n) || math.IsInf(n, 0) {
				b.WriteString(padSpecial(n, flags, width, conv == 'X'))
				continue
			}
			n = math.Trunc(n)
			fl := make([]byte, 0, len(flags))
			for _, f := range flags {
				if f != '+' && f != ' ' && !(f == '#' && (conv == 'u' || n == 0)) {
					fl = append(fl, f)
				}
			}
			verb := conv
			if conv == 'u' {
				verb = 'd'
			}
			switch {
			case n >= 0 && n < 1.8e19:
				fmt.Fprintf(&b, spec(fl, verb), uint64(n))
			case n < 0 && n > -9.2e18:
				fmt.Fprintf(&b, spec(fl, verb), uint64(int64(n)))
			default:
				bi, _ := new(big.Float).SetFloat64(n).Int(nil)
				fmt.Fprintf(&b, spec(fl, verb), bi)
			}
		case 'e', 'E', 'f', 'F', 'g', 'G':
			n := nextArg().toNum()
			if math.IsNaN(n) || math.IsInf(n, 0) {
				b.WriteString(padSpecial(n, flags, width, conv == 'E' || conv == 'F' || conv == 'G'))
				continue
			}
			if !hasPrec {
				hasPrec, prec = true, 6
			}
			fmt.Fprintf(&b, spec(flags, conv), n)
		case 'c':
			v := nextArg()
			var s string
			if n, ok := v.numeric(); ok && v.k != kUninit {
				r := rune(int64(n))
				if n < 0 || n > utf8.MaxRune || !utf8.ValidRune(r) {
					r = utf8.RuneError
				}
				s = string(r)
			} else {
				s = v.toStrFmt(convfmt)
				if s != "" {
					_, size := utf8.DecodeRuneInString(s)
					s = s[:size]
				}
			}
			hasPrec = false
			fmt.Fprintf(&b, spec(dropFlag(flags, '0'), 's'), s)
		case 's':
			s := nextArg().toStrFmt(convfmt)
			fmt.Fprintf(&b, spec(dropFlag(flags, '0'), 's'), s)
		default:
			// Unknown conversion: printed as written.
			b.WriteString(format[start:i])
		}
	}
	return b.String()
}

func clampWidth(w float64) int {
	if w != w || w < 0 {
		return 0
	}
	if w > maxWidth {
		return maxWidth
	}
	return int(w)
}

func dropFlag(flags []byte, f byte) []byte {
	out := flags[:0:0]
	for _, c := range flags {
		if c != f {
			out = append(out, c)
		}
	}
	return out
}

// padSpecial formats inf and nan as C's printf does.
func padSpecial(n float64, flags []byte, width int, upper bool) string {
	var s string
	switch {
	case math.IsNaN(n):
		s = "nan"
		if math.Signbit(n) {
			s = "-nan"
		}
	case n > 0:
		s = "inf"
	default:
		s = "-inf"
	}
	left := false
	for _, f := range flags {
		switch f {
		case '+':
			if s[0] != '-' {
				s = "+" + s
			}
		case ' ':
			if s[0] != '-' && s[0] != '+' {
				s = " " + s
			}
		case '-':
			left = true
		}
	}
	if upper {
		s = strings.ToUpper(s)
	}
	if pad := width - len(s); pad > 0 {
		if left {
			return s + strings.Repeat(" ", pad)
		}
		return strings.Repeat(" ", pad) + s
	}
	return s
}
