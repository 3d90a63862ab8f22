package bc

import (
	"errors"
	"fmt"
)

// The parser compiles bc to byte code laid out as GNU bc lays out its own
// (one byte per operation, operands after it), so that the address a
// runtime error reports ("adr=N") is the one GNU bc reports.
//
// Operations: 0 1 push zero/one; K digits : constant; l s i d + var
// (1 or 2 bytes): load, store, increment, decrement a variable; L S A M +
// array: the same on an array element (index on the stack); D duplicate;
// x exchange; p pop; W P print with/without newline; w O + text + '"'
// write a string raw/with escapes; J B Z + label (2 bytes): jump, branch
// if non-zero, if zero; C + function + argument kinds + ':' call; R
// return; n negate; + - * / % ^ arithmetic; = # < { > } comparisons; !
// not; cL cS cR cI length scale sqrt read; h halt.

// param is a parameter or auto variable of a function.
type param struct {
	idx   int
	array bool
	ref   bool // *name[]: an array passed by reference
}

// function is a compiled function; functions[0] is the main program.
type function struct {
	name    string
	code    []byte
	labels  map[int]int
	params  []param // in reverse order, as arguments come off the stack
	autos   []param
	defined bool
}

func (f *function) reset() {
	f.code = f.code[:0]
	f.labels = map[int]int{}
}

// errSyntax ends the parse of an input item after a reported error.
var errSyntax = errors.New("bc: syntax error")

// errQuit is the quit statement, which ends bc as it is read.
var errQuit = errors.New("bc: quit")

// parser reads one input with the interpreter's name tables.
type parser struct {
	in       *interp
	lx       *lexer
	tok      token
	ahead    []token // tokens lexed after tok
	fn       *function
	inFunc   bool
	label    int // next label number
	brk, cnt int // current break and continue labels (0: none)
	hadError bool
	suppress int // tokens to read before another syntax error is reported
	errState int // suppress when the last syntax error was found
}

func (p *parser) next() token {
	if p.suppress > 0 {
		p.suppress--
	}
	if len(p.ahead) > 0 {
		p.tok = p.ahead[0]
		p.ahead = p.ahead[1:]
	} else {
		p.tok = p.lx.next()
	}
	return p.tok
}

// peekAt returns the token i+1 places after p.tok without taking it.
func (p *parser) peekAt(i int) token {
	for len(p.ahead) <= i {
		p.ahead = append(p.ahead, p.lx.next())
	}
	return p.ahead[i]
}

func (p *parser) is(kind tokKind, text string) bool {
	return p.tok.kind == kind && p.tok.text == text
}

func (p *parser) errorf(format string, a ...any) {
	p.in.parseError(p.lx.line, fmt.Sprintf(format, a...))
	p.hadError = true
}

func (p *parser) syntax() error {
	p.errState = p.suppress
	if p.suppress > 0 {
		// As yacc, no new message until three tokens were read since the
		// last error.
		p.hadError = true
		return errSyntax
	}
	p.errorf("syntax error")
	return errSyntax
}

func (p *parser) expect(kind tokKind, text string) error {
	if !p.is(kind, text) {
		return p.syntax()
	}
	p.next()
	return nil
}

// emit helpers.
func (p *parser) op(b ...byte) { p.fn.code = append(p.fn.code, b...) }

func (p *parser) varOp(c byte, idx int) {
	if idx < 128 {
		p.op(c, byte(idx))
	} else {
		p.op(c, byte(idx>>8)|0x80, byte(idx))
	}
}

func (p *parser) jump(c byte, label int) { p.op(c, byte(label), byte(label>>8)) }

func (p *parser) setLabel(label int) { p.fn.labels[label] = len(p.fn.code) }

func (p *parser) newLabel() int {
	l := p.label
	p.label++
	return l
}

func (p *parser) constant(text string) {
	switch text {
	case "0":
		p.op('0')
		return
	case "1":
		p.op('1')
		return
	}
	p.op('K')
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '.':
			p.op('.')
		case c >= 'A':
			p.op(c - 'A' + 10)
		default:
			p.op(c - '0')
		}
	}
	p.op(':')
}

