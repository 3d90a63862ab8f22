// Package parse reads bash scripts into mvdan.cc/sh/v3/syntax trees as
// bash reads them: a line at a time with aliases expanded while reading
// ([Reader]), syntax errors reported with bash's text ([PrintSyntaxError]),
// and each tree prepared for the interpreter ([Prepare], [Templates]):
// brace expansions split, ${x///...} read as bash does, and arithmetic
// expressions turned into templates of their source text; and a
// function printed back as bash's type and declare -f print it
// ([FuncText]).
package parse

import (
	"errors"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Script parses src whole; on an error it returns the statements on
// lines before the error, and the error.
func Script(src string) (*syntax.File, error) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	var stmts []*syntax.Stmt
	var err error
	for st, e := range p.StmtsSeq(strings.NewReader(src)) {
		if e != nil {
			err = e
			break
		}
		stmts = append(stmts, st)
	}
	if err != nil {
		line := errLine(err)
		keep := stmts[:0]
		for _, st := range stmts {
			if st.End().Line() < line {
				keep = append(keep, st)
			}
		}
		stmts = keep
	}
	for _, st := range stmts {
		Templates(st, src)
		Prepare(st)
	}
	return &syntax.File{Stmts: stmts}, err
}

func errLine(err error) uint {
	var pe syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &pe):
		return pe.Pos.Line()
	case errors.As(err, &le):
		return le.Pos.Line()
	}
	return 1
}

// slashPattern re-reads ${x///...}: bash's pattern of ${x//pat/rep} may
// start with a slash (${x///} deletes slashes, ${x////c} replaces them
// with c), where mvdan's parser takes the third slash as the separator of
// an empty pattern.
func slashPattern(pe *syntax.ParamExp) {
	rp := pe.Repl
	if rp == nil || !rp.All || rp.Orig != nil || pe.Excl || pe.Length {
		return
	}
	base := pe.Param.End()
	if pe.Index != nil {
		base = syntax.NewPos(pe.Index.End().Offset()+1, 0, 0)
	}
	end := pe.Rbrace
	if rp.With != nil {
		end = rp.With.Pos()
	}
	if !end.IsValid() || end.Offset() != base.Offset()+3 {
		return
	}
	orig := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "/"}}}
	rp.Orig = orig
	if rp.With == nil {
		return
	}
	parts := rp.With.Parts
	for i, p := range parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		for j := 0; j < len(l.Value); j++ {
			switch l.Value[j] {
			case '\\':
				j++
			case '/':
				orig.Parts = append(orig.Parts, parts[:i]...)
				if j > 0 {
					orig.Parts = append(orig.Parts, &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: l.ValueEnd, Value: l.Value[:j]})
				}
				rest := []syntax.WordPart{}
				if j+1 < len(l.Value) {
					rest = append(rest, &syntax.Lit{ValuePos: l.ValuePos, ValueEnd: l.ValueEnd, Value: l.Value[j+1:]})
				}
				rp.With = &syntax.Word{Parts: append(rest, parts[i+1:]...)}
				return
			}
		}
	}
	orig.Parts = append(orig.Parts, parts...)
	rp.With = nil
}

// notTighter gives ! in x bash's precedence: it applies to the next
// operand only (! a && b is (! a) && b; mvdan's parser reads ! (a && b)).
func notTighter(x syntax.TestExpr) syntax.TestExpr {
	switch t := x.(type) {
	case *syntax.ParenTest:
		t.X = notTighter(t.X)
	case *syntax.BinaryTest:
		t.X, t.Y = notTighter(t.X), notTighter(t.Y)
	case *syntax.UnaryTest:
		t.X = notTighter(t.X)
		if b, ok := t.X.(*syntax.BinaryTest); ok && t.Op == syntax.TsNot && (b.Op == syntax.AndTest || b.Op == syntax.OrTest) {
			// ! (a OP b) as parsed: (! a) OP b
			t.X = b.X
			b.X = notTighter(t)
			return b
		}
	}
	return x
}

// Prepare splits brace expansions in the words of a parsed program
// (after the walk: the walker knows no BraceExp) and gives ! in [[ ]]
// bash's precedence.
func Prepare(n syntax.Node) {
	var words []*syntax.Word
	syntax.Walk(n, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.TestClause:
			n.X = notTighter(n.X)
		case *syntax.CallExpr:
			words = append(words, n.Args...)
		case *syntax.WordIter:
			words = append(words, n.Items...)
		case *syntax.DeclClause:
			// declare's words that are not name=value: "a{1,2}=x" too
			for _, as := range n.Args {
				if as.Naked && as.Name == nil && as.Value != nil {
					words = append(words, as.Value)
				}
			}
		case *syntax.ArrayElem:
			// [k]=v is one assignment: no brace expansion in v
			if n.Value != nil && n.Index == nil {
				words = append(words, n.Value)
			}
		case *syntax.ParamExp:
			slashPattern(n)
		case *syntax.Redirect:
			// a{1,2} in a file name expands to two words: an ambiguous
			// redirect, as in bash (here-document words stay as written)
			if n.Word != nil && n.Op != syntax.Hdoc && n.Op != syntax.DashHdoc && n.Op != syntax.WordHdoc {
				words = append(words, n.Word)
			}
		}
		return true
	})
	for _, w := range words {
		syntax.SplitBraces(w)
	}
}

// Templates replaces, in the AST under n parsed from src, every
// arithmetic expression by its template: the source text as literals,
// with the expansions ($x, ${..}, $(..), $((..)), quotes) as parts.
// let: the expressions of let, whose words lose their quotes.
func Templates(n syntax.Node, src string) {
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

// HasSubst reports whether w holds a command or process substitution
// (whose expansion has effects).
func HasSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}
