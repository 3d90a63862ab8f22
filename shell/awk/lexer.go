package awk

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// token is the kind of a lexical token.
type token int

const (
	tEOF token = iota
	tNewline
	tLbrace
	tRbrace
	tLparen
	tRparen
	tLbracket
	tRbracket
	tSemicolon
	tComma

	tAdd
	tSub
	tMul
	tDiv
	tMod
	tPow
	tAssign
	tAddAssign
	tSubAssign
	tMulAssign
	tDivAssign
	tModAssign
	tPowAssign
	tEq
	tNe
	tLt
	tLe
	tGt
	tGe
	tMatch
	tNoMatch
	tNot
	tAnd
	tOr
	tQuestion
	tColon
	tIncr
	tDecr
	tDollar
	tAppend      // >>
	tPipe        // |
	tPipeGetline // | getline

	tNumber
	tString
	tRegex
	tName
	tFuncName // a name directly followed by '('
	tBuiltin  // a builtin function's name

	tBegin
	tEnd
	tBreak
	tContinue
	tDelete
	tDo
	tElse
	tExit
	tFor
	tFunction
	tGetline
	tIf
	tIn
	tNext
	tNextfile
	tPrint
	tPrintf
	tReturn
	tWhile
)

var tokenNames = map[token]string{
	tEOF: "end of program", tNewline: "newline", tLbrace: "{", tRbrace: "}",
	tLparen: "(", tRparen: ")", tLbracket: "[", tRbracket: "]", tSemicolon: ";",
	tComma: ",", tAdd: "+", tSub: "-", tMul: "*", tDiv: "/", tMod: "%", tPow: "^",
	tAssign: "=", tAddAssign: "+=", tSubAssign: "-=", tMulAssign: "*=",
	tDivAssign: "/=", tModAssign: "%=", tPowAssign: "^=", tEq: "==", tNe: "!=",
	tLt: "<", tLe: "<=", tGt: ">", tGe: ">=", tMatch: "~", tNoMatch: "!~",
	tNot: "!", tAnd: "&&", tOr: "||", tQuestion: "?", tColon: ":", tIncr: "++",
	tDecr: "--", tDollar: "$", tAppend: ">>", tPipe: "|", tPipeGetline: "| getline",
	tNumber: "number", tString: "string", tRegex: "regex", tName: "name",
	tFuncName: "function name", tBuiltin: "builtin function",
}

var keywords = map[string]token{
	"BEGIN": tBegin, "END": tEnd, "break": tBreak, "continue": tContinue,
	"delete": tDelete, "do": tDo, "else": tElse, "exit": tExit, "for": tFor,
	"function": tFunction, "func": tFunction, "getline": tGetline, "if": tIf,
	"in": tIn, "next": tNext, "nextfile": tNextfile, "print": tPrint,
	"printf": tPrintf, "return": tReturn, "while": tWhile,
}

var builtinNames = map[string]bool{
	"length": true, "substr": true, "index": true, "split": true, "sub": true,
	"gsub": true, "match": true, "sprintf": true, "sin": true, "cos": true,
	"atan2": true, "exp": true, "log": true, "sqrt": true, "int": true,
	"rand": true, "srand": true, "tolower": true, "toupper": true,
	"system": true, "close": true, "fflush": true, "gensub": true,
	"systime": true, "strftime": true, "and": true, "or": true, "xor": true,
	"lshift": true, "rshift": true, "compl": true, "asort": true,
	"asorti": true, "strtonum": true, "mktime": true,
}

func (t token) String() string {
	if s, ok := tokenNames[t]; ok {
		return s
	}
	for k, v := range keywords {
		if v == t {
			return k
		}
	}
	return fmt.Sprintf("token(%d)", int(t))
}

// lexeme is one token with its text.
type lexeme struct {
	tok  token
	val  string  // name, string value, regex source, number text
	num  float64 // number value
	line int
	pos  int // byte offset of the token's start
}

// syntaxError is a parse error at a source line.
type syntaxError struct {
	line int
	msg  string
	ctx  string
}

