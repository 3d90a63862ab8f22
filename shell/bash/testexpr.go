package bash

import (
	"fmt"
	"io/fs"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/cond"
	"github.com/agentenkit/agentenkit/shell/bash/expand"
	"github.com/agentenkit/agentenkit/shell/bash/glob"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// test evaluates [[ expr ]].
func (r *Runner) test(x syntax.TestExpr) (bool, error) {
	return r.testNot(x, "")
}

// xtraceTest traces one test of [[ ]] as bash does: "+ [[ -d / ]]", each
// operand expanded, not quoted; not is "! " when negated.
func (r *Runner) xtraceTest(not string, words ...string) {
	if r.opt["xtrace"] {
		for i, w := range words {
			if w == "" {
				words[i] = "''"
			}
		}
		fmt.Fprintf(r.stderr(), "%s[[ %s%s ]]\n", r.ps4(), not, strings.Join(words, " "))
	}
}

// testNot evaluates x; not is "! " when a ! applies to it (for xtrace).
func (r *Runner) testNot(x syntax.TestExpr, not string) (bool, error) {
	switch x := x.(type) {
	case *syntax.Word:
		if eg, ok := negGroup(x); ok && !r.shopt["extglob"] {
			// Without extglob, bash reads [[ !(x) ]] as [[ ! ( x ) ]].
			return r.negGroupTest(eg)
		}
		s, err := r.literal(x)
		if err == nil {
			r.xtraceTest(not, "-n", s)
		}
		return s != "", err
	case *syntax.ParenTest:
		return r.testNot(x.X, not)
	case *syntax.UnaryTest:
		if x.Op == syntax.TsNot {
			neg := "! "
			if not != "" {
				neg = ""
			}
			ok, err := r.testNot(x.X, neg)
			return !ok, err
		}
		w, _ := x.X.(*syntax.Word)
		s, err := r.literal(w)
		if err != nil {
			return false, err
		}
		r.xtraceTest(not, x.Op.String(), s)
		return cond.Unary(condEnv{r}, x.Op.String(), s)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.AndTest:
			a, err := r.test(x.X)
			if err != nil || !a {
				return false, err
			}
			return r.test(x.Y)
		case syntax.OrTest:
			a, err := r.test(x.X)
			if err != nil || a {
				return a, err
			}
			return r.test(x.Y)
		}
		lw, _ := x.X.(*syntax.Word)
		left, err := r.literal(lw)
		if err != nil {
			return false, err
		}
		rw, _ := x.Y.(*syntax.Word)
		switch x.Op {
		case syntax.TsMatch, syntax.TsMatchShort, syntax.TsNoMatch:
			pat, err := r.pattern(rw)
			if err != nil {
				return false, err
			}
			if r.opt["xtrace"] {
				r.xtraceTest(not, left, x.Op.String(), r.traceMatch(rw))
			}
			m := glob.Match(pat, left, r.shopt["nocasematch"])
			return m == (x.Op != syntax.TsNoMatch), nil
		case syntax.TsReMatch:
			if r.opt["xtrace"] {
				if pat, err := r.pattern(rw); err == nil {
					r.xtraceTest(not, left, x.Op.String(), pat)
				}
			}
			return r.reMatch(left, rw)
		}
		right, err := r.literal(rw)
		if err != nil {
			return false, err
		}
		r.xtraceTest(not, left, x.Op.String(), right)
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsGtr, syntax.TsLeq, syntax.TsGeq:
			a, err := r.arithString(left)
			if err != nil {
				return false, err
			}
			b, err := r.arithString(right)
			if err != nil {
				return false, err
			}
			return cond.CompareInt(x.Op.String(), a, b), nil
		}
		return cond.Binary(condEnv{r}, x.Op.String(), left, right)
	}
	return false, nil
}

