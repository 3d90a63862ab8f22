package expand

import (
	"errors"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/parse"
)

// ErrNotRef is ParseRef's error for a string that is no parameter
// reference.
var ErrNotRef = errors.New("not a parameter reference")

// ParseRef parses "name", "a[1]" or "a[@]" (what a nameref or ${!ref}
// names) as a parameter without operators; ErrNotRef otherwise.
func ParseRef(s string) (*syntax.ParamExp, error) {
	src := "${" + s + "}"
	w, err := syntax.NewParser().Document(strings.NewReader(src))
	if err != nil || len(w.Parts) != 1 {
		return nil, ErrNotRef
	}
	parse.Templates(w, src)
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || pe.Exp != nil || pe.Repl != nil || pe.Slice != nil || pe.Length || pe.Excl {
		return nil, ErrNotRef
	}
	return pe, nil
}

// ElemRef is ParseRef's parameter or, for name[text] that the parser
// does not take ("a[b*]", "a[{1,0}]"), the parameter with text as its
// subscript as it is (for bash's error about it); nil when s is neither
// (no name, or unbalanced quotes in the subscript).
func ElemRef(s string) *syntax.ParamExp {
	if pe, err := ParseRef(s); err == nil {
		return pe
	}
	i := strings.IndexByte(s, '[')
	if i <= 0 || !strings.HasSuffix(s, "]") || !syntax.ValidName(s[:i]) {
		return nil
	}
	sub := s[i+1 : len(s)-1]
	if strings.Count(sub, `"`)%2 != 0 || strings.Count(sub, "'")%2 != 0 {
		return nil
	}
	return &syntax.ParamExp{Param: &syntax.Lit{Value: s[:i]}, Index: &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: sub}}}}
}

// IsKeysForm reports ${!a[@]} and ${!a[*]} without an operator: the
// array's keys (with one, ${!a[@]-x} is an indirection through the
// array's values joined).
func IsKeysForm(pe *syntax.ParamExp) bool {
	if pe.Index == nil || pe.Exp != nil || pe.Slice != nil || pe.Repl != nil {
		return false
	}
	w, ok := pe.Index.(*syntax.Word)
	return ok && (w.Lit() == "@" || w.Lit() == "*")
}

// StarSep is what joins "$*": the first character of IFS (ifs, set
// when IFS is set), a space when IFS is unset, nothing when it is empty.
func StarSep(ifs string, set bool) string {
	if !set || ifs == " \t\n" {
		return " "
	}
	_, n := utf8.DecodeRuneInString(ifs)
	return ifs[:n]
}
