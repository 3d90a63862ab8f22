package expand

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

// Every expected value below is bash 5.2.15's output for the expansion
// named in the case.

func fieldsOf(segs [][]Seg) []string {
	var out []string
	for _, f := range segs {
		var b strings.Builder
		for _, s := range f {
			b.WriteString(s.S)
		}
		out = append(out, b.String())
	}
	return out
}

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		ifs, s string
		want   []string
	}{
		{"_", "_a_b_", []string{"", "a", "b"}},
		{" ", "  a  b  ", []string{"a", "b"}},
		{": ", "a : b::c ", []string{"a", "b", "", "c"}},
		{":", "a::b:", []string{"a", "", "b"}},
		{"", "a b", []string{"a b"}},
		{" ", "ab", []string{"ab"}},
		{":", "a b", []string{"a b"}},
	} {
		got := fieldsOf(Split(&Field{Segs: []Seg{{S: c.s, Split: true}}, Real: true}, c.ifs))
		if !slices.Equal(got, c.want) {
			t.Errorf("IFS=%q; s=%q; $s: %q, want %q", c.ifs, c.s, got, c.want)
		}
	}
	// "$e"$x with x empty and unquoted: a quoted empty keeps the field;
	// $x alone is no field.
	if got := Split(&Field{Segs: []Seg{{S: "", Split: true}}}, " "); got != nil {
		t.Errorf("empty expansion: %v", got)
	}
	if got := fieldsOf(Split(&Field{Segs: []Seg{{Quoted: true}, {Split: true}}}, " ")); !slices.Equal(got, []string{""}) {
		t.Errorf(`""$x: %q`, got)
	}
}

// TestWhole: a field with no unquoted expansion to split, or none with
// an IFS character, is itself, as Split gives it; nil when only empty
// expansions. IFS is read only when an expansion has text.
func TestWhole(t *testing.T) {
	for _, c := range []struct {
		segs    []Seg
		ifs     string
		ok      bool
		readIFS bool
	}{
		{segs: []Seg{{S: "a"}, {S: "*", Quoted: true}}, ifs: " ", ok: true},
		{segs: []Seg{{S: "", Split: true}, {S: "b", Quoted: true}}, ifs: " ", ok: true},
		{segs: []Seg{{S: "", Split: true}}, ifs: " ", ok: true},
		{segs: []Seg{{S: "a"}, {S: "bc", Split: true}}, ifs: " \t\n", ok: true, readIFS: true},
		{segs: []Seg{{S: "a"}, {S: "b c", Split: true}}, ifs: "", ok: true, readIFS: true},
		{segs: []Seg{{S: "a"}, {S: "b c", Split: true}}, ifs: " ", ok: false, readIFS: true},
		{segs: []Seg{{S: "a:b", Split: true}}, ifs: ":", ok: false, readIFS: true},
	} {
		f := &Field{Segs: c.segs, Real: true}
		read := false
		got, ok := Whole(f, func() string { read = true; return c.ifs })
		if ok != c.ok || read != c.readIFS {
			t.Errorf("%v, IFS %q: ok %v (IFS read %v), want %v (%v)", c.segs, c.ifs, ok, read, c.ok, c.readIFS)
			continue
		}
		if !ok {
			continue
		}
		if want := Split(f, c.ifs); !slices.Equal(fieldsOf(want), fieldsOf([][]Seg{got})) && !(want == nil && got == nil) {
			t.Errorf("%v, IFS %q: Whole %q, Split %q", c.segs, c.ifs, fieldsOf([][]Seg{got}), fieldsOf(want))
		}
	}
}

