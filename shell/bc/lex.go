package bc

import (
	"bufio"
	"fmt"
	"io"
)

// tokKind is a token's kind.
type tokKind int

const (
	tEOF tokKind = iota
	tNewline
	tNumber  // text: the digits, leading zeros and a trailing point gone
	tString  // text: between the quotes
	tName    // text
	tKeyword // text: define, break, quit, ...
	tOp      // text: + - * / % ^ ; ( ) { } [ ] , !
	tAnd
	tOr
	tAssign // text: "=", "+=", ...
	tRel    // text: == <= >= != < >
	tIncDec // text: ++ or --
	tLast   // "."
)

type token struct {
	kind tokKind
	text string
}

var keywords = map[string]bool{
	"define": true, "break": true, "quit": true, "length": true, "return": true,
	"for": true, "if": true, "while": true, "sqrt": true, "scale": true,
	"ibase": true, "obase": true, "auto": true, "else": true, "read": true,
	"halt": true, "last": true, "warranty": true, "continue": true,
	"print": true, "limits": true,
}

// lexer splits one input (a file or stdin) into tokens, counting lines as
// GNU bc's scanner does; its errors go through report.
type lexer struct {
	r      *bufio.Reader
	line   int
	report func(line int, msg string)
	eofMsg func() // "EOF encountered in a comment."
	err    error  // a read error other than io.EOF
}

func newLexer(r io.Reader, report func(int, string), eofMsg func()) *lexer {
	return &lexer{r: bufio.NewReader(r), line: 1, report: report, eofMsg: eofMsg}
}

func (l *lexer) get() (byte, bool) {
	c, err := l.r.ReadByte()
	if err != nil {
		if err != io.EOF && l.err == nil {
			l.err = err
		}
		return 0, false
	}
	return c, true
}

func (l *lexer) peek() (byte, bool) {
	b, err := l.r.Peek(1)
	if err != nil {
		return 0, false
	}
	return b[0], true
}

