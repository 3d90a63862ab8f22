package bash

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
	"github.com/agentenkit/agentenkit/shell/bash/declare"
	"github.com/agentenkit/agentenkit/shell/bash/parse"
	"github.com/agentenkit/agentenkit/shell/bash/printf"
	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

// assign runs one assignment of a command without words or of declare.
func (r *Runner) assign(as *syntax.Assign, local bool) error {
	name := as.Name.Value
	if as.Array != nil && as.Index != nil {
		return &shError{msg: name + "[" + printNode(as.Index) + "]: cannot assign list to array member", status: 1, abort: true}
	}
	if as.Array != nil {
		return r.assignArray(name, as.Array, as.Append)
	}
	val := ""
	if as.Value != nil {
		v, err := r.assignValue(as.Value)
		if err != nil {
			return err
		}
		val = v
	}
	if as.Index != nil {
		return r.setIndex(name, as.Index, val, as.Append)
	}
	if as.Append {
		v := r.lookupVar(name)
		if v != nil && v.Integer {
			old, _ := v.Scalar()
			n, err := r.arithString(old + "+(" + val + ")")
			if err != nil {
				return err
			}
			return r.setVar(name, strconv.FormatInt(n, 10))
		}
		if v != nil && v.Kind == vars.Indexed {
			return r.setIndex(name, &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: "0"}}}, val, true)
		}
		old, _ := r.getVar(name)
		val = old + val
	}
	return r.setVar(name, val)
}

// assignArray runs name=(...) and name+=(...).
func (r *Runner) assignArray(name string, ae *syntax.ArrayExpr, app bool) error {
	orig := name
	if v, _ := r.vars.Lookup(name); v != nil && v.NameRef && !v.Set {
		// a nameref without a target becomes the array
		r.errf("warning: %s: removing nameref attribute", name)
		v.NameRef = false
	}
	name = r.resolve(name)
	if !syntax.ValidName(name) {
		return &shError{msg: "`" + name + "': not a valid identifier", status: 1, noExit: true}
	}
	v := r.vars.Ensure(name, vars.Indexed)
	if v.ReadOnly {
		return &shError{msg: orig + ": readonly variable", status: 1, abort: true}
	}
	if v.Kind == vars.Assoc {
		// [k]+=v appends to the element as it was before a=(...)
		// (bash 5.2), or as it is now in a+=(...)
		before := v.Assoc
		if !app {
			v.Assoc, v.Keys = map[string]string{}, nil
		}
		if declare.KVPairs(ae) {
			// bash 5.2: (k1 v1 k2 v2 ...) when no element has a
			// subscript; a last key alone gets "".
			var words []string
			for _, el := range ae.Elems {
				ws, err := r.fields(el.Value)
				if err != nil {
					return err
				}
				words = append(words, ws...)
			}
			v.SetPairs(words)
			return nil
		}
		for _, el := range ae.Elems {
			if el.Index == nil {
				val, err := r.assignValue(el.Value)
				if err != nil {
					return err
				}
				r.errf("%s: %s: must use subscript when assigning associative array", name, val)
				continue
			}
			k, err := r.assocKey(el.Index)
			if err != nil {
				return err
			}
			val, err := r.assocValue(el.Value)
			if err != nil {
				return err
			}
			if r.appendElem(el) {
				if app {
					val = v.Assoc[k] + val
				} else {
					val = before[k] + val
				}
			}
			v.SetAssoc(k, v.ApplyCase(val))
		}
		v.Set = true
		return nil
	}
	old := v.Idx
	if v.Kind == vars.String {
		old = map[int]string{}
		if v.Set {
			old[0] = v.Str
		}
	}
	// As bash: the values are expanded first, in order; then each
	// element is assigned, its subscript evaluated then, seeing the
	// elements assigned before it.
	type elem struct {
		index syntax.ArithmExpr
		vals  []string
		app   bool // [k]+=v
	}
	elems := make([]elem, 0, len(ae.Elems))
	for _, el := range ae.Elems {
		if el.Index != nil {
			val, err := r.assignValue(el.Value)
			if err != nil {
				return err
			}
			elems = append(elems, elem{el.Index, []string{val}, r.appendElem(el)})
			continue
		}
		vals, err := r.fields(el.Value)
		if err != nil {
			return err
		}
		elems = append(elems, elem{nil, vals, false})
	}
	idx, next := map[int]string{}, 0
	if app && old != nil {
		idx = old // a+=(...) appends after the highest index
	}
	for k := range idx {
		next = max(next, k+1)
	}
	v.Kind, v.Idx, v.Str, v.Set = vars.Indexed, idx, "", true
	for _, el := range elems {
		if el.index != nil {
			n, err := r.arith(el.index)
			if err != nil {
				return err
			}
			val := el.vals[0]
			if el.app {
				val = idx[int(n)] + val
			}
			idx[int(n)] = v.ApplyCase(val)
			next = int(n) + 1
			continue
		}
		for _, s := range el.vals {
			if v.Integer {
				n, err := r.arithString(s)
				if err != nil {
					return err
				}
				s = strconv.FormatInt(n, 10)
			}
			idx[next] = v.ApplyCase(s)
			next++
		}
	}
	return nil
}