func TestWord(t *testing.T) {
	var w Word
	w.AddLit(`a\*b\`)
	w.AddList([]string{"x", "", "y"}, false, false, "")
	if got := fieldsOf([][]Seg{w.Fields[0].Segs}); got[0] != `a*b\x` || len(w.Fields) != 3 || w.Fields[1].Real {
		t.Errorf("fields %q, %d", got, len(w.Fields))
	}
	if got := w.Text(" ", QuotePattern); got != `a\*b\x  y` {
		t.Errorf("as a pattern: %q", got)
	}
	var star Word
	star.AddList([]string{"a", "b"}, true, true, ":")
	if star.Joined() != "a:b" {
		t.Errorf(`"$*": %q`, star.Joined())
	}
	text, pat, maybe := GlobText([]Seg{{S: "*."}, {S: "[c]", Quoted: true}})
	if text != "*.[c]" || pat != `*.\[c\]` || !maybe {
		t.Errorf("GlobText: %q %q %v", text, pat, maybe)
	}
	if _, _, maybe := GlobText([]Seg{{S: "*", Quoted: true}}); maybe {
		t.Error(`"*" is a pattern`)
	}
}

func TestTrimCase(t *testing.T) {
	v := "path/to/file.tar.gz"
	for _, c := range []struct {
		pat  string
		op   syntax.ParExpOperator
		want string
	}{
		{"*/", syntax.RemSmallPrefix, "to/file.tar.gz"},
		{"*/", syntax.RemLargePrefix, "file.tar.gz"},
		{".*", syntax.RemSmallSuffix, "path/to/file.tar"},
		{".*", syntax.RemLargeSuffix, "path/to/file"},
		{"x", syntax.RemSmallPrefix, v},
	} {
		if got := Trim(v, c.pat, c.op); got != c.want {
			t.Errorf("Trim(%q, %v) = %q, want %q", c.pat, c.op, got, c.want)
		}
	}
	u := "héllo wörld"
	for _, c := range []struct {
		v, pat string
		op     syntax.ParExpOperator
		want   string
	}{
		{u, "?", syntax.UpperFirst, "Héllo wörld"},
		{u, "?", syntax.UpperAll, "HÉLLO WÖRLD"},
		{u, "[lo]", syntax.UpperAll, "héLLO wörLd"},
		{"HÉLLO", "?", syntax.LowerFirst, "hÉLLO"},
		{"HÉLLO", "?", syntax.LowerAll, "héllo"},
	} {
		if got := CaseMod(c.v, c.pat, c.op); got != c.want {
			t.Errorf("CaseMod(%q, %q, %v) = %q, want %q", c.v, c.pat, c.op, got, c.want)
		}
	}
}

func TestReplace(t *testing.T) {
	for _, c := range []struct {
		v, pat, with string
		all, bytes   bool
		want         string
	}{
		{"aaa bab", "a", "X", false, false, "Xaa bab"},
		{"aaa bab", "a", "X", true, false, "XXX bXb"},
		{"aaa bab", "#a", "X", false, false, "Xaa bab"},
		{"aaa bab", "%b", "X", false, false, "aaa baX"},
		{"aaa bab", "#", "P", false, false, "Paaa bab"},
		{"aaa bab", "%", "S", false, false, "aaa babS"},
		{"aaa bab", "[ab]", "", true, false, " "},
		{"aaa bab", "b*", "", false, false, "aaa "},
		{"μa", "?", "X", false, false, "Xa"},
		{"μa", "?", "X", false, true, "X\xbca"},
		{"μa", "?", ".", true, true, "..."},
	} {
		if got := Replace([]string{c.v}, c.pat, c.with, c.all, c.bytes)[0]; got != c.want {
			t.Errorf("${%q/%q/%q} (all %v, C %v) = %q, want %q", c.v, c.pat, c.with, c.all, c.bytes, got, c.want)
		}
	}
}

func TestSlice(t *testing.T) {
	n := func(l int64) func() (int64, error) { return func() (int64, error) { return l, nil } }
	for _, c := range []struct {
		off    int64
		length func() (int64, error)
		want   string
	}{{1, nil, "éllo"}, {1, n(2), "él"}, {-2, nil, "lo"}, {1, n(-1), "éll"}, {9, nil, ""}} {
		got, err := SliceString([]string{"héllo"}, c.off, c.length)
		if err != nil || got[0] != c.want {
			t.Errorf("${w:%d}: %q, %v; want %q", c.off, got, err, c.want)
		}
	}
	if _, err := SliceString([]string{"héllo"}, 1, n(-9)); err == nil || err.Error() != "-9: substring expression < 0" {
		t.Errorf("${w:1:-9}: %v", err)
	}
	params := []string{"/tmp/exp.sh", "a", "b", "c", "d"} // $0 first
	for _, c := range []struct {
		off    int64
		length func() (int64, error)
		want   []string
	}{{2, nil, []string{"b", "c", "d"}}, {0, n(2), []string{"/tmp/exp.sh", "a"}}, {-1, nil, []string{"d"}}, {2, n(1), []string{"b"}}, {9, nil, nil}} {
		if got, err := SliceList(params, c.off, c.length); err != nil || !slices.Equal(got, c.want) {
			t.Errorf("${@:%d}: %q, %v", c.off, got, err)
		}
	}
	var se *SubstringError
	if _, err := SliceList(params, 0, n(-1)); !errors.As(err, &se) {
		t.Errorf("${@:0:-1}: %v", err)
	}
	a := &vars.Var{Set: true, Kind: vars.Indexed, Idx: map[int]string{0: "x", 1: "y", 2: "z"}}
	from, _ := a.From(-2)
	if got, _ := SliceList(from, 0, n(1)); !slices.Equal(got, []string{"y"}) {
		t.Errorf("${a[@]: -2:1}: %q", got)
	}
}

func TestTransform(t *testing.T) {
	q := "it's\t"
	for _, c := range []struct{ op, in, want string }{
		{"Q", q, `$'it\'s\t'`}, {"U", q, "IT'S\t"}, {"L", "IT'S", "it's"}, {"u", q, "It's\t"},
		{"E", `a\tb\x41`, "a\tbA"}, {"P", "x", "x"},
	} {
		vals := []string{c.in}
		if !Transform(c.op, vals) || vals[0] != c.want {
			t.Errorf("${v@%s} = %q, want %q", c.op, vals[0], c.want)
		}
	}
	if Transform("Z", []string{"x"}) {
		t.Error("@Z is an operator")
	}
	h := &vars.Var{Set: true, Kind: vars.Assoc}
	h.SetAssoc("k", "v")
	h.SetAssoc("x y", "q's")
	if got := KeyValues(h, true); !slices.Equal(got, []string{`k "v" "x y" "q's" `}) {
		t.Errorf("${h[@]@K}: %q", got)
	}
	if got := KeyValues(h, false); !slices.Equal(got, []string{"k", "v", "x y", "q's"}) {
		t.Errorf("${h[@]@k}: %q", got)
	}
	i := &vars.Var{Set: true, Kind: vars.Indexed, Idx: map[int]string{0: "1", 1: "", 2: "a b"}}
	if got := KeyValues(i, true); !slices.Equal(got, []string{`0 "1" 1 "" 2 "a b"`}) {
		t.Errorf("${i[@]@K}: %q", got)
	}
}

// bash's, but that the sandbox knows two users only (root, user): bash
// on a host expands ~nobody to its home.
func TestTildeEscapes(t *testing.T) {
	env := map[string]string{"HOME": "/home/user", "PWD": "/w"}
	get := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	for in, want := range map[string]string{
		"~": "/home/user", "~/a": "/home/user/a", "~+/b": "/w/b", "~-": "~-", "~root": "/root", "~nobody/x": "~nobody/x", "a~": "a~",
	} {
		if got := Tilde(in, get); got != want {
			t.Errorf("Tilde(%q) = %q, want %q", in, got, want)
		}
	}
	if got := TildeAssign("~:a:~/b", true, get); got != "/home/user:a:/home/user/b" {
		t.Errorf("PATH=~:a:~/b gives %q", got)
	}
	if got := UnescapeDq(`\$a \" \x \\ b\`+"\n", false); got != `$a " \x \ b` {
		t.Errorf("UnescapeDq %q", got)
	}
	if got := UnescapeDq(`\"`, true); got != `\"` {
		t.Errorf("UnescapeDq in a here-document %q", got)
	}
	if got := SplitGlobIgnore("[[:alnum:]]*:.*:a\\:b"); !slices.Equal(got, []string{"[[:alnum:]]*", ".*", `a\:b`}) {
		t.Errorf("SplitGlobIgnore %q", got)
	}
	if got := ANSIC(`a\x00b\n`); got != "a" {
		t.Errorf("$'a\\x00b' = %q", got)
	}
}

