// Package posixre translates POSIX regular expressions (GNU flavour) to
// Go's RE2 syntax: the one translator of grep, sed, expr, nl -bp and find
// -regextype (awk keeps its own, for gawk's extensions and escapes).
//
// Supported, in both basic (BRE) and extended (ERE) syntax:
//
//   - literals, ".", "*", anchors "^" and "$" (in BRE only where POSIX
//     makes them anchors: "^" first, "$" last, or next to \( \) \|);
//   - BRE operators \( \) \{n,m\} and the GNU extensions \+ \? \|;
//     ERE operators ( ) { } + ? |; intervals {n} {n,} {,m} {n,m};
//   - bracket expressions with ranges, negation, [:class:], [=c=], [.c.];
//     a backslash is literal inside brackets, as POSIX says;
//   - GNU escapes \w \W \s \S \b \B \< \> \` \';
//   - for sed, the character escapes \n \t \a \f \v \r \dNNN \oNNN \xHH
//     \cX, also inside brackets.
//
// Back-references (\1..\9) in a pattern are refused with the error
// "back-references in patterns are not supported": RE2 cannot match them.
// \< and \> become \b, which is exact when a word character follows \< (or
// precedes \>), the usual case. Repetition counts are limited to 1000.
// Matching is leftmost-longest, as POSIX requires (Regexp.Longest).
package posixre

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Options selects the dialect of a pattern.
type Options struct {
	// ERE selects extended syntax (grep -E, sed -E); else basic.
	ERE bool
	// Lenient is grep's tolerance in ERE: a repetition operator with
	// nothing to repeat is ignored, an invalid interval "{" is a literal,
	// an unmatched ")" is a literal. Without it (sed -E) these are errors.
	Lenient bool
	// Sed enables sed's character escapes (\n \t ... also in brackets).
	Sed bool
	// ICase matches case-insensitively.
	ICase bool
	// Multiline makes ^ and $ match around newlines (sed's M flag).
	Multiline bool
	// Warn, if set, receives GNU grep's warnings ("* at start of
	// expression").
	Warn func(msg string)
}

// Error is a regular expression syntax error, worded like GNU's.
type Error string

func (e Error) Error() string { return string(e) }

const (
	rxErrBackref     = Error("back-references in patterns are not supported")
	rxErrTrailingBS  = Error("Trailing backslash")
	rxErrBracket     = Error("Unmatched [, [^, [:, [., or [=")
	rxErrOpenParen   = Error("Unmatched ( or \\(")
	rxErrCloseParen  = Error("Unmatched ) or \\)")
	rxErrOpenBrace   = Error("Unmatched \\{")
	rxErrBraceBody   = Error("Invalid content of \\{\\}")
	rxErrTooBig      = Error("Regular expression too big")
	rxErrRange       = Error("Invalid range end")
	rxErrClass       = Error("Invalid character class name")
	rxErrCollate     = Error("Invalid collation character")
	rxErrPreceding   = Error("Invalid preceding regular expression")
	rxErrClassSyntax = Error("character class syntax is [[:space:]], not [:space:]")
	rxErrInvalid     = Error("Invalid regular expression")
)

// rxMaxRepeat is the largest repetition count RE2 accepts.
const rxMaxRepeat = 1000

// Compile translates pat and compiles it for leftmost-longest matching.
func Compile(pat string, o Options) (*regexp.Regexp, error) {
	body, err := Translate(pat, o)
	if err != nil {
		return nil, err
	}
	return CompileGo(body, o)
}

// CompileGo compiles a Go-syntax body with the flags of o.
func CompileGo(body string, o Options) (*regexp.Regexp, error) {
	re, err := regexp.Compile(rxFlags(o) + body)
	if err != nil {
		return nil, rxGoError(err)
	}
	re.Longest()
	return re, nil
}

// rxFlags returns the Go flag group for o: dot matches newline always (as
// in POSIX), plus i and m as asked.
func rxFlags(o Options) string {
	f := "(?s"
	if o.ICase {
		f += "i"
	}
	if o.Multiline {
		f += "m"
	}
	return f + ")"
}

// rxGoError maps an error of Go's regexp parser to a GNU-like message.
func rxGoError(err error) error {
	var se *syntax.Error
	if errors.As(err, &se) {
		switch se.Code {
		case syntax.ErrLarge, syntax.ErrNestingDepth, syntax.ErrInvalidRepeatSize:
			return rxErrTooBig
		}
		return Error("Invalid regular expression: " + string(se.Code))
	}
	return err
}

// QuoteLiteral returns Go syntax matching s literally (grep -F). Bytes
// that are not UTF-8 match any invalid byte.
func QuoteLiteral(s string) string {
	var b strings.Builder
	for _, r := range s {
		rxWriteLiteral(&b, r)
	}
	return b.String()
}

