package trap

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestSequence runs a sequence of trap and kill -l commands over one
// table and compares with bash 5.2's output (stdout and stderr merged,
// "st=N" after a command whose status is shown).
func TestSequence(t *testing.T) {
	traps := map[string]string{}
	var shown map[string]string
	var out bytes.Buffer
	errf := func(format string, a ...any) { fmt.Fprintf(&out, "bash: line 1: "+format+"\n", a...) }
	run := func(args ...string) int { return Run(traps, &shown, args, &out, &out, errf) }
	run("echo a", "EXIT")
	run("echo 'q'", "INT")
	run(":", "USR1", "RETURN")
	run("-p")
	run("-", "INT")
	fmt.Fprintf(&out, "st=%d\n", run("1"))
	run()
	fmt.Fprintf(&out, "st=%d\n", run("-x"))
	fmt.Fprintf(&out, "st=%d\n", run("foo", "BOGUS"))
	fmt.Fprintf(&out, "st=%d\n", List([]string{"9", "137", "HUP", "sigterm", "99", "x"}, &out, errf))
	want := `trap -- 'echo a' EXIT
trap -- 'echo '\''q'\''' SIGINT
trap -- ':' SIGUSR1
trap -- ':' RETURN
st=0
trap -- 'echo a' EXIT
trap -- ':' SIGUSR1
trap -- ':' RETURN
bash: line 1: trap: -x: invalid option
trap: usage: trap [-lp] [[arg] signal_spec ...]
st=2
bash: line 1: trap: BOGUS: invalid signal specification
st=1
KILL
KILL
1
15
bash: line 1: kill: 99: invalid signal specification
bash: line 1: kill: x: invalid signal specification
st=1
`
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestShown(t *testing.T) {
	shown := map[string]string{"EXIT": "echo parent"}
	traps := map[string]string{}
	var out bytes.Buffer
	Run(traps, &shown, nil, &out, &out, nil)
	if out.String() != "trap -- 'echo parent' EXIT\n" || shown == nil {
		t.Errorf("listing a subshell's inherited traps: %q", out.String())
	}
	Run(traps, &shown, []string{"", "INT"}, &out, &out, nil)
	if shown != nil || traps["INT"] != "" {
		t.Errorf("setting a trap keeps the parent's list: shown %v, traps %v", shown, traps)
	}
}

func TestTable(t *testing.T) {
	// bash 5.2 ends a full row without the tab (Table still prints it).
	lines := strings.Split(Table(), "\n")
	if strings.TrimSuffix(lines[0], "\t") != " 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 4) SIGILL\t 5) SIGTRAP" ||
		strings.TrimSuffix(lines[1], "\t") != " 6) SIGABRT\t 7) SIGBUS\t 8) SIGFPE\t 9) SIGKILL\t10) SIGUSR1" {
		t.Errorf("table starts %q", lines[:2])
	}
	if Numbers["RTMAX"] != 64 || Numbers["RTMIN+1"] != 35 || Names[49] != "RTMIN+15" || Names[50] != "RTMAX-14" {
		t.Errorf("real-time signals: RTMAX=%d RTMIN+1=%d 49=%s 50=%s", Numbers["RTMAX"], Numbers["RTMIN+1"], Names[49], Names[50])
	}
}
