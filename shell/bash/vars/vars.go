// Package vars is the shell's variable store: a Var (a string, an
// indexed array or an associative array, with its attributes), the
// stack of scopes a shell looks names up in, namerefs' resolution, and
// the variables printed as bash prints them (declare -p, set, ${v@a}).
//
// Contracts: an indexed array is sparse (a map from index to value); an
// associative array keeps its keys in insertion order (Keys) and lists
// them in the order bash 5.2's hash table does (AssocOrder); a Var that
// is declared without a value has Set false. Nothing here evaluates
// arithmetic or expands words: the caller gives the values.
package vars

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/agentenkit/agentenkit/shell/bash/hashorder"
	"github.com/agentenkit/agentenkit/shell/bash/printf"
)

// Kind is what a variable holds.
type Kind uint8

// The kinds of variables.
const (
	String Kind = iota
	Indexed
	Assoc
)

// Var is one shell variable: a string, an indexed (sparse) array or an
// associative array, with its attributes.
type Var struct {
	Set   bool // has a value; false for "declare x" alone
	Kind  Kind
	Str   string
	Idx   map[int]string
	Assoc map[string]string
	Keys  []string // the assoc's keys in insertion order

	Exported, ReadOnly, Integer, Lower, Upper, NameRef bool

	// owner is the id of the Scope that made v, or 0 for the scope
	// whose frame holds it; a scope made by Fork copies a variable of
	// another's before it uses it (Lookup, Ensure, Own).
	owner uint64
}

// Clone is a deep copy of v.
func (v *Var) Clone() *Var {
	c := new(Var)
	v.cloneTo(c)
	return c
}

// cloneTo makes c a deep copy of v, owned by the frame that holds it.
func (v *Var) cloneTo(c *Var) {
	*c = *v
	c.Idx = maps.Clone(v.Idx)
	c.Assoc = maps.Clone(v.Assoc)
	c.Keys = slices.Clone(v.Keys)
	c.owner = 0
}

