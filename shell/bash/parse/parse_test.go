package parse

import (
	"bytes"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// aliases is a Host with a fixed set of aliases, always expanded.
type aliases map[string]string

func (a aliases) ExpandAliases() bool               { return len(a) > 0 }
func (a aliases) Alias(name string) (string, bool)  { s, ok := a[name]; return s, ok }
func (a aliases) KshSubst(*syntax.CmdSubst, string) {}
func (a aliases) AppendElem(*syntax.ArrayElem)      {}

// lines reads src to its end: each line's statements printed, and the
// syntax error that ended it.
func lines(t *testing.T, host Host, src string) ([]string, error) {
	t.Helper()
	rd := NewReader(host, src)
	defer rd.Close()
	var out []string
	for {
		stmts, err := rd.Next()
		var b strings.Builder
		for _, st := range stmts {
			_ = syntax.NewPrinter().Print(&b, st)
			b.WriteString(";")
		}
		if len(stmts) > 0 {
			out = append(out, b.String())
		}
		if err != nil || stmts == nil {
			return out, err
		}
	}
}

func TestReaderAliases(t *testing.T) {
	tests := []struct {
		name, src string
		aliases   aliases
		want      []string
	}{
		{"no aliases", "e 1; e 2\necho 3\n", nil, []string{"e 1;e 2;", "echo 3;"}},
		{"expanded", "e 1; e 2\n", aliases{"e": "echo hi"}, []string{"echo hi 1;echo hi 2;"}},
		{"not after the first word", "echo e\n", aliases{"e": "x"}, []string{"echo e;"}},
		{"trailing blank", "a b\n", aliases{"a": "echo ", "b": "B"}, []string{"echo B;"}},
		{"recursive stops", "ls\n", aliases{"ls": "ls -l"}, []string{"ls -l;"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := lines(t, tt.aliases, tt.src)
			if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("read %q = %q, %v; want %q", tt.src, got, err, tt.want)
			}
		})
	}
}

// TestSyntaxError: the lines before the failing one are handed out,
// then the error, printed as bash 5.2 prints it for "bash FILE".
func TestSyntaxError(t *testing.T) {
	tests := []struct{ src, want string }{
		{"echo a\necho )\n", "FILE: line 2: syntax error near unexpected token `)'\nFILE: line 2: `echo )'\n"},
		{"echo a\nif true; then\n  echo b\n", "FILE: line 4: syntax error: unexpected end of file\n"},
	}
	for _, tt := range tests {
		got, err := lines(t, nil, tt.src)
		if err == nil || len(got) != 1 || got[0] != "echo a;" {
			t.Fatalf("read %q = %q, %v; want echo a, then an error", tt.src, got, err)
		}
		var b bytes.Buffer
		PrintSyntaxError(&b, "FILE", tt.src, 1, err)
		if b.String() != tt.want {
			t.Errorf("PrintSyntaxError = %q, want %q", b.String(), tt.want)
		}
	}
}

// set -x traces export x=$(cmd) without the value line bash adds for a
// plain export x=v: HasSubst tells them apart.
func TestHasSubst(t *testing.T) {
	for src, want := range map[string]bool{
		`a$b"${c:-d}"`: false, `a$(b)`: true, `"x${y:-$(z)}"`: true, `<(ls)`: true, "`b`": true, `$((1+2))`: false,
	} {
		f, err := syntax.NewParser().Parse(strings.NewReader("_ "+src), "")
		if err != nil {
			t.Fatal(err)
		}
		if HasSubst(f.Stmts[0].Cmd.(*syntax.CallExpr).Args[1]) != want {
			t.Errorf("HasSubst(%s) != %v", src, want)
		}
	}
}