// declClause runs declare/local/export/readonly/typeset as parsed.
//
// As in bash, every word is expanded before the builtin runs ("export
// a=1 b=$a" gives b the old a), and the statement's redirections rds
// apply after that.
func (r *Runner) declClause(c *syntax.DeclClause, rds []*syntax.Redirect) {
	variant := c.Variant.Value
	args := []string{variant}
	var assigns []*syntax.Assign
	for _, as := range c.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			// An option or a word that expands to several.
			vals, err := r.fields(as.Value)
			if err != nil {
				r.report(err)
				return
			}
			for _, v := range vals {
				switch {
				case declare.Option(variant, v, args[1:], len(assigns)):
					args = append(args, v)
				case strings.Contains(v, "="):
					// A word that expands to name=value assigns.
					assigns = append(assigns, declare.Assign(v, declare.ArrayOpt(args[1:])))
				default:
					assigns = append(assigns, &syntax.Assign{Naked: true, Name: &syntax.Lit{Value: v}})
				}
			}
			continue
		}
		assigns = append(assigns, as)
	}
	var words []string
	words = append(words, args...)
	for i, as := range assigns {
		word := strings.TrimSpace(printNode(as))
		if as.Value != nil && as.Array == nil {
			val, err := r.assignValue(as.Value)
			if err != nil {
				r.report(err)
				return
			}
			cp := *as
			cp.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: val}}}
			assigns[i] = &cp
			word = as.Name.Value
			if as.Index != nil {
				word += "[" + printNode(as.Index) + "]"
			}
			word += pick(as.Append, "+=", "=") + val
		}
		words = append(words, word)
	}
	var after []string
	if r.opt["xtrace"] {
		after = r.xtraceDecl(words, args, assigns)
	}
	restore, ok := r.applyRedirs(rds)
	if !ok {
		return
	}
	defer restore()
	r.status = r.declare(args, assigns)
	if len(after) > 0 {
		ps4 := r.ps4()
		for _, l := range after {
			fmt.Fprintf(r.stderr(), "%s%s\n", ps4, l)
		}
	}
	last := args[len(args)-1]
	if len(assigns) > 0 {
		as := assigns[len(assigns)-1]
		last = as.Name.Value
		if as.Value != nil && as.Array == nil && as.Index == nil {
			// the value as assigned (not expanded twice)
			v, _ := r.vars.Lookup(as.Name.Value)
			s, _ := v.Scalar()
			last += "=" + s
		}
	}
	r.setLastArg(last)
}

func declBuiltin(r *Runner, args []string) int {
	opts, assigns := declare.Split(args[0], args[1:])
	return r.declare(append([]string{args[0]}, opts...), assigns)
}

