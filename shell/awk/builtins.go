package awk

import (
	"math"
	"math/rand"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

var dollarZero = &fieldExpr{index: &numLit{n: 0}}

func (in *interp) builtin(b *builtinExpr) value {
	args := b.args
	arg := func(i int) value { return in.eval(args[i]) }
	argStr := func(i int) string { return in.toStr(in.eval(args[i])) }
	argNum := func(i int) float64 { return in.eval(args[i]).toNum() }
	switch b.name {
	case "length":
		if len(args) == 0 {
			return num(float64(utf8.RuneCountInString(in.record)))
		}
		if v, ok := args[0].(*varExpr); ok && v.scope != scopeSpecial {
			if c := in.cellOf(v); c.k == cArray || (c.k == cUntyped && len(c.a) > 0) {
				return num(float64(len(c.a)))
			}
		}
		return num(float64(utf8.RuneCountInString(argStr(0))))
	case "substr":
		s := argStr(0)
		m := argNum(1)
		n := math.Inf(1)
		if len(args) == 3 {
			n = argNum(2)
		}
		return str(substr(s, m, n))
	case "index":
		s, t := argStr(0), argStr(1)
		i := strings.Index(s, t)
		if i < 0 || t == "" {
			return num(0)
		}
		return num(float64(utf8.RuneCountInString(s[:i]) + 1))
	case "split":
		return in.split(b)
	case "sub", "gsub":
		re := in.regexArg(args[0])
		repl := argStr(1)
		var target Expr = dollarZero
		if len(args) == 3 {
			target = args[2]
		}
		r := in.ref(target)
		s := in.toStr(in.get(r))
		out, n := substitute(re, repl, s, b.name == "gsub")
		if n > 0 {
			if len(out) > maxString {
				in.errorf("string too long (over %d bytes)", maxString)
			}
			in.set(r, str(out))
		}
		return num(float64(n))
	case "match":
		s := argStr(0)
		re := in.regexArg(args[1])
		var arr map[string]value
		if len(args) == 3 {
			arr = in.arrayOf(args[2].(*varExpr))
			clear(arr)
		}
		loc := re.FindStringSubmatchIndex(s)
		if loc == nil {
			in.rstart, in.rlength = 0, -1
			return num(0)
		}
		in.rstart = float64(utf8.RuneCountInString(s[:loc[0]]) + 1)
		in.rlength = float64(utf8.RuneCountInString(s[loc[0]:loc[1]]))
		if arr != nil {
			for g := 0; 2*g < len(loc); g++ {
				if loc[2*g] < 0 {
					continue
				}
				k := itoa(g)
				arr[k] = strnum(s[loc[2*g]:loc[2*g+1]])
				arr[k+in.subsep+"start"] = num(float64(utf8.RuneCountInString(s[:loc[2*g]]) + 1))
				arr[k+in.subsep+"length"] = num(float64(utf8.RuneCountInString(s[loc[2*g]:loc[2*g+1]])))
			}
		}
		return num(in.rstart)
	case "sprintf":
		format := argStr(0)
		vals := make([]value, len(args)-1)
		for i := range vals {
			vals[i] = arg(i + 1)
		}
		return str(formatf(format, vals, in.convfmt))
	case "sin":
		return num(math.Sin(argNum(0)))
	case "cos":
		return num(math.Cos(argNum(0)))
	case "atan2":
		y := argNum(0)
		return num(math.Atan2(y, argNum(1)))
	case "exp":
		return num(math.Exp(argNum(0)))
	case "log":
		return num(math.Log(argNum(0)))
	case "sqrt":
		return num(math.Sqrt(argNum(0)))
	case "int":
		return num(math.Trunc(argNum(0)))
	case "rand":
		return num(in.rng.Float64())
	case "srand":
		prev := in.seed
		if len(args) == 1 {
			in.seed = math.Trunc(argNum(0))
		} else {
			in.seed = float64(time.Now().Unix())
		}
		in.rng = rand.New(rand.NewSource(int64(in.seed)))
		return num(prev)
	case "tolower":
		return str(strings.ToLower(argStr(0)))
	case "toupper":
		return str(strings.ToUpper(argStr(0)))
	case "system":
		cmd := argStr(0)
		in.flushAll()
		if strings.TrimSpace(cmd) == "" {
			return num(0) // system("") only flushes, a common idiom
		}
		return num(float64(in.run(cmd, nil, nil)))
	case "close":
		return num(float64(in.closeStream(argStr(0))))
	case "fflush":
		if len(args) == 0 {
			in.flushAll()
			return num(0)
		}
		name := argStr(0)
		if name == "" || name == "/dev/stdout" {
			in.flushAll()
			return num(0)
		}
		if s, ok := in.outputs[name]; ok {
			if s.w != nil {
				s.w.Flush()
			}
			return num(0)
		}
		return num(-1)
	case "gensub":
		re := in.regexArg(args[0])
		repl := argStr(1)
		how := arg(2)
		var s string
		if len(args) == 4 {
			s = argStr(3)
		} else {
			s = in.record
		}
		out := gensub(re, repl, how, s, in)
		if len(out) > maxString {
			in.errorf("string too long (over %d bytes)", maxString)
		}
		return str(out)
	case "systime":
		return num(float64(time.Now().Unix()))
	case "strftime":
		format := "%a %b %e %H:%M:%S %Z %Y"
		t := time.Now()
		if len(args) >= 1 {
			format = argStr(0)
		}
		if len(args) >= 2 {
			t = time.Unix(int64(argNum(1)), 0)
		}
		if len(args) >= 3 && arg(2).isTrue() {
			t = t.UTC()
		}
		return str(strftime(format, t))
	case "and", "or", "xor":
		acc := toUint(argNum(0))
		for i := 1; i < len(args); i++ {
			x := toUint(argNum(i))
			switch b.name {
			case "and":
				acc &= x
			case "or":
				acc |= x
			default:
				acc ^= x
			}
		}
		return num(float64(acc))
	case "lshift":
		x, n := toUint(argNum(0)), toUint(argNum(1))
		return num(float64(x << (n & 63)))
	case "rshift":
		x, n := toUint(argNum(0)), toUint(argNum(1))
		return num(float64(x >> (n & 63)))
	case "asort", "asorti":
		src := in.arrayOf(args[0].(*varExpr))
		dst := src
		if len(args) == 2 {
			dst = in.arrayOf(args[1].(*varExpr))
		}
		var vals []value
		if b.name == "asorti" {
			for k := range src {
				vals = append(vals, strnum(k))
			}
			sort.Slice(vals, func(i, j int) bool { return vals[i].s < vals[j].s })
		} else {
			for _, v := range src {
				vals = append(vals, v)
			}
			sort.SliceStable(vals, func(i, j int) bool { return in.sortLess(vals[i], vals[j]) })
		}
		clear(dst)
		for i, v := range vals {
			dst[itoa(i+1)] = v
		}
		return num(float64(len(vals)))
	case "strtonum":
		v := arg(0)
		if v.k == kNum {
			return v
		}
		return num(strtonum(v.s))
	case "mktime":
		f := strings.Fields(argStr(0))
		if len(f) < 6 {
			return num(-1)
		}
		var n [6]int
		for i := range n {
			x, err := strconv.Atoi(f[i])
			if err != nil {
				return num(-1)
			}
			n[i] = x
		}
		loc := time.Local
		if len(args) == 2 && arg(1).isTrue() {
			loc = time.UTC
		}
		t := time.Date(n[0], time.Month(n[1]), n[2], n[3], n[4], n[5], 0, loc)
		return num(float64(t.Unix()))
	case "compl":
		return num(float64(^toUint(argNum(0)) & (1<<53 - 1)))
	}
	in.errorf("unknown function %s", b.name)
	return value{}
}

// sortLess orders values as gawk's asort does: numbers first, by value,
// then strings.
func (in *interp) sortLess(a, b value) bool {
	an, aok := a.numeric()
	bn, bok := b.numeric()
	if a.k == kUninit {
		aok = true
	}
	if b.k == kUninit {
		bok = true
	}
	if aok != bok {
		return aok
	}
	if aok {
		return an < bn
	}
	return in.toStr(a) < in.toStr(b)
}

// strtonum reads hex (0x...) and octal (0...) numbers, else decimal.
func strtonum(s string) float64 {
	t := strings.TrimLeft(s, " \t\n")
	neg := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg = t[0] == '-'
		t = t[1:]
	}
	var n float64
	switch {
	case len(t) > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'):
		for _, c := range t[2:] {
			d := strings.IndexRune("0123456789abcdef", unicode.ToLower(c))
			if d < 0 {
				break
			}
			n = n*16 + float64(d)
		}
	case len(t) > 1 && t[0] == '0' && isDigit(t[1]):
		for _, c := range t[1:] {
			if c < '0' || c > '7' {
				break
			}
			n = n*8 + float64(c-'0')
		}
	default:
		return strToNum(s)
	}
	if neg {
		n = -n
	}
	return n
}

