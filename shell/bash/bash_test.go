package bash

import (
	"context"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

func runScript(t testing.TB, script string) (string, string, int) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	_ = fsys.MkdirAll("/home/user", 0o755)
	var out, errb strings.Builder
	code, err := Run(context.Background(), script, Options{FS: fsys, Dir: "/home/user", Stdout: &out, Stderr: &errb, Env: map[string]string{"HOME": "/home/user"}})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestPanicTrace(t *testing.T) {
	out, e, code := runScript(t, "x=$(bash -u -c 'echo prev=$_'); echo $x")
	t.Log(out, e, code)
}
