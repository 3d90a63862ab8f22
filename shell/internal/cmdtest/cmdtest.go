package cmdtest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/spf13/afero"
)

// textTestDir is the current folder of the calls the text tests make.
const textTestDir = "/home/user"

// Mtime is the modification time of every file the text tests
// write, on the virtual filesystem and on the host alike.
var Mtime = time.Date(2024, 1, 2, 3, 4, 5, 123456789, time.UTC)

// NewCall builds a Call over a fresh MemMapFs holding files (names
// relative to textTestDir or absolute; a name ending in "/" is a folder).
func NewCall(t *testing.T, stdin string, files map[string]string) (*command.Call, *bytes.Buffer, *bytes.Buffer) {
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
		if err := fsys.Chtimes(p, Mtime, Mtime); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"TZ": "UTC", "HOME": textTestDir, "LC_ALL": "C"}
	var stdout, stderr bytes.Buffer
	c := &command.Call{
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
		b, ok := command.Lookup(args[0])
		if !ok {
			return c.Errorf(127, args[0], "command not found")
		}
		return b(ctx, c, args)
	}
	return c, &stdout, &stderr
}

// Run runs the builtin name with args over a MemMapFs holding files,
// with stdin as standard input, and returns what it printed and its status.
func Run(t *testing.T, name, stdin string, files map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	c, out, errb := NewCall(t, stdin, files)
	b, ok := command.Lookup(name)
	if !ok {
		t.Fatalf("no builtin %q", name)
	}
	err := b(context.Background(), c, append([]string{name}, args...))
	return out.String(), errb.String(), command.ExitCode(err)
}

// Case is one case of a table test: a builtin's arguments, input and
// files, and what it must print and return.
type Case struct {
	Name   string
	Args   []string
	Stdin  string
	Files  map[string]string
	Want   string
	Stderr string // checked when not empty
	Code   int
}

// RunCases runs a table of cases of the builtin cmd.
func RunCases(t *testing.T, cmd string, cases []Case) {
	t.Helper()
	for _, tc := range cases {
		name := tc.Name
		if name == "" {
			name = strings.Join(tc.Args, " ")
		}
		t.Run(name, func(t *testing.T) {
			out, errOut, code := Run(t, cmd, tc.Stdin, tc.Files, tc.Args...)
			if out != tc.Want {
				t.Errorf("%s %q: stdout\n got %q\nwant %q", cmd, tc.Args, out, tc.Want)
			}
			if code != tc.Code {
				t.Errorf("%s %q: status %d, want %d (stderr %q)", cmd, tc.Args, code, tc.Code, errOut)
			}
			if tc.Stderr != "" && errOut != tc.Stderr {
				t.Errorf("%s %q: stderr\n got %q\nwant %q", cmd, tc.Args, errOut, tc.Stderr)
			}
		})
	}
}

// GNUCase is a case of a differential test against the host's GNU tool.
type GNUCase struct {
	Args  []string
	Stdin string
	Files map[string]string
	// stderr compares standard error too.
	Stderr bool
	// gnuFix, when set, rewrites GNU's standard output before the
	// comparison (for a wording newer GNU versions changed).
	GNUFix func(string) string
}

// GNUDiff runs each case with the host's tool bin (in a t.TempDir with
// LC_ALL=C and TZ=UTC) and with the builtin cmd (over a MemMapFs holding
// the same files), and compares standard output and exit status. It logs
// how many cases passed.
func GNUDiff(t *testing.T, cmd, bin string, cases []GNUCase) {
	t.Helper()
	path, err := exec.LookPath(bin)
	if err != nil {
		t.Skipf("no %s on this machine", bin)
	}
	pass := 0
	for i, gc := range cases {
		dir := t.TempDir()
		for name, data := range gc.Files {
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
			if err := os.Chtimes(p, Mtime, Mtime); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmdx := exec.CommandContext(ctx, path, gc.Args...)
		cmdx.Args[0] = bin
		cmdx.Dir = dir
		cmdx.Env = []string{"LC_ALL=C", "TZ=UTC", "PATH=/usr/bin:/bin", "HOME=" + dir}
		cmdx.Stdin = strings.NewReader(gc.Stdin)
		var gout, gerr bytes.Buffer
		cmdx.Stdout, cmdx.Stderr = &gout, &gerr
		err := cmdx.Run()
		cancel()
		gcode := 0
		if err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("%s %q: %v", bin, gc.Args, err)
			}
			gcode = ee.ExitCode()
		}
		out, errOut, code := Run(t, cmd, gc.Stdin, gc.Files, gc.Args...)
		if gc.GNUFix != nil {
			fixed := gc.GNUFix(gout.String())
			gout.Reset()
			gout.WriteString(fixed)
		}
		ok := true
		if out != gout.String() {
			ok = false
			t.Errorf("case %d: %s %q: stdout differs from GNU\n ours %q\n  gnu %q", i, cmd, gc.Args, out, gout.String())
		}
		if code != gcode {
			ok = false
			t.Errorf("case %d: %s %q: status %d, GNU %d (ours %q, gnu %q)", i, cmd, gc.Args, code, gcode, errOut, gerr.String())
		}
		if gc.Stderr && errOut != gerr.String() {
			ok = false
			t.Errorf("case %d: %s %q: stderr differs from GNU\n ours %q\n  gnu %q", i, cmd, gc.Args, errOut, gerr.String())
		}
		if ok {
			pass++
		}
	}
	t.Logf("%s: %d/%d GNU differential cases pass", cmd, pass, len(cases))
}

// Args is shorthand for a list of arguments.
func Args(a ...string) []string { return a }

// ReadFile reads a file of c's filesystem.
func ReadFile(c *command.Call, name string) (string, error) {
	b, err := afero.ReadFile(c.FS, c.Abs(name))
	return string(b), err
}

// CountWriter counts and drops what is written.
type CountWriter struct{ N atomic.Int64 }

func (w *CountWriter) Write(p []byte) (int, error) { w.N.Add(int64(len(p))); return len(p), nil }

// LimitWriter accepts N bytes and then fails.
type LimitWriter struct {
	W io.Writer
	N int
}

func (l *LimitWriter) Write(p []byte) (int, error) {
	if l.N <= 0 {
		return 0, io.ErrClosedPipe
	}
	if len(p) > l.N {
		p = p[:l.N]
	}
	l.N -= len(p)
	return l.W.Write(p)
}