func (p *parser) text(c byte, s string) {
	p.op(c)
	p.op([]byte(s)...)
	p.op('"')
}

// item parses one input item: a function definition, or statements up
// to a newline. It returns false at the end of the input.
func (p *parser) item() (more, run bool, err error) {
	p.hadError = false
	p.next()
	if p.tok.kind == tEOF {
		return false, false, nil
	}
	if p.is(tKeyword, "define") {
		return true, false, p.define()
	}
	p.fn = p.in.funcs[0]
	p.fn.reset()
	first := true // no ';' yet: an error recovers at the newline too
	for {
		switch {
		case p.tok.kind == tNewline:
			return true, !p.hadError, nil
		case p.tok.kind == tEOF:
			// A last line without its newline is an error.
			return false, false, p.syntax()
		case p.is(tOp, ";"):
			p.next()
			first = false
			continue
		}
		err := p.statement()
		if err == nil && p.tok.kind != tNewline && p.tok.kind != tEOF && !p.is(tOp, ";") {
			err = p.syntax()
		}
		if err == nil {
			continue
		}
		if !errors.Is(err, errSyntax) {
			return true, false, err
		}
		if !p.recover(first) {
			return false, false, nil
		}
	}
}

// discard drops p.tok in error recovery (it is not counted as read).
func (p *parser) discard() {
	s := p.suppress
	p.next()
	p.suppress = s
}

// recover is yacc's error recovery after a syntax error in a statement
// list: the token in error is dropped when the error came right after
// another, then tokens are dropped up to one that starts a statement (or
// a newline, when newline is true); no error is reported until three
// tokens were read. It returns false at the end of the input.
func (p *parser) recover(newline bool) bool {
	if p.errState == 3 && p.tok.kind != tEOF {
		p.discard()
	}
	p.suppress = 3
	for {
		switch {
		case newline && p.tok.kind == tNewline, p.startsStatement():
			return true
		case p.tok.kind == tEOF:
			return false
		}
		p.discard()
	}
}

// skipLine discards tokens through the next newline (error recovery).
func (p *parser) skipLine() bool {
	for p.tok.kind != tNewline {
		if p.tok.kind == tEOF {
			return false
		}
		p.next()
	}
	return true
}

func (p *parser) optNewline() {
	if p.tok.kind == tNewline {
		p.next()
	}
}

// statement parses one statement starting at p.tok and leaves p.tok at
// the token after it.
func (p *parser) statement() error {
	t := p.tok
	switch {
	case t.kind == tString:
		p.text('w', t.text)
		p.next()
		return nil
	case t.kind == tOp && t.text == "{":
		p.next()
		if err := p.statementList(); err != nil {
			return err
		}
		return p.expect(tOp, "}")
	case t.kind == tKeyword:
		switch t.text {
		case "warranty":
			p.in.warranty()
			p.next()
			return nil
		case "limits":
			p.in.limits()
			p.next()
			return nil
		case "quit":
			return errQuit
		case "halt":
			p.op('h')
			p.next()
			return nil
		case "break", "continue":
			l := p.brk
			if t.text == "continue" {
				l = p.cnt
			}
			if l == 0 {
				if t.text == "break" {
					p.errorf("Break outside a for/while")
				} else {
					p.errorf("Continue outside a for")
				}
				p.next()
				return errSyntax
			}
			p.jump('J', l)
			p.next()
			return nil
		case "return":
			p.next()
			if p.tok.kind == tNewline || p.tok.kind == tEOF || p.is(tOp, ";") || p.is(tOp, "}") {
				p.op('0')
			} else if _, err := p.expr(0); err != nil {
				return err
			}
			p.op('R')
			if !p.inFunc {
				p.errorf("Return outside of a function.")
				return errSyntax
			}
			return nil
		case "print":
			p.next()
			for {
				if p.tok.kind == tString {
					p.text('O', p.tok.text)
					p.next()
				} else {
					if _, err := p.expr(0); err != nil {
						return err
					}
					p.op('P')
				}
				if !p.is(tOp, ",") {
					return nil
				}
				p.next()
			}
		case "if":
			return p.ifStmt()
		case "while":
			return p.whileStmt()
		case "for":
			return p.forStmt()
		}
	}
	flags, err := p.expr(0)
	if err != nil {
		return err
	}
	if flags&1 != 0 {
		p.op('W')
	} else {
		p.op('p')
	}
	return nil
}

