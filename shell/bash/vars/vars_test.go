package vars

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The expected outputs are bash 5.2.15's (declare -p, set, ${!a[@]}).
func TestDeclareLine(t *testing.T) {
	assoc := &Var{Set: true, Kind: Assoc}
	for _, kv := range [][2]string{{"one", "1"}, {"two", "2"}, {"three", "3"}, {"x y", "q's"}} {
		assoc.SetAssoc(kv[0], kv[1])
	}
	for _, c := range []struct {
		name string
		v    *Var
		decl string
		set  string
	}{
		{"a", assoc, `declare -A a=([two]="2" ["x y"]="q's" [three]="3" [one]="1" )`, `a=([two]="2" ["x y"]="q's" [three]="3" [one]="1" )`},
		{"n", &Var{Set: true, Kind: Indexed, Integer: true, Idx: map[int]string{0: "1", 5: "2"}}, `declare -ai n=([0]="1" [5]="2")`, `n=([0]="1" [5]="2")`},
		{"s", &Var{Set: true, Str: "a b", ReadOnly: true, Exported: true}, `declare -rx s="a b"`, `s='a b'`},
		{"lo", &Var{Lower: true}, `declare -l lo`, ""},
		{"r", &Var{Set: true, Str: "s", NameRef: true}, `declare -n r="s"`, `r=s`},
		{"up", &Var{Set: true, Str: "X", Upper: true}, `declare -u up="X"`, `up=X`},
		{"b", &Var{Set: true, Kind: Indexed, Idx: map[int]string{0: "x", 1: "", 2: "\n"}}, `declare -a b=([0]="x" [1]="" [2]=$'\n')`, `b=([0]="x" [1]="" [2]=$'\n')`},
		{"q", &Var{Set: true, Str: "it's"}, `declare -- q="it's"`, `q='it'\''s'`},
	} {
		if got := DeclareLine(c.name, c.v); got != c.decl {
			t.Errorf("DeclareLine(%s) = %s, want %s", c.name, got, c.decl)
		}
		if c.set == "" {
			continue
		}
		if got := SetLine(c.name, c.v); got != c.set {
			t.Errorf("SetLine(%s) = %s, want %s", c.name, got, c.set)
		}
	}
}

// bash 5.2 lists 2100 keys k1..k2100 (its table grown to 4096 buckets)
// starting k1698 k1699 k1696 k1697 k1694, ending k1044 k1049 k1048.
func TestAssocOrderGrown(t *testing.T) {
	var keys []string
	for i := 1; i <= 2100; i++ {
		keys = append(keys, fmt.Sprintf("k%d", i))
	}
	got := AssocOrder(keys)
	if len(got) != len(keys) {
		t.Fatalf("%d keys, want %d", len(got), len(keys))
	}
	if s := strings.Join(append(got[:5:5], got[len(got)-3:]...), " "); s != "k1698 k1699 k1696 k1697 k1694 k1044 k1049 k1048" {
		t.Errorf("order %s", s)
	}
}

func TestIndexes(t *testing.T) {
	// a=(1 2 3); a[7]=x: ${a[-1]} is x, ${a[-8]} is 1, ${a[-9]} a bad
	// subscript.
	v := &Var{Set: true, Kind: Indexed, Idx: map[int]string{0: "1", 1: "2", 2: "3", 7: "x"}}
	for _, c := range []struct {
		in   int64
		want int
		ok   bool
	}{{-1, 7, true}, {-8, 0, true}, {-9, 0, false}, {3, 3, true}} {
		if n, ok := v.AbsIndex(c.in); ok != c.ok || ok && n != c.want {
			t.Errorf("AbsIndex(%d) = %d, %v", c.in, n, ok)
		}
	}
	if got := strings.Join(v.Subscripts(), " "); got != "0 1 2 7" {
		t.Errorf("Subscripts %s", got)
	}
	s := &Var{Set: true, Str: "a"}
	s.ToIndexed()
	if s.Kind != Indexed || s.Idx[0] != "a" || s.Attrs() != "a" {
		t.Errorf("ToIndexed: %+v", s)
	}
	e := &Var{Set: true}
	e.ToAssoc()
	if e.Kind != Assoc || len(e.Keys) != 0 {
		t.Errorf("ToAssoc of an empty string: %+v", e)
	}
}