func TestRefs(t *testing.T) {
	// set -- a b; IFS=; "$*" is ab; IFS=:x gives a:b; IFS unset or " "
	// a b.
	for _, c := range []struct {
		ifs  string
		set  bool
		want string
	}{{"", true, ""}, {":x", true, ":"}, {"", false, " "}, {" ", true, " "}, {" \t\n", true, " "}, {"μ", true, "μ"}} {
		if got := StarSep(c.ifs, c.set); got != c.want {
			t.Errorf("StarSep(%q, %v) = %q", c.ifs, c.set, got)
		}
	}
	for s, want := range map[string]string{"a": "a", "a[1]": "a[1]", "a[b*]": "a[b*]", "a[@]": "a[@]", "1a": "", "a['x]": "", "a-1": ""} {
		got := ""
		if pe := ElemRef(s); pe != nil {
			got = pe.Param.Value
			if pe.Index != nil {
				got += "[" + strings.TrimSpace(printIndex(pe.Index)) + "]"
			}
		}
		if got != want {
			t.Errorf("ElemRef(%q) = %q, want %q", s, got, want)
		}
	}
	if _, err := ParseRef("x:-y"); !errors.Is(err, ErrNotRef) {
		t.Errorf("ParseRef(x:-y): %v", err)
	}
}

func printIndex(e syntax.ArithmExpr) string {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, e)
	return b.String()
}

// bash 5.2: x=; ${x-u} is "", ${x:-u} u; set -- ""; "${@:-u}" u,
// "${@-u}" ""; set --; "${@-u}" u; a=("" ""); IFS=; "${a[*]:-u}" u,
// "${a[@]:-u}" "" ""; with IFS unset or ":", "${a[*]:-u}" is the
// elements joined (" ", ":"), not u.
func TestMissing(t *testing.T) {
	for _, c := range []struct {
		vals                   []string
		set, list, star, colon bool
		want                   bool
	}{
		{[]string{""}, true, false, false, false, false},
		{[]string{""}, true, false, false, true, true},
		{[]string{""}, true, true, false, true, true},
		{[]string{""}, true, true, false, false, false},
		{nil, false, true, false, false, true},
		{[]string{"", ""}, true, true, true, true, true},
		{[]string{"", ""}, true, true, false, true, false},
		{nil, false, false, false, false, true},
	} {
		if got := Missing(c.vals, c.set, c.list, c.star, c.colon, ""); got != c.want {
			t.Errorf("Missing(%q, set %v, list %v, star %v, colon %v) = %v", c.vals, c.set, c.list, c.star, c.colon, got)
		}
	}
	for _, sep := range []string{" ", ":"} {
		if Missing([]string{"", ""}, true, true, true, true, sep) {
			t.Errorf(`a=("" ""); IFS=%q; "${a[*]:-u}" is u`, sep)
		}
	}
}
