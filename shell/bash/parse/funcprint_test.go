package parse

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestFuncText: bash 5.2's declare -f of the same function.
func TestFuncText(t *testing.T) {
	src := "f() { echo a; if true; then echo b; fi; for i in 1 2; do echo $i; done; }"
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	fd := f.Stmts[0].Cmd.(*syntax.FuncDecl)
	want := "f () \n{ \n    echo a;\n    if true; then\n        echo b;\n    fi;\n    for i in 1 2;\n    do\n        echo $i;\n    done\n}"
	if got := FuncText("f", fd.Body); got != want {
		t.Errorf("FuncText =\n%s\nwant\n%s", got, want)
	}
}