func (l *lexer) peek2() (byte, bool) {
	b, err := l.r.Peek(2)
	if err != nil || len(b) < 2 {
		return 0, false
	}
	return b[1], true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// next returns the next token.
func (l *lexer) next() token {
	for {
		c, ok := l.get()
		if !ok {
			return token{kind: tEOF}
		}
		switch {
		case c == ' ' || c == '\t':
			continue
		case c == '\n':
			l.line++
			return token{kind: tNewline}
		case c == '#':
			for {
				p, ok := l.peek()
				if !ok || p == '\n' {
					break
				}
				l.get()
			}
			continue
		case c == '\\':
			if p, ok := l.peek(); ok && p == '\n' {
				l.get()
				l.line++
				continue
			}
			l.illegal(c)
			continue
		case c == '/':
			if p, ok := l.peek(); ok && p == '*' {
				l.get()
				l.comment()
				continue
			}
			if p, ok := l.peek(); ok && p == '=' {
				l.get()
				return token{kind: tAssign, text: "/="}
			}
			return token{kind: tOp, text: "/"}
		case isLower(c):
			name := []byte{c}
			for {
				p, ok := l.peek()
				if !ok || !(isLower(p) || p >= '0' && p <= '9' || p == '_') {
					break
				}
				l.get()
				name = append(name, p)
			}
			if keywords[string(name)] {
				return token{kind: tKeyword, text: string(name)}
			}
			return token{kind: tName, text: string(name)}
		case isDigit(c) || c == '.' && l.dotDigit():
			return l.number(c)
		case c == '.':
			return token{kind: tLast}
		case c == '"':
			if t, ok := l.str(); ok {
				return t
			}
			l.illegal(c)
			continue
		case c == '&':
			if p, ok := l.peek(); ok && p == '&' {
				l.get()
				return token{kind: tAnd}
			}
			l.illegal(c)
			continue
		case c == '|':
			if p, ok := l.peek(); ok && p == '|' {
				l.get()
				return token{kind: tOr}
			}
			l.illegal(c)
			continue
		case c == '+' || c == '-':
			p, ok := l.peek()
			if ok && p == c {
				l.get()
				return token{kind: tIncDec, text: string([]byte{c, c})}
			}
			if ok && p == '=' {
				l.get()
				return token{kind: tAssign, text: string(c) + "="}
			}
			return token{kind: tOp, text: string(c)}
		case c == '*' || c == '%' || c == '^':
			if p, ok := l.peek(); ok && p == '=' {
				l.get()
				return token{kind: tAssign, text: string(c) + "="}
			}
			return token{kind: tOp, text: string(c)}
		case c == '=':
			p, ok := l.peek()
			if ok && p == '=' {
				l.get()
				return token{kind: tRel, text: "=="}
			}
			return token{kind: tAssign, text: "="}
		case c == '<' || c == '>' || c == '!':
			if p, ok := l.peek(); ok && p == '=' {
				l.get()
				return token{kind: tRel, text: string(c) + "="}
			}
			if c == '!' {
				return token{kind: tOp, text: "!"}
			}
			return token{kind: tRel, text: string(c)}
		case c == ';' || c == '(' || c == ')' || c == '{' || c == '}' || c == '[' || c == ']' || c == ',':
			return token{kind: tOp, text: string(c)}
		default:
			l.illegal(c)
		}
	}
}

// dotDigit tells whether a '.' just read starts a number: a digit follows
// (perhaps after quoted newlines).
func (l *lexer) dotDigit() bool {
	for n := 1; ; n += 2 {
		b, err := l.r.Peek(n)
		if err != nil || len(b) < n {
			return false
		}
		if isDigit(b[n-1]) {
			return true
		}
		if b[n-1] != '\\' {
			return false
		}
		b, err = l.r.Peek(n + 1)
		if err != nil || len(b) < n+1 || b[n] != '\n' {
			return false
		}
	}
}

func (l *lexer) illegal(c byte) {
	switch {
	case c < ' ':
		l.report(l.line, fmt.Sprintf("illegal character: ^%c", c+'@'))
	case c > '~':
		l.report(l.line, fmt.Sprintf("illegal character: \\%03o", c))
	default:
		l.report(l.line, fmt.Sprintf("illegal character: %c", c))
	}
}

// comment skips a /* */ comment whose opening was read.
func (l *lexer) comment() {
	for {
		c, ok := l.get()
		if !ok {
			l.eofMsg()
			return
		}
		if c == '\n' {
			l.line++
		}
		if c == '*' {
			for {
				p, ok := l.peek()
				if !ok || p != '*' {
					break
				}
				l.get()
			}
			if p, ok := l.peek(); ok && p == '/' {
				l.get()
				return
			}
		}
	}
}

// str reads a string whose opening quote was read; false (and nothing
// consumed) when no closing quote follows.
func (l *lexer) str() (token, bool) {
	for n := 1; ; n++ {
		b, err := l.r.Peek(n)
		if err != nil || len(b) < n {
			if err == bufio.ErrBufferFull {
				// A very long string: read it unbuffered.
				return l.longStr()
			}
			return token{}, false
		}
		if b[n-1] == '"' {
			s := string(b[:n-1])
			_, _ = l.r.Discard(n)
			for i := 0; i < len(s); i++ {
				if s[i] == '\n' {
					l.line++
				}
			}
			return token{kind: tString, text: s}, true
		}
	}
}

func (l *lexer) longStr() (token, bool) {
	var s []byte
	for {
		c, ok := l.get()
		if !ok {
			l.report(l.line, "illegal character: \"")
			return token{kind: tString, text: string(s)}, true
		}
		if c == '"' {
			break
		}
		if c == '\n' {
			l.line++
		}
		s = append(s, c)
	}
	return token{kind: tString, text: string(s)}, true
}

// number reads a number whose first character c was read.
func (l *lexer) number(c byte) token {
	text := []byte{c}
	dot := c == '.'
	for {
		p, ok := l.peek()
		if !ok {
			break
		}
		if p == '\\' {
			if q, ok := l.peek2(); ok && q == '\n' {
				l.get()
				l.get()
				l.line++
				continue
			}
			break
		}
		if p == '.' && !dot {
			dot = true
		} else if !isDigit(p) {
			break
		}
		l.get()
		text = append(text, p)
	}
	if len(text) > 1 && text[len(text)-1] == '.' {
		text = text[:len(text)-1]
	}
	i := 0
	for i < len(text) && text[i] == '0' {
		i++
	}
	if i == len(text) {
		i--
	}
	return token{kind: tNumber, text: string(text[i:])}
}
