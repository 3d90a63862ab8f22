package awk

import "fmt"

const maxParseDepth = 400

type parser struct {
	lx  *lexer
	cur lexeme
	tok token

	prog    *program
	globals map[string]int
	calls   []*callExpr

	fn        *function      // the function being parsed, or nil
	locals    map[string]int // its parameters
	loops     int
	inBegin   bool // BEGIN or END: no next/nextfile
	noGT      bool // in print's arguments: '>' is a redirection
	depth     int
	funcNames map[string]bool
}

// parse parses src into a program.
func parse(src string) (prog *program, err error) {
	defer func() {
		if r := recover(); r != nil {
			if se, ok := r.(*syntaxError); ok {
				prog, err = nil, se
				return
			}
			panic(r)
		}
	}()
	p := &parser{
		lx:        newLexer(src),
		prog:      &program{funcs: map[string]*function{}},
		globals:   map[string]int{},
		funcNames: map[string]bool{},
	}
	// ENVIRON and ARGV are globals 0 and 1.
	p.global("ENVIRON")
	p.global("ARGV")
	p.next()
	p.parseProgram()
	for _, c := range p.calls {
		f, ok := p.prog.funcs[c.name]
		if !ok {
			panic(&syntaxError{line: c.line, msg: fmt.Sprintf("calling undefined function %s", c.name)})
		}
		if len(c.args) > len(f.params) {
			panic(&syntaxError{line: c.line, msg: fmt.Sprintf("function %s called with %d args, accepts only %d", c.name, len(c.args), len(f.params))})
		}
		c.fn = f
	}
	names := make([]string, len(p.globals))
	for n, i := range p.globals {
		names[i] = n
	}
	p.prog.globals = names
	return p.prog, nil
}

func (p *parser) next() {
	p.cur = p.lx.next()
	p.tok = p.cur.tok
}

func (p *parser) errorf(format string, a ...any) {
	panic(&syntaxError{line: p.cur.line, msg: fmt.Sprintf(format, a...), ctx: p.lx.lineText(p.cur.pos)})
}

func (p *parser) unexpected() {
	switch p.tok {
	case tEOF:
		p.errorf("unexpected end of program")
	case tNewline:
		p.errorf("unexpected newline")
	case tName, tFuncName, tBuiltin:
		p.errorf("unexpected %q", p.cur.val)
	case tNumber:
		p.errorf("unexpected number %s", p.cur.val)
	case tString:
		p.errorf("unexpected string %q", p.cur.val)
	default:
		p.errorf("unexpected %q", p.tok.String())
	}
}

func (p *parser) expect(t token) {
	if p.tok != t {
		if p.tok == tEOF || p.tok == tNewline {
			p.errorf("expected %q, got %s", t.String(), p.tok.String())
		}
		p.errorf("expected %q, got %q", t.String(), p.tokText())
	}
	p.next()
}

func (p *parser) tokText() string {
	switch p.tok {
	case tName, tFuncName, tBuiltin, tNumber, tString:
		return p.cur.val
	}
	return p.tok.String()
}

func (p *parser) optNewlines() {
	for p.tok == tNewline {
		p.next()
	}
}

func (p *parser) optTerminators() {
	for p.tok == tNewline || p.tok == tSemicolon {
		p.next()
	}
}

func (p *parser) enter() {
	p.depth++
	if p.depth > maxParseDepth {
		p.errorf("program nests too deeply")
	}
}

func (p *parser) leave() { p.depth-- }

func (p *parser) global(name string) int {
	if i, ok := p.globals[name]; ok {
		return i
	}
	i := len(p.globals)
	p.globals[name] = i
	return i
}

// variable resolves a name to a local, special or global variable.
func (p *parser) variable(name string) *varExpr {
	if p.locals != nil {
		if i, ok := p.locals[name]; ok {
			return &varExpr{name: name, scope: scopeLocal, idx: i}
		}
	}
	if sp, ok := specialNames[name]; ok {
		return &varExpr{name: name, scope: scopeSpecial, special: sp}
	}
	if name == "BEGINFILE" || name == "ENDFILE" {
		p.errorf("gawk's %s is not supported", name)
	}
	if p.funcNames[name] {
		p.errorf("function name %s used as a variable", name)
	}
	return &varExpr{name: name, scope: scopeGlobal, idx: p.global(name)}
}