// statementList parses statements separated by newlines and semicolons,
// up to a '}' (not taken).
func (p *parser) statementList() error {
	for {
		switch {
		case p.tok.kind == tNewline || p.is(tOp, ";"):
			p.next()
		case p.is(tOp, "}") || p.tok.kind == tEOF:
			return nil
		default:
			err := p.statement()
			if err == nil && p.tok.kind != tNewline && !p.is(tOp, ";") && !p.is(tOp, "}") {
				err = p.syntax()
			}
			if err == nil {
				continue
			}
			if !errors.Is(err, errSyntax) {
				return err
			}
			if !p.recover(false) {
				return err
			}
		}
	}
}

// startsStatement tells whether p.tok can begin a statement.
func (p *parser) startsStatement() bool {
	switch p.tok.kind {
	case tName, tNumber, tString, tKeyword, tIncDec, tLast:
		return !p.is(tKeyword, "else") && !p.is(tKeyword, "auto") && !p.is(tKeyword, "define")
	case tOp:
		return p.tok.text == "(" || p.tok.text == "-" || p.tok.text == "!" || p.tok.text == "{"
	}
	return false
}

func (p *parser) ifStmt() error {
	p.next()
	if err := p.expect(tOp, "("); err != nil {
		return err
	}
	if _, err := p.expr(0); err != nil {
		return err
	}
	if err := p.expect(tOp, ")"); err != nil {
		return err
	}
	l := p.newLabel()
	p.jump('Z', l)
	p.optNewline()
	if err := p.statement(); err != nil {
		return err
	}
	if p.is(tKeyword, "else") {
		p.next()
		l2 := p.newLabel()
		p.jump('J', l2)
		p.setLabel(l)
		p.optNewline()
		if err := p.statement(); err != nil {
			return err
		}
		p.setLabel(l2)
		return nil
	}
	p.setLabel(l)
	return nil
}

func (p *parser) whileStmt() error {
	p.next()
	top := p.newLabel()
	p.setLabel(top)
	if err := p.expect(tOp, "("); err != nil {
		return err
	}
	if _, err := p.expr(0); err != nil {
		return err
	}
	saved := p.brk
	p.brk = p.newLabel()
	p.jump('Z', p.brk)
	if err := p.expect(tOp, ")"); err != nil {
		return err
	}
	p.optNewline()
	if err := p.statement(); err != nil {
		return err
	}
	p.jump('J', top)
	p.setLabel(p.brk)
	p.brk = saved
	return nil
}

// optExpr parses an expression unless p.tok is stop; it returns whether
// there was one.
func (p *parser) optExpr(stop string) (bool, error) {
	if p.is(tOp, stop) {
		return false, nil
	}
	_, err := p.expr(0)
	return err == nil, err
}

func (p *parser) forStmt() error {
	p.next()
	savedBrk, savedCnt := p.brk, p.cnt
	p.brk = p.newLabel()
	if err := p.expect(tOp, "("); err != nil {
		return err
	}
	had, err := p.optExpr(";")
	if err != nil {
		return err
	}
	if err := p.expect(tOp, ";"); err != nil {
		return err
	}
	cond := p.newLabel()
	if had {
		p.op('p')
	}
	p.setLabel(cond)
	had, err = p.optExpr(";")
	if err != nil {
		return err
	}
	if err := p.expect(tOp, ";"); err != nil {
		return err
	}
	if !had {
		p.op('1')
	}
	body := p.newLabel()
	p.jump('B', body)
	p.jump('J', p.brk)
	p.cnt = p.newLabel()
	p.setLabel(p.cnt)
	had, err = p.optExpr(")")
	if err != nil {
		return err
	}
	if err := p.expect(tOp, ")"); err != nil {
		return err
	}
	if had {
		p.op('p')
	}
	p.jump('J', cond)
	p.setLabel(body)
	p.optNewline()
	if err := p.statement(); err != nil {
		return err
	}
	p.jump('J', p.cnt)
	p.setLabel(p.brk)
	p.brk, p.cnt = savedBrk, savedCnt
	return nil
}

