// Package arith evaluates bash arithmetic ($((...)), ((...)), let,
// declare -i, array subscripts) as bash 5.2's expr.c does: the text of
// an expression, already expanded by the shell, is read and evaluated in
// one pass, a variable's value is itself evaluated as an expression, and
// errors carry bash's text: "EXPR: msg (error token is "TOK")".
//
// The shell's variables are reached through [Vars], so the package knows
// nothing of the interpreter that uses it.
package arith

import (
	"fmt"
	"strconv"
	"strings"
)

// Vars is what an evaluation reads and assigns of the shell's
// variables. Errors returned by its methods end the evaluation and are
// returned by [Eval] unchanged.
type Vars interface {
	// Var returns the value of the variable name, "" when it is unset
	// (or an error, such as set -u's "unbound variable").
	Var(name string) (string, error)
	// Elem returns the value of name[sub], sub as it is written in the
	// expression (neither expanded nor evaluated yet), "" when unset;
	// depth is the recursion depth to pass on to Eval when sub is
	// evaluated as an index.
	Elem(name, sub string, depth int) (string, error)
	// SetVar assigns val to the variable name.
	SetVar(name, val string) error
	// SetElem assigns val to name[sub], sub as written in the expression.
	SetElem(name, sub, val string) error
}

// Error is an error of the expression itself (syntax, division by 0,
// bad base, recursion too deep); bash reports it with status 1. Msg is
// bash's text, "EXPR: msg (error token is "TOK")".
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// MaxDepth is bash's MAX_EXPR_RECURSION_LEVEL: how deep variables whose
// values are expressions may nest.
const MaxDepth = 1024

// arithFatal is an error of an arithmetic evaluation, carried by panic
// to its top.
type arithFatal struct{ err error }

// Eval evaluates the text of an expression (bash's subexpr); depth is
// the nesting of the evaluation (0 at the top, see [MaxDepth]). An empty
// expression is 0. Errors are an *[Error] or an error of v.
func Eval(v Vars, expr string, depth int) (n int64, err error) {
	t := strings.TrimLeft(expr, " \t\n")
	if t == "" {
		return 0, nil
	}
	if n, ok, err := evalSimple(v, expr); ok {
		return n, err
	}
	return evalParse(v, expr, depth)
}

// evalParse is Eval by bash's parser, for an expression not empty.
func evalParse(v Vars, expr string, depth int) (n int64, err error) {
	p := &arithParser{v: v, expr: expr, depth: depth}
	defer func() {
		if v := recover(); v != nil {
			f, ok := v.(arithFatal)
			if !ok {
				panic(v)
			}
			n, err = 0, f.err
		}
	}()
	p.readtok()
	n = p.expcomma()
	if p.tok != tEOL {
		p.fail("syntax error in expression")
	}
	return n, nil
}

// Tokens: single-character operators are their byte; these are the rest.
const (
	tEOL = iota
	tEQEQ
	tNEQ
	tLEQ
	tGEQ
	tSTR
	tNUM
	tLAND
	tLOR
	tLSH
	tRSH
	tOPASSIGN
	tCOND
	tPOWER
	tPREINC
	tPREDEC
	tPOSTINC
	tPOSTDEC
)

// arithParser is the state of one evaluation (bash's expr.c globals).
type arithParser struct {
	v      Vars
	expr   string
	depth  int
	tp     int // the next character to read
	lasttp int // the start of the last token read
	tok    int // curtok
	last   int // lasttok
	val    int64
	str    string // the identifier of the last tSTR
	assign int    // the operator of a tOPASSIGN
	noeval int
	cut    int // while a number is converted: where it ends (bash ends the text there)
}

func (p *arithParser) fail(msg string) {
	expr := p.expr
	if p.cut > 0 {
		// bash's readtok puts a NUL after the number it converts: an
		// error in it shows the expression and token up to there.
		expr = expr[:p.cut]
	}
	tok := ""
	if p.lasttp < len(expr) {
		tok = expr[p.lasttp:]
	}
	e := strings.TrimLeft(expr, " \t") // bash skips blanks only (whitespace())
	panic(arithFatal{&Error{Msg: fmt.Sprintf("%s: %s (error token is \"%s\")", e, msg, tok)}})
}

func (p *arithParser) fatal(err error) { panic(arithFatal{err}) }

func isArithSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func isVarStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isVarChar(c byte) bool { return isVarStart(c) || c >= '0' && c <= '9' }

func isAlnum(c byte) bool { return isVarChar(c) && c != '_' }

func isArithOp(t int) bool {
	switch t {
	case '=', '>', '<', '+', '-', '*', '/', '%', '!', '(', ')', '&', '|', '^', '~', '?', ':', ',':
		return true
	}
	return false
}

func isMultiOp(t int) bool {
	switch t {
	case tGEQ, tLEQ, tEQEQ, tNEQ, tLAND, tLOR, tLSH, tRSH, tOPASSIGN, tPOWER:
		return true
	}
	return false
}

func (p *arithParser) at(i int) byte {
	if i < len(p.expr) {
		return p.expr[i]
	}
	return 0
}

// readtok reads the next token (bash's readtok).
func (p *arithParser) readtok() {
	cp := p.tp
	for cp < len(p.expr) && isArithSpace(p.expr[cp]) {
		cp++
	}
	if cp >= len(p.expr) {
		p.last, p.tok, p.tp = p.tok, tEOL, cp
		return
	}
	p.lasttp = cp
	start := cp
	c := p.expr[cp]
	cp++
	switch {
	case isVarStart(c):
		for cp < len(p.expr) && isVarChar(p.expr[cp]) {
			cp++
		}
		e := byte(0)
		if p.at(cp) == '[' {
			n := skipSubscript(p.expr, cp)
			if n < 0 {
				p.fail("bad array subscript")
			}
			cp, e = n+1, ']'
		}
		p.str = p.expr[start:cp]
		// Peek at the next token: "x = 1" does not evaluate x.
		save := *p
		p.tp = cp
		p.noeval = 1
		p.tok = tSTR
		p.readtok()
		peek := p.tok
		*p = save
		p.tp = cp
		if p.last == tPREINC || p.last == tPREDEC || peek != '=' {
			p.val = p.streval(p.str, e)
		} else {
			p.val = 0
		}
		p.last, p.tok = p.tok, tSTR
	case c >= '0' && c <= '9':
		for cp < len(p.expr) && (isAlnum(p.expr[cp]) || p.expr[cp] == '#' || p.expr[cp] == '@' || p.expr[cp] == '_') {
			cp++
		}
		p.cut = cp
		p.val = p.strlong(p.expr[start:cp])
		p.cut = 0
		p.last, p.tok = p.tok, tNUM
	default:
		c1 := p.at(cp)
		cp++
		t := int(c)
		switch {
		case c == '=' && c1 == '=':
			t = tEQEQ
		case c == '!' && c1 == '=':
			t = tNEQ
		case c == '>' && c1 == '=':
			t = tGEQ
		case c == '<' && c1 == '=':
			t = tLEQ
		case c == '<' && c1 == '<':
			t = tLSH
			if p.at(cp) == '=' {
				p.assign, t = tLSH, tOPASSIGN
				cp++
			}
		case c == '>' && c1 == '>':
			t = tRSH
			if p.at(cp) == '=' {
				p.assign, t = tRSH, tOPASSIGN
				cp++
			}
		case c == '&' && c1 == '&':
			t = tLAND
		case c == '|' && c1 == '|':
			t = tLOR
		case c == '*' && c1 == '*':
			t = tPOWER
		case (c == '-' || c == '+') && c1 == c && p.tok == tSTR:
			t = tPOSTINC
			if c == '-' {
				t = tPOSTDEC
			}
		case (c == '-' || c == '+') && c1 == c && p.tok == tNUM && (p.last == tPREINC || p.last == tPREDEC):
			p.lasttp = start
			p.fail(string([]byte{c, c}) + ": assignment requires lvalue")
		case (c == '-' || c == '+') && c1 == c:
			xp := cp
			for xp < len(p.expr) && isArithSpace(p.expr[xp]) {
				xp++
			}
			if isVarStart(p.at(xp)) {
				t = tPREINC
				if c == '-' {
					t = tPREDEC
				}
			} else {
				cp--
			}
		case c1 == '=' && strings.IndexByte("*/%+-&^|", c) >= 0:
			p.assign, t = int(c), tOPASSIGN
		case !isArithOp(int(c)):
			p.tp = start
			if p.tok == tEOL || isArithOp(p.tok) || isMultiOp(p.tok) {
				p.fail("syntax error: operand expected")
			}
			p.fail("syntax error: invalid arithmetic operator")
		default:
			cp--
		}
		if c1 == 0 && cp > len(p.expr) {
			cp = len(p.expr)
		}
		p.last, p.tok = p.tok, t
	}
	p.tp = cp
}

