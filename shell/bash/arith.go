package bash

import (
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// arithError is an arithmetic error: bash prints "EXPR: msg (error
// token is "TOK")" and the command fails (the shell exits, for an
// expansion).
func arithErr(expr, msg, tok string) error {
	m := expr + ": " + msg
	if tok != "" || msg != "" {
		m += fmt.Sprintf(" (error token is \"%s\")", tok)
	}
	return &shError{msg: m, status: 1}
}

// arith evaluates an arithmetic expression.
func (r *Runner) arith(x syntax.ArithmExpr) (int64, error) {
	if x == nil {
		return 0, nil
	}
	return r.arithDepth(x, 0)
}

func (r *Runner) arithDepth(x syntax.ArithmExpr, depth int) (int64, error) {
	if depth > 1024 {
		return 0, &shError{msg: "expression recursion level exceeded", status: 1}
	}
	switch x := x.(type) {
	case *syntax.Word:
		s, err := r.literal(x)
		if err != nil {
			return 0, err
		}
		return r.arithValue(s, depth)
	case *syntax.ParenArithm:
		return r.arithDepth(x.X, depth+1)
	case *syntax.UnaryArithm:
		switch x.Op {
		case syntax.Inc, syntax.Dec:
			name, idx, err := r.arithLvalue(x.X)
			if err != nil {
				return 0, err
			}
			old, err := r.arithGet(name, idx, depth)
			if err != nil {
				return 0, err
			}
			n := old + 1
			if x.Op == syntax.Dec {
				n = old - 1
			}
			if err := r.arithSet(name, idx, n); err != nil {
				return 0, err
			}
			if x.Post {
				return old, nil
			}
			return n, nil
		}
		v, err := r.arithDepth(x.X, depth+1)
		if err != nil {
			return 0, err
		}
		switch x.Op {
		case syntax.Not:
			return int64(b2i(v == 0)), nil
		case syntax.BitNegation:
			return ^v, nil
		case syntax.Plus:
			return v, nil
		case syntax.Minus:
			return -v, nil
		}
	case *syntax.BinaryArithm:
		return r.binArith(x, depth)
	}
	return 0, &shError{msg: "unsupported arithmetic", status: 1}
}

func (r *Runner) binArith(x *syntax.BinaryArithm, depth int) (int64, error) {
	switch x.Op {
	case syntax.AndArit:
		a, err := r.arithDepth(x.X, depth+1)
		if err != nil || a == 0 {
			return 0, err
		}
		b, err := r.arithDepth(x.Y, depth+1)
		return int64(b2i(b != 0)), err
	case syntax.OrArit:
		a, err := r.arithDepth(x.X, depth+1)
		if err != nil || a != 0 {
			return int64(b2i(a != 0)), err
		}
		b, err := r.arithDepth(x.Y, depth+1)
		return int64(b2i(b != 0)), err
	case syntax.TernQuest:
		c, err := r.arithDepth(x.X, depth+1)
		if err != nil {
			return 0, err
		}
		col, ok := x.Y.(*syntax.BinaryArithm)
		if !ok || col.Op != syntax.TernColon {
			return 0, &shError{msg: "`:' expected for conditional expression", status: 1}
		}
		if c != 0 {
			return r.arithDepth(col.X, depth+1)
		}
		return r.arithDepth(col.Y, depth+1)
	case syntax.Comma:
		if _, err := r.arithDepth(x.X, depth+1); err != nil {
			return 0, err
		}
		return r.arithDepth(x.Y, depth+1)
	case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn,
		syntax.RemAssgn, syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
		name, idx, err := r.arithLvalue(x.X)
		if err != nil {
			return 0, err
		}
		val, err := r.arithDepth(x.Y, depth+1)
		if err != nil {
			return 0, err
		}
		if x.Op != syntax.Assgn {
			old, err := r.arithGet(name, idx, depth)
			if err != nil {
				return 0, err
			}
			op := map[syntax.BinAritOperator]syntax.BinAritOperator{
				syntax.AddAssgn: syntax.Add, syntax.SubAssgn: syntax.Sub, syntax.MulAssgn: syntax.Mul,
				syntax.QuoAssgn: syntax.Quo, syntax.RemAssgn: syntax.Rem, syntax.AndAssgn: syntax.And,
				syntax.OrAssgn: syntax.Or, syntax.XorAssgn: syntax.Xor, syntax.ShlAssgn: syntax.Shl, syntax.ShrAssgn: syntax.Shr,
			}[x.Op]
			if val, err = binOp(op, old, val, printNode(x.Y)); err != nil {
				return 0, err
			}
		}
		return val, r.arithSet(name, idx, val)
	}
	a, err := r.arithDepth(x.X, depth+1)
	if err != nil {
		return 0, err
	}
	b, err := r.arithDepth(x.Y, depth+1)
	if err != nil {
		return 0, err
	}
	return binOp(x.Op, a, b, printNode(x.Y))
}

func binOp(op syntax.BinAritOperator, a, b int64, ytext string) (int64, error) {
	switch op {
	case syntax.Add:
		return a + b, nil
	case syntax.Sub:
		return a - b, nil
	case syntax.Mul:
		return a * b, nil
	case syntax.Quo, syntax.Rem:
		if b == 0 {
			return 0, &shError{msg: "division by 0 (error token is \"" + ytext + "\")", status: 1}
		}
		if a == -1<<63 && b == -1 {
			if op == syntax.Quo {
				return a, nil
			}
			return 0, nil
		}
		if op == syntax.Quo {
			return a / b, nil
		}
		return a % b, nil
	case syntax.Pow:
		if b < 0 {
			return 0, &shError{msg: "exponent less than 0 (error token is \"" + ytext + "\")", status: 1}
		}
		n := int64(1)
		for ; b > 0; b-- {
			n *= a
		}
		return n, nil
	case syntax.Eql:
		return int64(b2i(a == b)), nil
	case syntax.Neq:
		return int64(b2i(a != b)), nil
	case syntax.Lss:
		return int64(b2i(a < b)), nil
	case syntax.Gtr:
		return int64(b2i(a > b)), nil
	case syntax.Leq:
		return int64(b2i(a <= b)), nil
	case syntax.Geq:
		return int64(b2i(a >= b)), nil
	case syntax.And:
		return a & b, nil
	case syntax.Or:
		return a | b, nil
	case syntax.Xor:
		return a ^ b, nil
	case syntax.Shl:
		return a << (uint64(b) & 63), nil
	case syntax.Shr:
		return a >> (uint64(b) & 63), nil
	}
	return 0, &shError{msg: "unsupported arithmetic operator", status: 1}
}

// arithLvalue is the variable an assignment or ++ names: "x" or "a[i]".
func (r *Runner) arithLvalue(x syntax.ArithmExpr) (string, syntax.ArithmExpr, error) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return "", nil, &shError{msg: "attempted assignment to non-variable", status: 1}
	}
	if len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && (!pe.Short || !pe.Dollar.IsValid()) && pe.Exp == nil && pe.Index != nil {
			return pe.Param.Value, pe.Index, nil
		}
	}
	s := w.Lit()
	if s == "" {
		lit, err := r.literal(w)
		if err != nil {
			return "", nil, err
		}
		s = lit
	}
	if name, rest, ok := strings.Cut(s, "["); ok && strings.HasSuffix(rest, "]") && syntax.ValidName(name) {
		idx, err := syntax.NewParser().Arithmetic(strings.NewReader(rest[:len(rest)-1]))
		if err != nil {
			return "", nil, &shError{msg: s + ": bad array subscript", status: 1}
		}
		return name, idx, nil
	}
	if !syntax.ValidName(s) {
		return "", nil, &shError{msg: s + ": attempted assignment to non-variable (error token is \"" + s + "\")", status: 1}
	}
	return s, nil, nil
}

