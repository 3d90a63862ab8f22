package bash

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Arithmetic is evaluated as bash does it: the expression's text is
// expanded first (parameters, command substitutions, double quotes
// removed, single quotes kept), then the resulting string is parsed and
// evaluated in one pass (bash's expr.c), so that "$(( "1+2" * 3 ))" is 7,
// a variable's value is itself evaluated as an expression, and errors
// carry bash's text: "EXPR: msg (error token is "TOK")".
//
// At parse time (arithTemplates) every arithmetic expression of the AST
// is replaced by a template: a *syntax.Word of literal source text and
// the expansions met in it.

// maxArithDepth is bash's MAX_EXPR_RECURSION_LEVEL.
const maxArithDepth = 1024

// arith evaluates an arithmetic expression of the AST.
func (r *Runner) arith(x syntax.ArithmExpr) (int64, error) {
	if x == nil {
		return 0, nil
	}
	text, err := r.arithText(x, false)
	if err != nil {
		return 0, err
	}
	return r.arithEval(text, 0)
}

// arithString evaluates an expression given as text (declare -i, let).
func (r *Runner) arithString(s string) (int64, error) {
	return r.arithEval(s, 0)
}

// arithText expands a template (see arithTemplates); key: as an
// associative array's key (all quotes removed), else as arithmetic text
// (single quotes kept).
func (r *Runner) arithText(x syntax.ArithmExpr, key bool) (string, error) {
	w, ok := x.(*syntax.Word)
	if !ok {
		// Not converted (built by hand): its printed form.
		return printNode(x), nil
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if key {
				b.WriteString(unquoteKey(p.Value))
			} else {
				b.WriteString(p.Value)
			}
		case *syntax.SglQuoted:
			s, err := r.literal(&syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return "", err
			}
			if !key {
				s = "'" + s + "'"
			}
			b.WriteString(s)
		case *syntax.ParamExp:
			if !p.Dollar.IsValid() && p.Short {
				// A bare a[i] (arithmetic's own variable syntax).
				b.WriteString(p.Param.Value)
				if p.Index != nil {
					s, err := r.arithText(p.Index, key)
					if err != nil {
						return "", err
					}
					b.WriteString("[" + s + "]")
				}
				continue
			}
			s, err := r.literal(&syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{p}}}})
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		default:
			s, err := r.literal(&syntax.Word{Parts: []syntax.WordPart{p}})
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		}
	}
	return b.String(), nil
}

// unquoteKey removes quotes and backslashes from literal text.
func unquoteKey(s string) string {
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

// arithTemplates replaces, in the AST under n parsed from src, every
// arithmetic expression by its template: the source text as literals,
// with the expansions ($x, ${..}, $(..), $((..)), quotes) as parts.
// let: the expressions of let, whose words lose their quotes.
func arithTemplates(n syntax.Node, src string) {
	conv := func(x syntax.ArithmExpr, from, to int, let bool) syntax.ArithmExpr {
		if x == nil {
			return nil
		}
		if from < 0 || to > len(src) || from > to {
			return x
		}
		return arithTemplate(x, src, from, to, let)
	}
	off := func(p syntax.Pos) int { return int(p.Offset()) }
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ArithmExp:
			d := 3
			if n.Bracket {
				d = 2
			}
			n.X = conv(n.X, off(n.Left)+d, off(n.Right), false)
		case *syntax.ArithmCmd:
			n.X = conv(n.X, off(n.Left)+2, off(n.Right), false)
		case *syntax.CStyleLoop:
			a, end := off(n.Lparen)+2, off(n.Rparen)
			if a > end || end > len(src) {
				return true
			}
			semi := func(from int, x syntax.ArithmExpr) int {
				if x != nil {
					from = max(from, off(x.End()))
				}
				if i := strings.IndexByte(src[from:end], ';'); i >= 0 {
					return from + i
				}
				return end
			}
			s1 := semi(a, n.Init)
			s2 := semi(min(s1+1, end), n.Cond)
			n.Init = conv(n.Init, a, s1, false)
			n.Cond = conv(n.Cond, min(s1+1, end), s2, false)
			n.Post = conv(n.Post, min(s2+1, end), end, false)
		case *syntax.LetClause:
			for i, x := range n.Exprs {
				n.Exprs[i] = conv(x, off(x.Pos()), off(x.End()), true)
			}
		case *syntax.ParamExp:
			if n.Index != nil {
				n.Index = conv(n.Index, off(n.Index.Pos()), off(n.Index.End()), false)
			}
			if n.Slice != nil {
				if n.Slice.Offset != nil {
					n.Slice.Offset = conv(n.Slice.Offset, off(n.Slice.Offset.Pos()), off(n.Slice.Offset.End()), false)
				}
				if n.Slice.Length != nil {
					n.Slice.Length = conv(n.Slice.Length, off(n.Slice.Length.Pos()), off(n.Slice.Length.End()), false)
				}
			}
		case *syntax.Assign:
			if n.Index != nil {
				n.Index = conv(n.Index, off(n.Index.Pos()), off(n.Index.End()), false)
			}
		case *syntax.ArrayElem:
			if n.Index != nil {
				n.Index = conv(n.Index, off(n.Index.Pos()), off(n.Index.End()), false)
			}
		}
		return true
	})
}

