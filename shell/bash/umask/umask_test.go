package umask

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestRun runs umask commands one after another on one mask; outputs and
// messages are bash 5.2's (without its "bash: line N: " prefix).
func TestRun(t *testing.T) {
	m := uint32(0o022)
	mask := func(set bool, v uint32) uint32 {
		if set {
			m = v
		}
		return m
	}
	steps := []struct {
		args   string
		out    string
		status int
		msg    string
	}{
		{"", "0022\n", 0, ""},
		{"-S", "u=rwx,g=rx,o=rx\n", 0, ""},
		{"-p", "umask 0022\n", 0, ""},
		{"-S -p", "umask -S u=rwx,g=rx,o=rx\n", 0, ""},
		{"u=rwx,g=,o=", "", 0, ""},
		{"", "0077\n", 0, ""},
		{"999", "", 1, "umask: 999: octal number out of range\n"},
		{"a+z", "", 1, "umask: `z': invalid symbolic mode character\n"},
		{"-x", "", 2, "umask: -x: invalid option\numask: usage: umask [-p] [-S] [mode]\n"},
		{"", "0077\n", 0, ""},
	}
	for _, st := range steps {
		var msg bytes.Buffer
		errf := func(format string, a ...any) { fmt.Fprintf(&msg, format+"\n", a...) }
		out, status := Run(strings.Fields(st.args), mask, &msg, errf)
		if out != st.out || status != st.status || msg.String() != st.msg {
			t.Fatalf("umask %s = %q, %d, %q; want %q, %d, %q", st.args, out, status, msg.String(), st.out, st.status, st.msg)
		}
	}
}