// rxWriteLiteral writes Go syntax for the literal rune r.
func rxWriteLiteral(b *strings.Builder, r rune) {
	switch {
	case r == utf8.RuneError:
		b.WriteString(`\x{FFFD}`)
	case r < ' ' || r == 0x7f:
		b.WriteString(`\x{`)
		b.WriteString(strconv.FormatInt(int64(r), 16))
		b.WriteString(`}`)
	default:
		b.WriteString(regexp.QuoteMeta(string(r)))
	}
}

// rxTranslator holds the state of one translation.
type rxTranslator struct {
	p   string
	i   int
	o   Options
	out strings.Builder
	// lastAtom is where the last quantifiable item starts in out, or -1.
	lastAtom int
	// lastQuant says the last item already carries a quantifier.
	lastQuant bool
	// atStart: at the start of the pattern, a group or an alternative,
	// where BRE "^" is an anchor and "*" a literal.
	atStart bool
	// afterHat: just after a leading BRE "^", where "*" is a literal.
	afterHat bool
	groups   []int
}

// Translate translates a POSIX pattern to Go regexp syntax (without
// flags; see rxCompile). A successful result always compiles.
func Translate(pat string, o Options) (string, error) {
	t := &rxTranslator{p: pat, o: o, lastAtom: -1, atStart: true}
	if err := t.run(); err != nil {
		return "", err
	}
	s := t.out.String()
	if _, err := syntax.Parse(rxFlags(o)+s, syntax.Perl); err != nil {
		return "", rxGoError(err)
	}
	return s, nil
}

func (t *rxTranslator) run() error {
	for t.i < len(t.p) {
		c := t.p[t.i]
		var err error
		switch {
		case c == '\\':
			err = t.escape()
		case c == '[':
			err = t.bracket()
		case c == '.':
			t.i++
			t.atom(".")
		case c == '*':
			t.i++
			err = t.quant("*", "*")
		case c == '^':
			t.i++
			if t.o.ERE || t.atStart {
				t.assertion("^")
				t.afterHat = true // BRE "^*" is a literal star
			} else {
				t.atom(`\^`)
			}
		case c == '$':
			t.i++
			if t.o.ERE || t.dollarIsAnchor() {
				t.assertion("$")
			} else {
				t.atom(`\$`)
			}
		case t.o.ERE && c == '(':
			t.i++
			t.open()
		case t.o.ERE && c == ')':
			t.i++
			err = t.close()
		case t.o.ERE && c == '|':
			t.i++
			t.alt()
		case t.o.ERE && (c == '+' || c == '?'):
			t.i++
			err = t.quant(string(c), string(c))
		case t.o.ERE && c == '{':
			err = t.interval(1)
		default:
			r, n := utf8.DecodeRuneInString(t.p[t.i:])
			t.i += n
			t.literal(r)
		}
		if err != nil {
			return err
		}
	}
	if len(t.groups) > 0 {
		return rxErrOpenParen
	}
	return nil
}

// dollarIsAnchor reports whether a BRE "$" (already consumed) is an
// anchor: last in the pattern or before \) or \|.
func (t *rxTranslator) dollarIsAnchor() bool {
	rest := t.p[t.i:]
	return rest == "" || strings.HasPrefix(rest, `\)`) || strings.HasPrefix(rest, `\|`)
}

func (t *rxTranslator) atom(s string) {
	t.lastAtom = t.out.Len()
	t.lastQuant = false
	t.atStart = false
	t.afterHat = false
	t.out.WriteString(s)
}

// assertion writes a zero-width item; it is wrapped if quantified.
func (t *rxTranslator) assertion(s string) {
	t.atom("(?:" + s + ")")
}

func (t *rxTranslator) literal(r rune) {
	var b strings.Builder
	rxWriteLiteral(&b, r)
	t.atom(b.String())
}

func (t *rxTranslator) open() {
	t.groups = append(t.groups, t.out.Len())
	t.out.WriteString("(")
	t.lastAtom = -1
	t.lastQuant = false
	t.atStart = true
}

func (t *rxTranslator) close() error {
	if len(t.groups) == 0 {
		if t.o.ERE && t.o.Lenient {
			t.atom(`\)`)
			return nil
		}
		return rxErrCloseParen
	}
	start := t.groups[len(t.groups)-1]
	t.groups = t.groups[:len(t.groups)-1]
	t.out.WriteString(")")
	t.lastAtom = start
	t.lastQuant = false
	t.atStart = false
	return nil
}

func (t *rxTranslator) alt() {
	t.out.WriteString("|")
	t.lastAtom = -1
	t.lastQuant = false
	t.atStart = true
}

