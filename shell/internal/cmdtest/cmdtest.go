package shell

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// textTestDir is the current folder of the calls the text tests make.
const textTestDir = "/home/user"

// textTestMtime is the modification time of every file the text tests
// write, on the virtual filesystem and on the host alike.
var textTestMtime = time.Date(2024, 1, 2, 3, 4, 5, 123456789, time.UTC)

// newTextCall builds a Call over a fresh MemMapFs holding files (names
// relative to textTestDir or absolute; a name ending in "/" is a folder).
func newTextCall(t *testing.T, stdin string, files map[string]string) (*Call, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	if err := fsys.MkdirAll(textTestDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		p := name
		if !filepath.IsAbs(p) {
			p = textTestDir + "/" + p
		}
		if strings.HasSuffix(name, "/") {
			if err := fsys.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := fsys.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := afero.WriteFile(fsys, p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := fsys.Chtimes(p, textTestMtime, textTestMtime); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"TZ": "UTC", "HOME": textTestDir, "LC_ALL": "C"}
	var stdout, stderr bytes.Buffer
	c := &Call{
		Stdin:  strings.NewReader(stdin),
		Stdout: &stdout,
		Stderr: &stderr,
		Dir:    textTestDir,
		FS:     fsys,
		Env: func(name string) (string, bool) {
			v, ok := env[name]
			return v, ok
		},
		Environ: func() []string {
			return []string{"HOME=" + textTestDir, "LC_ALL=C", "TZ=UTC"}
		},
	}
	c.Exec = func(ctx context.Context, args []string) error {
		b, ok := lookupBuiltin(args[0])
		if !ok {
			return c.Errorf(127, args[0], "command not found")
		}
		return b(ctx, c, args)
	}
	return c, &stdout, &stderr
}

// runBuiltin runs the builtin name with args over a MemMapFs holding files,
// with stdin as standard input, and returns what it printed and its status.
func runBuiltin(t *testing.T, name, stdin string, files map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	c, out, errb := newTextCall(t, stdin, files)
	b, ok := lookupBuiltin(name)
	if !ok {
		t.Fatalf("no builtin %q", name)
	}
	err := b(context.Background(), c, append([]string{name}, args...))
	return out.String(), errb.String(), ExitCode(err)
}

// textCase is one case of a table test: a builtin's arguments, input and
// files, and what it must print and return.
type textCase struct {
	name   string
	args   []string
	stdin  string
	files  map[string]string
	want   string
	stderr string // checked when not empty
	code   int
}

// runTextCases runs a table of cases of the builtin cmd.
func runTextCases(t *testing.T, cmd string, cases []textCase) {
	t.Helper()
	for _, tc := range cases {
		name := tc.name
		if name == "" {
			name = strings.Join(tc.args, " ")
		}
		t.Run(name, func(t *testing.T) {
			out, errOut, code := runBuiltin(t, cmd, tc.stdin, tc.files, tc.args...)
			if out != tc.want {
				t.Errorf("%s %q: stdout\n got %q\nwant %q", cmd, tc.args, out, tc.want)
			}
			if code != tc.code {
				t.Errorf("%s %q: status %d, want %d (stderr %q)", cmd, tc.args, code, tc.code, errOut)
			}
			if tc.stderr != "" && errOut != tc.stderr {
				t.Errorf("%s %q: stderr\n got %q\nwant %q", cmd, tc.args, errOut, tc.stderr)
			}
		})
	}
}

// textGNUCase is a case of a differential test against the host's GNU tool.
type textGNUCase struct {
	args  []string
	stdin string
	files map[string]string
	// stderr compares standard error too.
	stderr bool
	// gnuFix, when set, rewrites GNU's standard output before the
	// comparison (for a wording newer GNU versions changed).
	gnuFix func(string) string
}

// textGNUDiff runs each case with the host's tool bin (in a t.TempDir with
// LC_ALL=C and TZ=UTC) and with the builtin cmd (over a MemMapFs holding
// the same files), and compares standard output and exit status. It logs
// how many cases passed.
func textGNUDiff(t *testing.T, cmd, bin string, cases []textGNUCase) {
	t.Helper()
	path, err := exec.LookPath(bin)
	if err != nil {
		t.Skipf("no %s on this machine", bin)
	}
	pass := 0
	for i, gc := range cases {
		dir := t.TempDir()
		for name, data := range gc.files {
			p := filepath.Join(dir, name)
			if strings.HasSuffix(name, "/") {
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(p, textTestMtime, textTestMtime); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmdx := exec.CommandContext(ctx, path, gc.args...)
		cmdx.Args[0] = bin
		cmdx.Dir = dir
		cmdx.Env = []string{"LC_ALL=C", "TZ=UTC", "PATH=/usr/bin:/bin", "HOME=" + dir}
		cmdx.Stdin = strings.NewReader(gc.stdin)
		var gout, gerr bytes.Buffer
		cmdx.Stdout, cmdx.Stderr = &gout, &gerr
		err := cmdx.Run()
		cancel()
		gcode := 0
		if err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("%s %q: %v", bin, gc.args, err)
			}
			gcode = ee.ExitCode()
		}
		out, errOut, code := runBuiltin(t, cmd, gc.stdin, gc.files, gc.args...)
		if gc.gnuFix != nil {
			fixed := gc.gnuFix(gout.String())
			gout.Reset()
			gout.WriteString(fixed)
		}
		ok := true
		if out != gout.String() {
			ok = false
			t.Errorf("case %d: %s %q: stdout differs from GNU\n ours %q\n  gnu %q", i, cmd, gc.args, out, gout.String())
		}
		if code != gcode {
			ok = false
			t.Errorf("case %d: %s %q: status %d, GNU %d (ours %q, gnu %q)", i, cmd, gc.args, code, gcode, errOut, gerr.String())
		}
		if gc.stderr && errOut != gerr.String() {
			ok = false
			t.Errorf("case %d: %s %q: stderr differs from GNU\n ours %q\n  gnu %q", i, cmd, gc.args, errOut, gerr.String())
		}
		if ok {
			pass++
		}
	}
	t.Logf("%s: %d/%d GNU differential cases pass", cmd, pass, len(cases))
}

// textArgs is shorthand for a list of arguments.
func textArgs(a ...string) []string { return a }

// readTextFile reads a file of c's filesystem.
func readTextFile(c *Call, name string) (string, error) {
	b, err := afero.ReadFile(c.FS, c.Abs(name))
	return string(b), err
}
