package textutil

import (
	"context"
	"fmt"
	"math/big"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixre"
)

func init() { command.Register(textExpr, "expr") }

// exprError is a syntax (status 2) or evaluation (status 2 or 3) error.
type exprError struct {
	msg    string
	status int
}

func (e *exprError) Error() string { return e.msg }

// exprValue is a string or an integer.
type exprValue struct {
	s     string
	n     *big.Int
	isInt bool
}

func exprInt(n *big.Int) exprValue { return exprValue{n: n, isInt: true} }
func exprStr(s string) exprValue   { return exprValue{s: s} }
func exprBool(b bool) exprValue {
	if b {
		return exprInt(big.NewInt(1))
	}
	return exprInt(big.NewInt(0))
}

func (v exprValue) String() string {
	if v.isInt {
		return v.n.String()
	}
	return v.s
}

// toInt converts a value that looks like an integer.
func (v exprValue) toInt() (*big.Int, bool) {
	if v.isInt {
		return v.n, true
	}
	s := v.s
	t := strings.TrimPrefix(s, "-")
	if t == "" || strings.Trim(t, "0123456789") != "" {
		return nil, false
	}
	n, ok := new(big.Int).SetString(s, 10)
	return n, ok
}

// null tells whether v is empty or zero (the false values).
func (v exprValue) null() bool {
	if v.isInt {
		return v.n.Sign() == 0
	}
	s := strings.TrimPrefix(v.s, "-")
	if v.s == "" {
		return true
	}
	return s != "" && strings.Trim(s, "0") == ""
}

// textExpr is expr: evaluate an expression.
//
// Supports | & < <= = == != >= > + - * / % : ( ), match, substr, index,
// length and "+ TOKEN", with integers of any size and strings; ':' and
// match use basic regular expressions anchored at the start, returning
// the \(group\) or the match's length. Exit status 0 when the result is
// neither empty nor 0, 1 when it is, 2 for a bad expression, 3 for an
// error.
func textExpr(ctx context.Context, c *command.Call, args []string) error {
	toks := args[1:]
	if len(toks) > 0 && toks[0] == "--" {
		toks = toks[1:]
	}
	if len(toks) == 0 {
		return cmdutil.Usage(c, "expr", 2, cmdutil.Usagef("missing operand"))
	}
	p := &exprParser{toks: toks}
	v, err := p.or()
	if err == nil && p.pos < len(p.toks) {
		err = &exprError{fmt.Sprintf("syntax error: unexpected argument %s", cmdutil.Quote(p.toks[p.pos])), 2}
	}
	if err != nil {
		e, ok := err.(*exprError)
		if !ok {
			e = &exprError{err.Error(), 3}
		}
		return c.Errorf(e.status, "expr", "%s", e.msg)
	}
	if _, err := fmt.Fprintln(c.Stdout, v.String()); err != nil {
		return cmdutil.Finish(c, "expr", &cmdutil.WriteError{Err: err})
	}
	if v.null() {
		return command.Exit(1)
	}
	return nil
}

type exprParser struct {
	toks []string
	pos  int
}

func (p *exprParser) peek(ops ...string) (string, bool) {
	if p.pos >= len(p.toks) {
		return "", false
	}
	for _, o := range ops {
		if p.toks[p.pos] == o {
			return o, true
		}
	}
	return "", false
}

func (p *exprParser) missing() error {
	if p.pos == 0 {
		return &exprError{"syntax error: missing argument", 2}
	}
	return &exprError{fmt.Sprintf("syntax error: missing argument after %s", cmdutil.Quote(p.toks[p.pos-1])), 2}
}

func (p *exprParser) or() (exprValue, error) {
	l, err := p.and()
	if err != nil {
		return l, err
	}
	for {
		if _, ok := p.peek("|"); !ok {
			return l, nil
		}
		p.pos++
		r, err := p.and()
		if err != nil {
			return r, err
		}
		switch {
		case !l.null():
		case !r.null():
			l = r
		default:
			l = exprInt(big.NewInt(0))
		}
	}
}

func (p *exprParser) and() (exprValue, error) {
	l, err := p.compare()
	if err != nil {
		return l, err
	}
	for {
		if _, ok := p.peek("&"); !ok {
			return l, nil
		}
		p.pos++
		r, err := p.compare()
		if err != nil {
			return r, err
		}
		if l.null() || r.null() {
			l = exprInt(big.NewInt(0))
		}
	}
}

func (p *exprParser) compare() (exprValue, error) {
	l, err := p.additive()
	if err != nil {
		return l, err
	}
	for {
		op, ok := p.peek("<", "<=", "=", "==", "!=", ">=", ">")
		if !ok {
			return l, nil
		}
		p.pos++
		r, err := p.additive()
		if err != nil {
			return r, err
		}
		var d int
		li, lok := l.toInt()
		ri, rok := r.toInt()
		if lok && rok {
			d = li.Cmp(ri)
		} else {
			d = strings.Compare(l.String(), r.String())
		}
		switch op {
		case "<":
			l = exprBool(d < 0)
		case "<=":
			l = exprBool(d <= 0)
		case "=", "==":
			l = exprBool(d == 0)
		case "!=":
			l = exprBool(d != 0)
		case ">=":
			l = exprBool(d >= 0)
		case ">":
			l = exprBool(d > 0)
		}
	}
}

