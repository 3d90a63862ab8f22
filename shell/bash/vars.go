package bash

import (
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// varKind is what a variable holds.
type varKind uint8

const (
	kString varKind = iota
	kIndexed
	kAssoc
)

// Var is one shell variable: a string, an indexed (sparse) array or an
// associative array, with its attributes.
type Var struct {
	Set   bool // has a value; false for "declare x" alone
	Kind  varKind
	Str   string
	Idx   map[int]string
	Assoc map[string]string
	Keys  []string // the assoc's keys in insertion order

	Exported, ReadOnly, Integer, Lower, Upper, NameRef bool
}

func (v *Var) clone() *Var {
	c := *v
	c.Idx = maps.Clone(v.Idx)
	c.Assoc = maps.Clone(v.Assoc)
	c.Keys = slices.Clone(v.Keys)
	return &c
}

// indices are the set indices of an indexed array, ascending.
func (v *Var) indices() []int {
	ks := make([]int, 0, len(v.Idx))
	for k := range v.Idx {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// values lists an array's values in order (a string is one value).
func (v *Var) values() []string {
	if !v.Set {
		return nil
	}
	switch v.Kind {
	case kIndexed:
		ks := v.indices()
		out := make([]string, len(ks))
		for i, k := range ks {
			out[i] = v.Idx[k]
		}
		return out
	case kAssoc:
		out := make([]string, 0, len(v.Keys))
		for _, k := range assocOrder(v.Keys) {
			out = append(out, v.Assoc[k])
		}
		return out
	}
	return []string{v.Str}
}

// keys lists an array's keys as strings (a string has key 0).
func (v *Var) keys() []string {
	if !v.Set {
		return nil
	}
	switch v.Kind {
	case kIndexed:
		ks := v.indices()
		out := make([]string, len(ks))
		for i, k := range ks {
			out[i] = strconv.Itoa(k)
		}
		return out
	case kAssoc:
		return assocOrder(v.Keys)
	}
	return []string{"0"}
}

// scalar is the variable's value as a string: element 0 of an indexed
// array, element "0" of an assoc.
func (v *Var) scalar() (string, bool) {
	if v == nil || !v.Set {
		return "", false
	}
	switch v.Kind {
	case kIndexed:
		s, ok := v.Idx[0]
		return s, ok
	case kAssoc:
		s, ok := v.Assoc["0"]
		return s, ok
	}
	return v.Str, true
}

func (v *Var) setAssoc(k, val string) {
	if v.Assoc == nil {
		v.Assoc = map[string]string{}
	}
	if _, ok := v.Assoc[k]; !ok {
		v.Keys = append(v.Keys, k)
	}
	v.Assoc[k] = val
}

func (v *Var) unsetAssoc(k string) {
	if _, ok := v.Assoc[k]; ok {
		delete(v.Assoc, k)
		v.Keys = slices.DeleteFunc(v.Keys, func(s string) bool { return s == k })
	}
}

// maxIndex is the highest set index of an indexed array, -1 when empty.
func (v *Var) maxIndex() int {
	m := -1
	for k := range v.Idx {
		m = max(m, k)
	}
	return m
}

// frame is one scope of variables: the globals, or a function call's
// locals.
type frame struct {
	vars map[string]*Var
	temp bool // a temporary scope of "x=1 f" assignments
}

// scope is the variables of a shell: a stack of frames, the globals first.
type scope struct {
	frames []*frame
}

func newScope() *scope { return &scope{frames: []*frame{{vars: map[string]*Var{}}}} }

func (s *scope) clone() *scope {
	c := &scope{frames: make([]*frame, len(s.frames))}
	for i, f := range s.frames {
		nf := &frame{vars: make(map[string]*Var, len(f.vars)), temp: f.temp}
		for k, v := range f.vars {
			nf.vars[k] = v.clone()
		}
		c.frames[i] = nf
	}
	return c
}

// lookup finds the variable name in the innermost frame that has it.
func (s *scope) lookup(name string) (*Var, int) {
	for i := len(s.frames) - 1; i >= 0; i-- {
		if v, ok := s.frames[i].vars[name]; ok {
			return v, i
		}
	}
	return nil, -1
}

func (s *scope) global() *frame { return s.frames[0] }

// names lists every visible variable name, sorted.
func (s *scope) names() []string {
	seen := map[string]bool{}
	for _, f := range s.frames {
		for k := range f.vars {
			seen[k] = true
		}
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// applyCase applies the -l/-u attributes.
func (v *Var) applyCase(s string) string {
	switch {
	case v.Lower:
		return strings.ToLower(s)
	case v.Upper:
		return strings.ToUpper(s)
	}
	return s
}

// bashHash is bash's hash_string (FNV-1 over the bytes).
func bashHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(s[i])
	}
	return h
}

// assocOrder lists an associative array's keys, given in insertion
// order, in the order bash lists them: its hash table's buckets (1024 at
// first, four times as many once there are two entries per bucket) in
// order, the latest inserted first within a bucket.
func assocOrder(keys []string) []string {
	n := uint32(1024)
	buckets := map[uint32][]string{} // each list oldest first
	count := 0
	for _, k := range keys {
		if count >= int(n)*2 {
			nn := n * 4
			nb := map[uint32][]string{}
			ids := slices.Sorted(maps.Keys(buckets))
			for _, id := range ids {
				lst := buckets[id]
				for i := len(lst) - 1; i >= 0; i-- {
					j := bashHash(lst[i]) & (nn - 1)
					nb[j] = append(nb[j], lst[i])
				}
			}
			buckets, n = nb, nn
		}
		j := bashHash(k) & (n - 1)
		buckets[j] = append(buckets[j], k)
		count++
	}
	out := make([]string, 0, len(keys))
	for _, id := range slices.Sorted(maps.Keys(buckets)) {
		lst := buckets[id]
		for i := len(lst) - 1; i >= 0; i-- {
			out = append(out, lst[i])
		}
	}
	return out
}
