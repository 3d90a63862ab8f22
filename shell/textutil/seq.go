package textutil

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textSeq, "seq") }

// seqOperand is a number operand with what GNU seq derives from its text.
type seqOperand struct {
	value     float64
	isInt     bool
	intValue  int64
	width     int
	precision int // digits after the point; -1 when unknown (exponents)
}

// textSeq is seq: print a sequence of numbers.
//
// Supports LAST, FIRST LAST and FIRST INCREMENT LAST, with negative and
// decimal numbers (printed with the precision of FIRST and INCREMENT),
// -s/--separator=STR, -w/--equal-width and -f/--format=FORMAT (one
// floating-point conversion: %f %g %e %a, with flags, width and precision).
func textSeq(ctx context.Context, c *command.Call, args []string) error {
	args = args[1:]
	sep, format, equal := "\n", "", false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' || a[1] == '.' || (a[1] >= '0' && a[1] <= '9') {
			break
		}
		if a == "--" {
			i++
			break
		}
		name, val, hasVal := a, "", false
		if strings.HasPrefix(a, "--") {
			n, v, ok := strings.Cut(a[2:], "=")
			full, key, err := cmdutil.LongLookup(map[string]string{"separator": "s", "format": "f", "equal-width": "w"}, n)
			if err != nil {
				return cmdutil.Usage(c, "seq", 1, err)
			}
			name, val, hasVal = "-"+key, v, ok
			if key == "w" && ok {
				return cmdutil.Usage(c, "seq", 1, cmdutil.Usagef("option '--%s' doesn't allow an argument", full))
			}
		} else if a[1] == 'w' {
			name = "-w"
		} else if len(a) > 2 {
			name, val, hasVal = a[:2], a[2:], true
		}
		switch name {
		case "-w":
			equal = true
			if len(a) > 2 && !strings.HasPrefix(a, "--") {
				// a cluster like -ws: hand the rest back as an option
				args[i] = "-" + a[2:]
				i--
			}
		case "-s", "-f":
			if !hasVal {
				if i+1 >= len(args) {
					return cmdutil.Usage(c, "seq", 1, cmdutil.Usagef("option requires an argument -- '%c'", name[1]))
				}
				i++
				val = args[i]
			}
			if name == "-s" {
				sep = val
			} else {
				format = val
			}
		default:
			return cmdutil.Usage(c, "seq", 1, cmdutil.Usagef("invalid option -- '%c'", a[1]))
		}
	}
	operands := args[i:]
	switch {
	case len(operands) == 0:
		return cmdutil.Usage(c, "seq", 1, cmdutil.Usagef("missing operand"))
	case len(operands) > 3:
		return cmdutil.Usage(c, "seq", 1, cmdutil.Usagef("extra operand %s", cmdutil.Quote(operands[3])))
	}
	var ops []seqOperand
	for _, s := range operands {
		op, ok := seqParse(s)
		if !ok {
			return cmdutil.Usage(c, "seq", 1, cmdutil.Usagef("invalid floating point argument: %s", cmdutil.Quote(s)))
		}
		if math.IsNaN(op.value) {
			return cmdutil.Usage(c, "seq", 1, cmdutil.Usagef("invalid 'not-a-number' argument: %s", cmdutil.Quote(s)))
		}
		ops = append(ops, op)
	}
	first := seqOperand{value: 1, isInt: true, intValue: 1, width: 1}
	step := first
	var last seqOperand
	switch len(ops) {
	case 1:
		last = ops[0]
	case 2:
		first, last = ops[0], ops[1]
	case 3:
		first, step, last = ops[0], ops[1], ops[2]
		if step.value == 0 {
			return cmdutil.Usage(c, "seq", 1, cmdutil.Usagef("invalid Zero increment value: %s", cmdutil.Quote(operands[1])))
		}
	}
	if format != "" && equal {
		return cmdutil.Usage(c, "seq", 1, cmdutil.Usagef("format string may not be specified when printing equal width strings"))
	}
	var spec textCFloatSpec
	prefix, suffix := "", ""
	if format != "" {
		var err error
		prefix, spec, suffix, err = seqParseFormat(format)
		if err != nil {
			return c.Errorf(1, "seq", "%s", err.Error())
		}
	} else {
		prec := max(first.precision, step.precision)
		if first.precision >= 0 && step.precision >= 0 && last.precision >= 0 {
			spec = textCFloatSpec{conv: 'f', prec: prec}
			if equal {
				firstWidth := first.width + prec - first.precision
				lastWidth := last.width + prec - last.precision
				if last.precision > 0 && prec == 0 {
					lastWidth--
				}
				if last.precision == 0 && prec > 0 {
					lastWidth++
				}
				if first.precision == 0 && prec > 0 {
					firstWidth++
				}
				spec.width, spec.zero = max(firstWidth, lastWidth), true
			}
		} else {
			spec = textCFloatSpec{conv: 'g', prec: -1}
		}
	}
	out := cmdutil.Out{Writer: cmdutil.GetWriter(c.Stdout)}
	defer cmdutil.PutWriter(out.Writer)
	emit := func(s string) error {
		_, err := out.WriteString(s)
		return err
	}
	useInt := format == "" && first.isInt && step.isInt && last.isInt && spec.conv == 'f' && spec.prec == 0
	count := 0
	var num []byte // the integer being printed
	if useInt && step.intValue == 1 && first.intValue >= 0 && spec.width == 0 {
		if err := seqFast(ctx, out, first.intValue, last.intValue, sep); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return cmdutil.Finish(c, "seq", &cmdutil.WriteError{Err: err})
		}
		if err := cmdutil.Flush(out); err != nil {
			return cmdutil.Finish(c, "seq", err)
		}
		return nil
	} else if useInt {
		for x := first.intValue; (step.intValue > 0 && x <= last.intValue) || (step.intValue < 0 && x >= last.intValue); {
			if count%64 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if count > 0 {
				emit(sep)
			}
			count++
			num = seqAppendInt(num[:0], x, spec.width)
			if _, err := out.Write(num); err != nil {
				return cmdutil.Finish(c, "seq", &cmdutil.WriteError{Err: err})
			}
			next := x + step.intValue
			if (step.intValue > 0 && next < x) || (step.intValue < 0 && next > x) {
				break // overflow
			}
			x = next
		}
	} else {
		fmtNum := func(x float64) string { return prefix + spec.format(x) + suffix }
		x := first.value
		outOfRange := (step.value > 0 && x > last.value) || (step.value < 0 && x < last.value)
		for i := 1; !outOfRange; i++ {
			if count%64 == 0 && ctx.Err() != nil {
				return ctx.Err()
			}
			if count > 0 {
				emit(sep)
			}
			count++
			if err := emit(fmtNum(x)); err != nil {
				return cmdutil.Finish(c, "seq", &cmdutil.WriteError{Err: err})
			}
			x0 := x
			x = first.value + float64(i)*step.value
			outOfRange = (step.value > 0 && x > last.value) || (step.value < 0 && x < last.value)
			if outOfRange {
				// Print one more when it prints as LAST and differs from the
				// previous number (rounding), as GNU seq does.
				xs := spec.format(x)
				if v, err := strconv.ParseFloat(strings.TrimSpace(xs), 64); err == nil && v == last.value && xs != spec.format(x0) {
					outOfRange = false
				}
			}
			if math.IsInf(x, 0) && x == x0 {
				break
			}
		}
	}
	if count > 0 {
		emit("\n")
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "seq", err)
	}
	return nil
}