// quant applies a repetition operator; lit is the text to match when BRE
// makes it a literal (nothing to repeat).
func (t *rxTranslator) quant(q, lit string) error {
	if t.lastAtom < 0 || (!t.o.ERE && (t.atStart || t.afterHat)) {
		switch {
		case !t.o.ERE:
			t.atom(regexp.QuoteMeta(lit))
			return nil
		case t.o.Lenient:
			// GNU grep -E ignores it, with a warning.
			if t.o.Warn != nil {
				if q[0] == '{' {
					q = "{...}"
				}
				t.o.Warn(q + " at start of expression")
			}
			return nil
		default:
			return rxErrPreceding
		}
	}
	if t.lastQuant {
		s := t.out.String()
		t.out.Reset()
		t.out.WriteString(s[:t.lastAtom])
		t.out.WriteString("(?:")
		t.out.WriteString(s[t.lastAtom:])
		t.out.WriteString(")")
	}
	t.out.WriteString(q)
	t.lastQuant = true
	t.atStart = false
	return nil
}

// interval parses {n,m} (ERE) or \{n,m\} (BRE) at t.i; skip is the length
// of the opening token.
func (t *rxTranslator) interval(skip int) error {
	start := t.i
	j := t.i + skip
	num := func() (int, bool, error) {
		k := j
		for j < len(t.p) && t.p[j] >= '0' && t.p[j] <= '9' {
			j++
		}
		if k == j {
			return 0, false, nil
		}
		n, err := strconv.Atoi(t.p[k:j])
		if err != nil || n > 32767 {
			return 0, true, rxErrTooBig
		}
		return n, true, nil
	}
	bad := func(e error) error {
		if t.o.ERE && t.o.Lenient {
			t.i = start + 1
			t.literal('{')
			return nil
		}
		return e
	}
	lo, haveLo, err := num()
	if err != nil {
		return err
	}
	hi, haveHi, comma := lo, haveLo, false
	if j < len(t.p) && t.p[j] == ',' {
		comma = true
		j++
		if hi, haveHi, err = num(); err != nil {
			return err
		}
	}
	closer := "}"
	if !t.o.ERE {
		closer = `\}`
	}
	if j >= len(t.p) {
		return bad(rxErrOpenBrace)
	}
	if !strings.HasPrefix(t.p[j:], closer) || (!haveLo && !comma) {
		return bad(rxErrBraceBody)
	}
	j += len(closer)
	if comma && haveHi && hi < lo {
		return rxErrBraceBody
	}
	if lo > rxMaxRepeat || (haveHi && hi > rxMaxRepeat) {
		return rxErrTooBig
	}
	var q string
	switch {
	case !comma:
		q = "{" + strconv.Itoa(lo) + "}"
	case !haveHi:
		q = "{" + strconv.Itoa(lo) + ",}"
	default:
		q = "{" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
	}
	if !t.o.ERE && (t.lastAtom < 0 || t.atStart || t.afterHat) {
		// GNU: a BRE interval with nothing before it is literal text.
		t.i = start + skip
		t.literal('{')
		return nil
	}
	t.i = j
	return t.quant(q, "")
}

// escape handles a backslash sequence at t.i.
func (t *rxTranslator) escape() error {
	if t.i+1 >= len(t.p) {
		return rxErrTrailingBS
	}
	d := t.p[t.i+1]
	if !t.o.ERE {
		switch d {
		case '(':
			t.i += 2
			t.open()
			return nil
		case ')':
			t.i += 2
			return t.close()
		case '|':
			t.i += 2
			t.alt()
			return nil
		case '{':
			return t.interval(2)
		case '}':
			t.i += 2
			t.literal('}')
			return nil
		case '+', '?':
			t.i += 2
			return t.quant(string(d), string(d))
		}
	}
	switch d {
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return rxErrBackref
	case 'w':
		t.i += 2
		t.atom(`[0-9A-Za-z_]`)
		return nil
	case 'W':
		t.i += 2
		t.atom(`[^0-9A-Za-z_]`)
		return nil
	case 's':
		t.i += 2
		t.atom(`[[:space:]]`)
		return nil
	case 'S':
		t.i += 2
		t.atom(`[^[:space:]]`)
		return nil
	case 'b', '<', '>':
		t.i += 2
		t.assertion(`\b`)
		return nil
	case 'B':
		t.i += 2
		t.assertion(`\B`)
		return nil
	case '`':
		t.i += 2
		t.assertion(`\A`)
		return nil
	case '\'':
		t.i += 2
		t.assertion(`\z`)
		return nil
	}
	if t.o.Sed {
		if r, n, ok := CharEscape(t.p[t.i:]); ok {
			t.i += n
			t.literal(r)
			return nil
		}
	}
	t.i++
	r, n := utf8.DecodeRuneInString(t.p[t.i:])
	t.i += n
	t.literal(r)
	return nil
}

