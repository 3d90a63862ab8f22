package awk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/spf13/afero"
)

// awkCall builds a Call over a fresh in-memory filesystem with the given
// files, in folder /work. Its Exec knows echo, sort and exit, reading the
// call's Stdin and Stdout when it runs.
func awkCall(t *testing.T, files map[string]string, stdin string) (*command.Call, *bytes.Buffer, *bytes.Buffer, afero.Fs) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	if err := fsys.MkdirAll("/work", 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		if err := afero.WriteFile(fsys, name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out, errb bytes.Buffer
	c := &command.Call{
		Stdin:  strings.NewReader(stdin),
		Stdout: &out,
		Stderr: &errb,
		Dir:    "/work",
		FS:     fsys,
		Env: func(name string) (string, bool) {
			if name == "GREETING" {
				return "hello", true
			}
			return "", false
		},
		Environ: func() []string { return []string{"GREETING=hello"} },
	}
	c.Exec = func(ctx context.Context, args []string) error {
		if len(args) != 3 || args[0] != "sh" || args[1] != "-c" {
			t.Errorf("Exec args %q, want sh -c CMD", args)
			return command.Exit(2)
		}
		f := strings.Fields(args[2])
		switch f[0] {
		case "echo":
			io.WriteString(c.Stdout, strings.Join(f[1:], " ")+"\n")
		case "sort":
			b, _ := io.ReadAll(c.Stdin)
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			sort.Strings(lines)
			io.WriteString(c.Stdout, strings.Join(lines, "\n")+"\n")
		case "exit":
			return command.Exit(7)
		case "nosh":
			return fmt.Errorf("sh: %w", command.ErrNotFound)
		default:
			io.WriteString(c.Stderr, "sh: "+f[0]+": command not found\n")
			return command.Exit(127)
		}
		return nil
	}
	return c, &out, &errb, fsys
}

func TestAwkBuiltin(t *testing.T) {
	b, ok := command.Lookup("awk")
	if !ok {
		t.Fatal("awk is not registered")
	}
	for _, name := range []string{"gawk", "mawk", "nawk"} {
		if _, ok := command.Lookup(name); !ok {
			t.Errorf("%s is not registered", name)
		}
	}
	cases := []struct {
		name      string
		args      []string
		files     map[string]string
		stdin     string
		want      string
		code      int
		stderr    string
		wantFiles map[string]string
	}{
		{name: "sum csv", args: []string{"awk", "-F,", "{s+=$2} END {print s}", "data.csv"},
			files: map[string]string{"/work/data.csv": "a,1\nb,2.5\n"}, want: "3.5\n"},
		{name: "-F separate arg", args: []string{"awk", "-F", ":", "{print $2}", "/etc/passwd"},
			files: map[string]string{"/etc/passwd": "root:x:0\n"}, want: "x\n"},
		{name: "-F tab escape", args: []string{"awk", "-F", `\t`, "{print $2}"}, stdin: "a b\tc\n", want: "c\n"},
		{name: "-Ft is tab", args: []string{"awk", "-Ft", "{print $2}"}, stdin: "a\tb\n", want: "b\n"},
		{name: "-v", args: []string{"awk", "-v", "n=2", "NR<=n"}, stdin: "1\n2\n3\n", want: "1\n2\n"},
		{name: "-v joined", args: []string{"awk", "-vx=5", "BEGIN{print x*2}"}, want: "10\n"},
		{name: "-f progfile", args: []string{"awk", "-f", "prog.awk", "in.txt"},
			files: map[string]string{"/work/prog.awk": "{ print toupper($0) }\n", "/work/in.txt": "abc\n"}, want: "ABC\n"},
		{name: "two -f", args: []string{"awk", "-f", "/lib.awk", "-f", "/main.awk"},
			files: map[string]string{"/lib.awk": "function twice(x) { return 2*x }", "/main.awk": "BEGIN { print twice(21) }"}, want: "42\n"},
		{name: "missing progfile", args: []string{"awk", "-f", "nope.awk"}, code: 2, stderr: "nope.awk"},
		{name: "double dash", args: []string{"awk", "--", "BEGIN{print \"ok\"}"}, want: "ok\n"},
		{name: "stdin dash", args: []string{"awk", "{print FILENAME, $0}", "a.txt", "-"},
			files: map[string]string{"/work/a.txt": "x\n"}, stdin: "y\n", want: "a.txt x\n- y\n"},
		{name: "stdin default", args: []string{"awk", "{print NR\": \"$0}"}, stdin: "a\nb\n", want: "1: a\n2: b\n"},
		{name: "assignment operand", args: []string{"awk", "{print v, $0}", "v=1", "/f", "v=2", "/f"},
			files: map[string]string{"/f": "l\n"}, want: "1 l\n2 l\n"},
		{name: "relative and absolute", args: []string{"awk", "FNR==1{print FILENAME}", "sub/x", "/work/sub/x", "../top"},
			files: map[string]string{"/work/sub/x": "1\n", "/top": "2\n"}, want: "sub/x\n/work/sub/x\n../top\n"},
		{name: "missing input file", args: []string{"awk", "{print}", "nope"}, code: 2, stderr: "nope"},
		{name: "directory input", args: []string{"awk", "{print}", "/work"}, code: 2, stderr: "directory"},
		{name: "write file", args: []string{"awk", "{print $2 > ($1 \".out\")}"}, stdin: "a 1\nb 2\na 3\n",
			wantFiles: map[string]string{"/work/a.out": "1\n3\n", "/work/b.out": "2\n"}},
		{name: "append file", args: []string{"awk", "BEGIN{print \"new\" >> \"/log\"}"},
			files: map[string]string{"/log": "old\n"}, wantFiles: map[string]string{"/log": "old\nnew\n"}},
		{name: "getline file", args: []string{"awk", "BEGIN{while ((getline l < \"/etc/hosts\") > 0) n++; print n}"},
			files: map[string]string{"/etc/hosts": "a\nb\n"}, want: "2\n"},
		{name: "dev stderr", args: []string{"awk", "BEGIN{print \"err\" > \"/dev/stderr\"; print \"out\" > \"/dev/stdout\"}"},
			want: "out\n", stderr: "err"},
		{name: "ENVIRON", args: []string{"awk", "BEGIN{print ENVIRON[\"GREETING\"]}"}, want: "hello\n"},
		{name: "exit status", args: []string{"awk", "BEGIN{exit 3}"}, code: 3},
		{name: "syntax error", args: []string{"awk", "BEGIN{print (}"}, code: 2, stderr: "awk: syntax error at source line 1"},
		{name: "runtime error", args: []string{"awk", "BEGIN{print 1/0}"}, code: 2, stderr: "division by zero"},
		{name: "name in messages", args: []string{"gawk", "BEGIN{print 1/0}"}, code: 2, stderr: "gawk: "},
		{name: "no program", args: []string{"awk"}, code: 2, stderr: "usage"},
		{name: "unknown option", args: []string{"awk", "-z", "1"}, code: 2, stderr: "unknown option"},
		{name: "bad -v", args: []string{"awk", "-v", "novalue", "1"}, code: 2, stderr: "-v"},
		{name: "version", args: []string{"awk", "--version"}, want: "awk (agentenkit) 1.0: POSIX awk with common gawk extensions\n"},
		{name: "system", args: []string{"awk", "BEGIN{printf \"a \"; r = system(\"echo b\"); print \"r=\" r; print system(\"exit\")}"},
			want: "a b\nr=0\n7\n"},
		{name: "cmd getline", args: []string{"awk", "BEGIN{\"echo one two\" | getline; print $2; \"echo x\" | getline v; print v}"},
			want: "two\nx\n"},
		{name: "print pipe", args: []string{"awk", "BEGIN{print \"head\"} {print | \"sort\"} END{close(\"sort\"); print \"tail\"}"},
			stdin: "b\nc\na\n", want: "head\na\nb\nc\ntail\n"},
		{name: "command not found in sh", args: []string{"awk", "BEGIN{print system(\"frobnicate\")}"},
			want: "127\n", stderr: "frobnicate: command not found"},
		{name: "no sh", args: []string{"awk", "BEGIN{system(\"nosh\")}"}, code: 2,
			stderr: "no shell (sh)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, out, errb, fsys := awkCall(t, tc.files, tc.stdin)
			err := b(context.Background(), c, tc.args)
			if code := command.ExitCode(err); code != tc.code {
				t.Errorf("%q: exit %d (%v), want %d; stderr %q", tc.args, code, err, tc.code, errb.String())
			}
			if out.String() != tc.want {
				t.Errorf("%q: stdout %q, want %q; stderr %q", tc.args, out.String(), tc.want, errb.String())
			}
			if tc.stderr != "" && !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("%q: stderr %q does not contain %q", tc.args, errb.String(), tc.stderr)
			}
			if tc.stderr == "" && errb.Len() > 0 {
				t.Errorf("%q: unexpected stderr %q", tc.args, errb.String())
			}
			for name, want := range tc.wantFiles {
				got, err := afero.ReadFile(fsys, name)
				if err != nil || string(got) != want {
					t.Errorf("%q: file %s = %q (%v), want %q", tc.args, name, got, err, want)
				}
			}
		})
	}
}

func TestAwkBuiltinTimeout(t *testing.T) {
	b, _ := command.Lookup("awk")
	c, _, _, _ := awkCall(t, nil, "")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := b(ctx, c, []string{"awk", "BEGIN{while (1) x++}"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v to stop", d)
	}
}
