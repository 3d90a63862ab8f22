package bash

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/expand"
	"github.com/agentenkit/agentenkit/shell/bash/printf"
	"github.com/agentenkit/agentenkit/shell/bash/shopt"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

// resolve follows namerefs from name to the variable's real name.
func (r *Runner) resolve(name string) string {
	n, _ := r.vars.Resolve(name)
	return n
}

// special returns a special parameter's value.
func (r *Runner) special(name string) (string, bool, bool) {
	switch name {
	case "?":
		return strconv.Itoa(r.status), true, true
	case "#":
		return strconv.Itoa(len(r.params)), true, true
	case "$":
		return strconv.Itoa(r.rootPID), true, true
	case "BASHPID":
		return strconv.Itoa(r.pid), true, true
	case "!":
		if r.lastBg == 0 {
			return "", false, true
		}
		return strconv.Itoa(r.lastBg), true, true
	case "0":
		return r.arg0, true, true
	case "-":
		return r.dashFlags(), true, true
	case "LINENO":
		return strconv.Itoa(r.line), true, true
	case "RANDOM", "SECONDS", "EPOCHSECONDS", "EPOCHREALTIME", "SRANDOM":
		if r.dynamic(name) { // clock.go
			return r.dynValue(name), true, true
		}
		return "", false, false
	case "BASH_SUBSHELL":
		return strconv.Itoa(r.subshell), true, true
	case "SHELLOPTS":
		return onNames(r.opt), true, true
	case "BASHOPTS":
		return onNames(r.shopt), true, true
	case "PWD":
		v, _ := r.vars.Lookup("PWD")
		if v != nil {
			return v.Str, v.Set, true
		}
		return "", false, true
	}
	if len(name) > 0 && name[0] >= '1' && name[0] <= '9' {
		n, err := strconv.Atoi(name)
		if err != nil {
			return "", false, true
		}
		if n <= len(r.params) {
			return r.params[n-1], true, true
		}
		return "", false, true
	}
	return "", false, false
}

// onNames lists the options that are on, sorted, joined by colons.
func onNames(opts map[string]bool) string {
	var on []string
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		if opts[k] {
			on = append(on, k)
		}
	}
	return strings.Join(on, ":")
}

func (r *Runner) dashFlags() string {
	var b strings.Builder
	for _, c := range "abefhkmnptuvxBCEHPT" {
		if name, ok := shopt.Short[c]; ok && r.opt[name] {
			b.WriteRune(c)
		}
	}
	if r.cMode() {
		b.WriteString("c")
	}
	return b.String()
}

// getVar returns a variable's scalar value.
func (r *Runner) getVar(name string) (string, bool) {
	orig := name
	if s, ok, isSpecial := r.special(name); isSpecial {
		return s, ok
	}
	if v := r.vars.Peek(name); v != nil && !v.NameRef && strings.IndexByte(name, '[') < 0 {
		// Neither a nameref nor a[i]: the variable itself.
		return v.Scalar()
	}
	name, circular := r.vars.Resolve(name)
	if circular {
		r.errf("warning: %s: circular name reference", orig)
		return "", false
	}
	if strings.HasSuffix(name, "]") && strings.Contains(name, "[") {
		// A nameref to a[i].
		if pe, err := expand.ParseRef(name); err == nil {
			vals, _, _, set, err := r.paramValues(pe)
			if err != nil || !set || len(vals) == 0 {
				return "", false
			}
			return strings.Join(vals, " "), true
		}
	}
	v, _ := r.vars.Lookup(name)
	return v.Scalar()
}

// lookupVar returns the variable after namerefs.
func (r *Runner) lookupVar(name string) *vars.Var {
	v, _ := r.vars.Lookup(r.resolve(name))
	return v
}

