package parse

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Syntax errors inside [[ ]] as bash words them. mvdan's parser stops at
// the first token it cannot use ("not a valid test operator: `$`"); bash's
// parse_cond_command reads the expression with its own grammar and names
// what it expected:
//
//	[[ a $op a ]]   conditional binary operator expected
//	[[ -z ]]        unexpected argument `]]' to conditional unary operator
//	[[ && ]]        unexpected token `&&' in conditional command
//	[[ a =~ c a ]]  syntax error in conditional expression
//	[[ ]]           (nothing: bash prints no message)
//
// and the script ends with the status of the last command, not 2.

// CondError is a syntax error inside [[ ]] as bash reports it.
type CondError struct {
	Line int    // the line bash names, counted from 1 in src
	Msg  string // without the "bash: -c: line N: " prefix; "" prints nothing
}

// CondSyntaxError finds the [[ ]] that err, a parse error of src, is in
// and returns bash's message for it; ok is false when the error is not
// one of a conditional command's grammar (the caller reports err as
// usual).
func CondSyntaxError(src string, err error) (ce CondError, ok bool) {
	var pe syntax.ParseError
	if !errors.As(err, &pe) {
		return ce, false
	}
	off := min(int(pe.Pos.Offset()), len(src))
	start := -1
	for i := min(off, len(src)-1); i >= 0; i-- {
		if strings.HasPrefix(src[i:], "[[") && i+2 < len(src) && (src[i+2] == ' ' || src[i+2] == '\t') &&
			(i == 0 || strings.IndexByte(" \t\n;&|(!", src[i-1]) >= 0) {
			start = i
			break
		}
	}
	if start < 0 {
		return ce, false
	}
	p := &condParser{src: src, off: start + 2}
	if p.expr() && p.tok.text == "]]" {
		return ce, false // the expression is fine: the error is elsewhere
	}
	if !p.failed {
		// A complete expression followed by something else.
		p.fail("syntax error in conditional expression" + p.tokSuffix(": unexpected token `%s'"))
	}
	// bash names the line the command starts on.
	return CondError{Line: 1 + strings.Count(src[:start], "\n"), Msg: p.msg}, true
}

type condTok struct {
	text string
	word bool // a word (not an operator token)
	off  int
	eof  bool
}

type condParser struct {
	src    string
	off    int
	tok    condTok
	failed bool
	msg    string
}

func (p *condParser) fail(msg string) {
	if !p.failed {
		p.failed, p.msg = true, msg
	}
}

// tokSuffix formats the current token into f (bash's
// error_token_from_token: operators have a text, words do not).
func (p *condParser) tokSuffix(f string) string {
	if p.tok.word || p.tok.eof {
		return ""
	}
	return strings.Replace(f, "%s", p.tok.text, 1)
}

var condUnary = map[string]bool{}
var condBinary = map[string]bool{}

func init() {
	for _, c := range "abcdefghknoprstuvwxzGLNORS" {
		condUnary["-"+string(c)] = true
	}
	for _, op := range []string{"=", "==", "!=", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"} {
		condBinary[op] = true
	}
}

// next reads the next token; regex reads the word after =~.
func (p *condParser) next(regex bool) {
	s := p.src
	i := p.off
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\\' && i+1 < len(s) && s[i+1] == '\n') {
		if s[i] == '\\' {
			i++
		}
		i++
	}
	start := i
	if i >= len(s) {
		p.tok, p.off = condTok{off: i, eof: true}, i
		return
	}
	if strings.HasPrefix(s[i:], "]]") && (i+2 == len(s) || strings.IndexByte(" \t\n;&|)", s[i+2]) >= 0) {
		p.tok, p.off = condTok{text: "]]", off: i}, i+2
		return
	}
	if !regex {
		for _, op := range []string{"&&", "||", "<>", "(", ")", "<", ">", ";", "&", "|"} {
			if strings.HasPrefix(s[i:], op) {
				p.tok, p.off = condTok{text: op, off: i}, i+len(op)
				return
			}
		}
	}
	// After =~ bash always reads a word, empty when an operator follows.
	depth := 0
	for i < len(s) {
		c := s[i]
		if depth == 0 && (c == ' ' || c == '\t' || c == '\n') {
			break
		}
		switch {
		case c == '\\':
			i += 2
			continue
		case c == '\'':
			if j := strings.IndexByte(s[i+1:], '\''); j >= 0 {
				i += j + 2
				continue
			}
			i = len(s)
			continue
		case c == '"' || c == '`':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = j + 1
			continue
		case c == '$' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{'):
			i = matchClose(s, i+1)
			continue
		case !regex && strings.IndexByte("?*+@!", c) >= 0 && i+1 < len(s) && s[i+1] == '(':
			i = matchClose(s, i+1)
			continue
		}
		if regex {
			if c == '(' {
				depth++
			} else if c == ')' {
				if depth == 0 {
					break
				}
				depth--
			} else if depth == 0 && strings.IndexByte(";&<>", c) >= 0 {
				break
			}
		} else if strings.IndexByte("()<>;&|", c) >= 0 {
			break
		}
		i++
	}
	i = min(i, len(s))
	p.tok, p.off = condTok{text: s[start:i], word: true, off: start}, i
}

// matchClose returns the offset after the bracket closing the one at i.
func matchClose(s string, i int) int {
	open := s[i]
	closing := byte(')')
	if open == '{' {
		closing = '}'
	}
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case open:
			depth++
		case closing:
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(s)
}

// expr is cond_or; it leaves the token after the expression in p.tok.
func (p *condParser) expr() bool {
	if !p.and() {
		return false
	}
	if p.tok.text == "||" && !p.tok.word {
		return p.expr()
	}
	return true
}

func (p *condParser) and() bool {
	if !p.term() {
		return false
	}
	if p.tok.text == "&&" && !p.tok.word {
		return p.and()
	}
	return true
}

// term is bash's cond_term: it reads its first token itself and leaves
// the token after the term in p.tok.
func (p *condParser) term() bool {
	p.next(false)
	t := p.tok
	switch {
	case t.eof:
		p.fail("unexpected EOF while looking for `]]'")
		return false
	case t.text == "]]":
		p.failed = true
		return false
	case t.text == "(" && !t.word:
		if !p.expr() {
			return false
		}
		if p.tok.text != ")" || p.tok.word {
			if p.tok.word || p.tok.eof {
				p.fail("expected `)'")
			} else {
				p.fail("unexpected token `" + p.tok.text + "', expected `)'")
			}
			return false
		}
		p.next(false)
		return true
	case t.word && t.text == "!":
		return p.term()
	case t.word && condUnary[t.text]:
		p.next(false)
		if !p.tok.word {
			p.fail("unexpected argument" + p.tokSuffix(" `%s'") + " to conditional unary operator")
			return false
		}
		p.next(false)
		return true
	case t.word:
		p.next(false)
		op := p.tok
		switch {
		case op.word && (condBinary[op.text] || op.text == "=~"):
		case !op.word && (op.text == "<" || op.text == ">"):
		case op.text == "]]" || !op.word && (op.text == "&&" || op.text == "||" || op.text == ")"):
			return true
		default:
			p.fail(p.tokSuffix("unexpected token `%s', ") + "conditional binary operator expected")
			return false
		}
		p.next(op.word && op.text == "=~")
		if !p.tok.word {
			p.fail("unexpected argument" + p.tokSuffix(" `%s'") + " to conditional binary operator")
			return false
		}
		p.next(false)
		return true
	}
	p.fail("unexpected token `" + t.text + "' in conditional command")
	return false
}