// define parses a function definition (p.tok is "define").
func (p *parser) define() error {
	p.next()
	if p.tok.kind != tName {
		return p.syntax()
	}
	name := p.tok.text
	p.next()
	if err := p.expect(tOp, "("); err != nil {
		return err
	}
	var params []param
	var err error
	if !p.is(tOp, ")") {
		if params, err = p.defineList(); err != nil {
			return err
		}
	}
	if err := p.expect(tOp, ")"); err != nil {
		return err
	}
	p.optNewline()
	if err := p.expect(tOp, "{"); err != nil {
		return err
	}
	p.optNewline()
	var autos []param
	if p.is(tKeyword, "auto") {
		p.next()
		if autos, err = p.defineList(); err != nil {
			return err
		}
		if p.tok.kind != tNewline && !p.is(tOp, ";") {
			return p.syntax()
		}
		p.next()
	}
	if msg := checkParams(params, autos); msg != "" {
		p.errorf("%s", msg)
	}
	f := p.in.funcs[p.in.funcIndex(name)]
	f.reset()
	f.defined = false
	f.params, f.autos = reverse(params), reverse(autos)
	savedFn, savedLabel, savedIn := p.fn, p.label, p.inFunc
	p.fn, p.label, p.inFunc = f, 1, true
	defer func() { p.fn, p.label, p.inFunc = savedFn, savedLabel, savedIn }()
	if err := p.statementList(); err != nil {
		return err
	}
	if !p.is(tOp, "}") {
		return p.syntax()
	}
	p.op('0', 'R')
	f.defined = !p.hadError
	// The item ends here: the next token is read by the next item.
	return nil
}

func reverse(ps []param) []param {
	out := make([]param, len(ps))
	for i, x := range ps {
		out[len(ps)-1-i] = x
	}
	return out
}

func checkParams(params, autos []param) string {
	for i, a := range params {
		for _, b := range params[i+1:] {
			if a.idx == b.idx && a.array == b.array {
				return "duplicate parameter names"
			}
		}
	}
	for i, a := range autos {
		for _, b := range autos[i+1:] {
			if a.idx == b.idx && a.array == b.array {
				return "duplicate auto variable names"
			}
		}
		for _, b := range params {
			if a.idx == b.idx && a.array == b.array {
				return "variable in both parameter and auto lists"
			}
		}
	}
	return ""
}

// defineList parses NAME, NAME[], *NAME[] separated by commas.
func (p *parser) defineList() ([]param, error) {
	var list []param
	for {
		ref := false
		if p.is(tOp, "*") {
			ref = true
			p.next()
		}
		if p.tok.kind != tName {
			return nil, p.syntax()
		}
		name := p.tok.text
		p.next()
		if p.is(tOp, "[") {
			p.next()
			if err := p.expect(tOp, "]"); err != nil {
				return nil, err
			}
			list = append(list, param{idx: p.in.arrayIndex(name), array: true, ref: ref})
		} else {
			if ref {
				return nil, p.syntax()
			}
			list = append(list, param{idx: p.in.varIndex(name)})
		}
		if !p.is(tOp, ",") {
			return list, nil
		}
		p.next()
	}
}