// setVar assigns a string to a variable (element 0 of an array).
func (r *Runner) setVar(name, val string) error {
	if !syntax.ValidName(name) {
		return &shError{msg: "`" + name + "': not a valid identifier", status: 1, noExit: true}
	}
	orig := name
	name, circular := r.vars.Resolve(name)
	if circular {
		return &shError{msg: "warning: " + orig + ": circular name reference", status: 1, abort: true}
	}
	v := r.vars.Ensure(name, vars.String)
	if v.ReadOnly {
		return &shError{msg: name + ": readonly variable", status: 1, abort: true}
	}
	if r.opt["allexport"] {
		v.Exported = true // set -a exports what is assigned while it is on
	}
	if r.dynamic(name) { // clock.go
		return r.assignDynamic(name, v, val)
	}
	if v.Integer {
		n, err := r.arithString(val)
		if err != nil {
			return err
		}
		val = strconv.FormatInt(n, 10)
	}
	v.SetScalar(v.ApplyCase(val))
	return nil
}

// setIndex assigns a[idx]=val.
func (r *Runner) setIndex(name string, index syntax.ArithmExpr, val string, app bool) error {
	name = r.resolve(name)
	if !syntax.ValidName(name) {
		// a nameref to an element: ref[0]=x is no assignment
		return &shError{msg: "`" + name + "': not a valid identifier", status: 1, noExit: true}
	}
	v := r.vars.Ensure(name, vars.Indexed)
	if v.ReadOnly {
		return &shError{msg: name + ": readonly variable", status: 1, abort: true}
	}
	if v.Kind == vars.Assoc {
		k, err := r.assocKey(index)
		if err != nil {
			return err
		}
		if app {
			val = v.Assoc[k] + val
		}
		v.SetAssoc(k, v.ApplyCase(val))
		v.Set = true
		return nil
	}
	i, err := r.arith(index)
	if err != nil {
		return err
	}
	v.ToIndexed()
	k, ok := v.AbsIndex(i)
	if !ok {
		return &shError{msg: fmt.Sprintf("%s[%d]: bad array subscript", name, i), status: 1, noExit: true}
	}
	if v.Integer {
		expr := val
		if app {
			expr = v.Idx[k] + "+" + val
			app = false
		}
		n, err := r.arithString(expr)
		if err != nil {
			return err
		}
		val = strconv.FormatInt(n, 10)
	}
	if app {
		val = v.Idx[k] + val
	}
	v.Idx[k] = v.ApplyCase(val)
	v.Set = true
	return nil
}

// assocKey expands an assoc's subscript: a word, not arithmetic.
func (r *Runner) assocKey(index syntax.ArithmExpr) (string, error) {
	return r.arithText(index, true)
}

// paramExp expands ${...} and $x into e.
func (r *Runner) paramExp(e *expand.Word, pe *syntax.ParamExp, dq bool) error {
	name := pe.Param.Value
	add := func(s string) { e.Add(expand.Seg{S: s, Quoted: dq, Split: !dq}) }

	if pe.Exp == nil && pe.Index == nil && pe.Slice == nil && pe.Repl == nil && !pe.Excl && !pe.Length &&
		!pe.Width && !pe.IsSet && pe.Names == 0 && pe.NestedParam == nil && name != "@" && name != "*" {
		// $x or ${x} of a variable that is no nameref: its value, as
		// paramValues gives it, without a slice.
		if v, _ := r.vars.Lookup(name); v == nil || !v.NameRef {
			s, set := r.getVar(name)
			if !set && r.opt["nounset"] {
				return &shError{msg: name + ": unbound variable", status: 127}
			}
			add(s)
			return nil
		}
	}

	// The list forms: $@ $* ${a[@]} ${a[*]} ${!a[@]} ${!pre@}.
	vals, isList, star, set, err := r.paramValues(pe)
	if err != nil {
		return err
	}
	if pe.Length {
		if isList {
			add(strconv.Itoa(len(vals)))
			return nil
		}
		if !set && r.opt["nounset"] && name != "@" && name != "*" {
			return &shError{msg: name + ": unbound variable", status: 127}
		}
		s := ""
		if len(vals) > 0 {
			s = vals[0]
		}
		n := utf8.RuneCountInString(s)
		if r.byteLocale() {
			n = len(s)
		}
		add(strconv.Itoa(n))
		return nil
	}
	if pe.Exp != nil {
		done, err := r.paramOp(e, pe, &vals, &set, isList, star, dq)
		if err != nil || done {
			return err
		}
	} else if !set && r.opt["nounset"] && !(isList && (name == "@" || name == "*")) && !(isList && pe.Index != nil) {
		return &shError{msg: name + ": unbound variable", status: 127}
	}
	if pe.Slice != nil {
		if vals, err = r.slice(pe, vals, isList); err != nil {
			return err
		}
	}
	if pe.Repl != nil && set {
		if vals, err = r.replace(pe.Repl, vals); err != nil {
			return err
		}
	}
	if !isList {
		s := ""
		if len(vals) > 0 {
			s = vals[0]
		}
		add(s)
		return nil
	}
	r.addList(e, vals, star, dq)
	return nil
}