func (e *syntaxError) Error() string {
	s := fmt.Sprintf("syntax error at source line %d: %s", e.line, e.msg)
	if e.ctx != "" {
		s += "\n context is: " + e.ctx
	}
	return s
}

type lexer struct {
	src  string
	pos  int
	line int
	last token // the last token returned
}

func newLexer(src string) *lexer {
	return &lexer{src: src, line: 1, last: tNewline}
}

func (l *lexer) errorf(format string, a ...any) {
	panic(&syntaxError{line: l.line, msg: fmt.Sprintf(format, a...), ctx: l.lineText(l.pos)})
}

// lineText returns the source line holding offset pos.
func (l *lexer) lineText(pos int) string {
	if pos > len(l.src) {
		pos = len(l.src)
	}
	start := strings.LastIndexByte(l.src[:pos], '\n') + 1
	end := strings.IndexByte(l.src[pos:], '\n')
	if end < 0 {
		end = len(l.src)
	} else {
		end += pos
	}
	s := strings.TrimSpace(l.src[start:end])
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// skipSpace skips blanks, comments and backslash-newlines; with nl, newlines
// too.
func (l *lexer) skipSpace(nl bool) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			l.pos++
		case c == '\\' && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n':
			l.pos += 2
			l.line++
		case c == '\\' && l.pos+2 < len(l.src) && l.src[l.pos+1] == '\r' && l.src[l.pos+2] == '\n':
			l.pos += 3
			l.line++
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case c == '\n' && nl:
			l.pos++
			l.line++
		default:
			return
		}
	}
}

