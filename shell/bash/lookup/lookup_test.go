package lookup

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// fakeShell has the alias ll, the function f, the builtin echo and the
// files /tmp/lk/a/tool, /tmp/lk/b/tool and /tmp/lk/b/only, with $PATH
// /tmp/lk/a:/tmp/lk/b.
type fakeShell struct {
	out  bytes.Buffer
	line int
}

func (f *fakeShell) Errf(format string, a ...any) {
	fmt.Fprintf(&f.out, "bash: line %d: "+format+"\n", append([]any{f.line}, a...)...)
}
func (f *fakeShell) Stdout() io.Writer { return &f.out }
func (f *fakeShell) Stderr() io.Writer { return &f.out }
func (f *fakeShell) Alias(name string) (string, bool) {
	return "ls -l", name == "ll"
}
func (f *fakeShell) IsFunc(name string) bool     { return name == "f" }
func (f *fakeShell) FuncText(name string) string { return name + " () \n{ \n    echo hi\n}" }
func (f *fakeShell) IsBuiltin(name string) bool  { return name == "echo" || name == "type" }
func (f *fakeShell) Path() string                { return "/tmp/lk/a:/tmp/lk/b" }
func (f *fakeShell) Find(name, pathList string) (string, string) {
	files := map[string][]string{"/tmp/lk/a": {"tool"}, "/tmp/lk/b": {"tool", "only"}}
	for _, d := range strings.Split(pathList, ":") {
		for _, n := range files[d] {
			if n == name {
				return "file", d + "/" + n
			}
		}
	}
	return "", ""
}

// TestSequence runs type, command -v/-V and hash as a script would and
// compares with bash 5.2's output of the same lines (env -i
// PATH=/tmp/lk/a:/tmp/lk/b bash -c '...', stdout and stderr merged,
// "st=N" after each line, the line number in messages).
func TestSequence(t *testing.T) {
	sh := &fakeShell{}
	var tab Table
	lines := []func() int{
		func() int { return Type(sh, []string{"ll", "if", "f", "echo", "tool", "nosuch"}) },
		func() int { return Type(sh, []string{"-t", "ll", "if", "f", "echo", "tool", "nosuch"}) },
		func() int {
			Type(sh, []string{"-a", "tool"})
			Type(sh, []string{"-p", "tool", "echo"})
			return Type(sh, []string{"-P", "echo", "tool"})
		},
		func() int { Type(sh, []string{"-af", "f"}); return Type(sh, []string{"-x"}) },
		func() int { return Command(sh, []string{"ll", "if", "f", "echo", "tool", "nosuch"}, true, false) },
		func() int { return Command(sh, []string{"ll", "tool", "nosuch"}, false, true) },
		func() int { return Command(sh, []string{"nosuch"}, true, false) },
		func() int { _, _, _, _, ok := CommandFlags(sh, []string{"-x"}); return map[bool]int{false: 2}[ok] },
		func() int { return Hash(sh, &tab, nil) },
		func() int { return Hash(sh, &tab, []string{"tool", "nosuch"}) },
		func() int { Hash(sh, &tab, nil); Hash(sh, &tab, []string{"-r"}); return Hash(sh, &tab, nil) },
	}
	for i, l := range lines {
		sh.line = i + 2
		fmt.Fprintf(&sh.out, "st=%d\n", l())
	}
	want := "ll is aliased to `ls -l'\nif is a shell keyword\nf is a function\nf () \n{ \n    echo hi\n}\n" +
		"echo is a shell builtin\ntool is /tmp/lk/a/tool\nbash: line 2: type: nosuch: not found\nst=1\n" +
		"alias\nkeyword\nfunction\nbuiltin\nfile\nst=1\n" +
		"tool is /tmp/lk/a/tool\ntool is /tmp/lk/b/tool\n/tmp/lk/a/tool\n/tmp/lk/a/tool\nst=1\n" +
		"bash: line 5: type: f: not found\nbash: line 5: type: -x: invalid option\ntype: usage: type [-afptP] name [name ...]\nst=2\n" +
		"alias ll='ls -l'\nif\nf\necho\n/tmp/lk/a/tool\nst=0\n" +
		"ll is aliased to `ls -l'\ntool is /tmp/lk/a/tool\nbash: line 7: command: nosuch: not found\nst=0\n" +
		"st=1\n" +
		"bash: line 9: command: -x: invalid option\ncommand: usage: command [-pVv] command [arg ...]\nst=2\n" +
		"hash: hash table empty\nst=0\n" +
		"bash: line 11: hash: nosuch: not found\nst=1\n" +
		"hits\tcommand\n   0\t/tmp/lk/a/tool\nhash: hash table empty\nst=0\n"
	if got := sh.out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestTableRun checks the remembered paths: a name runs from where it
// was first found until $PATH changes; its hits count.
func TestTableRun(t *testing.T) {
	sh := &fakeShell{}
	var tab Table
	for i, c := range []struct {
		name, want, found string
		searched          bool
	}{
		{"tool", "tool", "/tmp/lk/a/tool", true}, {"tool", "/tmp/lk/a/tool", "", false}, {"only", "only", "/tmp/lk/b/only", true},
		{"nosuch", "nosuch", "", true}, {"nosuch", "nosuch", "", true},
	} {
		got, _, found, searched := tab.Run(sh, c.name)
		if got != c.want || found != c.found || searched != c.searched {
			t.Errorf("%d: Run(%s) = %q, %q, %v; want %q, %q, %v", i, c.name, got, found, searched, c.want, c.found, c.searched)
		}
	}
	c := tab.Clone()
	tab.Run(sh, "tool")
	Hash(sh, &c, nil)
	Hash(sh, &tab, nil)
	want := "hits\tcommand\n   1\t/tmp/lk/b/only\n   2\t/tmp/lk/a/tool\n" + "hits\tcommand\n   1\t/tmp/lk/b/only\n   3\t/tmp/lk/a/tool\n"
	if got := sh.out.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	tab.sync("/bin")
	if got, _, _, _ := tab.Run(sh, "tool"); got != "tool" {
		t.Errorf("after $PATH changed: Run(tool) = %q, want tool", got)
	}
}