func (p *parser) arrayVar(name string) *varExpr {
	v := p.variable(name)
	if v.scope == scopeSpecial {
		p.errorf("can't use special variable %s as an array", name)
	}
	return v
}

func (p *parser) parseProgram() {
	p.optTerminators()
	for p.tok != tEOF {
		switch p.tok {
		case tBegin:
			p.next()
			p.inBegin = true
			p.prog.begin = append(p.prog.begin, p.parseAction())
			p.inBegin = false
		case tEnd:
			p.next()
			p.inBegin = true
			p.prog.end = append(p.prog.end, p.parseAction())
			p.inBegin = false
		case tFunction:
			p.parseFunction()
		default:
			it := &item{}
			if p.tok != tLbrace {
				it.pattern = p.expr()
				if p.tok == tComma {
					p.next()
					it.pattern2 = p.expr()
				}
			}
			if p.tok == tLbrace {
				it.body = p.parseAction()
			} else {
				it.noAction = true
				if p.tok != tEOF && p.tok != tNewline && p.tok != tSemicolon {
					p.unexpected()
				}
			}
			p.prog.items = append(p.prog.items, it)
		}
		p.optTerminators()
	}
}

func (p *parser) parseAction() []Stmt {
	if p.tok != tLbrace {
		p.errorf("expected \"{\" to start an action, got %q", p.tokText())
	}
	return p.block()
}

func (p *parser) parseFunction() {
	line := p.cur.line
	p.next()
	if p.tok != tName && p.tok != tFuncName {
		if p.tok == tBuiltin {
			p.errorf("can't redefine builtin function %s", p.cur.val)
		}
		p.errorf("expected a function name")
	}
	name := p.cur.val
	if _, dup := p.prog.funcs[name]; dup {
		p.errorf("function %s defined twice", name)
	}
	if _, ok := specialNames[name]; ok {
		p.errorf("can't use special variable %s as a function name", name)
	}
	if _, ok := p.globals[name]; ok && name != "" {
		p.errorf("function name %s already used as a variable", name)
	}
	p.next()
	p.expect(tLparen)
	f := &function{name: name, line: line}
	p.locals = map[string]int{}
	for p.tok != tRparen {
		if p.tok != tName {
			p.errorf("expected a parameter name, got %q", p.tokText())
		}
		pn := p.cur.val
		if pn == name {
			p.errorf("function %s: parameter shadows the function", name)
		}
		if _, dup := p.locals[pn]; dup {
			p.errorf("function %s: duplicate parameter %s", name, pn)
		}
		if _, ok := specialNames[pn]; ok {
			p.errorf("function %s: can't use special variable %s as a parameter", name, pn)
		}
		p.locals[pn] = len(f.params)
		f.params = append(f.params, pn)
		p.next()
		if p.tok == tComma {
			p.next()
			continue
		}
		if p.tok != tRparen {
			p.errorf("expected \",\" or \")\" in the parameter list")
		}
	}
	p.next()
	f.nlocals = len(f.params)
	p.prog.funcs[name] = f
	p.funcNames[name] = true
	p.optNewlines()
	p.fn = f
	f.body = p.parseAction()
	p.fn = nil
	p.locals = nil
}

// block parses "{ statements }".
func (p *parser) block() []Stmt {
	p.expect(tLbrace)
	var stmts []Stmt
	p.optTerminators()
	for p.tok != tRbrace {
		if p.tok == tEOF {
			p.errorf("missing \"}\"")
		}
		if s := p.stmt(); s != nil {
			stmts = append(stmts, s)
		}
		p.optTerminators()
	}
	p.next()
	return stmts
}

// endSimple checks a simple statement ends properly.
func (p *parser) endSimple() {
	switch p.tok {
	case tSemicolon, tNewline:
		p.next()
	case tRbrace, tEOF:
	default:
		p.unexpected()
	}
}

