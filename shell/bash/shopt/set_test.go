package shopt

import (
	"fmt"
	"strings"
	"testing"
)

// setShell is fakeShell with positional parameters.
type setShell struct {
	*fakeShell
	params []string
}

func (s *setShell) SetParams(p []string) { s.params = p }
func (s *setShell) ListVars()            { fmt.Fprintln(&s.out, "(variables)") }

// dash is $- without c, as bash prints its letters.
func (s *setShell) dash() string {
	var b strings.Builder
	for _, c := range "abefhkmnptuvxBCEHPT" {
		if s.opt[Short[c]] {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// TestSetSequence runs set as a script does and compares with bash
// 5.2's output of the same lines (bash -c '...', each followed by echo
// "${-/c/}|$#|$*"; stdout and stderr merged).
func TestSetSequence(t *testing.T) {
	sh := &setShell{fakeShell: &fakeShell{opt: map[string]bool{"braceexpand": true, "hashall": true}, shopt: map[string]bool{}}}
	lines := [][]string{
		{"-au"},
		{"-o", "pipefail", "-o", "noglob"},
		{"--", "a", "b"},
		{"-", "x", "y"},
		{"-"},
		{"+", "-C", "q"},
		{"a", "b c"},
		{"--"},
		{"-a", "--", "1", "2"},
		{"+auf", "+o", "pipefail"},
		{"-o", "nounset", "+o", "noglob", "7"},
		{"-fC", "z", "-x"},
	}
	for _, l := range lines {
		Set(sh, l)
		fmt.Fprintf(&sh.out, "%s|%d|%s\n", sh.dash(), len(sh.params), strings.Join(sh.params, " "))
		if sh.opt["pipefail"] {
			fmt.Fprintln(&sh.out, "set -o pipefail")
		}
	}
	// bash 5.2's status for an unknown -o name is 2, as for a bad letter
	fmt.Fprintf(&sh.out, "st=%d\n", Set(sh, []string{"-o", "bogus"}))
	fmt.Fprintf(&sh.out, "st=%d\n", Set(sh, []string{"+o", "bogus"}))
	fmt.Fprintf(&sh.out, "st=%d\n", Set(sh, []string{"-Z"}))
	fmt.Fprintf(&sh.out, "st=%d\n", Set(sh, []string{"+Z"}))
	Set(sh, nil)
	want := `ahuB|0|
afhuB|0|
set -o pipefail
afhuB|2|a b
set -o pipefail
afhuB|2|x y
set -o pipefail
afhuB|2|x y
set -o pipefail
afhuBC|1|q
set -o pipefail
afhuBC|2|a b c
set -o pipefail
afhuBC|0|
set -o pipefail
afhuBC|2|1 2
set -o pipefail
hBC|2|1 2
huBC|1|7
fhuBC|2|z -x
bash: line 1: set: bogus: invalid option name
st=2
bash: line 1: set: bogus: invalid option name
st=2
bash: line 1: set: -Z: invalid option
set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]
st=2
bash: line 1: set: +Z: invalid option
set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]
st=2
(variables)
`
	if got := sh.out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestFlags checks a shell's command-line options (bash -a -o pipefail
// -O extglob +B -o bogus -O bogus): unknown names are skipped.
func TestFlags(t *testing.T) {
	sh := &fakeShell{opt: map[string]bool{"braceexpand": true, "hashall": true}, shopt: map[string]bool{}}
	Flags(sh, []string{"-a", "-o", "pipefail", "-O", "extglob", "+B", "-o", "bogus", "-O", "bogus", "", "-eZ"})
	want := map[string]bool{"allexport": true, "pipefail": true, "braceexpand": false, "hashall": true, "errexit": true}
	if fmt.Sprint(sh.opt) != fmt.Sprint(want) {
		t.Errorf("options %v, want %v", sh.opt, want)
	}
	if fmt.Sprint(sh.shopt) != fmt.Sprint(map[string]bool{"extglob": true}) {
		t.Errorf("shopt options %v, want extglob only", sh.shopt)
	}
}
