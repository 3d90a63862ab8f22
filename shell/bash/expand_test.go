package bash

import (
	"context"
	"slices"
	"testing"

	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/parse"
)

// TestPlainField: a word plainField takes as it is expands, through the
// whole expansion (wordFields), to that one field; the words it leaves
// to the expansion are those with something to expand.
func TestPlainField(t *testing.T) {
	fsys := afero.NewMemMapFs()
	_ = fsys.MkdirAll("/home/user/ab", 0o755)
	r := newRunner(context.Background(), &Options{FS: fsys}, "/home/user")
	r.setVar("HOME", "/home/user")
	for _, c := range []struct {
		word  string
		plain bool
		opt   string // set -o or shopt -s before
	}{
		{word: "[", plain: true},
		{word: "]", plain: true},
		{word: "-lt", plain: true},
		{word: "100000", plain: true},
		{word: "a]b", plain: true},
		{word: "a*", plain: false},
		{word: "a*", plain: true, opt: "noglob"},
		{word: "[ab]", plain: false},
		{word: "?", plain: false},
		{word: "~", plain: false},
		{word: "~/x", plain: false},
		{word: "a~", plain: true},
		{word: `a\b`, plain: false},
		{word: "$x", plain: false},
		{word: "'a'", plain: false},
		{word: "a{b,c}", plain: false},
		{word: "{b}", plain: false},
	} {
		r.opt["noglob"] = c.opt == "noglob"
		r.shopt["extglob"] = c.opt == "extglob"
		f, err := parse.Script("echo " + c.word + "\n")
		if err != nil {
			t.Fatalf("%s: %v", c.word, err)
		}
		w := f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]
		v, ok := r.plainField(w)
		if ok != c.plain {
			t.Errorf("%s (%s): plain %v, want %v", c.word, c.opt, ok, c.plain)
		}
		if !ok || hasBraces(w) {
			continue
		}
		got, err := r.wordFields(nil, w)
		if err != nil || !slices.Equal(got, []string{v}) {
			t.Errorf("%s (%s): plain %q, expanded %q, %v", c.word, c.opt, v, got, err)
		}
	}
}

// TestParamPlain: $x and ${x} of plain variables, specials, positional
// parameters and namerefs (to a variable, to an element) expand as bash
// 5.2 expands them.
func TestParamPlain(t *testing.T) {
	script := `a=(x y z); declare -n r='a[1]'; echo $r ${r}; set -- p q; echo $1 ${2} $#; false; echo $?
declare -n s=a; echo $s "${s}"; v='1 2'; printf '<%s>' $v "$v" ${v}; echo; unset v; echo "[$v]"
`
	want := "y y\np q 2\n1\nx x\n<1><2><1 2><1><2>\n[]\n"
	if out, errs, code := runScript(t, script); out != want || errs != "" || code != 0 {
		t.Errorf("got %q, stderr %q, status %d; want %q", out, errs, code, want)
	}
}