// CharEscape decodes one of sed's character escapes at the start of s
// (which begins with a backslash): \n \t \a \f \v \r \dNNN \oNNN \xHH \cX.
// It returns the character and the length consumed.
func CharEscape(s string) (rune, int, bool) {
	if len(s) < 2 || s[0] != '\\' {
		return 0, 0, false
	}
	switch s[1] {
	case 'n':
		return '\n', 2, true
	case 't':
		return '\t', 2, true
	case 'a':
		return '\a', 2, true
	case 'f':
		return '\f', 2, true
	case 'v':
		return '\v', 2, true
	case 'r':
		return '\r', 2, true
	case 'c':
		if len(s) >= 3 {
			c := s[2]
			if c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			return rune(c ^ 0x40), 3, true
		}
	case 'd', 'o', 'x':
		base, max := 10, 3
		if s[1] == 'o' {
			base = 8
		} else if s[1] == 'x' {
			base, max = 16, 2
		}
		j := 2
		for j < len(s) && j-2 < max && rxDigitOK(s[j], base) {
			j++
		}
		if j > 2 {
			v, err := strconv.ParseUint(s[2:j], base, 32)
			if err == nil && v < 256 {
				return rune(v), j, true
			}
		}
	}
	return 0, 0, false
}

func rxDigitOK(c byte, base int) bool {
	switch base {
	case 8:
		return c >= '0' && c <= '7'
	case 10:
		return c >= '0' && c <= '9'
	}
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

var rxClassNames = map[string]bool{
	"alpha": true, "digit": true, "alnum": true, "upper": true, "lower": true,
	"space": true, "blank": true, "punct": true, "print": true, "graph": true,
	"cntrl": true, "xdigit": true,
}

// bracket translates a bracket expression starting at t.i ("[").
func (t *rxTranslator) bracket() error {
	j := t.i + 1
	var b strings.Builder
	b.WriteString("[")
	if j < len(t.p) && t.p[j] == '^' {
		b.WriteString("^")
		j++
	}
	bodyStart := j
	first := true
	// elem reads one element at j: a character (possibly from [.c.] or
	// [=c=] or a sed escape), or a class (returned as its Go text).
	elem := func() (r rune, class string, err error) {
		c := t.p[j]
		if c == '[' && j+1 < len(t.p) && (t.p[j+1] == ':' || t.p[j+1] == '=' || t.p[j+1] == '.') {
			kind := t.p[j+1]
			end := strings.Index(t.p[j+2:], string(kind)+"]")
			if end < 0 {
				return 0, "", rxErrBracket
			}
			name := t.p[j+2 : j+2+end]
			j += 2 + end + 2
			if kind == ':' {
				if !rxClassNames[name] {
					return 0, "", rxErrClass
				}
				return 0, "[:" + name + ":]", nil
			}
			r, n := utf8.DecodeRuneInString(name)
			if n == 0 || n != len(name) {
				return 0, "", rxErrCollate
			}
			return r, "", nil
		}
		if c == '\\' && t.o.Sed {
			if r, n, ok := CharEscape(t.p[j:]); ok {
				j += n
				return r, "", nil
			}
		}
		r, n := utf8.DecodeRuneInString(t.p[j:])
		j += n
		return r, "", nil
	}
	for {
		if j >= len(t.p) {
			return rxErrBracket
		}
		if t.p[j] == ']' && !first {
			j++
			break
		}
		first = false
		lo, class, err := elem()
		if err != nil {
			return err
		}
		if class != "" {
			b.WriteString(class)
			continue
		}
		if j+1 < len(t.p) && t.p[j] == '-' && t.p[j+1] != ']' {
			j++
			hi, hclass, err := elem()
			if err != nil {
				return err
			}
			if hclass != "" || hi < lo {
				return rxErrRange
			}
			rxWriteClassChar(&b, lo)
			b.WriteString("-")
			rxWriteClassChar(&b, hi)
			continue
		}
		rxWriteClassChar(&b, lo)
	}
	body := t.p[bodyStart : j-1]
	if len(body) >= 2 && body[0] == ':' && body[len(body)-1] == ':' {
		return rxErrClassSyntax
	}
	b.WriteString("]")
	t.i = j
	t.atom(b.String())
	return nil
}

// rxWriteClassChar writes r for use inside a Go character class.
func rxWriteClassChar(b *strings.Builder, r rune) {
	switch {
	case r == utf8.RuneError:
		b.WriteString(`\x{FFFD}`)
	case r < ' ' || r == 0x7f:
		b.WriteString(`\x{` + strconv.FormatInt(int64(r), 16) + `}`)
	case r < utf8.RuneSelf && !('0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'):
		b.WriteByte('\\')
		b.WriteRune(r)
	default:
		b.WriteRune(r)
	}
}
