package ulimit

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestRun runs ulimit commands one after another on one shell's limits;
// the messages are bash 5.2's (without its "bash: line N: " prefix).
func TestRun(t *testing.T) {
	var limits Limits
	steps := []struct {
		args   string
		status int
		out    string
	}{
		{"-n", 0, "1024\n"},
		{"-Hn", 0, "1048576\n"},
		{"-c -n", 0, "core file size              (blocks, -c) 0\nopen files                          (-n) 1024\n"},
		{"-n abc", 1, "ulimit: abc: invalid number\n"},
		{"-Sn 2000000", 1, "ulimit: open files: cannot modify limit: Invalid argument\n"},
		{"-Hn 2048", 0, ""},
		{"-Hn 4096", 1, "ulimit: open files: cannot modify limit: Operation not permitted\n"},
		{"-x -n 50", 0, "file locks                          (-x) unlimited\n"},
		{"-n", 0, "50\n"},
		{"-Hn", 0, "50\n"},
		{"-p 16", 1, "ulimit: pipe size: cannot modify limit: Invalid argument\n"},
		{"-Z", 2, "ulimit: -Z: invalid option\nulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n"},
	}
	for _, st := range steps {
		var out bytes.Buffer
		errf := func(format string, a ...any) { fmt.Fprintf(&out, format+"\n", a...) }
		status := Run(&limits, strings.Fields(st.args), &out, &out, errf)
		if status != st.status || out.String() != st.out {
			t.Fatalf("ulimit %s = %d %q, want %d %q", st.args, status, out.String(), st.status, st.out)
		}
	}
	if !(Limits{'n': {3, 3}}).TooManyFiles() || (Limits{}).TooManyFiles() {
		t.Error("TooManyFiles: want true only at an open files limit of 3")
	}
}