// body parses the statement of an if, while or for: a block or one statement.
func (p *parser) body() []Stmt {
	p.optNewlines()
	if p.tok == tSemicolon {
		p.next()
		return nil
	}
	if p.tok == tLbrace {
		return p.block()
	}
	s := p.stmt()
	if s == nil {
		return nil
	}
	return []Stmt{s}
}

func (p *parser) loopBody() []Stmt {
	p.loops++
	b := p.body()
	p.loops--
	return b
}

func (p *parser) stmt() Stmt {
	p.enter()
	defer p.leave()
	line := p.cur.line
	switch p.tok {
	case tLbrace:
		return &blockStmt{body: p.block()}
	case tSemicolon:
		p.next()
		return nil
	case tIf:
		p.next()
		p.expect(tLparen)
		cond := p.expr()
		p.expect(tRparen)
		s := &ifStmt{cond: cond, line: line}
		s.then = p.body()
		// An else may follow after newlines and a semicolon.
		save := *p.lx
		saveCur := p.cur
		p.optTerminators()
		if p.tok == tElse {
			p.next()
			s.els = p.body()
		} else {
			// Put back what was skipped: the terminators end the if.
			*p.lx = save
			p.cur = saveCur
			p.tok = saveCur.tok
		}
		return s
	case tWhile:
		p.next()
		p.expect(tLparen)
		cond := p.expr()
		p.expect(tRparen)
		if p.tok == tSemicolon {
			p.next()
			return &whileStmt{cond: cond, line: line}
		}
		return &whileStmt{cond: cond, body: p.loopBody(), line: line}
	case tDo:
		p.next()
		body := p.loopBody()
		p.optTerminators()
		if p.tok != tWhile {
			p.errorf("expected \"while\" after do's body")
		}
		p.next()
		p.expect(tLparen)
		cond := p.expr()
		p.expect(tRparen)
		p.endSimple()
		return &doStmt{body: body, cond: cond, line: line}
	case tFor:
		return p.forStmt()
	}
	s := p.simpleStmt()
	p.endSimple()
	return s
}

func (p *parser) forStmt() Stmt {
	line := p.cur.line
	p.next()
	p.expect(tLparen)
	var init Stmt
	if p.tok != tSemicolon {
		init = p.simpleStmt()
		if p.tok == tRparen {
			if es, ok := init.(*exprStmt); ok {
				if in, ok := es.e.(*inExpr); ok && len(in.index) == 1 {
					if v, ok := in.index[0].(*varExpr); ok {
						p.next()
						return &forInStmt{v: v, arr: in.arr, body: p.loopBody(), line: line}
					}
				}
			}
			p.errorf("expected \";\" in for(...)")
		}
	}
	p.expect(tSemicolon)
	p.optNewlines()
	var cond Expr
	if p.tok != tSemicolon {
		cond = p.expr()
	}
	p.expect(tSemicolon)
	p.optNewlines()
	var post Stmt
	if p.tok != tRparen {
		post = p.simpleStmt()
	}
	p.expect(tRparen)
	if p.tok == tSemicolon {
		p.next()
		return &forStmt{init: init, cond: cond, post: post, line: line}
	}
	return &forStmt{init: init, cond: cond, post: post, body: p.loopBody(), line: line}
}

func (p *parser) simpleStmt() Stmt {
	line := p.cur.line
	switch p.tok {
	case tPrint, tPrintf:
		return p.printStmt()
	case tNext, tNextfile:
		if p.inBegin {
			p.errorf("%s used in BEGIN or END", p.tok.String())
		}
		t := p.tok
		p.next()
		if t == tNext {
			return &nextStmt{line: line}
		}
		return &nextfile{line: line}
	case tExit:
		p.next()
		s := &exitStmt{line: line}
		if !p.endsStmt() {
			s.e = p.expr()
		}
		return s
	case tReturn:
		if p.fn == nil {
			p.errorf("return outside a function")
		}
		p.next()
		s := &returnStmt{line: line}
		if !p.endsStmt() {
			s.e = p.expr()
		}
		return s
	case tBreak, tContinue:
		if p.loops == 0 {
			p.errorf("%s outside a loop", p.tok.String())
		}
		t := p.tok
		p.next()
		if t == tBreak {
			return &breakStmt{}
		}
		return &continueStmt{}
	case tDelete:
		p.next()
		if p.tok != tName {
			p.errorf("expected an array name after delete")
		}
		arr := p.arrayVar(p.cur.val)
		p.next()
		s := &deleteStmt{arr: arr, line: line}
		if p.tok == tLbracket {
			p.next()
			s.index = p.exprList(tRbracket)
			p.expect(tRbracket)
		}
		return s
	}
	return &exprStmt{e: p.expr(), line: line}
}