// Binary operator precedences (yacc's, low to high); assignment is 5
// and handled where a named expression is parsed.
func binPrec(t token) int {
	switch t.kind {
	case tOr:
		return 1
	case tAnd:
		return 2
	case tRel:
		return 4
	case tOp:
		switch t.text {
		case "+", "-":
			return 6
		case "*", "/", "%":
			return 7
		case "^":
			return 8
		}
	}
	return 0
}

var relCode = map[string]byte{"==": '=', "!=": '#', "<": '<', "<=": '{', ">": '>', ">=": '}'}

// expr parses an expression whose operators bind at least minPrec and
// returns its flags: 1 when its value is printed as a statement.
func (p *parser) expr(minPrec int) (int, error) {
	flags, err := p.unary()
	if err != nil {
		return 0, err
	}
	for {
		t := p.tok
		prec := binPrec(t)
		if prec == 0 || prec < minPrec {
			return flags, nil
		}
		p.next()
		next := prec + 1
		if prec == 8 {
			next = prec
		}
		switch t.kind {
		case tAnd:
			l := p.newLabel()
			p.op('D')
			p.jump('Z', l)
			p.op('p')
			f, err := p.expr(next)
			if err != nil {
				return 0, err
			}
			p.op('D')
			p.jump('Z', l)
			p.op('p', '1')
			p.setLabel(l)
			flags |= f
		case tOr:
			l := p.newLabel()
			p.jump('B', l)
			f, err := p.expr(next)
			if err != nil {
				return 0, err
			}
			l2 := p.newLabel()
			p.jump('B', l)
			p.op('0')
			p.jump('J', l2)
			p.setLabel(l)
			p.op('1')
			p.setLabel(l2)
			flags |= f
		default:
			if _, err := p.expr(next); err != nil {
				return 0, err
			}
			if t.kind == tRel {
				p.op(relCode[t.text])
				flags = 3
			} else {
				p.op(t.text[0])
				flags = flags | 1
			}
		}
	}
}

// named is a variable reference: a simple variable (or ibase, obase,
// scale, last) or an array element whose index code was emitted.
type named struct {
	idx   int
	array bool
}

func (p *parser) load(n named) {
	if n.array {
		p.varOp('L', n.idx)
	} else {
		p.varOp('l', n.idx)
	}
}

// namedExpr parses a named expression at p.tok, if there is one.
func (p *parser) namedExpr() (named, bool, error) {
	t := p.tok
	switch {
	case t.kind == tKeyword && (t.text == "ibase" || t.text == "obase" || t.text == "last"):
		p.next()
		return named{idx: map[string]int{"ibase": 0, "obase": 1, "last": 4}[t.text]}, true, nil
	case t.kind == tKeyword && t.text == "scale" && !p.peekIs(tOp, "("):
		p.next()
		return named{idx: 2}, true, nil
	case t.kind == tLast:
		p.next()
		return named{idx: 4}, true, nil
	case t.kind == tName && !p.peekIs(tOp, "("):
		p.next()
		if p.is(tOp, "[") {
			p.next()
			if _, err := p.expr(0); err != nil {
				return named{}, false, err
			}
			if err := p.expect(tOp, "]"); err != nil {
				return named{}, false, err
			}
			return named{idx: p.in.arrayIndex(t.text), array: true}, true, nil
		}
		return named{idx: p.in.varIndex(t.text)}, true, nil
	}
	return named{}, false, nil
}

func (p *parser) peekIs(kind tokKind, text string) bool {
	t := p.peekAt(0)
	return t.kind == kind && t.text == text
}