func toUint(f float64) uint64 {
	if f < 0 || f != f {
		return 0
	}
	if f >= 1.8e19 {
		return math.MaxUint64
	}
	return uint64(f)
}

// substr implements substr(s, m, n) with POSIX's rounding and clipping.
func substr(s string, m, n float64) string {
	if m != m || n != n {
		return ""
	}
	start := math.RoundToEven(m)
	var end float64 // exclusive, 1-based
	if math.IsInf(n, 1) {
		end = math.Inf(1)
	} else {
		end = start + math.RoundToEven(n)
	}
	if start < 1 {
		start = 1
	}
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	length := len(s)
	if !ascii {
		length = utf8.RuneCountInString(s)
	}
	if end > float64(length+1) {
		end = float64(length + 1)
	}
	if end <= start {
		return ""
	}
	a, b := int(start)-1, int(end)-1
	if ascii {
		return s[a:b]
	}
	// Map rune offsets to byte offsets.
	ri, ba, bb := 0, len(s), len(s)
	for bi := range s {
		if ri == a {
			ba = bi
		}
		if ri == b {
			bb = bi
			break
		}
		ri++
	}
	return s[ba:bb]
}

// substitute replaces the first (or every) match of re in s by repl, where
// & is the match, \& a literal & and \\ a backslash.
func substitute(re *regexp.Regexp, repl, s string, global bool) (string, int) {
	n := 1
	if global {
		n = -1
	}
	var matches [][]int
	if lit, complete := re.LiteralPrefix(); complete && lit != "" {
		// A literal regex: plain string search finds the same matches.
		for off := 0; n < 0 || len(matches) < n; {
			i := strings.Index(s[off:], lit)
			if i < 0 {
				break
			}
			matches = append(matches, []int{off + i, off + i + len(lit)})
			off += i + len(lit)
		}
	} else {
		matches = re.FindAllStringIndex(s, n)
	}
	if len(matches) == 0 {
		return s, 0
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		b.WriteString(s[last:m[0]])
		for i := 0; i < len(repl); i++ {
			c := repl[i]
			switch {
			case c == '\\' && i+1 < len(repl) && (repl[i+1] == '&' || repl[i+1] == '\\'):
				b.WriteByte(repl[i+1])
				i++
			case c == '&':
				b.WriteString(s[m[0]:m[1]])
			default:
				b.WriteByte(c)
			}
		}
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String(), len(matches)
}

// gensub implements gawk's gensub: how is "g"/"G" for every match or a
// number n for the n-th; repl may use \0 or & for the match and \1..\9 for
// groups.
func gensub(re *regexp.Regexp, repl string, how value, s string, in *interp) string {
	global := false
	which := 1
	hs := in.toStr(how)
	if hs != "" && (hs[0] == 'g' || hs[0] == 'G') {
		global = true
	} else {
		which = int(how.toNum())
		if which < 1 {
			which = 1
		}
	}
	matches := re.FindAllStringSubmatchIndex(s, -1)
	if len(matches) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for mi, m := range matches {
		if !global && mi+1 != which {
			continue
		}
		b.WriteString(s[last:m[0]])
		for i := 0; i < len(repl); i++ {
			c := repl[i]
			switch {
			case c == '\\' && i+1 < len(repl):
				d := repl[i+1]
				i++
				switch {
				case d == '&':
					b.WriteByte('&')
				case d >= '0' && d <= '9':
					g := int(d - '0')
					if 2*g+1 < len(m) && m[2*g] >= 0 {
						b.WriteString(s[m[2*g]:m[2*g+1]])
					}
				case d == '\\':
					b.WriteByte('\\')
				default:
					b.WriteByte('\\')
					b.WriteByte(d)
				}
			case c == '&':
				b.WriteString(s[m[0]:m[1]])
			default:
				b.WriteByte(c)
			}
		}
		last = m[1]
		if !global {
			break
		}
	}
	b.WriteString(s[last:])
	return b.String()
}

// split implements split(s, a [, fs [, seps]]).
func (in *interp) split(b *builtinExpr) value {
	s := in.toStr(in.eval(b.args[0]))
	arr := in.arrayOf(b.args[1].(*varExpr))
	var sepArr map[string]value
	if len(b.args) == 4 {
		sepArr = in.arrayOf(b.args[3].(*varExpr))
	}
	var parts []string
	var seps []string
	var sp *[]string
	if sepArr != nil {
		sp = &seps
	}
	if len(b.args) >= 3 {
		if r, ok := b.args[2].(*regexLit); ok {
			parts = splitRegex(r.re, s, sp)
		} else {
			parts = in.splitString(s, in.toStr(in.eval(b.args[2])), false, nil, sp)
		}
	} else {
		parts = in.splitString(s, in.fs, false, nil, sp)
	}
	clear(arr)
	for i, p := range parts {
		arr[itoa(i+1)] = strnum(p)
	}
	if sepArr != nil {
		clear(sepArr)
		// With the default FS, seps[0] is the leading blank run.
		off := 1
		if len(b.args) >= 3 {
			if _, ok := b.args[2].(*regexLit); !ok && in.toStr(in.eval(b.args[2])) == " " {
				off = 0
			}
		} else if in.fs == " " {
			off = 0
		}
		for i, sep := range seps {
			k := i + off
			if off == 0 && i == 0 && sep == "" {
				continue
			}
			if off == 0 && i == len(seps)-1 && sep == "" {
				continue
			}
			sepArr[itoa(k)] = str(sep)
		}
	}
	return num(float64(len(parts)))
}

func splitRegex(re *regexp.Regexp, s string, seps *[]string) []string {
	if s == "" {
		return nil
	}
	var out []string
	last := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[1] == m[0] {
			continue
		}
		out = append(out, s[last:m[0]])
		if seps != nil {
			*seps = append(*seps, s[m[0]:m[1]])
		}
		last = m[1]
	}
	return append(out, s[last:])
}