func (p *parser) endsStmt() bool {
	switch p.tok {
	case tSemicolon, tNewline, tRbrace, tEOF:
		return true
	}
	return false
}

func (p *parser) printStmt() Stmt {
	s := &printStmt{printf: p.tok == tPrintf, line: p.cur.line}
	p.next()
	if !p.endsStmt() && p.tok != tGt && p.tok != tAppend && p.tok != tPipe {
		saved := p.noGT
		p.noGT = true
		args := p.exprList(tEOF)
		p.noGT = saved
		if len(args) == 1 {
			if g, ok := args[0].(*groupExpr); ok {
				args = g.exprs
			}
		}
		s.args = args
	}
	switch p.tok {
	case tGt, tAppend, tPipe:
		switch p.tok {
		case tGt:
			s.redir = redirFile
		case tAppend:
			s.redir = redirAppend
		default:
			s.redir = redirPipe
		}
		p.next()
		saved := p.noGT
		p.noGT = true
		s.dest = p.concat()
		p.noGT = saved
	}
	if s.printf && len(s.args) == 0 {
		p.errorf("printf: no format")
	}
	for _, a := range s.args {
		p.checkNoGroup(a)
	}
	return s
}

func (p *parser) checkNoGroup(e Expr) {
	if _, ok := e.(*groupExpr); ok {
		p.errorf("unexpected grouping \"(a, b)\"")
	}
}

// exprList parses comma-separated expressions up to (not including) end.
func (p *parser) exprList(end token) []Expr {
	var list []Expr
	for {
		e := p.expr()
		list = append(list, e)
		if p.tok != tComma {
			break
		}
		p.next()
		p.optNewlines()
	}
	for _, e := range list {
		if len(list) > 1 {
			p.checkNoGroup(e)
		}
	}
	_ = end
	return list
}

// expr parses an expression (assignment is the loosest binding).
func (p *parser) expr() Expr {
	p.enter()
	defer p.leave()
	lhs := p.ternary()
	var op token
	switch p.tok {
	case tAssign:
		op = 0
	case tAddAssign:
		op = tAdd
	case tSubAssign:
		op = tSub
	case tMulAssign:
		op = tMul
	case tDivAssign:
		op = tDiv
	case tModAssign:
		op = tMod
	case tPowAssign:
		op = tPow
	default:
		return lhs
	}
	if !isLvalue(lhs) {
		if p.tok == tDivAssign {
			// "x /= 2" where x is no lvalue can't happen; a regex can't
			// follow an expression either.
			p.errorf("expected an lvalue before \"/=\"")
		}
		p.errorf("assignment to a non-variable")
	}
	p.next()
	p.optNewlines()
	rhs := p.expr()
	p.checkNoGroup(rhs)
	return &assignExpr{lhs: lhs, op: op, rhs: rhs}
}

func isLvalue(e Expr) bool {
	switch e.(type) {
	case *varExpr, *indexExpr, *fieldExpr:
		return true
	}
	return false
}

func (p *parser) ternary() Expr {
	cond := p.or()
	if p.tok != tQuestion {
		return cond
	}
	p.checkNoGroup(cond)
	p.next()
	p.optNewlines()
	yes := p.expr()
	p.optNewlines()
	p.expect(tColon)
	p.optNewlines()
	no := p.expr()
	return &condExpr{cond: cond, yes: yes, no: no}
}