func TestScope(t *testing.T) {
	s := NewScope()
	s.Global().Vars["a"] = &Var{Set: true, Str: "b", NameRef: true}
	s.Global().Vars["b"] = &Var{Set: true, Str: "a", NameRef: true}
	s.Global().Vars["c"] = &Var{Set: true, Str: "x[1]", NameRef: true}
	if _, circ := s.Resolve("a"); !circ {
		t.Error("a -> b -> a is no loop")
	}
	if n, circ := s.Resolve("c"); n != "x[1]" || circ {
		t.Errorf("Resolve(c) = %s, %v", n, circ)
	}
	s.Frames = append(s.Frames, &Frame{Vars: map[string]*Var{"l": {}}}, &Frame{Vars: map[string]*Var{"t": {}}, Temp: true})
	if _, ok := s.Local().Vars["l"]; !ok {
		t.Error("Local is not the function's frame")
	}
	s.Global().Vars["arr"] = &Var{Set: true, Kind: Indexed, Idx: map[int]string{0: "p"}}
	// Clone copies every variable.
	d := s.Clone()
	if d.Peek("c") == s.Peek("c") {
		t.Error("Clone shares a variable")
	}
	d.Peek("c").Str = "y"
	if s.Global().Vars["c"].Str != "x[1]" {
		t.Error("Clone shares variables")
	}
	// A fork shares them until it looks one up; the parent changes its
	// own in place, and the fork's copy does not see it after.
	c := s.Fork()
	if c.Peek("c") != s.Peek("c") {
		t.Error("Fork copied a variable before it looked it up")
	}
	cv, _ := c.Lookup("c")
	cv.Str = "z"
	if s.Global().Vars["c"].Str != "x[1]" {
		t.Error("a fork's change reached its parent")
	}
	if again, _ := c.Lookup("c"); again != cv {
		t.Error("a second Lookup copied the fork's own variable again")
	}
	pv, _ := s.Lookup("arr")
	ca := c.Ensure("arr", Indexed)
	ca.Idx[0] = "r"
	pv.Idx[1] = "q"
	if got, _ := s.Lookup("arr"); got != pv || !slices.Equal(got.Values(), []string{"p", "q"}) {
		t.Errorf("the parent's variable changed: %v", got.Values())
	}
	if got := c.Peek("arr").Values(); !slices.Equal(got, []string{"r"}) {
		t.Errorf("the fork's copy: %v", got)
	}
	// a fork of a fork copies its parent's copies too
	g := c.Fork()
	if gv, _ := g.Lookup("c"); gv == cv || gv.Str != "z" {
		t.Error("a fork of a fork shares its parent's copy")
	}
	if own := c.Own(c.Global(), "c"); own != cv {
		t.Error("the fork's own variable was copied again after it forked")
	}
	if c.Own(c.Local(), "nosuch") != nil {
		t.Error("Own of a missing name is not nil")
	}
	if got := s.Names(); !slices.Equal(got, []string{"a", "arr", "b", "c", "l", "t"}) {
		t.Errorf("Names %v", got)
	}
	if v := (&Var{Set: true, Kind: Indexed, Integer: true, ReadOnly: true}); !v.HasAttrs("ir") || v.HasAttrs("x") || !v.HasAttrs("at") {
		t.Error("HasAttrs")
	}
}

// declare -l x; declare -u x leaves -u alone (declare -p: declare -u x);
// declare +x drops the export.
func TestSetAttr(t *testing.T) {
	v := &Var{Exported: true}
	v.SetAttr('l', true)
	v.SetAttr('u', true)
	v.SetAttr('x', false)
	v.SetAttr('r', false) // readonly stays: not an attribute SetAttr changes
	v.SetAttr('i', true)
	if got := DeclareLine("x", v); got != "declare -iu x" {
		t.Errorf("%s", got)
	}
	// declare -A h; h=x is h[0]=x; declare -a a; a=x is a[0]=x.
	h, a := &Var{Kind: Assoc}, &Var{Kind: Indexed}
	h.SetScalar("x")
	a.SetScalar("x")
	if DeclareLine("h", h) != `declare -A h=([0]="x" )` || DeclareLine("a", a) != `declare -a a=([0]="x")` {
		t.Errorf("SetScalar: %s; %s", DeclareLine("h", h), DeclareLine("a", a))
	}
	if got, ok := (&Var{Set: true, Kind: Indexed, Idx: map[int]string{1: "a", 4: "b"}}).From(-3); !ok || !slices.Equal(got, []string{"b"}) {
		t.Errorf("From(-3) = %q, %v", got, ok)
	}
}