func (p *exprParser) arith(l, r exprValue, op string) (exprValue, error) {
	a, aok := l.toInt()
	b, bok := r.toInt()
	if !aok || !bok {
		return l, &exprError{"non-integer argument", 2}
	}
	z := new(big.Int)
	switch op {
	case "+":
		z.Add(a, b)
	case "-":
		z.Sub(a, b)
	case "*":
		z.Mul(a, b)
	case "/", "%":
		if b.Sign() == 0 {
			return l, &exprError{"division by zero", 2}
		}
		if op == "/" {
			z.Quo(a, b)
		} else {
			z.Rem(a, b)
		}
	}
	return exprInt(z), nil
}

func (p *exprParser) additive() (exprValue, error) {
	l, err := p.multiplicative()
	if err != nil {
		return l, err
	}
	for {
		op, ok := p.peek("+", "-")
		if !ok {
			return l, nil
		}
		p.pos++
		r, err := p.multiplicative()
		if err != nil {
			return r, err
		}
		if l, err = p.arith(l, r, op); err != nil {
			return l, err
		}
	}
}

func (p *exprParser) multiplicative() (exprValue, error) {
	l, err := p.match()
	if err != nil {
		return l, err
	}
	for {
		op, ok := p.peek("*", "/", "%")
		if !ok {
			return l, nil
		}
		p.pos++
		r, err := p.match()
		if err != nil {
			return r, err
		}
		if l, err = p.arith(l, r, op); err != nil {
			return l, err
		}
	}
}

func (p *exprParser) match() (exprValue, error) {
	l, err := p.primary()
	if err != nil {
		return l, err
	}
	for {
		if _, ok := p.peek(":"); !ok {
			return l, nil
		}
		p.pos++
		r, err := p.primary()
		if err != nil {
			return r, err
		}
		if l, err = exprRegexMatch(l.String(), r.String()); err != nil {
			return l, err
		}
	}
}

func (p *exprParser) primary() (exprValue, error) {
	if p.pos >= len(p.toks) {
		return exprValue{}, p.missing()
	}
	t := p.toks[p.pos]
	p.pos++
	args := func(n int) ([]exprValue, error) {
		var vs []exprValue
		for i := 0; i < n; i++ {
			v, err := p.primary()
			if err != nil {
				return nil, err
			}
			vs = append(vs, v)
		}
		return vs, nil
	}
	switch t {
	case "(":
		v, err := p.or()
		if err != nil {
			return v, err
		}
		if _, ok := p.peek(")"); !ok {
			if p.pos >= len(p.toks) {
				return v, &exprError{fmt.Sprintf("syntax error: expecting ')' after %s", cmdutil.Quote(p.toks[p.pos-1])), 2}
			}
			return v, &exprError{fmt.Sprintf("syntax error: expecting ')' instead of %s", cmdutil.Quote(p.toks[p.pos])), 2}
		}
		p.pos++
		return v, nil
	case ")":
		return exprValue{}, &exprError{"syntax error: unexpected ')'", 2}
	case "+":
		if p.pos >= len(p.toks) {
			return exprValue{}, p.missing()
		}
		p.pos++
		return exprStr(p.toks[p.pos-1]), nil
	case "length":
		vs, err := args(1)
		if err != nil {
			return exprValue{}, err
		}
		return exprInt(big.NewInt(int64(utf8.RuneCountInString(vs[0].String())))), nil
	case "match":
		vs, err := args(2)
		if err != nil {
			return exprValue{}, err
		}
		return exprRegexMatch(vs[0].String(), vs[1].String())
	case "index":
		vs, err := args(2)
		if err != nil {
			return exprValue{}, err
		}
		s, chars := []rune(vs[0].String()), vs[1].String()
		for i, r := range s {
			if strings.ContainsRune(chars, r) {
				return exprInt(big.NewInt(int64(i + 1))), nil
			}
		}
		return exprInt(big.NewInt(0)), nil
	case "substr":
		vs, err := args(3)
		if err != nil {
			return exprValue{}, err
		}
		s := []rune(vs[0].String())
		pos, pok := vs[1].toInt()
		n, nok := vs[2].toInt()
		if !pok || !nok || pos.Sign() <= 0 || n.Sign() <= 0 || !pos.IsInt64() || pos.Int64() > int64(len(s)) {
			return exprStr(""), nil
		}
		start := int(pos.Int64()) - 1
		end := len(s)
		if n.IsInt64() && n.Int64() < int64(len(s)-start) {
			end = start + int(n.Int64())
		}
		return exprStr(string(s[start:end])), nil
	}
	return exprStr(t), nil
}

// exprRegexMatch is STRING : REGEX.
func exprRegexMatch(s, pattern string) (exprValue, error) {
	re, groups, err := exprCompileBRE(pattern)
	if err != nil {
		return exprValue{}, &exprError{err.Error(), 2}
	}
	m := re.FindStringSubmatchIndex(s)
	if groups > 0 {
		if m == nil || m[2] < 0 {
			return exprStr(""), nil
		}
		return exprStr(s[m[2]:m[3]]), nil
	}
	if m == nil {
		return exprInt(big.NewInt(0)), nil
	}
	return exprInt(big.NewInt(int64(utf8.RuneCountInString(s[:m[1]])))), nil
}

// exprCompileBRE compiles a POSIX basic regular expression (posixre)
// anchored at the start, as expr's ':' matches, and counts its groups.
func exprCompileBRE(bre string) (*regexp.Regexp, int, error) {
	body, err := posixre.Translate(bre, posixre.Options{})
	if err != nil {
		return nil, 0, err
	}
	re, err := posixre.CompileGo("^(?:"+body+")", posixre.Options{})
	if err != nil {
		return nil, 0, err
	}
	return re, re.NumSubexp(), nil
}