// unary parses a unary expression (with a following assignment or
// postfix ++/--).
func (p *parser) unary() (int, error) {
	t := p.tok
	switch {
	case t.kind == tOp && t.text == "!":
		p.next()
		f, err := p.expr(4)
		if err != nil {
			return 0, err
		}
		p.op('!')
		return f, nil
	case t.kind == tOp && t.text == "-":
		p.next()
		f, err := p.unary()
		if err != nil {
			return 0, err
		}
		p.op('n')
		return f, nil
	case t.kind == tIncDec:
		p.next()
		n, ok, err := p.namedExpr()
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, p.syntax()
		}
		if n.array {
			c := byte('A')
			if t.text == "--" {
				c = 'M'
			}
			p.op('D')
			p.varOp(c, n.idx)
			p.varOp('L', n.idx)
		} else {
			c := byte('i')
			if t.text == "--" {
				c = 'd'
			}
			p.varOp(c, n.idx)
			p.varOp('l', n.idx)
		}
		return 1, nil
	case t.kind == tNumber:
		p.constant(t.text)
		p.next()
		return 1, nil
	case t.kind == tOp && t.text == "(":
		p.next()
		f, err := p.expr(0)
		if err != nil {
			return 0, err
		}
		if err := p.expect(tOp, ")"); err != nil {
			return 0, err
		}
		return f | 1, nil
	case t.kind == tKeyword && (t.text == "length" || t.text == "sqrt" || t.text == "scale" && p.peekIs(tOp, "(")):
		p.next()
		if err := p.expect(tOp, "("); err != nil {
			return 0, err
		}
		if _, err := p.expr(0); err != nil {
			return 0, err
		}
		if err := p.expect(tOp, ")"); err != nil {
			return 0, err
		}
		p.op('c', map[string]byte{"length": 'L', "sqrt": 'R', "scale": 'S'}[t.text])
		return 1, nil
	case t.kind == tKeyword && t.text == "read":
		p.next()
		if err := p.expect(tOp, "("); err != nil {
			return 0, err
		}
		if err := p.expect(tOp, ")"); err != nil {
			return 0, err
		}
		p.op('c', 'I')
		return 1, nil
	case t.kind == tName && p.peekIs(tOp, "("):
		return p.call()
	}
	n, ok, err := p.namedExpr()
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, p.syntax()
	}
	switch p.tok.kind {
	case tAssign:
		op := p.tok.text
		p.next()
		if op != "=" {
			if n.array {
				p.op('D')
			}
			p.load(n)
		}
		if _, err := p.expr(5); err != nil {
			return 0, err
		}
		if op != "=" {
			p.op(op[0])
		}
		if n.array {
			p.varOp('S', n.idx)
		} else {
			p.varOp('s', n.idx)
		}
		return 0, nil
	case tIncDec:
		inc := p.tok.text == "++"
		p.next()
		if n.array {
			p.op('D')
			p.varOp('L', n.idx)
			p.op('x')
			if inc {
				p.varOp('A', n.idx)
			} else {
				p.varOp('M', n.idx)
			}
		} else {
			p.varOp('l', n.idx)
			if inc {
				p.varOp('i', n.idx)
			} else {
				p.varOp('d', n.idx)
			}
		}
		return 1, nil
	}
	p.load(n)
	return 1, nil
}

// call parses NAME(args).
func (p *parser) call() (int, error) {
	name := p.tok.text
	p.next()
	p.next() // (
	var kinds []byte
	for !p.is(tOp, ")") {
		if p.tok.kind == tName && p.peekIs(tOp, "[") && p.peekAt(1).kind == tOp && p.peekAt(1).text == "]" {
			// NAME[] is an array argument; NAME[expr] an element.
			a := p.tok.text
			p.next()
			p.next()
			p.next()
			p.op('K')
			for _, c := range []byte(itoa(p.in.arrayIndex(a))) {
				p.op(c - '0')
			}
			p.op(':')
			kinds = append(kinds, '1')
		} else {
			if _, err := p.expr(0); err != nil {
				return 0, err
			}
			kinds = append(kinds, '0')
		}
		if p.is(tOp, ",") {
			p.next()
			if p.is(tOp, ")") {
				return 0, p.syntax()
			}
			continue
		}
		if !p.is(tOp, ")") {
			return 0, p.syntax()
		}
	}
	p.next()
	idx := p.in.funcIndex(name)
	p.varOp('C', idx)
	for i := len(kinds) - 1; i >= 0; i-- {
		p.op(kinds[i])
	}
	p.op(':')
	return 1, nil
}
