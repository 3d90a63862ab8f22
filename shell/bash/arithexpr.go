package bash

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/arith"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

// Arithmetic is evaluated as bash does it: the expression's text is
// expanded first (parameters, command substitutions, double quotes
// removed, single quotes kept), then package arith parses and evaluates
// the resulting string in one pass (bash's expr.c), so that
// "$(( "1+2" * 3 ))" is 7, a variable's value is itself evaluated as an expression, and errors
// carry bash's text: "EXPR: msg (error token is "TOK")".
//
// At parse time (arithTemplates) every arithmetic expression of the AST
// is replaced by a template: a *syntax.Word of literal source text and
// the expansions met in it.

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
	if len(w.Parts) == 1 && !key {
		if l, ok := w.Parts[0].(*syntax.Lit); ok {
			// The whole expression is text ("i+1"): nothing to expand.
			return l.Value, nil
		}
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if key {
				b.WriteString(arith.UnquoteKey(p.Value))
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

// arithEval evaluates the text of an expression (bash's subexpr) with
// the runner's variables; an error of the expression itself becomes the
// shell error bash reports with status 1.
func (r *Runner) arithEval(expr string, depth int) (int64, error) {
	n, err := arith.Eval(arithVars{r}, expr, depth)
	if e, ok := err.(*arith.Error); ok {
		return 0, &shError{msg: e.Msg, status: 1}
	}
	return n, err
}

// arithVars is the runner's variables as arithmetic reads and assigns
// them (arith.Vars): set -u makes an unset one an error.
type arithVars struct{ r *Runner }

func (a arithVars) Var(name string) (string, error) {
	v, ok := a.r.getVar(name)
	if !ok && a.r.opt["nounset"] {
		return "", &shError{msg: name + ": unbound variable", status: 127}
	}
	return v, nil
}

func (a arithVars) Elem(name, sub string, depth int) (string, error) {
	v, ok, err := a.r.arithElem(name, sub, depth)
	if err != nil {
		return "", err
	}
	if !ok && a.r.opt["nounset"] && a.r.lookupVar(name) == nil {
		return "", &shError{msg: name + ": unbound variable", status: 127}
	}
	return v, nil
}

func (a arithVars) SetVar(name, val string) error { return a.r.setVar(name, val) }

func (a arithVars) SetElem(name, sub, val string) error {
	sub, err := a.r.expandSub(sub)
	if err != nil {
		return err
	}
	return a.r.setIndex(name, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: sub}}}, val, false)
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
	if v.Kind == vars.Assoc {
		s, ok := v.Assoc[arith.UnquoteKey(sub)]
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
	if v.Kind == vars.String {
		if i == 0 || i == -1 {
			return v.Str, true, nil
		}
		return "", false, nil
	}
	n, ok := v.AbsIndex(i)
	if !ok {
		r.errf("%s: bad array subscript", name)
		return "", false, nil
	}
	s, ok := v.Idx[n]
	return s, ok, nil
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