func (p *parser) or() Expr {
	e := p.and()
	for p.tok == tOr {
		p.next()
		r := p.and()
		p.checkNoGroup(e)
		p.checkNoGroup(r)
		e = &binaryExpr{op: tOr, l: e, r: r}
	}
	return e
}

func (p *parser) and() Expr {
	e := p.in()
	for p.tok == tAnd {
		p.next()
		r := p.in()
		p.checkNoGroup(e)
		p.checkNoGroup(r)
		e = &binaryExpr{op: tAnd, l: e, r: r}
	}
	return e
}

func (p *parser) in() Expr {
	e := p.match()
	for p.tok == tIn {
		p.next()
		if p.tok != tName {
			p.errorf("expected an array name after \"in\"")
		}
		arr := p.arrayVar(p.cur.val)
		p.next()
		var index []Expr
		if g, ok := e.(*groupExpr); ok {
			index = g.exprs
		} else {
			index = []Expr{e}
		}
		e = &inExpr{index: index, arr: arr}
	}
	return e
}

func (p *parser) match() Expr {
	e := p.compare()
	for p.tok == tMatch || p.tok == tNoMatch {
		neg := p.tok == tNoMatch
		p.next()
		r := p.compare()
		p.checkNoGroup(e)
		p.checkNoGroup(r)
		e = &matchExpr{l: e, re: r, neg: neg}
	}
	return e
}

func (p *parser) compare() Expr {
	e := p.pipeGetline()
	for {
		switch p.tok {
		case tEq, tNe, tLt, tLe, tGe:
		case tGt:
			if p.noGT {
				return e
			}
		default:
			return e
		}
		op := p.tok
		p.next()
		r := p.pipeGetline()
		p.checkNoGroup(e)
		p.checkNoGroup(r)
		e = &binaryExpr{op: op, l: e, r: r}
	}
}

// pipeGetline parses concatenations followed by "| getline [var]".
func (p *parser) pipeGetline() Expr {
	e := p.concat()
	for p.tok == tPipeGetline {
		p.checkNoGroup(e)
		p.next()
		g := &getlineExpr{kind: getlineCmd, src: e}
		g.lv = p.optLvalue()
		e = g
	}
	return e
}

// startsConcatOperand tells whether the current token can start an operand
// of a concatenation.
func (p *parser) startsConcatOperand() bool {
	switch p.tok {
	case tNumber, tString, tName, tFuncName, tBuiltin, tDollar, tLparen, tIncr, tDecr:
		return true
	}
	return false
}

func (p *parser) concat() Expr {
	e := p.additive()
	for p.startsConcatOperand() {
		r := p.additive()
		p.checkNoGroup(e)
		p.checkNoGroup(r)
		e = &binaryExpr{op: tConcat, l: e, r: r}
	}
	return e
}

func (p *parser) additive() Expr {
	e := p.multiplicative()
	for p.tok == tAdd || p.tok == tSub {
		op := p.tok
		p.next()
		r := p.multiplicative()
		p.checkNoGroup(e)
		p.checkNoGroup(r)
		e = &binaryExpr{op: op, l: e, r: r}
	}
	return e
}

func (p *parser) multiplicative() Expr {
	e := p.unary()
	for p.tok == tMul || p.tok == tDiv || p.tok == tMod {
		op := p.tok
		p.next()
		r := p.unary()
		p.checkNoGroup(e)
		p.checkNoGroup(r)
		e = &binaryExpr{op: op, l: e, r: r}
	}
	return e
}

func (p *parser) unary() Expr {
	switch p.tok {
	case tNot, tSub, tAdd:
		p.enter()
		defer p.leave()
		op := p.tok
		p.next()
		e := p.unary()
		p.checkNoGroup(e)
		return &unaryExpr{op: op, e: e}
	}
	return p.pow()
}

func (p *parser) pow() Expr {
	base := p.postfix()
	if p.tok != tPow {
		return base
	}
	p.enter()
	defer p.leave()
	p.next()
	// The exponent may carry a sign: 2^-1. It is right-associative.
	var exp Expr
	switch p.tok {
	case tSub, tAdd, tNot:
		op := p.tok
		p.next()
		exp = &unaryExpr{op: op, e: p.pow()}
	default:
		exp = p.pow()
	}
	p.checkNoGroup(base)
	p.checkNoGroup(exp)
	return &binaryExpr{op: tPow, l: base, r: exp}
}