// seqFast writes the integers first..last (first >= 0) each followed by
// sep, the last by a newline, as the general loop does, by counting up in
// decimal digits and writing in chunks (GNU seq's seq_fast): nothing is
// formatted per number. Nothing is written when first > last. It checks
// ctx before each chunk.
func seqFast(ctx context.Context, out cmdutil.Out, first, last int64, sep string) error {
	if first > last {
		return nil
	}
	const chunkSize = 32 << 10
	// line is the number being printed and sep after it: one append a
	// number.
	line := strconv.AppendInt(make([]byte, 0, 20+len(sep)), first, 10)
	nd := len(line) // its digits: line[:nd]
	line = append(line, sep...)
	pooled := cmdutil.GetBuf()
	defer cmdutil.PutBuf(pooled)
	chunk := (*pooled)[:0]
	for n := first; n < last; n++ {
		chunk = append(chunk, line...)
		if len(chunk) >= chunkSize {
			if err := ctx.Err(); err != nil {
				return err
			}
			if _, err := out.Write(chunk); err != nil {
				return err
			}
			chunk = chunk[:0]
		}
		i := nd - 1
		for i >= 0 && line[i] == '9' {
			line[i] = '0'
			i--
		}
		if i < 0 {
			line = append(line[:1], line...)
			line[0] = '1'
			nd++
		} else {
			line[i]++
		}
	}
	chunk = append(chunk, line[:nd]...)
	chunk = append(chunk, '\n')
	_, err := out.Write(chunk)
	return err
}