// strftime formats t with C's strftime conversions.
func strftime(format string, t time.Time) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		i++
		switch format[i] {
		case 'a':
			b.WriteString(t.Format("Mon"))
		case 'A':
			b.WriteString(t.Format("Monday"))
		case 'b', 'h':
			b.WriteString(t.Format("Jan"))
		case 'B':
			b.WriteString(t.Format("January"))
		case 'c':
			b.WriteString(t.Format("Mon Jan _2 15:04:05 2006"))
		case 'C':
			b.WriteString(pad2(t.Year() / 100))
		case 'd':
			b.WriteString(pad2(t.Day()))
		case 'D':
			b.WriteString(t.Format("01/02/06"))
		case 'e':
			b.WriteString(t.Format("_2"))
		case 'F':
			b.WriteString(t.Format("2006-01-02"))
		case 'H':
			b.WriteString(pad2(t.Hour()))
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			b.WriteString(pad2(h))
		case 'j':
			b.WriteString(strconv.Itoa(1000 + t.YearDay())[1:])
		case 'k':
			b.WriteString(padSpace(t.Hour()))
		case 'l':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			b.WriteString(padSpace(h))
		case 'm':
			b.WriteString(pad2(int(t.Month())))
		case 'M':
			b.WriteString(pad2(t.Minute()))
		case 'n':
			b.WriteByte('\n')
		case 'p':
			b.WriteString(t.Format("PM"))
		case 'r':
			b.WriteString(t.Format("03:04:05 PM"))
		case 'R':
			b.WriteString(t.Format("15:04"))
		case 's':
			b.WriteString(strconv.FormatInt(t.Unix(), 10))
		case 'S':
			b.WriteString(pad2(t.Second()))
		case 't':
			b.WriteByte('\t')
		case 'T', 'X':
			b.WriteString(t.Format("15:04:05"))
		case 'u':
			wd := int(t.Weekday())
			if wd == 0 {
				wd = 7
			}
			b.WriteString(strconv.Itoa(wd))
		case 'w':
			b.WriteString(strconv.Itoa(int(t.Weekday())))
		case 'x':
			b.WriteString(t.Format("01/02/06"))
		case 'y':
			b.WriteString(pad2(t.Year() % 100))
		case 'Y':
			b.WriteString(strconv.Itoa(t.Year()))
		case 'z':
			b.WriteString(t.Format("-0700"))
		case 'Z':
			b.WriteString(t.Format("MST"))
		case 'V':
			_, w := t.ISOWeek()
			b.WriteString(pad2(w))
		case 'G':
			y, _ := t.ISOWeek()
			b.WriteString(strconv.Itoa(y))
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(format[i])
		}
	}
	return b.String()
}

func pad2(n int) string {
	if n < 10 && n >= 0 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func padSpace(n int) string {
	if n < 10 && n >= 0 {
		return " " + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
