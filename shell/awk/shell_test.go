package awk_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/shell"
	"github.com/spf13/afero"
)

// TestAwkInShell runs awk through the whole shell: pipes into and out of
// it, commands it runs through sh -c, files on the shell's filesystem.
func TestAwkInShell(t *testing.T) {
	cases := []struct {
		script string
		want   string
		code   int
	}{
		{`printf 'a 1\nb 2\na 3\n' | awk '{s[$1]+=$2} END {for (k in s) print k, s[k]}' | sort`, "a 4\nb 2\n", 0},
		{`printf 'b\na\nc\n' | awk '{print | "sort"} END {close("sort"); print "done"}'`, "a\nb\nc\ndone\n", 0},
		{`awk 'BEGIN {"echo one two" | getline; print $2; "echo x" | getline v; print v}'`, "two\nx\n", 0},
		{`awk 'BEGIN {printf "a "; r = system("echo b; exit 3"); print "r=" r}'`, "a b\nr=3\n", 0},
		{`awk 'BEGIN {while (("printf \"1\\n2\\n\"" | getline l) > 0) s += l; print s}'`, "3\n", 0},
		{"awk '{print $2 > ($1 \".out\")}' <<EOF\nx 1\ny 2\nx 3\nEOF\ncat x.out y.out", "1\n3\n2\n", 0},
		{`echo 'BEGIN { print "from file" }' > /work/p.awk && awk -f /work/p.awk`, "from file\n", 0},
		{`awk 'BEGIN { for (i = 0; i < 100000; i++) print i }' | head -2`, "0\n1\n", 0},
		{`awk 'BEGIN { print "to err" > "/dev/stderr"; print "to out" }' 2>/dev/null`, "to out\n", 0},
		{`awk 'BEGIN { exit 4 }'; echo $?`, "4\n", 0},
		{`awk 'BEGIN { print ENVIRON["FOO"] }'`, "bar\n", 0},
		{`awk 'BEGIN { system("nosuchcmd") }' 2>&1`, "sh: line 1: nosuchcmd: command not found\n", 0},
		{`awk '{print}' /work/missing.txt`, "", 2},
		{`echo hi | awk '{print > "/dev/null"; print "ok"}'`, "ok\n", 0},
	}
	for _, tc := range cases {
		fsys := afero.NewMemMapFs()
		if err := fsys.MkdirAll("/work", 0o755); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		code, err := shell.Run(ctx, tc.script, shell.Options{FS: fsys, Dir: "/work", Env: map[string]string{"FOO": "bar"}, Stdout: &out, Stderr: &errb})
		cancel()
		if err != nil {
			t.Errorf("%s: %v", tc.script, err)
			continue
		}
		if out.String() != tc.want || code != tc.code {
			t.Errorf("%s:\nstdout %q, exit %d; want %q, exit %d\nstderr %q", tc.script, out.String(), code, tc.want, tc.code, errb.String())
		}
	}
}

// TestAwkCommandsDontEatInput: a command run by awk gets no input, so awk
// keeps reading its own.
func TestAwkCommandsDontEatInput(t *testing.T) {
	fsys := afero.NewMemMapFs()
	var out, errb bytes.Buffer
	script := `printf '1\n2\n3\n' | awk '{ n++; "echo x" n | getline v; close("echo x" n); system("true"); print $0, v }'`
	code, err := shell.Run(context.Background(), script, shell.Options{FS: fsys, Stdout: &out, Stderr: &errb})
	if err != nil || code != 0 || out.String() != "1 x1\n2 x2\n3 x3\n" {
		t.Errorf("got %q, exit %d, %v; stderr %q", out.String(), code, err, errb.String())
	}
}