// starSep joins "$*": IFS's first character, a space when IFS is unset.
func (r *Runner) starSep() string {
	ifs, set := r.getVar("IFS")
	return expand.StarSep(ifs, set)
}

// addList adds the values of $@ / ${a[@]} (separate fields) or $* /
// ${a[*]} (joined by IFS's first character inside quotes).
func (r *Runner) addList(e *expand.Word, vals []string, star, dq bool) {
	if !dq && len(vals) > 1 && r.ifs() != "" {
		// unquoted, bash joins by IFS's first character and splits
		// (IFS=:; set -- "" a gives two fields, "" "" one)
		e.Add(expand.Seg{S: strings.Join(vals, r.starSep()), Split: true})
		return
	}
	sep := ""
	if star && dq {
		sep = r.starSep()
	}
	e.AddList(vals, star, dq, sep)
}

// paramValues returns a parameter's value(s). isList is true for the @
// and * forms; star for the * forms; set whether the parameter is set.
func (r *Runner) paramValues(pe *syntax.ParamExp) (vals []string, isList, star, set bool, err error) {
	name := pe.Param.Value
	if pe.Excl && pe.Names != 0 {
		var names []string
		for _, n := range r.vars.Names() {
			if strings.HasPrefix(n, name) {
				if v, _ := r.vars.Lookup(n); v != nil && v.Set {
					names = append(names, n)
				}
			}
		}
		return names, true, pe.Names == syntax.NamesPrefix, true, nil
	}
	if pe.Excl && expand.IsKeysForm(pe) {
		l := pe.Index.(*syntax.Word).Lit()
		v := r.lookupVar(name)
		if v == nil {
			return nil, true, l == "*", false, nil
		}
		return v.Subscripts(), true, l == "*", true, nil
	}
	if pe.Excl {
		// ${!nameref} is the name it refers to.
		if v, _ := r.vars.Lookup(name); pe.Index == nil && v != nil && v.NameRef {
			return []string{v.Str}, false, false, v.Set, nil
		}
		// ${!ref}, ${!a[i]}, ${!a[@]op}: indirection.
		target, ok, err := r.indirectRef(pe)
		if err != nil || !ok {
			return nil, false, false, false, err
		}
		pe2 := expand.ElemRef(target)
		if pe2 == nil {
			return nil, false, false, false, &shError{msg: target + ": invalid variable name", status: 1, abort: true}
		}
		return r.paramValues(pe2)
	}
	switch name {
	case "@", "*":
		return slices.Clone(r.params), true, name == "*", len(r.params) > 0, nil
	}
	if pe.Index != nil {
		v := r.lookupVar(name)
		if w, ok := pe.Index.(*syntax.Word); ok {
			if l := w.Lit(); l == "@" || l == "*" {
				if v == nil {
					return nil, true, l == "*", false, nil
				}
				vals := v.Values()
				return vals, true, l == "*", len(vals) > 0, nil
			}
		}
		if v == nil || !v.Set {
			if v == nil || v.Kind != vars.Assoc {
				if _, err := r.arith(pe.Index); err != nil {
					return nil, false, false, false, err
				}
			}
			return nil, false, false, false, nil
		}
		switch v.Kind {
		case vars.Assoc:
			k, err := r.assocKey(pe.Index)
			if err != nil {
				return nil, false, false, false, err
			}
			s, ok := v.Assoc[k]
			return []string{s}, false, false, ok, nil
		case vars.Indexed:
			i, err := r.arith(pe.Index)
			if err != nil {
				return nil, false, false, false, err
			}
			n, ok := v.AbsIndex(i)
			if !ok {
				// bash reports it and goes on with no value
				r.errf("%s: bad array subscript", name)
				return nil, false, false, false, nil
			}
			s, ok := v.Idx[n]
			return []string{s}, false, false, ok, nil
		default:
			i, err := r.arith(pe.Index)
			if err != nil {
				return nil, false, false, false, err
			}
			if i == 0 || i == -1 {
				return []string{v.Str}, false, false, true, nil
			}
			return nil, false, false, false, nil
		}
	}
	if target := r.resolve(name); target != name && strings.HasSuffix(target, "]") {
		// a nameref to a[i] or a[@] expands as that
		if pe2, err := expand.ParseRef(target); err == nil {
			return r.paramValues(pe2)
		}
	}
	s, ok := r.getVar(name)
	return []string{s}, false, false, ok, nil
}