// next returns the next token.
func (l *lexer) next() lexeme {
	switch l.last {
	case tComma, tLbrace, tAnd, tOr, tDo, tElse:
		l.skipSpace(true)
	default:
		l.skipSpace(false)
	}
	lx := l.scan()
	l.last = lx.tok
	return lx
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (l *lexer) scan() lexeme {
	start := l.pos
	mk := func(t token, n int) lexeme {
		l.pos += n
		return lexeme{tok: t, line: l.line, pos: start}
	}
	if l.pos >= len(l.src) {
		return lexeme{tok: tEOF, line: l.line, pos: start}
	}
	c := l.src[l.pos]
	peek := func(i int) byte {
		if l.pos+i < len(l.src) {
			return l.src[l.pos+i]
		}
		return 0
	}
	switch {
	case c == '\n':
		lx := mk(tNewline, 1)
		l.line++
		return lx
	case isIdentStart(c):
		end := l.pos
		for end < len(l.src) && (isIdentStart(l.src[end]) || isDigit(l.src[end])) {
			end++
		}
		name := l.src[l.pos:end]
		l.pos = end
		if t, ok := keywords[name]; ok {
			return lexeme{tok: t, val: name, line: l.line, pos: start}
		}
		if builtinNames[name] {
			return lexeme{tok: tBuiltin, val: name, line: l.line, pos: start}
		}
		if l.pos < len(l.src) && l.src[l.pos] == '(' {
			return lexeme{tok: tFuncName, val: name, line: l.line, pos: start}
		}
		return lexeme{tok: tName, val: name, line: l.line, pos: start}
	case isDigit(c) || (c == '.' && isDigit(peek(1))):
		return l.scanNumber()
	case c == '"':
		return l.scanString()
	}
	switch c {
	case '{':
		return mk(tLbrace, 1)
	case '}':
		return mk(tRbrace, 1)
	case '(':
		return mk(tLparen, 1)
	case ')':
		return mk(tRparen, 1)
	case '[':
		return mk(tLbracket, 1)
	case ']':
		return mk(tRbracket, 1)
	case ';':
		return mk(tSemicolon, 1)
	case ',':
		return mk(tComma, 1)
	case '?':
		return mk(tQuestion, 1)
	case ':':
		return mk(tColon, 1)
	case '~':
		return mk(tMatch, 1)
	case '$':
		return mk(tDollar, 1)
	case '+':
		switch peek(1) {
		case '+':
			return mk(tIncr, 2)
		case '=':
			return mk(tAddAssign, 2)
		}
		return mk(tAdd, 1)
	case '-':
		switch peek(1) {
		case '-':
			return mk(tDecr, 2)
		case '=':
			return mk(tSubAssign, 2)
		}
		return mk(tSub, 1)
	case '*':
		if peek(1) == '*' {
			if peek(2) == '=' {
				return mk(tPowAssign, 3)
			}
			return mk(tPow, 2)
		}
		if peek(1) == '=' {
			return mk(tMulAssign, 2)
		}
		return mk(tMul, 1)
	case '/':
		if peek(1) == '=' {
			return mk(tDivAssign, 2)
		}
		return mk(tDiv, 1)
	case '%':
		if peek(1) == '=' {
			return mk(tModAssign, 2)
		}
		return mk(tMod, 1)
	case '^':
		if peek(1) == '=' {
			return mk(tPowAssign, 2)
		}
		return mk(tPow, 1)
	case '=':
		if peek(1) == '=' {
			return mk(tEq, 2)
		}
		return mk(tAssign, 1)
	case '!':
		switch peek(1) {
		case '=':
			return mk(tNe, 2)
		case '~':
			return mk(tNoMatch, 2)
		}
		return mk(tNot, 1)
	case '<':
		if peek(1) == '=' {
			return mk(tLe, 2)
		}
		return mk(tLt, 1)
	case '>':
		switch peek(1) {
		case '=':
			return mk(tGe, 2)
		case '>':
			return mk(tAppend, 2)
		}
		return mk(tGt, 1)
	case '&':
		if peek(1) == '&' {
			return mk(tAnd, 2)
		}
		l.errorf("unexpected character '&'")
	case '|':
		switch peek(1) {
		case '|':
			return mk(tOr, 2)
		case '&':
			l.errorf("two-way pipes (|&) are not supported")
		}
		// "| getline" is one token: it binds differently from "|".
		i := l.pos + 1
		for i < len(l.src) && (l.src[i] == ' ' || l.src[i] == '\t') {
			i++
		}
		if strings.HasPrefix(l.src[i:], "getline") {
			j := i + len("getline")
			if j >= len(l.src) || !(isIdentStart(l.src[j]) || isDigit(l.src[j])) {
				return mk(tPipeGetline, j-l.pos)
			}
		}
		return mk(tPipe, 1)
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.pos:])
	l.errorf("unexpected character %q", r)
	return lexeme{}
}

func (l *lexer) scanNumber() lexeme {
	start := l.pos
	s := l.src
	i := l.pos
	if s[i] == '0' && i+1 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X') && i+2 < len(s) && isHex(s[i+2]) {
		i += 2
		for i < len(s) && isHex(s[i]) {
			i++
		}
		n, err := strconv.ParseUint(s[start+2:i], 16, 64)
		if err != nil {
			l.errorf("bad number %q", s[start:i])
		}
		l.pos = i
		return lexeme{tok: tNumber, val: s[start:i], num: float64(n), line: l.line, pos: start}
	}
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			i = j
		}
	}
	n, err := strconv.ParseFloat(s[start:i], 64)
	if err != nil {
		// Out of range numbers parse as ±Inf with an error; keep the value.
		if ne, ok := err.(*strconv.NumError); !ok || ne.Err != strconv.ErrRange {
			l.errorf("bad number %q", s[start:i])
		}
	}
	l.pos = i
	return lexeme{tok: tNumber, val: s[start:i], num: n, line: l.line, pos: start}
}

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (l *lexer) scanString() lexeme {
	start := l.pos
	line := l.line
	l.pos++ // opening quote
	var b strings.Builder
	for {
		if l.pos >= len(l.src) {
			l.pos = start
			l.errorf("unterminated string")
		}
		c := l.src[l.pos]
		switch c {
		case '"':
			l.pos++
			return lexeme{tok: tString, val: b.String(), line: line, pos: start}
		case '\n':
			l.pos = start
			l.errorf("newline in string")
		case '\\':
			if l.pos+1 < len(l.src) && l.src[l.pos+1] == '\n' {
				l.pos += 2
				l.line++
				continue
			}
			n := unescapeOne(l.src[l.pos:], &b, true)
			l.pos += n
		default:
			b.WriteByte(c)
			l.pos++
		}
	}
}

