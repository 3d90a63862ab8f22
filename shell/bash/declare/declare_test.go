package declare

import (
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
		{"readonly", []string{"-n"}, Opts{}}, // readonly -n v=1: declare -- v="1"
		{"export", []string{"-a", "--"}, Opts{On: "ax"}},
	} {
		got, err := Parse(c.variant, c.opts)
		if err != nil || got != c.want {
			t.Errorf("%s %v: %+v, %v; want %+v", c.variant, c.opts, got, err, c.want)
		}
	}
	// bash 5.2: "f() { typeset -iz x; }; f" names the bad letter; export
	// and readonly take no +x and fewer letters than declare.
	for _, c := range []struct {
		variant string
		opts    []string
		err     string
	}{
		{"typeset", []string{"-iz"}, "-z: invalid option"},
		{"declare", []string{"+Z"}, "+Z: invalid option"},
		{"local", []string{"-+"}, "-+: invalid option"},
		{"export", []string{"-i"}, "-i: invalid option"},
		{"readonly", []string{"-x"}, "-x: invalid option"},
		{"declare", []string{"--help"}, "--help"},
	} {
		if _, err := Parse(c.variant, c.opts); err == nil || err.Error() != c.err {
			t.Errorf("%s %q: %v, want %s", c.variant, c.opts, err, c.err)
		}
	}
	for variant, usage := range map[string]string{
		"declare":  "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
		"typeset":  "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
		"local":    "local [option] name[=value] ...",
		"export":   "export [-fn] [name[=value] ...] or export -p",
		"readonly": "readonly [-aAf] [name[=value] ...] or readonly -p",
	} {
		if got := Synopsis(variant); got != usage {
			t.Errorf("Synopsis(%s) = %q, want %q", variant, got, usage)
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
	opts, assigns := Split("declare", []string{"-a", "+i", "x=1", "-y"})
	if len(opts) != 2 || len(assigns) != 2 || Text(assigns[1]) != "-y" {
		t.Errorf("Split: %q %d", opts, len(assigns))
	}
	if !ArrayOpt([]string{"-ia"}) || ArrayOpt([]string{"+a"}) {
		t.Error("ArrayOpt")
	}
	if opts, _ := Split("export", []string{"+i", "-a"}); len(opts) != 0 {
		t.Errorf("Split: export took %q as options", opts)
	}
	if !Option("declare", "-x", nil, 0) || Option("declare", "-x", []string{"--"}, 0) || Option("declare", "-x", nil, 1) ||
		!Option("local", "+x", nil, 0) || Option("export", "+x", nil, 0) || Option("declare", "-", nil, 0) {
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