// indirectRef is the reference that ${!pe} follows: the value of pe's
// parameter without the !. ok is false when that has no value (a
// declared variable without one, an unset positional parameter); a
// variable that does not exist is an error, as in bash.
func (r *Runner) indirectRef(pe *syntax.ParamExp) (target string, ok bool, err error) {
	name := pe.Param.Value
	inner := &syntax.ParamExp{Dollar: pe.Dollar, Rbrace: pe.Rbrace, Param: pe.Param, Index: pe.Index}
	vals, isList, star, set, err := r.paramValues(inner)
	if err != nil {
		return "", false, err
	}
	text := name
	if pe.Index != nil {
		text += "[" + printNode(pe.Index) + "]"
	}
	if isList {
		if len(vals) == 0 {
			return "", false, &shError{msg: text + ": invalid indirect expansion", status: 1, abort: true}
		}
		sep := " "
		if star {
			sep = r.starSep()
		}
		return strings.Join(vals, sep), true, nil
	}
	if set && len(vals) > 0 {
		return vals[0], true, nil
	}
	if _, _, isSpecial := r.special(name); !isSpecial && r.lookupVar(name) == nil {
		return "", false, &shError{msg: text + ": invalid indirect expansion", status: 1, abort: true}
	}
	if r.opt["nounset"] {
		return "", false, &shError{msg: "!" + name + ": unbound variable", status: 127}
	}
	return "", false, nil
}

// opWord expands the word of ${x:=w} or ${x:?w} into one string; inside
// double quotes, single quotes in w are kept as characters.
func (r *Runner) opWord(w *syntax.Word, dq bool) (string, error) {
	if w == nil {
		return "", nil
	}
	var e expand.Word
	if err := r.wordParts(&e, w.Parts, dq, !dq); err != nil {
		return "", err
	}
	return e.Joined(), nil
}

