package awk

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// refMode tells how a case is compared with a real awk.
type refMode uint8

const (
	refSame refMode = iota // stdout and exit status must match
	refGawk                // only against gawk (a gawk extension)
	refSkip                // never (random numbers, our own choices)
)

type tcase struct {
	name   string
	prog   string
	in     string
	args   []string
	vars   map[string]string
	fs     string
	files  map[string]string
	want   string
	code   int
	sorted bool   // compare the lines sorted (for-in order differs)
	stderr string // standard error must contain this
	ref    refMode
	// outFiles: files the program must have written, with their content.
	outFiles map[string]string
}

// memFiles is a tiny in-memory filesystem for Open and Create.
type memFiles struct {
	mu    sync.Mutex
	files map[string]string
}

type memWriter struct {
	m    *memFiles
	name string
	buf  bytes.Buffer
}

func (w *memWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }
func (w *memWriter) Close() error {
	w.m.mu.Lock()
	defer w.m.mu.Unlock()
	w.m.files[w.name] += w.buf.String()
	w.buf.Reset()
	return nil
}

func (m *memFiles) open(name string) (io.ReadCloser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.files[name]
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return io.NopCloser(strings.NewReader(s)), nil
}

func (m *memFiles) create(name string, app bool) (io.WriteCloser, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if strings.HasPrefix(name, "/nonexistent/") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	if !app {
		m.files[name] = ""
	}
	return &memWriter{m: m, name: name}, nil
}

// fakeExec understands a few commands, enough for the tests of system()
// and pipes: echo, cat, sort, printf-free "exit N", and "tr a-z A-Z".
func fakeExec(stdout io.Writer) func(ctx context.Context, cmd string, stdin io.Reader, out io.Writer) (int, error) {
	return func(ctx context.Context, cmd string, stdin io.Reader, out io.Writer) (int, error) {
		if out == nil {
			out = stdout
		}
		f := strings.Fields(cmd)
		if len(f) == 0 {
			return 0, nil
		}
		readAll := func() string {
			if stdin == nil {
				return ""
			}
			b, _ := io.ReadAll(stdin)
			return string(b)
		}
		switch f[0] {
		case "echo":
			io.WriteString(out, strings.Join(f[1:], " ")+"\n")
		case "cat":
			io.WriteString(out, readAll())
		case "sort":
			lines := strings.Split(strings.TrimSuffix(readAll(), "\n"), "\n")
			sort.Strings(lines)
			io.WriteString(out, strings.Join(lines, "\n")+"\n")
		case "exit":
			if len(f) > 1 && f[1] == "3" {
				return 3, nil
			}
			return 1, nil
		case "true":
		case "false":
			return 1, nil
		case "upper":
			io.WriteString(out, strings.ToUpper(readAll()))
		default:
			return 127, errors.New("sh: " + f[0] + ": not found")
		}
		return 0, nil
	}
}

func runCase(t *testing.T, c tcase) (stdout, stderr string, code int, files map[string]string) {
	t.Helper()
	m := &memFiles{files: map[string]string{}}
	for k, v := range c.files {
		m.files[k] = v
	}
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	code, err := Run(ctx, Config{
		Program: c.prog,
		Args:    c.args,
		Vars:    c.vars,
		FS:      c.fs,
		Stdin:   strings.NewReader(c.in),
		Stdout:  &out,
		Stderr:  &errb,
		Open:    m.open,
		Create:  m.create,
		Exec:    fakeExec(&out),
		Environ: map[string]string{"HOME": "/home/agent", "AWKTEST": "42"},
	})
	if err != nil {
		var ae *Error
		if !errors.As(err, &ae) {
			t.Fatalf("Run error that is no *Error: %v", err)
		}
		if strings.Contains(ae.Msg, "internal error") {
			t.Fatalf("internal error: %v", ae.Msg)
		}
	}
	return out.String(), errb.String(), code, m.files
}

func sortLines(s string) string {
	if s == "" {
		return s
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n"
}

func TestAwk(t *testing.T) {
	cases := allCases()
	if len(cases) < 120 {
		t.Errorf("only %d cases", len(cases))
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if seen[c.name] {
			t.Errorf("duplicate case name %q", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			got, stderr, code, files := runCase(t, c)
			want := c.want
			if c.sorted {
				got, want = sortLines(got), sortLines(want)
			}
			if got != want {
				t.Errorf("program %q\nstdout:\n%q\nwant:\n%q\nstderr: %s", c.prog, got, want, stderr)
			}
			if code != c.code {
				t.Errorf("program %q: exit %d, want %d (stderr %q)", c.prog, code, c.code, stderr)
			}
			if c.stderr != "" && !strings.Contains(stderr, c.stderr) {
				t.Errorf("program %q: stderr %q does not contain %q", c.prog, stderr, c.stderr)
			}
			if c.stderr == "" && c.code == 0 && stderr != "" {
				t.Errorf("program %q: unexpected stderr %q", c.prog, stderr)
			}
			for name, content := range c.outFiles {
				if files[name] != content {
					t.Errorf("program %q: file %s = %q, want %q", c.prog, name, files[name], content)
				}
			}
		})
	}
}
