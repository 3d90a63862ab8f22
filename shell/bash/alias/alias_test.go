package alias

import (
	"bytes"
	"fmt"
	"testing"
)

// TestSequence runs a sequence of alias and unalias commands over one
// table and compares with bash 5.2's output (stdout and stderr merged).
func TestSequence(t *testing.T) {
	aliases := map[string]string{}
	var out bytes.Buffer
	errf := func(format string, a ...any) { fmt.Fprintf(&out, "bash: line 1: "+format+"\n", a...) }
	al := func(args ...string) int { return Alias(aliases, args, &out, errf) }
	un := func(args ...string) int { return Unalias(&aliases, args, &out, errf) }
	al()
	al("b=echo it's", "a=ls")
	al()
	fmt.Fprintf(&out, "st=%d\n", al("a", "zz"))
	fmt.Fprintf(&out, "st=%d\n", un())
	fmt.Fprintf(&out, "st=%d\n", un("a", "qq"))
	al("-p")
	un("-a")
	al()
	want := `alias a='ls'
alias b='echo it'\''s'
alias a='ls'
bash: line 1: alias: zz: not found
st=1
unalias: usage: unalias [-a] name [name ...]
st=2
bash: line 1: unalias: qq: not found
st=1
alias b='echo it'\''s'
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}