// paramOp applies ${x-y} ${x:=y} ${x#p} ${x^^} ${x@Q} ...; done is true
// when it added the result itself.
func (r *Runner) paramOp(e *expand.Word, pe *syntax.ParamExp, vals *[]string, set *bool, isList, star, dq bool) (bool, error) {
	name := pe.Param.Value
	op := pe.Exp.Op
	// with a colon (${x:-w}) an empty value is missing as an unset one is
	colon := op == syntax.DefaultUnsetOrNull || op == syntax.AlternateUnsetOrNull || op == syntax.AssignUnsetOrNull || op == syntax.ErrorUnsetOrNull
	sep := " " // unquoted, bash tests $* joined by spaces
	if star && colon && isList && dq {
		sep = r.starSep()
	}
	missing := expand.Missing(*vals, *set, isList, star, colon, sep)
	word := func() error {
		if pe.Exp.Word == nil {
			if dq {
				// "${x:-}": quoted, an empty word is still one field
				e.Add(expand.Seg{Quoted: true})
			}
			return nil
		}
		return r.wordParts(e, pe.Exp.Word.Parts, dq, false)
	}
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull:
		if missing {
			e.Cur().Real = true
			return true, word()
		}
	case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
		if !missing {
			e.Cur().Real = true
			return true, word()
		}
		if dq && !(isList && !star) {
			// "${x+w}" of an unset x is one empty field; "${@+w}" with
			// no parameters (and "${a[@]+w}" of an empty array) none
			e.Add(expand.Seg{Quoted: true})
		}
		return true, nil
	case syntax.AssignUnset, syntax.AssignUnsetOrNull:
		if missing {
			val, err := r.opWord(pe.Exp.Word, dq)
			if err != nil {
				return true, err
			}
			if pe.Excl {
				// ${!ref:=x} assigns to the variable (or element) ref names.
				target, _, err := r.indirectRef(pe)
				if err != nil {
					return true, err
				}
				if pe2, perr := expand.ParseRef(target); perr == nil && pe2.Index != nil {
					err = r.setIndex(pe2.Param.Value, pe2.Index, val, false)
				} else {
					err = r.setVar(target, val)
				}
				if err != nil {
					return true, err
				}
				*vals, *set = []string{val}, true
				return false, nil
			}
			if pe.Index != nil {
				err = r.setIndex(name, pe.Index, val, false)
			} else {
				err = r.setVar(name, val)
			}
			if err != nil {
				return true, err
			}
			*vals, *set = []string{val}, true
		}
	case syntax.ErrorUnset, syntax.ErrorUnsetOrNull:
		if missing {
			msg, err := r.literal(pe.Exp.Word)
			if err != nil {
				return true, err
			}
			if pe.Exp.Word == nil || msg == "" {
				msg = "parameter null or not set"
				if op == syntax.ErrorUnset {
					msg = "parameter not set"
				}
			}
			if pe.Excl && pe.Index == nil {
				name = "!" + name
			}
			return true, &shError{msg: name + ": " + msg, status: 127}
		}
	case syntax.RemSmallPrefix, syntax.RemLargePrefix, syntax.RemSmallSuffix, syntax.RemLargeSuffix:
		if !*set && r.opt["nounset"] {
			return true, &shError{msg: name + ": unbound variable", status: 127}
		}
		pat, err := r.pattern(pe.Exp.Word)
		if err != nil {
			return true, err
		}
		for i, v := range *vals {
			(*vals)[i] = expand.Trim(v, pat, op)
		}
	case syntax.UpperFirst, syntax.UpperAll, syntax.LowerFirst, syntax.LowerAll:
		pat := "?"
		if pe.Exp.Word != nil {
			p, err := r.pattern(pe.Exp.Word)
			if err != nil {
				return true, err
			}
			if p != "" {
				pat = p
			}
		}
		for i, v := range *vals {
			(*vals)[i] = expand.CaseMod(v, pat, op)
		}
	case syntax.OtherParamOps:
		opName := pe.Exp.Word.Lit()
		return r.atOp(e, pe, opName, vals, *set, isList, star, dq)
	}
	if !*set && r.opt["nounset"] && op != syntax.AssignUnset && op != syntax.AssignUnsetOrNull && !isList {
		return true, &shError{msg: name + ": unbound variable", status: 127}
	}
	return false, nil
}