func (p *parser) postfix() Expr {
	e := p.primary()
	if (p.tok == tIncr || p.tok == tDecr) && isLvalue(e) {
		d := 1.0
		if p.tok == tDecr {
			d = -1
		}
		p.next()
		return &incrExpr{lv: e, delta: d}
	}
	return e
}

// optLvalue parses the optional variable of getline.
func (p *parser) optLvalue() Expr {
	switch p.tok {
	case tName:
		return p.nameExpr()
	case tDollar:
		return p.field()
	}
	return nil
}

func (p *parser) nameExpr() Expr {
	name := p.cur.val
	p.next()
	if p.tok == tLbracket {
		arr := p.arrayVar(name)
		p.next()
		saved := p.noGT
		p.noGT = false
		index := p.exprList(tRbracket)
		p.noGT = saved
		p.expect(tRbracket)
		return &indexExpr{arr: arr, index: index}
	}
	return p.variable(name)
}

func (p *parser) field() Expr {
	p.next() // $
	p.enter()
	defer p.leave()
	var e Expr
	switch p.tok {
	case tIncr, tDecr:
		d := 1.0
		if p.tok == tDecr {
			d = -1
		}
		p.next()
		lv := p.primary()
		if !isLvalue(lv) {
			p.errorf("++ or -- needs a variable")
		}
		e = &incrExpr{lv: lv, pre: true, delta: d}
	case tSub, tAdd, tNot:
		op := p.tok
		p.next()
		e = &unaryExpr{op: op, e: p.primary()}
	default:
		e = p.primary()
	}
	p.checkNoGroup(e)
	return &fieldExpr{index: e}
}

func (p *parser) primary() Expr {
	p.enter()
	defer p.leave()
	switch p.tok {
	case tNumber:
		n := p.cur.num
		p.next()
		return &numLit{n: n}
	case tString:
		s := p.cur.val
		p.next()
		return &strLit{s: s}
	case tDiv, tDivAssign:
		lx := p.lx.scanRegex(p.cur.pos)
		re, err := compileRegex(lx.val)
		if err != nil {
			p.errorf("%v", err)
		}
		p.next()
		return &regexLit{src: lx.val, re: re}
	case tDollar:
		return p.field()
	case tName:
		return p.nameExpr()
	case tFuncName:
		return p.call()
	case tBuiltin:
		return p.builtin()
	case tIncr, tDecr:
		d := 1.0
		if p.tok == tDecr {
			d = -1
		}
		p.next()
		lv := p.primary()
		if !isLvalue(lv) {
			p.errorf("++ or -- needs a variable")
		}
		return &incrExpr{lv: lv, pre: true, delta: d}
	case tSub, tAdd, tNot:
		op := p.tok
		p.next()
		return &unaryExpr{op: op, e: p.unary()}
	case tLparen:
		p.next()
		saved := p.noGT
		p.noGT = false
		p.optNewlines()
		list := p.exprList(tRparen)
		p.optNewlines()
		p.noGT = saved
		p.expect(tRparen)
		if len(list) > 1 {
			return &groupExpr{exprs: list}
		}
		if g, ok := list[0].(*groupExpr); ok {
			return g
		}
		// Keep "(x)" from being an lvalue for ++ and =, as awk does not
		// mind either way; wrap only for clarity of intent.
		return list[0]
	case tGetline:
		p.next()
		g := &getlineExpr{kind: getlineMain}
		g.lv = p.optLvalue()
		if p.tok == tLt {
			p.next()
			g.kind = getlineFile
			g.src = p.getlineSource()
		}
		return g
	}
	p.unexpected()
	return nil
}

// getlineSource parses the file after "getline <": a primary, with $ and
// ++ allowed but no concatenation.
func (p *parser) getlineSource() Expr {
	e := p.primary()
	if (p.tok == tIncr || p.tok == tDecr) && isLvalue(e) {
		d := 1.0
		if p.tok == tDecr {
			d = -1
		}
		p.next()
		return &incrExpr{lv: e, delta: d}
	}
	return e
}

