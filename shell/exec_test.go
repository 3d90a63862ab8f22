package shell

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

type ctxT = context.Context

// runWith runs script on fsys in shTestDir with opts (FS, Dir and streams
// filled in) and returns stdout+stderr.
func runWith(fsys afero.Fs, script string, opts Options) (string, error) {
	var out bytes.Buffer
	opts.FS, opts.Dir = fsys, shTestDir
	opts.Stdout, opts.Stderr = &out, &out
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	code, err := Run(ctx, script, opts)
	return fmt.Sprintf("%s[%d]", out.String(), code), err
}

func TestRunHandlersAndFallback(t *testing.T) {
	python := func(ctx context.Context, c *Call, args []string) error {
		in, _ := io.ReadAll(c.Stdin)
		fmt.Fprintf(c.Stdout, "py%q stdin=%q\n", args[1:], in)
		if len(args) > 1 && args[1] == "fail" {
			return Exit(3)
		}
		return nil
	}
	var fallbackArgs [][]string
	fallback := func(ctx context.Context, c *Call, args []string) error {
		fallbackArgs = append(fallbackArgs, args)
		if args[0] == "deno" {
			fmt.Fprintln(c.Stdout, "deno ran")
			return nil
		}
		return c.Errorf(127, args[0], "not in this sandbox")
	}
	opts := Options{
		Handlers:      map[string]Builtin{"python3": python, "ls": func(ctx context.Context, c *Call, args []string) error { fmt.Fprintln(c.Stdout, "fake ls"); return nil }},
		Fallback:      fallback,
		FallbackNames: []string{"deno"},
	}
	for _, tc := range []struct{ script, want string }{
		{"python3 -c 'print(1)'", "py[\"-c\" \"print(1)\"] stdin=\"\"\n[0]"},
		{"echo hi | python3 -", "py[\"-\"] stdin=\"hi\\n\"\n[0]"},
		{"python3 x.py > out.txt; cat out.txt", "py[\"x.py\"] stdin=\"\"\n[0]"},
		{"python3 fail; echo $?", "py[\"fail\"] stdin=\"\"\n3\n[0]"},
		{"ls", "fake ls\n[0]"},
		{"deno app.js", "deno ran\n[0]"},
		{"ruby x.rb", "ruby: not in this sandbox\n[127]"},
		{"command -v python3 node ruby; which node", "/usr/bin/python3\n/usr/bin/node\n/usr/bin/node\n[0]"},
		{"printf '#!/usr/bin/env python3\\nprint(1)\\n' > x.py; chmod +x x.py; ./x.py a", "py[\"./x.py\" \"a\"] stdin=\"\"\n[0]"},
		{"printf '#!/usr/bin/python3 -u\\n' > x.py; chmod +x x.py; ./x.py", "py[\"-u\" \"./x.py\"] stdin=\"\"\n[0]"},
		{"xargs python3 <<< 'a b'", "py[\"a\" \"b\"] stdin=\"\"\n[0]"},
		{"timeout 5 python3 t", "py[\"t\"] stdin=\"\"\n[0]"},
	} {
		got, err := runWith(newShTestFS(t, shTestFiles), tc.script, opts)
		if err != nil || got != tc.want {
			t.Errorf("%s:\ngot  %q (%v)\nwant %q", tc.script, got, err, tc.want)
		}
	}
	// Without a fallback, an unknown interpreter is missing, as bash 5.2
	// reports it.
	got, _ := runWith(newShTestFS(t, shTestFiles), "printf '#!/usr/bin/ruby\\n' > x.rb; chmod +x x.rb; ./x.rb", Options{})
	if want := "bash: line 1: ./x.rb: cannot execute: required file not found\n[127]"; got != want {
		t.Errorf("bad interpreter: %q, want %q", got, want)
	}
}

