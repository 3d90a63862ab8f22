package cmdtest

import (
	"bytes"
	"context"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/spf13/afero"
)

// grepSedDir is the current folder of the calls made by runGrepSed.
const grepSedDir = "/home/user"

// RunGrepSed runs the builtin name (grep, sed, ...) with args on a fresh
// MemMapFs holding files (paths relative to grepSedDir, or absolute) and
// returns its stdout, stderr and exit status.
func RunGrepSed(t testing.TB, name, stdin string, files map[string]string, args ...string) (string, string, int) {
	t.Helper()
	fsys := afero.NewMemMapFs()
	out, errOut, code := RunFS(t, fsys, name, stdin, files, args...)
	return out, errOut, code
}

// RunFS is runGrepSed on a given filesystem.
func RunFS(t testing.TB, fsys afero.Fs, name, stdin string, files map[string]string, args ...string) (string, string, int) {
	t.Helper()
	if err := fsys.MkdirAll(grepSedDir, 0o755); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := n
		if !path.IsAbs(p) {
			p = path.Join(grepSedDir, p)
		}
		if strings.HasSuffix(n, "/") {
			if err := fsys.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := fsys.MkdirAll(path.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := afero.WriteFile(fsys, p, []byte(files[n]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, ok := command.Lookup(name)
	if !ok {
		t.Fatalf("no builtin %q", name)
	}
	var stdout, stderr bytes.Buffer
	env := map[string]string{"HOME": grepSedDir}
	c := &command.Call{
		Stdin:  strings.NewReader(stdin),
		Stdout: &stdout,
		Stderr: &stderr,
		Dir:    grepSedDir,
		FS:     fsys,
		Env: func(k string) (string, bool) {
			v, ok := env[k]
			return v, ok
		},
		Environ: func() []string { return []string{"HOME=" + grepSedDir} },
		Exec: func(ctx context.Context, args []string) error {
			return command.Exit(127)
		},
	}
	err := b(context.Background(), c, append([]string{name}, args...))
	return stdout.String(), stderr.String(), command.ExitCode(err)
}

// ReadFSFile returns a file's content from fsys (relative to
// grepSedDir), or "<missing>".
func ReadFSFile(fsys afero.Fs, name string) string {
	p := name
	if !path.IsAbs(p) {
		p = path.Join(grepSedDir, p)
	}
	b, err := afero.ReadFile(fsys, p)
	if err != nil {
		return "<missing>"
	}
	return string(b)
}

// Endless is an endless stream of "y\n".
type Endless struct{}

func (Endless) Read(p []byte) (int, error) {
	for i := range p {
		if i%2 == 0 {
			p[i] = 'y'
		} else {
			p[i] = '\n'
		}
	}
	return len(p) - len(p)%2, nil
}