// skipSubscript returns the index of the ']' closing the '[' at s[i],
// or -1.
func skipSubscript(s string, i int) int {
	depth := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// strlong converts a number token: 42, 0x2a, 052, 2#101010.
func (p *arithParser) strlong(s string) int64 {
	base, found := 10, false
	i := 0
	if s[0] == '0' {
		i++
		if i == len(s) {
			return 0
		}
		if s[i] == 'x' || s[i] == 'X' {
			base = 16
			i++
		} else {
			base = 8
		}
		found = true
	}
	var val int64
	for ; i < len(s); i++ {
		c := s[i]
		if c == '#' {
			if found {
				p.fail("invalid number")
			}
			if val < 2 || val > 64 {
				p.fail("invalid arithmetic base")
			}
			base, val, found = int(val), 0, true
			if i+1 >= len(s) || !(isAlnum(s[i+1]) || s[i+1] == '@' || s[i+1] == '_') {
				p.fail("invalid integer constant")
			}
			continue
		}
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'z':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			if base <= 36 {
				d = int(c-'A') + 10
			} else {
				d = int(c-'A') + 36
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return val
		}
		if d >= base {
			p.fail("value too great for base")
		}
		val = val*int64(base) + int64(d)
	}
	return val
}

// streval is the value of the variable (or a[i]) tok.
func (p *arithParser) streval(tok string, e byte) int64 {
	if p.noeval > 0 {
		return 0
	}
	var s string
	var err error
	if e == ']' {
		name, sub := splitSubscript(tok)
		s, err = p.v.Elem(name, sub, p.depth)
	} else {
		s, err = p.v.Var(tok)
	}
	if err != nil {
		p.fatal(err)
	}
	if s == "" {
		return 0
	}
	if n, ok := plainDecimal(s); ok {
		// What evaluating the value would give, without a parser.
		return n
	}
	if p.depth+1 >= MaxDepth {
		p.fail("expression recursion level exceeded")
	}
	n, err := Eval(p.v, s, p.depth+1)
	if err != nil {
		p.fatal(err)
	}
	return n
}

// evalSimple evaluates, without the parser, an expression of the form
// NAME OP NUMBER (OP one of + - *, NUMBER a plain decimal, blanks
// around them allowed) whose variable is unset, empty or a plain
// decimal: what the parser gives for it, an error of v's included. ok
// is false for any other expression or value, left to the parser.
func evalSimple(v Vars, expr string) (n int64, ok bool, err error) {
	i := 0
	blanks := func() {
		for i < len(expr) && (expr[i] == ' ' || expr[i] == '\t' || expr[i] == '\n') {
			i++
		}
	}
	blanks()
	start := i
	if i >= len(expr) || !isVarStart(expr[i]) {
		return 0, false, nil
	}
	for i < len(expr) && isVarChar(expr[i]) {
		i++
	}
	name := expr[start:i]
	blanks()
	if i >= len(expr) || (expr[i] != '+' && expr[i] != '-' && expr[i] != '*') {
		return 0, false, nil
	}
	op := int(expr[i])
	i++
	blanks()
	start = i
	for i < len(expr) && expr[i] >= '0' && expr[i] <= '9' {
		i++
	}
	num, isNum := plainDecimal(expr[start:i])
	blanks()
	if !isNum || i != len(expr) {
		return 0, false, nil
	}
	s, err := v.Var(name)
	if err != nil {
		return 0, true, err
	}
	val := int64(0)
	if s != "" {
		if val, ok = plainDecimal(s); !ok {
			return 0, false, nil
		}
	}
	return arithBinary(op, val, num), true, nil
}

// plainDecimal is the value of s when it is a decimal constant as
// bash's evaluator reads it: "0", or a digit 1-9 and at most 17 more
// digits (no sign, space, base or leading 0 that would make it octal).
func plainDecimal(s string) (int64, bool) {
	if s == "" || len(s) > 18 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	return n, true
}

// splitSubscript splits "a[sub]" into "a" and "sub".
func splitSubscript(tok string) (string, string) {
	i := strings.IndexByte(tok, '[')
	return tok[:i], tok[i+1 : len(tok)-1]
}

// bind assigns the value of an arithmetic assignment to tok.
func (p *arithParser) bind(tok string, n int64) {
	val := strconv.FormatInt(n, 10)
	var err error
	if strings.HasSuffix(tok, "]") && strings.Contains(tok, "[") {
		name, sub := splitSubscript(tok)
		err = p.v.SetElem(name, sub, val)
	} else {
		err = p.v.SetVar(tok, val)
	}
	if err != nil {
		p.fatal(err)
	}
}

func (p *arithParser) expcomma() int64 {
	v := p.expassign()
	for p.tok == ',' {
		p.readtok()
		v = p.expassign()
	}
	return v
}

func (p *arithParser) expassign() int64 {
	v := p.expcond()
	if p.tok == '=' || p.tok == tOPASSIGN {
		special := p.tok == tOPASSIGN
		if p.last != tSTR {
			p.fail("attempted assignment to non-variable")
		}
		op := p.assign
		lhs := p.str
		lval := v
		p.readtok()
		val := p.expassign()
		if special {
			if (op == '/' || op == '%') && val == 0 {
				if p.noeval == 0 {
					p.fail("division by 0")
				}
				val = 1
			}
			val = arithBinary(op, lval, val)
		}
		if p.noeval == 0 {
			p.bind(lhs, val)
		}
		v = val
	}
	return v
}

func (p *arithParser) expcond() int64 {
	c := p.explor()
	if p.tok != '?' {
		return c
	}
	p.readtok()
	if p.tok == tEOL || p.tok == ':' {
		p.fail("expression expected")
	}
	if c == 0 {
		p.noeval++
	}
	v1 := p.expcomma()
	if c == 0 {
		p.noeval--
	}
	if p.tok != ':' {
		p.fail("`:' expected for conditional expression")
	}
	p.readtok()
	if p.tok == tEOL {
		p.fail("expression expected")
	}
	if c != 0 {
		p.noeval++
	}
	v2 := p.expcond()
	if c != 0 {
		p.noeval--
	}
	if c != 0 {
		return v1
	}
	return v2
}

func (p *arithParser) explor() int64 {
	v := p.expland()
	for p.tok == tLOR {
		set := v != 0
		if set {
			p.noeval++
		}
		p.readtok()
		v2 := p.expland()
		if set {
			p.noeval--
		}
		v = int64(b2i(v != 0 || v2 != 0))
		p.last = tLOR
	}
	return v
}

func (p *arithParser) expland() int64 {
	v := p.expbor()
	for p.tok == tLAND {
		set := v == 0
		if set {
			p.noeval++
		}
		p.readtok()
		v2 := p.expbor()
		if set {
			p.noeval--
		}
		v = int64(b2i(v != 0 && v2 != 0))
		p.last = tLAND
	}
	return v
}

// binLevel parses one left-associative level of binary operators.
func (p *arithParser) binLevel(ops []int, next func() int64) int64 {
	v := next()
	for {
		op := 0
		for _, o := range ops {
			if p.tok == o {
				op = o
			}
		}
		if op == 0 {
			return v
		}
		p.readtok()
		v = arithBinary(op, v, next())
		p.last = tNUM
	}
}

func (p *arithParser) expbor() int64  { return p.binLevel([]int{'|'}, p.expbxor) }
func (p *arithParser) expbxor() int64 { return p.binLevel([]int{'^'}, p.expband) }
func (p *arithParser) expband() int64 { return p.binLevel([]int{'&'}, p.exp5) }
func (p *arithParser) exp5() int64    { return p.binLevel([]int{tEQEQ, tNEQ}, p.exp4) }
func (p *arithParser) exp4() int64 {
	return p.binLevel([]int{tLEQ, tGEQ, '<', '>'}, p.expshift)
}
func (p *arithParser) expshift() int64 { return p.binLevel([]int{tLSH, tRSH}, p.exp3) }
func (p *arithParser) exp3() int64     { return p.binLevel([]int{'+', '-'}, p.exp2) }

func (p *arithParser) exp2() int64 {
	v := p.exppower()
	for p.tok == '*' || p.tok == '/' || p.tok == '%' {
		op := p.tok
		stp := p.tp
		p.readtok()
		v2 := p.exppower()
		if (op == '/' || op == '%') && v2 == 0 {
			if p.noeval == 0 {
				for stp < len(p.expr) && isArithSpace(p.expr[stp]) {
					stp++
				}
				p.lasttp = stp
				p.fail("division by 0")
			}
			v2 = 1
		}
		v = arithBinary(op, v, v2)
		p.last = tNUM
	}
	return v
}

func (p *arithParser) exppower() int64 {
	v := p.exp1()
	for p.tok == tPOWER {
		p.readtok()
		v2 := p.exppower()
		p.last = tNUM
		if v2 == 0 {
			return 1
		}
		if v2 < 0 {
			p.fail("exponent less than 0")
		}
		v = arithBinary(tPOWER, v, v2)
	}
	return v
}

func (p *arithParser) exp1() int64 {
	switch p.tok {
	case '!':
		p.readtok()
		v := int64(b2i(p.exp1() == 0))
		p.last = tNUM
		return v
	case '~':
		p.readtok()
		v := ^p.exp1()
		p.last = tNUM
		return v
	case '-':
		p.readtok()
		v := -p.exp1()
		p.last = tNUM
		return v
	case '+':
		p.readtok()
		v := p.exp1()
		p.last = tNUM
		return v
	}
	return p.exp0()
}

func (p *arithParser) exp0() int64 {
	switch p.tok {
	case tPREINC, tPREDEC:
		stok := p.tok
		p.last = p.tok
		p.readtok()
		if p.tok != tSTR {
			p.fail("identifier expected after pre-increment or pre-decrement")
		}
		v := p.val + 1
		if stok == tPREDEC {
			v = p.val - 1
		}
		if p.noeval == 0 {
			p.bind(p.str, v)
		}
		p.tok = tNUM
		p.readtok()
		return v
	case '(':
		p.readtok()
		v := p.expcomma()
		if p.tok != ')' {
			p.fail("missing `)'")
		}
		p.readtok()
		return v
	case tNUM, tSTR:
		v := p.val
		if p.tok == tSTR {
			save := *p
			p.noeval = 1
			p.readtok()
			if p.tok == tPOSTINC || p.tok == tPOSTDEC {
				stok := p.tok
				p.str, p.noeval, p.last = save.str, save.noeval, tSTR
				n := v + 1
				if stok == tPOSTDEC {
					n = v - 1
				}
				if p.noeval == 0 {
					p.bind(p.str, n)
				}
				p.tok = tNUM
			} else {
				*p = save
			}
		}
		p.readtok()
		return v
	}
	p.fail("syntax error: operand expected")
	return 0
}

// arithBinary applies a binary operator; division by 0 is checked by
// the caller.
func arithBinary(op int, a, b int64) int64 {
	switch op {
	case '+':
		return a + b
	case '-':
		return a - b
	case '*':
		return a * b
	case '/':
		if a == -1<<63 && b == -1 {
			return a
		}
		return a / b
	case '%':
		if b == -1 {
			return 0
		}
		return a % b
	case tPOWER:
		n := int64(1)
		for ; b > 0; b-- {
			n *= a
		}
		return n
	case tEQEQ:
		return int64(b2i(a == b))
	case tNEQ:
		return int64(b2i(a != b))
	case '<':
		return int64(b2i(a < b))
	case '>':
		return int64(b2i(a > b))
	case tLEQ:
		return int64(b2i(a <= b))
	case tGEQ:
		return int64(b2i(a >= b))
	case '&':
		return a & b
	case '|':
		return a | b
	case '^':
		return a ^ b
	case tLSH:
		return a << (uint64(b) & 63)
	case tRSH:
		return a >> (uint64(b) & 63)
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// UnquoteKey is an associative array's key as written in arithmetic
// text (A["a b"], A[\x], A['c']): its quotes and backslashes removed; a
// backslash in single quotes stays.
func UnquoteKey(s string) string {
	if !strings.ContainsAny(s, `'"\`) {
		return s
	}
	var b strings.Builder
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case q != 0 && c == q:
			q = 0
		case c == '\\' && q != '\'' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
