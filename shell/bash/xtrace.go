package bash

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/parse"
	"github.com/agentenkit/agentenkit/shell/bash/printf"
)

// xtraceDecl traces a declaration builtin as bash 5.2 does: each array
// assignment first, as NAME=('v' ...) with its values expanded and
// quoted (then only its name in the command), then the command (words:
// args, then a word per assignment). It returns the lines export and
// readonly trace after running (NAME=value of each scalar assignment).
func (r *Runner) xtraceDecl(words, args []string, assigns []*syntax.Assign) []string {
	var after []string
	words = append([]string(nil), words...)
	ps4 := r.ps4()
	for i, as := range assigns {
		if as.Array != nil && as.Index == nil {
			if line, ok := r.traceArray(as); ok {
				r.stderr().Write([]byte(ps4 + line + "\n"))
				words[len(args)+i] = as.Name.Value
			}
			continue
		}
		if (args[0] == "export" || args[0] == "readonly") && as.Value != nil && as.Index == nil {
			if v, err := r.assignValue(as.Value); err == nil && !parse.HasSubst(as.Value) {
				after = append(after, as.Name.Value+pick(as.Append, "+=", "=")+printf.TraceQuote(v))
			}
		}
	}
	r.xtrace(words)
	return after
}

// traceArray renders the array assignment as: NAME=('v' ['k']='v' ...),
// each value expanded; false when a value has a substitution (expanding
// it twice would run it twice).
func (r *Runner) traceArray(as *syntax.Assign) (string, bool) {
	var b strings.Builder
	b.WriteString(as.Name.Value + pick(as.Append, "+=", "=") + "(")
	first := true
	sep := func() {
		if !first {
			b.WriteByte(' ')
		}
		first = false
	}
	for _, el := range as.Array.Elems {
		if el.Value != nil && parse.HasSubst(el.Value) {
			return "", false
		}
		if el.Index != nil {
			sep()
			idx := r.srcText(el.Index.Pos(), el.Index.End())
			if idx == "" {
				idx = printNode(el.Index)
			}
			b.WriteString("[" + printf.SingleQuotePlain(idx) + "]=")
			v := ""
			if el.Value != nil {
				var err error
				if v, err = r.assignValue(el.Value); err != nil {
					return "", false
				}
			}
			b.WriteString(printf.SingleQuotePlain(v))
			continue
		}
		if el.Value == nil {
			continue
		}
		vals, err := r.fields(el.Value)
		if err != nil {
			return "", false
		}
		for _, v := range vals {
			sep()
			b.WriteString(printf.SingleQuotePlain(v))
		}
	}
	b.WriteByte(')')
	return b.String(), true
}

// xtraceArrayAssign traces NAME=(...) as bash does: as written.
func (r *Runner) xtraceArrayAssign(ps4 string, a *syntax.Assign) {
	text := r.srcText(a.Pos(), a.End())
	if text == "" {
		text = printNode(a)
	}
	r.stderr().Write([]byte(ps4 + text + "\n"))
}