// arithTemplate builds the template of x, whose text is src[from:to].
func arithTemplate(x syntax.ArithmExpr, src string, from, to int, let bool) *syntax.Word {
	if w, ok := x.(*syntax.Word); ok && len(w.Parts) == 1 {
		if _, ok := w.Parts[0].(*syntax.Lit); ok && int(w.Pos().Offset()) == from && int(w.End().Offset()) == to {
			return w // plain text already
		}
	}
	var parts []syntax.Node
	syntax.Walk(x, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ParamExp:
			if n.Dollar.IsValid() || !n.Short {
				parts = append(parts, n)
				return false
			}
		case *syntax.CmdSubst, *syntax.ArithmExp, *syntax.DblQuoted, *syntax.SglQuoted, *syntax.ProcSubst, *syntax.ExtGlob:
			parts = append(parts, n)
			return false
		}
		return true
	})
	w := &syntax.Word{}
	lit := func(s string) {
		s = strings.ReplaceAll(s, "\\\n", "")
		if s != "" {
			w.Parts = append(w.Parts, &syntax.Lit{Value: s})
		}
	}
	at := from
	for _, p := range parts {
		a, b := int(p.Pos().Offset()), int(p.End().Offset())
		if a < at || b > to {
			continue
		}
		lit(src[at:a])
		if sq, ok := p.(*syntax.SglQuoted); ok && let && !sq.Dollar {
			lit(sq.Value)
		} else {
			w.Parts = append(w.Parts, p.(syntax.WordPart))
		}
		at = b
	}
	lit(src[at:to])
	if len(w.Parts) == 0 {
		w.Parts = []syntax.WordPart{&syntax.Lit{Value: ""}}
	}
	return w
}

// arithFatal is an error of an arithmetic evaluation, carried by panic
// to its top.
type arithFatal struct{ err error }

// arithEval evaluates the text of an expression (bash's subexpr).
func (r *Runner) arithEval(expr string, depth int) (n int64, err error) {
	t := strings.TrimLeft(expr, " \t\n")
	if t == "" {
		return 0, nil
	}
	p := &arithParser{r: r, expr: expr, depth: depth}
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
	r      *Runner
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
}