func (r *Runner) arithGet(name string, idx syntax.ArithmExpr, depth int) (int64, error) {
	var s string
	if idx != nil {
		vals, _, _, _, err := r.paramValues(&syntax.ParamExp{Param: &syntax.Lit{Value: name}, Index: idx})
		if err != nil {
			return 0, err
		}
		if len(vals) > 0 {
			s = vals[0]
		}
	} else {
		v, ok := r.getVar(name)
		if !ok && r.opt["nounset"] {
			return 0, &shError{msg: name + ": unbound variable", status: 127}
		}
		s = v
	}
	return r.arithValue(s, depth+1)
}

func (r *Runner) arithSet(name string, idx syntax.ArithmExpr, n int64) error {
	s := strconv.FormatInt(n, 10)
	if idx != nil {
		return r.setIndex(name, idx, s, false)
	}
	return r.setVar(name, s)
}

// arithValue evaluates a string met in arithmetic: a number, a variable
// name (whose value is evaluated in turn), or an expression.
func (r *Runner) arithValue(s string, depth int) (int64, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, nil
	}
	if n, ok, err := parseArithNum(t); ok || err != nil {
		return n, err
	}
	if syntax.ValidName(t) {
		v, ok := r.getVar(t)
		if !ok && r.opt["nounset"] {
			return 0, &shError{msg: t + ": unbound variable", status: 127}
		}
		return r.arithValue(v, depth+1)
	}
	if depth > 1024 {
		return 0, &shError{msg: "expression recursion level exceeded", status: 1}
	}
	x, err := syntax.NewParser().Arithmetic(strings.NewReader(t))
	if err != nil {
		return 0, arithErr(t, "syntax error: invalid arithmetic operator", t)
	}
	return r.arithDepth(x, depth+1)
}

// parseArithNum parses 42, 0x2a, 052, 2#101010; ok is false when s is
// not a number at all.
func parseArithNum(s string) (int64, bool, error) {
	if s[0] < '0' || s[0] > '9' || strings.ContainsAny(s, " \t\n+-*/%()<>=!&|^~?:,[]$") {
		return 0, false, nil
	}
	base := 10
	digits := s
	switch {
	case strings.Contains(s, "#"):
		b, d, _ := strings.Cut(s, "#")
		n, err := strconv.Atoi(b)
		if err != nil || n < 2 || n > 64 {
			return 0, true, arithErr(s, "invalid arithmetic base", s)
		}
		base, digits = n, d
	case len(s) > 1 && (s[1] == 'x' || s[1] == 'X') && s[0] == '0':
		base, digits = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
	}
	var n int64
	for i, c := range digits {
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
			return 0, true, arithErr(s, "syntax error: invalid arithmetic operator", digits[i:])
		}
		if d >= base {
			return 0, true, arithErr(s, "value too great for base", s)
		}
		n = n*int64(base) + int64(d)
	}
	if digits == "" && base == 16 {
		return 0, true, arithErr(s, "invalid integer constant", s)
	}
	return n, true, nil
}

// arithString evaluates an expression given as text (declare -i, let).
func (r *Runner) arithString(s string) (int64, error) {
	return r.arithValue(s, 0)
}

// arithContext turns an arithmetic error into bash's message "EXPR:
// msg"; abort: the rest of the top-level command is skipped (an
// expansion), else the command fails.
func (r *Runner) arithContext(err error, text, prefix string, abort bool) error {
	se, ok := err.(*shError)
	if !ok || se.status != 1 {
		return err
	}
	return &shError{msg: prefix + text + ": " + se.msg, status: 1, abort: abort, noExit: !abort}
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
