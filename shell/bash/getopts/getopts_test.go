package getopts

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

type fakeShell struct {
	vars map[string]string
	errs bytes.Buffer
}

func (f *fakeShell) Var(name string) (string, bool) { v, ok := f.vars[name]; return v, ok }
func (f *fakeShell) SetVar(name, val string) error  { f.vars[name] = val; return nil }
func (f *fakeShell) UnsetVar(name string)           { delete(f.vars, name) }
func (f *fakeShell) SetGlobal(name, val string)     { f.vars[name] = val }
func (f *fakeShell) Errf(format string, a ...any) {
	fmt.Fprintf(&f.errs, "bash: "+format+"\n", a...)
}
func (f *fakeShell) Stderr() io.Writer { return &f.errs }

// TestRun runs `while getopts SPEC opt ARGS; do echo "$?:$opt:${OPTARG-unset}:$OPTIND"; done`
// and compares with bash 5.2's output (the last line is the final call).
func TestRun(t *testing.T) {
	tests := []struct {
		spec string
		args []string
		want string
	}{
		{"ab:c", []string{"-a", "-bX", "-c", "rest"},
			"0:a:unset:2 0:b:X:3 0:c:unset:4 1:?:unset:4"},
		{"ab:", []string{"-ab", "val", "x"},
			"0:a:unset:1 0:b:val:3 1:?:unset:3"},
		{"a", []string{"-z"},
			"0:?:unset:2 1:?:unset:2|bash: illegal option -- z"},
		{":a", []string{"-z"},
			"0:?:z:2 1:?:unset:2"},
		{"b:", []string{"-b"},
			"0:?:unset:2 1:?:unset:2|bash: option requires an argument -- b"},
		{":b:", []string{"-b"},
			"0:::b:2 1:?:unset:2"},
		{"a", []string{"-a", "--", "-a"},
			"0:a:unset:2 1:?:unset:3"},
	}
	for _, tt := range tests {
		sh := &fakeShell{vars: map[string]string{}}
		var out []string
		for i := 0; i < 10; i++ {
			st := Run(sh, "bash", []string{tt.spec, "opt"}, tt.args)
			optarg, ok := sh.vars["OPTARG"]
			if !ok {
				optarg = "unset"
			}
			out = append(out, fmt.Sprintf("%d:%s:%s:%s", st, sh.vars["opt"], optarg, sh.vars["OPTIND"]))
			if st != 0 {
				break
			}
		}
		got := strings.Join(out, " ")
		if e := strings.TrimSpace(sh.errs.String()); e != "" {
			got += "|" + e
		}
		if got != tt.want {
			t.Errorf("getopts %s %q:\n got %s\nwant %s", tt.spec, tt.args, got, tt.want)
		}
	}
}

func TestUsage(t *testing.T) {
	sh := &fakeShell{vars: map[string]string{}}
	if st := Run(sh, "bash", []string{"a"}, nil); st != 2 {
		t.Errorf("status %d, want 2", st)
	}
	if got := sh.errs.String(); got != "bash: getopts: usage: getopts optstring name [arg ...]\n" {
		t.Errorf("stderr %q", got)
	}
}