// Indices are the set indices of an indexed array, ascending.
func (v *Var) Indices() []int {
	ks := make([]int, 0, len(v.Idx))
	for k := range v.Idx {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// Values lists an array's values in order (a string is one value; an
// unset variable none).
func (v *Var) Values() []string {
	if !v.Set {
		return nil
	}
	switch v.Kind {
	case Indexed:
		ks := v.Indices()
		out := make([]string, len(ks))
		for i, k := range ks {
			out[i] = v.Idx[k]
		}
		return out
	case Assoc:
		out := make([]string, 0, len(v.Keys))
		for _, k := range AssocOrder(v.Keys) {
			out = append(out, v.Assoc[k])
		}
		return out
	}
	return []string{v.Str}
}

// Subscripts lists an array's keys as strings, in the order Values
// lists the values (a string has key 0).
func (v *Var) Subscripts() []string {
	if !v.Set {
		return nil
	}
	switch v.Kind {
	case Indexed:
		ks := v.Indices()
		out := make([]string, len(ks))
		for i, k := range ks {
			out[i] = strconv.Itoa(k)
		}
		return out
	case Assoc:
		return AssocOrder(v.Keys)
	}
	return []string{"0"}
}

// Scalar is the variable's value as a string: element 0 of an indexed
// array, element "0" of an assoc; false when v is nil or has no value.
func (v *Var) Scalar() (string, bool) {
	if v == nil || !v.Set {
		return "", false
	}
	switch v.Kind {
	case Indexed:
		s, ok := v.Idx[0]
		return s, ok
	case Assoc:
		s, ok := v.Assoc["0"]
		return s, ok
	}
	return v.Str, true
}

// SetAssoc sets the assoc's element k (a new key goes last).
func (v *Var) SetAssoc(k, val string) {
	if v.Assoc == nil {
		v.Assoc = map[string]string{}
	}
	if _, ok := v.Assoc[k]; !ok {
		v.Keys = append(v.Keys, k)
	}
	v.Assoc[k] = val
}

// UnsetAssoc removes the assoc's element k, if it is there.
func (v *Var) UnsetAssoc(k string) {
	if _, ok := v.Assoc[k]; ok {
		delete(v.Assoc, k)
		v.Keys = slices.DeleteFunc(v.Keys, func(s string) bool { return s == k })
	}
}

// MaxIndex is the highest set index of an indexed array, -1 when empty.
func (v *Var) MaxIndex() int {
	m := -1
	for k := range v.Idx {
		m = max(m, k)
	}
	return m
}

// AbsIndex is an indexed array's subscript i with a negative one counted
// back from the end (-1 is the highest index); false when it is before
// the first element (bash's "bad array subscript").
func (v *Var) AbsIndex(i int64) (int, bool) {
	if i >= 0 {
		return int(i), true
	}
	i += int64(v.MaxIndex() + 1)
	return int(i), i >= 0
}

// ToIndexed makes v an indexed array; a string's value becomes element 0.
func (v *Var) ToIndexed() {
	if v.Kind == String {
		old, set := v.Str, v.Set
		v.Kind, v.Idx, v.Str = Indexed, map[int]string{}, ""
		if set {
			v.Idx[0] = old
		}
	}
	if v.Idx == nil {
		v.Idx = map[int]string{}
	}
}

// ToAssoc makes v an associative array; a non-empty string's value
// becomes element "0".
func (v *Var) ToAssoc() {
	if v.Kind == Assoc {
		return
	}
	v.Kind, v.Assoc = Assoc, map[string]string{}
	if v.Set && v.Str != "" {
		v.SetAssoc("0", v.Str)
	}
	v.Str = ""
}

// ApplyCase applies the -l/-u attributes to a value being assigned.
func (v *Var) ApplyCase(s string) string {
	switch {
	case v.Lower:
		return strings.ToLower(s)
	case v.Upper:
		return strings.ToUpper(s)
	}
	return s
}

// Attrs are v's attribute letters as ${v@a} and declare -p give them, in
// bash's order (aAilnrux).
func (v *Var) Attrs() string {
	var b strings.Builder
	for _, a := range []struct {
		on bool
		c  byte
	}{{v.Kind == Indexed, 'a'}, {v.Kind == Assoc, 'A'}, {v.Integer, 'i'}, {v.Lower, 'l'}, {v.NameRef, 'n'}, {v.ReadOnly, 'r'}, {v.Upper, 'u'}, {v.Exported, 'x'}} {
		if a.on {
			b.WriteByte(a.c)
		}
	}
	return b.String()
}

// HasAttrs reports whether v has every attribute of letters (declare's
// -aAilnrux; other letters are ignored), as declare -p -x lists them.
func (v *Var) HasAttrs(letters string) bool {
	have := v.Attrs()
	for _, c := range letters {
		if strings.ContainsRune("aAilnrux", c) && !strings.ContainsRune(have, c) {
			return false
		}
	}
	return true
}

// DeclareLine is a variable as declare -p prints it.
func DeclareLine(name string, v *Var) string {
	a := v.Attrs()
	if a == "" {
		a = "-"
	}
	s := "declare -" + a + " " + name
	if !v.Set {
		return s
	}
	if v.Kind == String {
		return s + "=" + printf.DeclQuote(v.Str)
	}
	return s + "=" + ArrayBody(v)
}

// SetLine is a variable with a value as set (and declare alone) list it:
// name=value, an array's value as ArrayBody.
func SetLine(name string, v *Var) string {
	if v.Kind == String {
		return name + "=" + printf.SetQuote(v.Str)
	}
	return name + "=" + ArrayBody(v)
}

// ArrayBody is an array's value as declare -p prints it: ([0]="a"
// [3]="b") or, for an assoc, ([k]="v" ) in bash's order.
func ArrayBody(v *Var) string {
	var b strings.Builder
	b.WriteByte('(')
	if v.Kind == Indexed {
		for i, k := range v.Indices() {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("[" + strconv.Itoa(k) + "]=" + printf.DeclQuote(v.Idx[k]))
		}
	} else {
		for _, k := range AssocOrder(v.Keys) {
			b.WriteString("[" + printf.AssocKeyQuote(k) + "]=" + printf.DeclQuote(v.Assoc[k]) + " ")
		}
	}
	b.WriteByte(')')
	return b.String()
}

// Frame is one scope of variables: the globals, or a function call's
// locals.
type Frame struct {
	Vars map[string]*Var
	Temp bool // a temporary scope of "x=1 f" assignments
}

// Scope is the variables of a shell: a stack of frames, the globals
// first.
type Scope struct {
	Frames []*Frame
	id     uint64 // for Fork; 0 until s forks
	cow    bool   // made by Fork: copies another scope's variables first
}

// scopeIDs numbers the scopes that fork and are forked.
var scopeIDs atomic.Uint64

// NewScope is a scope of empty globals.
func NewScope() *Scope { return &Scope{Frames: []*Frame{{Vars: map[string]*Var{}}}} }

// Clone is a deep copy of s: the variables of a subshell that runs
// beside its parent (a background job, a process substitution).
func (s *Scope) Clone() *Scope {
	n := 0
	for _, f := range s.Frames {
		n += len(f.Vars)
	}
	block := make([]Var, n) // one allocation for all the copies
	frames := make([]Frame, len(s.Frames))
	c := &Scope{Frames: make([]*Frame, len(s.Frames))}
	i := 0
	for fi, f := range s.Frames {
		nf := &frames[fi]
		nf.Temp = f.Temp
		nf.Vars = make(map[string]*Var, len(f.Vars))
		for k, v := range f.Vars {
			if v == nil {
				nf.Vars[k] = nil
				continue
			}
			cv := &block[i]
			i++
			v.cloneTo(cv)
			nf.Vars[k] = cv
		}
		c.Frames[fi] = nf
	}
	return c
}

// Fork is a copy of s, copied on write, for a subshell its parent waits
// for without running meanwhile ($(...), ( ), the stages of a pipeline):
// it has frames and maps of its own, but shares s's variables until it
// looks one up (Lookup, Ensure, Own), which copies that one. s keeps
// changing its own in place, so s must not run until the fork has
// ended (nor read a variable while s changes it); a subshell that runs
// beside its parent takes a Clone.
func (s *Scope) Fork() *Scope {
	if s.id == 0 {
		s.id = scopeIDs.Add(1)
	}
	frames := make([]Frame, len(s.Frames))
	c := &Scope{Frames: make([]*Frame, len(s.Frames)), id: scopeIDs.Add(1), cow: true}
	for i, f := range s.Frames {
		for _, v := range f.Vars {
			if v != nil && v.owner == 0 {
				v.owner = s.id // s's own, no longer the holder's alone
			}
		}
		nf := &frames[i]
		nf.Temp = f.Temp
		nf.Vars = maps.Clone(f.Vars)
		if nf.Vars == nil {
			nf.Vars = map[string]*Var{}
		}
		c.Frames[i] = nf
	}
	return c
}

// mine tells whether s may change v in place.
func (s *Scope) mine(v *Var) bool { return !s.cow || v.owner == 0 || v.owner == s.id }

// Own is frame f's variable name, made s's own to change (a copy of a
// variable a Fork shares); nil when f has none. f is one of s's frames.
func (s *Scope) Own(f *Frame, name string) *Var {
	v, ok := f.Vars[name]
	if !ok || v == nil || s.mine(v) {
		return v
	}
	v = v.Clone()
	f.Vars[name] = v
	return v
}

// Peek is the variable name as Lookup finds it, to be read only, now:
// it is not copied when shared, so it must not be changed or kept.
func (s *Scope) Peek(name string) *Var {
	for i := len(s.Frames) - 1; i >= 0; i-- {
		if v, ok := s.Frames[i].Vars[name]; ok {
			return v
		}
	}
	return nil
}

// Lookup finds the variable name in the innermost frame that has it and
// that frame's index; nil, -1 when none has it. The variable is s's own
// to change (Own).
func (s *Scope) Lookup(name string) (*Var, int) {
	for i := len(s.Frames) - 1; i >= 0; i-- {
		if v, ok := s.Frames[i].Vars[name]; ok {
			if v != nil && !s.mine(v) {
				v = s.Own(s.Frames[i], name)
			}
			return v, i
		}
	}
	return nil, -1
}

// Global is the frame of the globals.
func (s *Scope) Global() *Frame { return s.Frames[0] }

// Local is the innermost function's frame, under temporary ones; the
// globals outside functions.
func (s *Scope) Local() *Frame {
	fi := len(s.Frames) - 1
	for fi > 0 && s.Frames[fi].Temp {
		fi--
	}
	return s.Frames[fi]
}

// Names lists every visible variable name, sorted.
func (s *Scope) Names() []string {
	seen := map[string]bool{}
	for _, f := range s.Frames {
		for k := range f.Vars {
			seen[k] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// Resolve follows namerefs from name to the name of the variable they
// reach (a name, or name[subscript]); circular is true when they loop
// (or nest deeper than 64).
func (s *Scope) Resolve(name string) (target string, circular bool) {
	var seen map[string]bool // made at the first nameref
	for {
		v := s.Peek(name)
		if v == nil || !v.NameRef || !v.Set {
			return name, false
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		if seen[name] || len(seen) > 64 {
			return name, true
		}
		seen[name] = true
		name = v.Str
	}
}

// AssocOrder lists an associative array's keys, given in insertion
// order, in the order bash lists them: its hash table of 1024 buckets at
// first (hashorder.Order).
func AssocOrder(keys []string) []string { return hashorder.Order(keys, 1024) }

// From lists an indexed array's values from index off on, as
// ${a[@]:off} does: a negative off counts back from the end (-1 is the
// last index); false when it is before the first.
func (v *Var) From(off int64) ([]string, bool) {
	if off < 0 {
		off += int64(v.MaxIndex() + 1)
		if off < 0 {
			return nil, false
		}
	}
	var out []string
	for _, k := range v.Indices() {
		if int64(k) >= off {
			out = append(out, v.Idx[k])
		}
	}
	return out, true
}

// SetAttr sets (on) or removes one of the attributes i, l, u, x and n
// (-l and -u exclude each other); other letters are left to the caller
// (a and A convert the value, r cannot be removed, t is not kept).
func (v *Var) SetAttr(c rune, on bool) {
	switch c {
	case 'i':
		v.Integer = on
	case 'l':
		v.Lower = on
		v.Upper = v.Upper && !on
	case 'u':
		v.Upper = on
		v.Lower = v.Lower && !on
	case 'x':
		v.Exported = on
	case 'n':
		v.NameRef = on
	}
}

// SetScalar assigns val as a plain assignment does: the string, or
// element 0 of an indexed array, element "0" of an assoc.
func (v *Var) SetScalar(val string) {
	switch v.Kind {
	case Indexed:
		if v.Idx == nil {
			v.Idx = map[int]string{}
		}
		v.Idx[0] = val
	case Assoc:
		v.SetAssoc("0", val)
	default:
		v.Str = val
	}
	v.Set = true
}

// Ensure is the variable name as Lookup finds it or, when no frame has
// it, a new unset global of kind k.
func (s *Scope) Ensure(name string, k Kind) *Var {
	v, _ := s.Lookup(name)
	if v == nil {
		v = &Var{Kind: k}
		s.Global().Vars[name] = v
	}
	return v
}

// SetPairs sets an assoc's elements from alternate keys and values (a
// last key alone gets ""), each value with ApplyCase, as bash 5.2's
// a=(k1 v1 k2 v2) does; v is set then.
func (v *Var) SetPairs(words []string) {
	for i := 0; i < len(words); i += 2 {
		val := ""
		if i+1 < len(words) {
			val = words[i+1]
		}
		v.SetAssoc(words[i], v.ApplyCase(val))
	}
	v.Set = true
}
