package shell

import (
	"context"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/vfs"
)

// runNew runs script over an empty vfs.
func runNew(t *testing.T, script string) (string, string, int) {
	t.Helper()
	fsys := vfs.New(vfs.Options{})
	if err := fsys.MkdirAll("/home/user", 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errb strings.Builder
	code, err := Run(context.Background(), script, Options{FS: fsys, Dir: "/home/user", Stdout: &out, Stderr: &errb})
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func TestNewInterpreter(t *testing.T) {
	for _, tc := range []struct {
		script, out string
		code        int
	}{
		{"echo hi", "hi\n", 0},
		{"x=1; echo $x ${x:-d} ${y:-d}", "1 1 d\n", 0},
		{"a=(1 2 3); echo ${#a[@]} ${a[1]}; for i in \"${a[@]}\"; do echo $i; done", "3 2\n1\n2\n3\n", 0},
		{"echo hi | tr a-z A-Z", "HI\n", 0},
		{"f() { return 3; }; f; echo $?", "3\n", 0},
		{"printf '%5.1f|%-3s|%x\\n' 2.25 a 255", "  2.2|a  |ff\n", 0},
		{"echo $((1+2*3)); (( x = 5 )); echo $x", "7\n5\n", 0},
		{"exit 3", "", 3},
		{"nosuch", "", 127},
		{"echo a > f; cat f; echo b >> f; wc -l < f", "a\n2\n", 0},
		{"x=$(echo hi); echo \"[$x]\"", "[hi]\n", 0},
		{"case ab in a*) echo yes;; *) echo no;; esac", "yes\n", 0},
		{"IFS=_; s=_a_b_; set -- $s; echo $#", "3\n", 0},
		{"read a b <<< 'x y z'; echo $a/$b", "x/y z\n", 0},
	} {
		out, _, code := runNew(t, tc.script)
		if out != tc.out || code != tc.code {
			t.Errorf("%q: got %q %d, want %q %d", tc.script, out, code, tc.out, tc.code)
		}
	}
}

func TestNewInterpreterPipeAll(t *testing.T) {
	out, errText, _ := runNew(t, "echo out; echo err >&2 |& cat; echo both 2>&1 |& cat")
	if out != "out\nboth\n" || errText != "err\n" {
		t.Errorf("got %q, stderr %q", out, errText)
	}
}
