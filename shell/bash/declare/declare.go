// Package declare is the front of bash's declaration builtins (declare,
// typeset, local, export, readonly): their options (Parse, with bash's
// usage texts), the assignments their words make once expanded (Assign,
// Split), and the rules on their operands (ValidRef for a nameref's
// target, KVPairs for an associative array's (k v ...) literal).
//
// It only reads words: the interpreter applies the attributes to its
// variables (shell/bash/vars) and evaluates the values.
package declare

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
	"github.com/agentenkit/agentenkit/shell/bash/parse"
)

// Opts are a declaration's options as parsed.
type Opts struct {
	On, Off string // attribute letters (aAilnrtux) set with -, removed with +
	Print   bool   // -p
	Funcs   bool   // -f
	Names   bool   // -F
	Global  bool   // -g
}

// Synopsis is variant's usage as bash 5.2 words it ("variant: usage: "
// and this follow a bad option).
func Synopsis(variant string) string {
	switch variant {
	case "local":
		return "local [option] name[=value] ..."
	case "typeset":
		return "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]"
	case "export":
		return "export [-fn] [name[=value] ...] or export -p"
	case "readonly":
		return "readonly [-aAf] [name[=value] ...] or readonly -p"
	}
	return variant + " [-aAfFgiIlnrtux] [name[=value] ...] or " + variant + " -p [-aAfFilnrtux] [name ...]"
}

// spec is the option letters variant takes (builtinopt's form): export
// and readonly take no +x.
func spec(variant string) string {
	if variant == "export" || variant == "readonly" {
		return "aAfnp"
	}
	return "+aAfFgilnprtux"
}

// Parse parses the option words of variant (declare, typeset, local,
// export, readonly): export adds x (export -n removes it instead),
// readonly adds r (readonly -n nothing); "--" ends them. A bad letter is
// builtinopt's error naming that letter (bash names the letter, not the
// word); declare's -c, -G and -I are not taken.
func Parse(variant string, opts []string) (Opts, error) {
	var o Opts
	list, _, err := builtinopt.Parse(spec(variant), opts)
	if err != nil {
		return o, err
	}
	undo := false
	for _, x := range list {
		switch c := x.Letter; c {
		case 'p':
			o.Print = true
		case 'f':
			o.Funcs = true
		case 'F':
			o.Names = true
		case 'g':
			o.Global = true
		case 'n':
			if variant == "export" || variant == "readonly" {
				undo = true
				continue
			}
			fallthrough
		default:
			if x.Plus {
				o.Off += string(c)
			} else {
				o.On += string(c)
			}
		}
	}
	switch {
	case variant == "export" && undo:
		o.Off += "x"
	case variant == "export":
		o.On += "x"
	case variant == "readonly" && !undo:
		o.On += "r"
	}
	return o, nil
}

// Split parses a declaration run as a command (builtin declare ...,
// "$cmd" a=1): its option words (those before the first operand) and
// the assignments of the rest.
func Split(variant string, args []string) (opts []string, assigns []*syntax.Assign) {
	for _, a := range args {
		if Option(variant, a, opts, len(assigns)) {
			opts = append(opts, a)
			continue
		}
		assigns = append(assigns, Assign(a, false))
	}
	return opts, assigns
}

// Option reports whether w, a word of a declaration (of variant)
// expanded, is an option there: it starts with - (or + where variant
// takes +x) and is not that sign alone, no operand came before it and no
// "--" among the options so far.
func Option(variant, w string, opts []string, operands int) bool {
	sign := strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+") && strings.HasPrefix(spec(variant), "+")
	return sign && len(w) > 1 && operands == 0 && !slices.Contains(opts, "--")
}

// ArrayOpt reports -a or -A among a declaration's options (not +a).
func ArrayOpt(opts []string) bool {
	for _, o := range opts {
		if strings.HasPrefix(o, "-") && strings.ContainsAny(o, "aA") {
			return true
		}
	}
	return false
}

// Assign is the assignment a declaration's argument word makes once
// expanded: "name", "name=value" or "name+=value" (the value taken as it
// is, single-quoted), or with array (-a, -A) "name=(...)", which is
// parsed as an array literal.
func Assign(a string, array bool) *syntax.Assign {
	name, val, hasEq := strings.Cut(a, "=")
	if array && hasEq && strings.HasPrefix(val, "(") && strings.HasSuffix(val, ")") && syntax.ValidName(name) {
		f, err := syntax.NewParser().Parse(strings.NewReader(a), "")
		if err == nil && len(f.Stmts) == 1 {
			if ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Args) == 0 && len(ce.Assigns) == 1 && ce.Assigns[0].Array != nil {
				parse.Templates(f, a)
				parse.Prepare(f)
				return ce.Assigns[0]
			}
		}
	}
	as := &syntax.Assign{Name: &syntax.Lit{Value: name}, Naked: !hasEq}
	if strings.HasSuffix(name, "+") && hasEq {
		as.Append, as.Name.Value = true, name[:len(name)-1]
	}
	if hasEq {
		as.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: val}}}
	}
	return as
}

// Text is an assignment as bash names it in a message: name, name+=v,
// name=v (a single-quoted value without its quotes).
func Text(as *syntax.Assign) string {
	s := as.Name.Value
	if as.Append {
		s += "+"
	}
	if as.Value != nil {
		lit := as.Value.Lit()
		if len(as.Value.Parts) == 1 {
			if sq, ok := as.Value.Parts[0].(*syntax.SglQuoted); ok && !sq.Dollar {
				lit = sq.Value
			}
		}
		s += "=" + lit
	}
	return s
}

// KVPairs reports an array literal whose elements have no subscript at
// all: for an associative array, alternate keys and values (bash 5.2).
func KVPairs(ae *syntax.ArrayExpr) bool {
	for _, el := range ae.Elems {
		if el.Index != nil || el.Value == nil {
			return false
		}
	}
	return len(ae.Elems) > 0
}

// ValidRef reports whether s can be a nameref's target: a name or
// name[subscript].
func ValidRef(s string) bool {
	if i := strings.IndexByte(s, '['); i > 0 && strings.HasSuffix(s, "]") {
		return syntax.ValidName(s[:i])
	}
	return syntax.ValidName(s)
}