// reMatch is [[ s =~ re ]]: quoted parts of the regex match literally;
// BASH_REMATCH gets the groups.
func (r *Runner) reMatch(s string, w *syntax.Word) (bool, error) {
	var e expand.Word
	if err := r.wordParts(&e, w.Parts, false, true); err != nil {
		return false, err
	}
	re, ok := cond.Regexp(e.Text("", regexp.QuoteMeta), r.shopt["nocasematch"])
	if !ok {
		return false, &shError{status: 2, noExit: true}
	}
	m := re.FindStringSubmatch(s)
	v := &vars.Var{Set: true, Kind: vars.Indexed, Idx: map[int]string{}}
	for i, g := range m {
		v.Idx[i] = g
	}
	r.vars.Global().Vars["BASH_REMATCH"] = v
	return m != nil, nil
}

// negGroup reports whether w is the one word !(...).
func negGroup(w *syntax.Word) (*syntax.ExtGlob, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	eg, ok := w.Parts[0].(*syntax.ExtGlob)
	return eg, ok && eg.Op == syntax.GlobExcept
}

// negGroupTest evaluates the text inside !(...) as a negated [[ ]]
// expression.
func (r *Runner) negGroupTest(eg *syntax.ExtGlob) (bool, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader("[[ "+eg.Pattern.Value+" ]]"), "")
	if err != nil || len(f.Stmts) != 1 {
		return false, &shError{msg: "syntax error in conditional expression", status: 2, noExit: true}
	}
	tc, ok := f.Stmts[0].Cmd.(*syntax.TestClause)
	if !ok {
		return false, &shError{msg: "syntax error in conditional expression", status: 2, noExit: true}
	}
	ok, err = r.test(tc.X)
	return !ok, err
}

// testBuiltin is test and [.
func testBuiltin(r *Runner, args []string) int {
	name := args[0]
	args = args[1:]
	if name == "[" {
		if len(args) == 0 || args[len(args)-1] != "]" {
			r.errf("[: missing `]'")
			return 2
		}
		args = args[:len(args)-1]
	}
	ok, err := cond.Test(condEnv{r}, args)
	if err != nil {
		if ce, ok2 := err.(*cond.Error); ok2 && ce.Msg != "" {
			r.errf("%s: %s", name, ce.Msg)
		}
		return 2
	}
	return b2i(!ok)
}

// condEnv is the runner as conditional expressions read it (cond.Env).
type condEnv struct{ r *Runner }

func (c condEnv) Abs(path string) string                 { return c.r.abs(path) }
func (c condEnv) Stat(path string) (fs.FileInfo, error)  { return c.r.fs.Stat(path) }
func (c condEnv) Lstat(path string) (fs.FileInfo, error) { return posixfs.Lstat(c.r.fs, path) }
func (c condEnv) Option(name string) bool                { return c.r.opt[name] }
func (c condEnv) IsSet(name string) bool                 { return c.r.isSet(name) }

func (c condEnv) IsNameRef(name string) bool {
	v, _ := c.r.vars.Lookup(name)
	return v != nil && v.NameRef && v.Set
}

func (r *Runner) isSet(s string) bool {
	if name, idx, ok := strings.Cut(s, "["); ok && strings.HasSuffix(idx, "]") {
		pe, err := expand.ParseRef(name + "[" + idx)
		if err != nil {
			return false
		}
		_, _, _, set, err := r.paramValues(pe)
		return err == nil && set
	}
	_, ok := r.getVar(s)
	if !ok {
		v := r.lookupVar(s)
		return v != nil && v.Set && len(v.Values()) > 0
	}
	return ok
}

// traceMatch is a pattern as xtrace shows it: quoted characters each
// escaped with a backslash.
func (r *Runner) traceMatch(w *syntax.Word) string {
	var e expand.Word
	if err := r.wordParts(&e, w.Parts, false, true); err != nil {
		return ""
	}
	return e.Text(" ", func(s string) string {
		var b strings.Builder
		for _, c := range s {
			b.WriteByte('\\')
			b.WriteRune(c)
		}
		return b.String()
	})
}
