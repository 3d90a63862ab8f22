package parse

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestCondSyntaxError checks bash 5.2's messages for errors in [[ ]]'s
// grammar (each verified with bash -c), and that other errors are left
// to PrintSyntaxError.
func TestCondSyntaxError(t *testing.T) {
	for _, c := range []struct {
		src  string
		line int
		msg  string // "-" when not a [[ ]] error
	}{
		{"op='=='; [[ a $op a ]]", 1, "conditional binary operator expected"},
		{"[[ -f < ]]", 1, "unexpected argument `<' to conditional unary operator"},
		{"[[ '(' foo ]]", 1, "conditional binary operator expected"},
		{"false\n[[ -z ]]\necho x", 2, "unexpected argument `]]' to conditional unary operator"},
		{"[[ -z '>' -- ]]", 1, "syntax error in conditional expression"},
		{"[[ ]]", 1, ""},
		{"[[ ! ]]", 1, ""},
		{"[[ a && ]]", 1, ""},
		{"[[ && ]]", 1, "unexpected token `&&' in conditional command"},
		{"[[ a 3< b ]]", 1, "conditional binary operator expected"},
		{"[[ a =~ c a ]]", 1, "syntax error in conditional expression"},
		{"[[ a =~ [a b] ]]", 1, "syntax error in conditional expression"},
		{"[[ ';' =~ ; ]]", 1, "syntax error in conditional expression: unexpected token `;'"},
		{"[[ '<>' =~ <> ]]", 1, "syntax error in conditional expression: unexpected token `<>'"},
		{"[[ x =~ ^)a\\ b($ ]]", 1, "syntax error in conditional expression: unexpected token `)'"},
		{"[[ a == ^(a\\ b)$ ]]", 1, "syntax error in conditional expression: unexpected token `('"},
		{"[[ x =~ a\nb ]]", 1, "syntax error in conditional expression"},
		{"[[ a -eq ]]", 1, "unexpected argument `]]' to conditional binary operator"},
		{"[[ ( a ]]", 1, "unexpected token `]]', expected `)'"},
		{"[[ a ]] && echo ( ", 0, "-"},
		{"echo (", 0, "-"},
	} {
		_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(c.src), "")
		if err == nil {
			t.Errorf("%q: parsed without error", c.src)
			continue
		}
		ce, ok := CondSyntaxError(c.src, err)
		if c.msg == "-" {
			if ok {
				t.Errorf("%q: got %+v, want no [[ ]] error", c.src, ce)
			}
			continue
		}
		if !ok || ce.Msg != c.msg || ce.Line != c.line {
			t.Errorf("%q: got %+v (%v), want line %d %q", c.src, ce, ok, c.line, c.msg)
		}
	}
}
