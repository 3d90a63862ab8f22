package read

import (
	"fmt"
	"testing"
)

// TestParse checks read's argument parsing; the error texts and statuses
// are bash 5.2's (bash -c 'read -x; echo st=$?; ...').
func TestParse(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string // the Args, or the error and its status
	}{
		{[]string{"-x"}, "read: -x: invalid option st=2"},
		{[]string{"-n"}, "read: -n: option requires an argument st=2"},
		{[]string{"-n", "x"}, "read: x: invalid number st=1"},
		{[]string{"-n", "-1"}, "read: -1: invalid number st=1"},
		{[]string{"-t", "1.x"}, "read: 1.x: invalid timeout specification st=1"},
		{[]string{"-u", "z"}, "read: z: invalid file descriptor specification st=1"},
		{[]string{"-rq"}, "read: -q: invalid option st=2"},
		{[]string{"-rsd:", "a", "b"}, `{Raw:true Delim:58 N:-1 Exact:false} a="" fd=0 [a b]`},
		{[]string{"-N2", "q"}, `{Raw:false Delim:10 N:2 Exact:true} a="" fd=0 [q]`},
		{[]string{"-n", "3", "-N", "1"}, `{Raw:false Delim:10 N:1 Exact:true} a="" fd=0 []`},
		{[]string{"-a", "arr", "-p", "", "-i", "x", "-e", "-t", "0.5", "--", "-r"}, `{Raw:false Delim:10 N:-1 Exact:false} a="arr" fd=0 [-r]`},
		{[]string{"-d", "", "-u", "3", "z"}, `{Raw:false Delim:0 N:-1 Exact:false} a="" fd=3 [z]`},
		{[]string{"-", "x"}, `{Raw:false Delim:10 N:-1 Exact:false} a="" fd=0 [- x]`},
	} {
		a, err := Parse(c.args)
		got := fmt.Sprintf("%+v a=%q fd=%d %v", a.Options, a.Array, a.FD, a.Names)
		if e, ok := err.(*Error); ok {
			got = fmt.Sprintf("%s st=1", e.Msg)
		} else if err != nil {
			got = fmt.Sprintf("read: %v st=2", err)
		}
		if got != c.want {
			t.Errorf("read %q: %s; want %s", c.args, got, c.want)
		}
	}
}