// scanRegex scans a regex literal whose opening '/' is at offset open. It
// returns the regex's source with "\/" turned into "/" and every other
// escape kept for the regex translator.
func (l *lexer) scanRegex(open int) lexeme {
	l.pos = open + 1
	line := l.line
	var b strings.Builder
	inBracket := false
	bracketStart := 0
	for {
		if l.pos >= len(l.src) || l.src[l.pos] == '\n' {
			l.pos = open
			l.errorf("unterminated regular expression")
		}
		c := l.src[l.pos]
		switch {
		case c == '\\' && l.pos+1 < len(l.src):
			if l.src[l.pos+1] == '/' {
				b.WriteByte('/')
			} else if l.src[l.pos+1] == '\n' {
				l.line++
			} else {
				b.WriteByte('\\')
				b.WriteByte(l.src[l.pos+1])
			}
			l.pos += 2
			continue
		case c == '[' && !inBracket:
			inBracket = true
			bracketStart = b.Len() + 1
			if l.pos+1 < len(l.src) && l.src[l.pos+1] == '^' {
				b.WriteString("[^")
				l.pos += 2
				bracketStart++
				continue
			}
		case c == '[' && inBracket && l.pos+1 < len(l.src) && l.src[l.pos+1] == ':':
			// A character class: copy through its closing ":]".
			end := strings.Index(l.src[l.pos+2:], ":]")
			nl := strings.IndexByte(l.src[l.pos:], '\n')
			if end >= 0 && (nl < 0 || l.pos+2+end < l.pos+nl) {
				b.WriteString(l.src[l.pos : l.pos+2+end+2])
				l.pos += 2 + end + 2
				continue
			}
		case c == ']' && inBracket:
			if b.Len() != bracketStart { // a ']' first in a bracket is literal
				inBracket = false
			}
		case c == '/' && !inBracket:
			l.pos++
			l.last = tRegex
			return lexeme{tok: tRegex, val: b.String(), line: line, pos: open}
		}
		b.WriteByte(c)
		l.pos++
	}
}

// unescapeOne decodes the escape sequence at the start of s (s[0] == '\\'),
// writes it to b and returns how many bytes it used. An unknown escape keeps
// its backslash (as mawk and onetrue awk do), which makes "\." in a dynamic
// regex mean a literal dot.
func unescapeOne(s string, b *strings.Builder, inString bool) int {
	if len(s) < 2 {
		b.WriteByte('\\')
		return 1
	}
	c := s[1]
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case '\\':
		b.WriteByte('\\')
	case '"':
		b.WriteByte('"')
	case '/':
		b.WriteByte('/')
	case 'a':
		b.WriteByte(7)
	case 'b':
		b.WriteByte(8)
	case 'f':
		b.WriteByte(12)
	case 'v':
		b.WriteByte(11)
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n := 0
		i := 1
		for ; i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '7'; i++ {
			n = n*8 + int(s[i]-'0')
		}
		b.WriteByte(byte(n))
		return i
	case 'x':
		n := 0
		i := 2
		for ; i < len(s) && i < 4 && isHex(s[i]); i++ {
			v, _ := strconv.ParseUint(s[i:i+1], 16, 8)
			n = n*16 + int(v)
		}
		if i == 2 {
			b.WriteString(`\x`)
			return 2
		}
		b.WriteByte(byte(n))
		return i
	default:
		b.WriteByte('\\')
		b.WriteByte(c)
	}
	return 2
}

// unescape processes the escape sequences of a command-line assignment's
// value or of -F's argument, as awk does for string literals.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '\\' {
			i += unescapeOne(s[i:], &b, false)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