func (p *parser) call() Expr {
	name := p.cur.val
	line := p.cur.line
	if _, ok := specialNames[name]; ok {
		p.errorf("can't call special variable %s", name)
	}
	if p.locals != nil {
		if _, ok := p.locals[name]; ok {
			p.errorf("can't call local variable %s", name)
		}
	}
	p.next()
	p.expect(tLparen)
	c := &callExpr{name: name, line: line}
	saved := p.noGT
	p.noGT = false
	p.optNewlines()
	if p.tok != tRparen {
		c.args = p.exprList(tRparen)
	}
	p.optNewlines()
	p.noGT = saved
	p.expect(tRparen)
	p.calls = append(p.calls, c)
	if !p.funcNames[name] {
		p.funcNames[name] = true
	}
	return c
}

// builtin arity: min and max argument counts (-1: any).
var builtinArity = map[string][2]int{
	"length": {0, 1}, "substr": {2, 3}, "index": {2, 2}, "split": {2, 4},
	"sub": {2, 3}, "gsub": {2, 3}, "match": {2, 3}, "sprintf": {1, -1},
	"sin": {1, 1}, "cos": {1, 1}, "atan2": {2, 2}, "exp": {1, 1}, "log": {1, 1},
	"sqrt": {1, 1}, "int": {1, 1}, "rand": {0, 0}, "srand": {0, 1},
	"tolower": {1, 1}, "toupper": {1, 1}, "system": {1, 1}, "close": {1, 2},
	"fflush": {0, 1}, "gensub": {3, 4}, "systime": {0, 0}, "strftime": {0, 3},
	"and": {2, -1}, "or": {2, -1}, "xor": {2, -1}, "lshift": {2, 2},
	"rshift": {2, 2}, "compl": {1, 1}, "asort": {1, 2}, "asorti": {1, 2},
	"strtonum": {1, 1}, "mktime": {1, 2},
}

func (p *parser) builtin() Expr {
	name := p.cur.val
	p.next()
	b := &builtinExpr{name: name}
	if p.tok != tLparen {
		if name == "length" {
			return b
		}
		p.errorf("expected \"(\" after %s", name)
	}
	p.next()
	saved := p.noGT
	p.noGT = false
	p.optNewlines()
	if p.tok != tRparen {
		b.args = p.exprList(tRparen)
	}
	p.optNewlines()
	p.noGT = saved
	p.expect(tRparen)
	ar := builtinArity[name]
	if len(b.args) < ar[0] || (ar[1] >= 0 && len(b.args) > ar[1]) {
		p.errorf("%s: wrong number of arguments (%d)", name, len(b.args))
	}
	switch name {
	case "split":
		if _, ok := b.args[1].(*varExpr); !ok {
			p.errorf("split: second argument must be an array name")
		}
		b.args[1] = p.asArray(b.args[1])
		if len(b.args) == 4 {
			if _, ok := b.args[3].(*varExpr); !ok {
				p.errorf("split: fourth argument must be an array name")
			}
			b.args[3] = p.asArray(b.args[3])
		}
	case "sub", "gsub":
		if len(b.args) == 3 && !isLvalue(b.args[2]) {
			p.errorf("%s: third argument must be a variable, field or array element", name)
		}
	case "asort", "asorti":
		for i := range b.args {
			if _, ok := b.args[i].(*varExpr); !ok {
				p.errorf("%s: arguments must be array names", name)
			}
			b.args[i] = p.asArray(b.args[i])
		}
	case "match":
		if len(b.args) == 3 {
			if _, ok := b.args[2].(*varExpr); !ok {
				p.errorf("match: third argument must be an array name")
			}
			b.args[2] = p.asArray(b.args[2])
		}
	}
	return b
}

func (p *parser) asArray(e Expr) Expr {
	v := e.(*varExpr)
	if v.scope == scopeSpecial {
		p.errorf("can't use special variable %s as an array", v.name)
	}
	return v
}