// declare is the shared work of declare, local, export, readonly.
func (r *Runner) declare(opts []string, assigns []*syntax.Assign) int {
	variant := opts[0]
	if variant == "local" && r.funcDepth == 0 {
		r.errf("local: can only be used in a function")
		return 1
	}
	o, err := declare.Parse(variant, opts[1:])
	if err != nil {
		return builtinopt.Usage(r.errf, r.stdout(), r.stderr(), variant, declare.Synopsis(variant), err)
	}
	on, off, print, funcs, funcNames, global := o.On, o.Off, o.Print, o.Funcs, o.Names, o.Global
	if funcs || funcNames {
		status := 0
		names := make([]string, 0)
		for _, as := range assigns {
			names = append(names, as.Name.Value)
		}
		if len(names) == 0 {
			names = slices.Sorted(maps.Keys(r.funcs))
		}
		for _, n := range names {
			body, ok := r.funcs[n]
			if !ok {
				status = 1
				continue
			}
			if funcNames && len(assigns) > 0 && r.shopt["extdebug"] {
				// the name, the line and the file it was defined in
				file, ok := r.funcSrc[n]
				if !ok {
					file = r.arg0
					if r.cMode() {
						file = "environment" // bash 5.2's name for a -c string here
					}
				}
				fmt.Fprintf(r.stdout(), "%s %d %s\n", n, int(body.Pos().Line())+r.funcLineOff[n], file)
			} else if funcNames && len(assigns) > 0 {
				fmt.Fprintln(r.stdout(), n) // declare -F NAME prints the name alone
			} else if funcNames {
				fmt.Fprintf(r.stdout(), "declare -f %s\n", n)
			} else {
				fmt.Fprintln(r.stdout(), parse.FuncText(n, body))
			}
		}
		return status
	}
	if print && len(assigns) > 0 && (variant == "export" || variant == "readonly") {
		print = false // bash ignores -p with names: the attribute is set
	}
	if len(assigns) == 0 {
		return r.printDecls(variant, on, print)
	}
	if print {
		status := 0
		for _, as := range assigns {
			name := as.Name.Value
			var v *vars.Var
			if variant == "local" {
				v = r.vars.Local().Vars[name]
			} else {
				v, _ = r.vars.Lookup(name)
			}
			if v == nil || !as.Naked {
				r.errf("%s: %s: not found", variant, declare.Text(as))
				status = 1
				continue
			}
			fmt.Fprintln(r.stdout(), vars.DeclareLine(name, v))
		}
		return status
	}
	status := 0
	inFunc := r.funcDepth > 0 && (variant == "local" || (variant == "declare" || variant == "typeset") && !global)
	for _, as := range assigns {
		name := as.Name.Value
		if !syntax.ValidName(name) || as.Index != nil && (variant == "export" || variant == "readonly") {
			text := declare.Text(as)
			if as.Index != nil {
				text = name + "[" + printNode(as.Index) + "]"
			}
			r.errf("%s: `%s': not a valid identifier", variant, text)
			status = 1
			continue
		}
		var v *vars.Var
		if inFunc {
			top := r.vars.Local() // the function's frame, under temporary ones
			v = r.vars.Own(top, name)
			if v == nil {
				outer, _ := r.vars.Lookup(name)
				if outer != nil && outer.ReadOnly && variant == "local" {
					r.errf("%s: %s: readonly variable", variant, name)
					status = 1
					continue
				}
				v = &vars.Var{}
				if outer != nil && r.shopt["localvar_inherit"] {
					v = outer.Clone()
				}
				top.Vars[name] = v
			}
		} else if strings.Contains(on, "n") || strings.Contains(off, "n") {
			v = r.vars.Ensure(name, vars.String)
		} else {
			v = r.lookupVar(name)
			if global || v == nil {
				if global {
					v = r.vars.Own(r.vars.Global(), name)
				}
				if v == nil {
					v = &vars.Var{}
					r.vars.Global().Vars[name] = v
				}
			}
		}
		if v.ReadOnly && (as.Value != nil || as.Array != nil || strings.ContainsAny(off, "r")) {
			if variant == "export" || variant == "readonly" {
				r.errf("%s: readonly variable", name)
			} else {
				r.errf("%s: %s: readonly variable", variant, name)
			}
			status = 1
			continue
		}
		bare := as.Array == nil && as.Value == nil && (variant == "export" || variant == "readonly")
		for _, c := range on {
			switch c {
			case 'a', 'A':
				if bare {
					break // readonly -a x alone does not make an array
				}
				if conv := map[rune]vars.Kind{'A': vars.Indexed, 'a': vars.Assoc}[c]; v.Kind == conv && v.Set && (len(v.Idx) > 0 || len(v.Keys) > 0) {
					msg := name + ": cannot convert " + map[rune]string{'A': "indexed to associative", 'a': "associative to indexed"}[c] + " array"
					if as.Array != nil || as.Value != nil {
						// with a value, an assignment error: the line ends;
						// bash names the eval or source running it
						if r.nestCmd != "" {
							msg = r.nestCmd + ": " + msg
						}
						r.report(&shError{msg: msg, status: 1, abort: true})
						return 1
					}
					r.errf("%s: %s", variant, msg)
					status = 1
					continue
				}
				if c == 'A' {
					v.ToAssoc()
				} else if v.Kind == vars.String {
					v.ToIndexed()
				}
			case 'n':
				if as.Value == nil && v.Set && v.Kind == vars.String && !declare.ValidRef(v.Str) {
					r.errf("%s: `%s': invalid variable name for name reference", variant, v.Str)
					status = 1
					continue
				}
				v.NameRef = true
			default:
				v.SetAttr(c, true)
			}
		}
		for _, c := range off {
			v.SetAttr(c, false)
		}
		if as.Array != nil || as.Value != nil {
			var err error
			if v.NameRef && as.Value != nil && as.Index == nil {
				val, e := r.assignValue(as.Value)
				err = e
				if err == nil && !declare.ValidRef(val) {
					r.errf("%s: `%s': invalid variable name for name reference", variant, val)
					status = 1
					v.NameRef = false
					continue
				}
				if err == nil {
					v.Str, v.Set = val, true
				}
			} else {
				ro := v.ReadOnly
				v.ReadOnly = false
				if inFunc || global {
					err = r.assignIn(v, name, as)
				} else {
					err = r.assign(as, false)
				}
				v.ReadOnly = ro
			}
			if err != nil {
				r.report(err)
				status = 1
				if r.exiting {
					return status
				}
				continue
			}
		}
		if strings.Contains(on, "r") {
			v.ReadOnly = true
		}
	}
	return status
}