func (p *arithParser) fail(msg string) {
	tok := ""
	if p.lasttp < len(p.expr) {
		tok = p.expr[p.lasttp:]
	}
	e := strings.TrimLeft(p.expr, " \t\n")
	panic(arithFatal{&shError{msg: fmt.Sprintf("%s: %s (error token is \"%s\")", e, msg, tok), status: 1}})
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
		p.val = p.strlong(p.expr[start:cp])
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
	r := p.r
	var s string
	if e == ']' {
		name, sub := splitSubscript(tok)
		v, ok, err := r.arithElem(name, sub, p.depth)
		if err != nil {
			p.fatal(err)
		}
		if !ok && r.opt["nounset"] && r.lookupVar(name) == nil {
			p.fatal(&shError{msg: name + ": unbound variable", status: 127})
		}
		s = v
	} else {
		v, ok := r.getVar(tok)
		if !ok && r.opt["nounset"] {
			p.fatal(&shError{msg: tok + ": unbound variable", status: 127})
		}
		s = v
	}
	if s == "" {
		return 0
	}
	if p.depth+1 >= maxArithDepth {
		p.fail("expression recursion level exceeded")
	}
	n, err := r.arithEval(s, p.depth+1)
	if err != nil {
		p.fatal(err)
	}
	return n
}

// splitSubscript splits "a[sub]" into "a" and "sub".
func splitSubscript(tok string) (string, string) {
	i := strings.IndexByte(tok, '[')
	return tok[:i], tok[i+1 : len(tok)-1]
}

// expandSub expands the $ and ` expansions of a subscript met in
// arithmetic text, as bash expands an array index again.
func (r *Runner) expandSub(sub string) (string, error) {
	if !strings.ContainsAny(sub, "$`") {
		return sub, nil
	}
	w, err := syntax.NewParser().Document(strings.NewReader(sub))
	if err != nil {
		return sub, nil
	}
	return r.literal(w)
}

// arithElem is the value of name[sub] in arithmetic.
func (r *Runner) arithElem(name, sub string, depth int) (string, bool, error) {
	sub, err := r.expandSub(sub)
	if err != nil {
		return "", false, err
	}
	v := r.lookupVar(name)
	if v == nil || !v.Set {
		return "", false, nil
	}
	if v.Kind == kAssoc {
		s, ok := v.Assoc[unquoteKey(sub)]
		return s, ok, nil
	}
	if strings.TrimSpace(sub) == "" {
		r.errf("%s[%s]: bad array subscript", name, sub)
		return "", false, nil
	}
	i, err := r.arithEval(sub, depth+1)
	if err != nil {
		return "", false, err
	}
	if v.Kind == kString {
		if i == 0 || i == -1 {
			return v.Str, true, nil
		}
		return "", false, nil
	}
	if i < 0 {
		m := v.maxIndex()
		if int(i)+m+1 < 0 {
			r.errf("%s: bad array subscript", name)
			return "", false, nil
		}
		i += int64(m + 1)
	}
	s, ok := v.Idx[int(i)]
	return s, ok, nil
}

// bind assigns the value of an arithmetic assignment to tok.
func (p *arithParser) bind(tok string, n int64) {
	r := p.r
	val := strconv.FormatInt(n, 10)
	var err error
	if strings.HasSuffix(tok, "]") && strings.Contains(tok, "[") {
		name, sub := splitSubscript(tok)
		if sub, err = r.expandSub(sub); err != nil {
			p.fatal(err)
		}
		err = r.setIndex(name, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: sub}}}, val, false)
	} else {
		err = r.setVar(tok, val)
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

// arithContext gives an arithmetic error the command's prefix ("((: ",
// "let: "); abort: the rest of the top-level command is skipped (an
// expansion), else the command fails.
func (r *Runner) arithContext(err error, prefix string, abort bool) error {
	var se *shError
	if !errors.As(err, &se) || se.status != 1 {
		return err
	}
	return &shError{msg: prefix + se.msg, status: 1, abort: abort, noExit: !abort}
}

// srcText is the source text between two positions of the running
// script, or "" when unknown.
func (r *Runner) srcText(from, to syntax.Pos) string {
	a, b := int(from.Offset()), int(to.Offset())
	if r.src == "" || a < 0 || b > len(r.src) || a > b {
		return ""
	}
	return r.src[a:b]
}