// seqAppendInt appends x zero-padded to width (the sign counts), like
// %0*.0f.
func seqAppendInt(b []byte, x int64, width int) []byte {
	start := len(b)
	b = strconv.AppendInt(b, x, 10)
	n := len(b) - start
	if n >= width {
		return b
	}
	pad := width - n
	b = append(b, make([]byte, pad)...)
	digits := start
	if x < 0 {
		digits++
	}
	copy(b[digits+pad:], b[digits:start+n])
	for i := digits; i < digits+pad; i++ {
		b[i] = '0'
	}
	return b
}

// seqParse parses a number operand as GNU seq's scan_arg does.
func seqParse(s string) (seqOperand, bool) {
	t := strings.TrimLeft(s, " \t\n\v\f\r+")
	var op seqOperand
	f, ok := textParseFloatPrefix([]byte(t))
	if !ok || !seqWhole(t) {
		return op, false
	}
	op.value = f
	op.width = len(t)
	op.precision = 0
	low := strings.ToLower(t)
	if strings.Contains(low, "0x") || strings.Contains(low, "inf") || strings.Contains(low, "nan") {
		op.precision = -1
		return op, true
	}
	dot := strings.IndexByte(t, '.')
	e := strings.IndexAny(t, "eE")
	if dot >= 0 {
		end := len(t)
		if e >= 0 {
			end = e
		}
		frac := end - dot - 1
		op.precision = frac
		switch {
		case frac == 0:
			op.width--
		case dot == 0 || t[dot-1] < '0' || t[dot-1] > '9':
			op.width++
		}
	}
	if e >= 0 {
		exp, _ := strconv.Atoi(t[e+1:])
		if exp < 0 {
			op.precision -= exp
		} else {
			op.precision -= min(op.precision, exp)
		}
		op.width -= len(t) - e
		if exp < 0 {
			op.width++
			exp = -exp
		}
		op.width += exp
	}
	if dot < 0 && e < 0 {
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			op.isInt, op.intValue = true, n
		}
	}
	return op, true
}

// seqWhole tells whether the whole of t is one number.
func seqWhole(t string) bool {
	if t == "" {
		return false
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil {
		return true
	} else if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return true
	}
	low := strings.ToLower(strings.TrimLeft(t, "-"))
	return low == "inf" || low == "infinity" || low == "nan" || (strings.HasPrefix(low, "0x") && !strings.ContainsAny(low, "_"))
}

// seqParseFormat splits a -f format around its one conversion.
func seqParseFormat(f string) (prefix string, spec textCFloatSpec, suffix string, err error) {
	var b strings.Builder
	i := 0
	for ; i < len(f); i++ {
		if f[i] != '%' {
			b.WriteByte(f[i])
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		break
	}
	if i >= len(f) {
		return "", spec, "", cmdutil.Usagef("format %s has no %% directive", cmdutil.Quote(f))
	}
	prefix = b.String()
	sp, rest, ok := textParseCFloat(f[i+1:])
	if !ok {
		return "", spec, "", cmdutil.Usagef("format %s has unknown %%%s directive", cmdutil.Quote(f), seqDirective(f[i+1:]))
	}
	b.Reset()
	for j := 0; j < len(rest); j++ {
		if rest[j] == '%' {
			if j+1 < len(rest) && rest[j+1] == '%' {
				b.WriteByte('%')
				j++
				continue
			}
			return "", spec, "", cmdutil.Usagef("format %s has too many %% directives", cmdutil.Quote(f))
		}
		b.WriteByte(rest[j])
	}
	return prefix, sp, b.String(), nil
}

func seqDirective(s string) string {
	i := 0
	for i < len(s) && strings.IndexByte("-+ #0'123456789.", s[i]) >= 0 {
		i++
	}
	if i < len(s) {
		i++
	}
	return s[:i]
}