// assignIn assigns to the variable v (a local or a global) directly.
func (r *Runner) assignIn(v *vars.Var, name string, as *syntax.Assign) error {
	// Temporarily make v the innermost binding for name.
	f := &vars.Frame{Vars: map[string]*vars.Var{name: v}}
	r.vars.Frames = append(r.vars.Frames, f)
	defer func() { r.vars.Frames = r.vars.Frames[:len(r.vars.Frames)-1] }()
	return r.assign(as, true)
}

// printDecls lists variables as declare -p (or export -p, readonly -p);
// local lists the function's own; declare alone (no -p, no attribute)
// lists name=value as set does.
func (r *Runner) printDecls(variant, on string, print bool) int {
	names := r.vars.Names()
	lookup := func(n string) *vars.Var { v, _ := r.vars.Lookup(n); return v }
	if variant == "local" {
		f := r.vars.Local()
		names = slices.Sorted(maps.Keys(f.Vars))
		lookup = func(n string) *vars.Var { return f.Vars[n] }
	}
	for _, n := range names {
		v := lookup(n)
		if v == nil {
			continue
		}
		switch {
		case variant == "export" && !v.Exported, variant == "readonly" && !v.ReadOnly:
			continue
		}
		if !v.HasAttrs(on) {
			continue
		}
		if !print && variant != "export" && variant != "readonly" && variant != "local" && on == "" {
			if v.Set {
				fmt.Fprintln(r.stdout(), vars.SetLine(n, v))
			}
			continue
		}
		fmt.Fprintln(r.stdout(), vars.DeclareLine(n, v))
	}
	return 0
}

// xtrace prints a traced command: PS4 then the words quoted as bash does.
func (r *Runner) xtrace(words []string) {
	ps4 := r.ps4()
	var b strings.Builder
	b.WriteString(ps4)
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(printf.TraceQuote(w))
	}
	b.WriteByte('\n')
	io := r.stderr()
	fmt.Fprint(io, b.String())
}

// ps4 is $PS4 expanded as bash expands a prompt (parameters, command
// substitutions, arithmetic), with tracing off meanwhile.
func (r *Runner) ps4() string {
	raw, _ := r.getVar("PS4")
	if !strings.ContainsAny(raw, "$`") || !r.opt["xtrace"] {
		return raw
	}
	w, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Document(strings.NewReader(raw))
	if err != nil {
		if strings.Contains(err.Error(), "`${`") {
			// an unterminated ${: bash's bad substitution, then PS4 as is
			r.errf("%s: bad substitution", raw)
		}
		return raw
	}
	status, aborting := r.status, r.aborting
	r.opt["xtrace"] = false
	out, err := r.hdocExpand(w)
	r.opt["xtrace"] = true
	r.status, r.aborting = status, aborting
	if err != nil {
		return raw
	}
	return out
}

func (r *Runner) xtraceAssigns(as []*syntax.Assign) {
	if len(as) == 0 {
		return // PS4 is expanded once per traced line
	}
	ps4 := r.ps4()
	for _, a := range as {
		r.xtraceAssign(ps4, a)
	}
}

// xtraceAssign traces the assignment a, done: NAME=value.
func (r *Runner) xtraceAssign(ps4 string, a *syntax.Assign) {
	if a.Array != nil && a.Index == nil {
		r.xtraceArrayAssign(ps4, a)
		return
	}
	if a.Array != nil || a.Value == nil {
		return
	}
	v, _ := r.getVar(a.Name.Value)
	op := "="
	if a.Append {
		op = "+="
	}
	fmt.Fprintf(r.stderr(), "%s%s%s%s\n", ps4, a.Name.Value, op, printf.TraceQuote(v))
}

func (r *Runner) xtraceArith(c *syntax.ArithmCmd) {
	if !r.opt["xtrace"] {
		return
	}
	ps4 := r.ps4()
	inner := strings.TrimPrefix(r.srcText(c.Left, c.Right), "((")
	if inner == "" {
		inner = printNode(c.X)
	}
	fmt.Fprintf(r.stderr(), "%s(( %s ))\n", ps4, inner)
}