// atOp is ${x@Q} and friends. An unset parameter gives nothing (an
// error under nounset), except that ${v@a} and ${v@A} describe a declared
// variable that has no value yet.
func (r *Runner) atOp(e *expand.Word, pe *syntax.ParamExp, op string, vals *[]string, set, isList, star, dq bool) (bool, error) {
	name := pe.Param.Value
	index := pe.Index
	if pe.Excl {
		if isList && pe.Names != 0 {
			// ${!pre@@Q}: bash expands this to nothing.
			if dq {
				e.Add(expand.Seg{Quoted: true})
			}
			return true, nil
		}
		// ${!ref@op}: paramValues followed the indirection; the operator
		// describes the variable it reached.
		if v, _ := r.vars.Lookup(name); pe.Index == nil && v != nil && v.NameRef {
			name = v.Str
		} else if target, ok, _ := r.indirectRef(pe); ok {
			if pe2 := expand.ElemRef(target); pe2 != nil {
				name, index = pe2.Param.Value, pe2.Index
			}
		} else {
			*vals = nil // the indirection reached nothing
			return false, nil
		}
	}
	if len(op) != 1 || !strings.Contains("QEPULuaAKk", op) {
		return true, &shError{msg: "${" + printNode(pe)[2:] + ": bad substitution", status: 1}
	}
	v := r.lookupVar(name)
	if !set && !isList {
		if r.opt["nounset"] {
			ref := name
			if index != nil {
				ref += "[" + printNode(index) + "]"
			}
			return true, &shError{msg: ref + ": unbound variable", status: 127}
		}
		*vals = nil
		if v != nil {
			switch op {
			case "a":
				*vals = []string{v.Attrs()}
			case "A":
				if a := v.Attrs(); a != "" {
					*vals = []string{"declare -" + a + " " + name}
				}
			}
		}
		return false, nil
	}
	listOfArray := isList && v != nil && v.Kind != vars.String && index != nil
	switch {
	case op == "a":
		attrs := ""
		if v != nil {
			attrs = v.Attrs()
		}
		for i := range *vals {
			(*vals)[i] = attrs
		}
	case op == "A" && listOfArray:
		// "${a[@]@A}" is the words of declare -p.
		r.addList(e, []string{"declare", "-" + v.Attrs(), name + "=" + vars.ArrayBody(v)}, false, dq)
		return true, nil
	case op == "A":
		prefix := name + "="
		if v != nil && v.Attrs() != "" {
			prefix = "declare -" + v.Attrs() + " " + prefix
		}
		for i, val := range *vals {
			(*vals)[i] = prefix + printf.SingleQuote(val)
		}
	case op == "K" && listOfArray:
		e.Add(expand.Seg{S: expand.KeyValues(v, true)[0], Quoted: dq, Split: !dq})
		return true, nil
	case op == "k" && listOfArray:
		r.addList(e, expand.KeyValues(v, false), star, dq)
		return true, nil
	default:
		expand.Transform(op, *vals)
	}
	return false, nil
}

// slice is ${x:off:len} and ${a[@]:off:len}: $0 is element 0 of
// ${@:0}; an indexed array slices by index.
func (r *Runner) slice(pe *syntax.ParamExp, vals []string, isList bool) ([]string, error) {
	off, err := r.arith(pe.Slice.Offset)
	if err != nil {
		return nil, err
	}
	var length func() (int64, error)
	if pe.Slice.Length != nil {
		length = func() (int64, error) { return r.arith(pe.Slice.Length) }
	}
	if !isList {
		vals, err = expand.SliceString(vals, off, length)
	} else {
		if pe.Param.Value == "@" || pe.Param.Value == "*" {
			vals = append([]string{r.arg0}, vals...)
		} else if v := r.lookupVar(pe.Param.Value); pe.Index != nil && v != nil && v.Kind == vars.Indexed {
			var ok bool
			if vals, ok = v.From(off); !ok {
				return nil, nil
			}
			off = 0
		}
		vals, err = expand.SliceList(vals, off, length)
	}
	if se := (*expand.SubstringError)(nil); errors.As(err, &se) {
		return nil, &shError{msg: se.Error(), status: 1, noExit: true}
	}
	return vals, err
}

// byteLocale reports whether the shell's character type locale is C or
// POSIX (LC_ALL, else LC_CTYPE, else LANG): characters are bytes then.
func (r *Runner) byteLocale() bool {
	for _, n := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v, _ := r.getVar(n); v != "" {
			return v == "C" || v == "POSIX"
		}
	}
	return false
}

// replace is ${x/pat/with} on vals.
func (r *Runner) replace(rp *syntax.Replace, vals []string) ([]string, error) {
	bytes := r.byteLocale()
	pat, err := r.pattern(rp.Orig)
	if err != nil {
		return nil, err
	}
	with := ""
	if rp.With != nil {
		if with, err = r.literal(rp.With); err != nil {
			return nil, err
		}
	}
	return expand.Replace(vals, pat, with, rp.All, bytes), nil
}
