package declare

import (
	"errors"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		variant string
		opts    []string
		want    Opts
	}{
		{"declare", []string{"-ix", "+x", "--"}, Opts{On: "ix", Off: "x"}},
		{"declare", []string{"-pf", "-F", "-g"}, Opts{Print: true, Funcs: true, Names: true, Global: true}},
		{"export", nil, Opts{On: "x"}},
		{"export", []string{"-n"}, Opts{Off: "x"}}, // export -n x: declare -- x="1"
		{"readonly", []string{"-a"}, Opts{On: "ar"}},
	} {
		got, err := Parse(c.variant, c.opts)
		if err != nil || got != c.want {
			t.Errorf("%s %v: %+v, %v; want %+v", c.variant, c.opts, got, err, c.want)
		}
	}
	// bash 5.2: "f() { typeset -z x; }; f" prints these two lines.
	for variant, usage := range map[string]string{
		"declare": "declare: usage: declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
		"typeset": "typeset: usage: typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
		"local":   "local: usage: local [option] name[=value] ...",
	} {
		_, err := Parse(variant, []string{"-iz"})
		var ue *UsageError
		if !errors.As(err, &ue) || ue.Msg != variant+": -z: invalid option" || ue.Usage != usage {
			t.Errorf("%s -iz: %#v", variant, err)
		}
	}
}

func TestAssign(t *testing.T) {
	for _, c := range []struct {
		word  string
		array bool
		text  string
		naked bool
		arr   bool
	}{
		{"x", false, "x", true, false},
		{"x=a b", false, "x=a b", false, false},
		{"x+=1", false, "x+=1", false, false},
		{"a=(1 2)", true, "a", false, true},
		{"a=(1 2)", false, "a=(1 2)", false, false},
	} {
		as := Assign(c.word, c.array)
		if Text(as) != c.text || as.Naked != c.naked || (as.Array != nil) != c.arr {
			t.Errorf("Assign(%q, %v): %q naked %v array %v", c.word, c.array, Text(as), as.Naked, as.Array != nil)
		}
	}
	opts, assigns := Split([]string{"-a", "+i", "x=1", "-y"})
	if len(opts) != 2 || len(assigns) != 2 || Text(assigns[1]) != "-y" {
		t.Errorf("Split: %q %d", opts, len(assigns))
	}
	if !ArrayOpt([]string{"-ia"}) || ArrayOpt([]string{"+a"}) {
		t.Error("ArrayOpt")
	}
	if !Option("-x", nil, 0) || Option("-x", []string{"--"}, 0) || Option("-x", nil, 1) {
		t.Error("Option")
	}
}

func TestRefs(t *testing.T) {
	// declare -n r=a[1] is taken, declare -n q=1a is bash's "invalid
	// variable name for name reference".
	for s, want := range map[string]bool{"a": true, "a[1]": true, "a[@]": true, "1a": false, "a[1": false, "": false} {
		if ValidRef(s) != want {
			t.Errorf("ValidRef(%q) != %v", s, want)
		}
	}
	f, err := syntax.NewParser().Parse(strings.NewReader("declare -A a=(k v [x]=1); b=(k v)"), "")
	if err != nil {
		t.Fatal(err)
	}
	first := f.Stmts[0].Cmd.(*syntax.DeclClause).Args[1].Array
	second := f.Stmts[1].Cmd.(*syntax.CallExpr).Assigns[0].Array
	if KVPairs(first) || !KVPairs(second) {
		t.Error("KVPairs")
	}
}