// TestCallExec checks Call.Exec: the whole lookup but functions,
// shell builtins in a fresh shell, ErrNotFound for nothing.
func TestCallExec(t *testing.T) {
	var results []string
	h := map[string]Builtin{"run": func(ctx context.Context, c *Call, args []string) error {
		err := c.Exec(ctx, args[1:])
		results = append(results, fmt.Sprintf("%d/%v", ExitCode(err), errors.Is(err, ErrNotFound)))
		return err
	}}
	got, err := runWith(newShTestFS(t, shTestFiles), "f() { echo func; }; run echo hi; run f; run cat b.txt; run false; run test -d src; run pwd; run ./nosuch; run cd /; pwd", Options{Handlers: h})
	if err != nil {
		t.Fatal(err)
	}
	want := "hi\nbash: line 1: f: command not found\none\ntwo\n/home/user\nbash: line 1: ./nosuch: No such file or directory\n/home/user\n[0]"
	if got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if w := "0/false 127/true 0/false 1/false 0/false 0/false 127/true 0/false"; strings.Join(results, " ") != w {
		t.Errorf("results %v, want %s", results, w)
	}
}

// TestRunPanics checks that a builtin's panic is status 2 with a message,
// wherever it runs.
func TestRunPanics(t *testing.T) {
	h := map[string]Builtin{
		"boom": func(ctx context.Context, c *Call, args []string) error { panic("kaboom") },
		"oops": func(ctx context.Context, c *Call, args []string) error { return errors.New("plain failure") },
	}
	for _, tc := range []struct{ script, want string }{
		{"boom; echo $?", "boom: internal error: kaboom\n2\n[0]"},
		{"boom | cat; echo ${PIPESTATUS:-x}", "boom: internal error: kaboom\n2\n[0]"},
		{"echo x | boom", "boom: internal error: kaboom\n[2]"},
		{"(boom) & wait", "boom: internal error: kaboom\n[0]"},
		{"x=$(boom); echo \"[$x] $?\"", "boom: internal error: kaboom\n[] 2\n[0]"},
		{"xargs boom <<< a; echo $?", "boom: internal error: kaboom\n123\n[0]"},
		{"oops; echo $?", "oops: plain failure\n1\n[0]"},
	} {
		got, err := runWith(newShTestFS(t, shTestFiles), tc.script, Options{Handlers: h})
		if err != nil || got != tc.want {
			t.Errorf("%s:\ngot  %q (%v)\nwant %q", tc.script, got, err, tc.want)
		}
	}
}

// TestBuiltinsDirect calls a few builtins with a hand-made Call, as the
// other engineers' tests do: they must work without a session.
func TestBuiltinsDirect(t *testing.T) {
	fsys := newShTestFS(t, shTestFiles)
	var out bytes.Buffer
	c := &Call{
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Dir: shTestDir, FS: fsys,
		Env:     func(string) (string, bool) { return "", false },
		Environ: func() []string { return nil },
		Exec:    func(context.Context, []string) error { return Exit(127) },
	}
	for _, args := range [][]string{{"ls", "src"}, {"which", "ls"}, {"bash", "-c", "echo nested; mkdir new"}, {"rmdir", "new"}, {"mkdir", "x/y"}} {
		b, ok := lookupBuiltin(args[0])
		if !ok {
			t.Fatalf("no builtin %s", args[0])
		}
		_ = b(context.Background(), c, args)
	}
	want := "main.go\nutil\n/usr/bin/ls\nnested\nmkdir: cannot create directory 'x/y': No such file or directory\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}
}

// TestRunRecursion checks that runaway recursion stops the shell with a
// message rather than overflowing the Go stack (the cap is lowered here
// to keep the test short).
func TestRunRecursion(t *testing.T) {
	old := shMaxFrames
	shMaxFrames = 3000
	defer func() { shMaxFrames = old }()
	for _, script := range []string{
		"f() { f; }; f; echo never",
		"echo './s.sh' > s.sh; chmod +x s.sh; ./s.sh",
		"g() { bash -c \"$(declare -f g); g\"; }; g",
	} {
		got, err := runWith(newShTestFS(t, shTestFiles), script, Options{})
		if err != nil || !strings.Contains(got, "maximum function nesting level exceeded") || strings.Contains(got, "never") {
			t.Errorf("%s: %q, %v", script, got, err)
		}
	}
}
