package jq

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jqEncoder writes values as jq 1.6 prints them.
type jqEncoder struct {
	indent int // spaces per level; -1 compact
	tab    bool
	ascii  bool
	order  *jqKeyOrder
}

// encode returns v as JSON text; indent < 0 is compact.
func (e *jqEncoder) encode(v any, indent int) string {
	var b strings.Builder
	saved := e.indent
	e.indent = indent
	e.write(&b, v, 0)
	e.indent = saved
	return b.String()
}

func (e *jqEncoder) newline(b *strings.Builder, depth int) {
	if e.indent < 0 {
		return
	}
	b.WriteByte('\n')
	if e.tab {
		b.WriteString(strings.Repeat("\t", depth))
	} else {
		b.WriteString(strings.Repeat(" ", depth*e.indent))
	}
}

func (e *jqEncoder) write(b *strings.Builder, v any, depth int) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int:
		b.WriteString(jqFormatNumber(float64(v)))
	case float64:
		b.WriteString(jqFormatNumber(v))
	case *big.Int:
		f, _ := new(big.Float).SetInt(v).Float64()
		b.WriteString(jqFormatNumber(f))
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil && f == 0 {
			b.WriteString(string(v))
			break
		}
		b.WriteString(jqFormatNumber(f))
	case string:
		e.writeString(b, v)
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			e.newline(b, depth+1)
			e.write(b, x, depth+1)
		}
		e.newline(b, depth)
		b.WriteByte(']')
	case map[string]any:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		keys := e.order.keys(v)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			e.newline(b, depth+1)
			e.writeString(b, k)
			b.WriteByte(':')
			if e.indent >= 0 {
				b.WriteByte(' ')
			}
			e.write(b, v[k], depth+1)
		}
		e.newline(b, depth)
		b.WriteByte('}')
	default:
		e.writeString(b, fmt.Sprint(v))
	}
}

func (e *jqEncoder) writeString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				b.WriteString(`\"`)
			case c == '\\':
				b.WriteString(`\\`)
			case c == '\n':
				b.WriteString(`\n`)
			case c == '\t':
				b.WriteString(`\t`)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\b':
				b.WriteString(`\b`)
			case c == '\f':
				b.WriteString(`\f`)
			case c < 0x20 || c == 0x7f:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(`\ufffd`)
			i++
			continue
		}
		if e.ascii {
			if r >= 0x10000 {
				r -= 0x10000
				fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(b, `\u%04x`, r)
			}
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteByte('"')
}

// jqFormatNumber formats a number as jq 1.6 does: the shortest digits
// that read back the same (at most 17), in exponent form when the point
// would be more than 15 places past the digits or 4 before them; NaN is
// null and infinities are the largest doubles.
func jqFormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "null"
	case math.IsInf(f, 1):
		f = math.MaxFloat64
	case math.IsInf(f, -1):
		f = -math.MaxFloat64
	}
	if f == 0 {
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, expText, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	decpt := exp + 1
	if decpt <= -4 || decpt > len(digits)+15 {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp)
	}
	switch {
	case decpt <= 0:
		return sign + "0." + strings.Repeat("0", -decpt) + digits
	case decpt >= len(digits):
		return sign + digits + strings.Repeat("0", decpt-len(digits))
	}
	return sign + digits[:decpt] + "." + digits[decpt:]
}
