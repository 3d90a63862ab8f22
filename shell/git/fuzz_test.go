package git

import (
	"context"
	"io"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/command"
)

// call is a command.Call over fsys in dir with env.
func call(fsys afero.Fs, dir string, env map[string]string, stdout, stderr io.Writer) *command.Call {
	return &command.Call{
		Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr, Dir: dir, FS: fsys,
		Env:     func(n string) (string, bool) { v, ok := env[n]; return v, ok },
		Environ: func() []string { return nil },
		Exec:    func(context.Context, []string) error { return command.Exit(127) },
	}
}

// seeded returns a filesystem with a repository of two commits at /r.
func seeded(t testing.TB) afero.Fs {
	fsys := afero.NewMemMapFs()
	env := map[string]string{"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@x", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@x"}
	_ = fsys.MkdirAll("/r/d", 0o755)
	for _, step := range [][]string{
		{"git", "init", "-q"},
		{"write", "a", "one\n"}, {"write", "d/b", "two\n"},
		{"git", "add", "-A"}, {"git", "commit", "-qm", "first"},
		{"write", "a", "one\nmore\n"},
		{"git", "commit", "-qam", "second"}, {"git", "tag", "v1"},
		{"write", "d/b", "changed\n"}, {"write", "u", "untracked\n"},
	} {
		if step[0] == "write" {
			_ = afero.WriteFile(fsys, path.Join("/r", step[1]), []byte(step[2]), 0o644)
			continue
		}
		if err := Main(context.Background(), call(fsys, "/r", env, io.Discard, io.Discard), step); err != nil {
			t.Fatalf("%v: %v", step, err)
		}
	}
	return fsys
}

// FuzzGit runs git with any arguments (revisions, paths, options, formats)
// on a small repository: no input may panic or hang; an error is a status.
func FuzzGit(f *testing.F) {
	for _, s := range []string{
		"log --format=%H%x00%an%d%s%b%ad HEAD~1..HEAD", "diff HEAD~1 --stat", "show v1^{tree}", "show HEAD:a",
		"rev-parse --short HEAD^^", "status -sb", "checkout -b x HEAD~1", "reset --hard HEAD~5", "add ../x",
		"mv a d", "rm -r d", "stash", "stash pop", "clone . ../c", "branch -m y", "tag -d v1", "config a.b.c d",
		"restore --source=HEAD~1 a", "log -n -1", "diff --cached -U0", "log --format=%x", "show @~1:d/b",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		fsys := seeded(t)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		argv := append([]string{"git"}, strings.Fields(args)...)
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = Main(ctx, call(fsys, "/r", map[string]string{}, io.Discard, io.Discard), argv)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("git %q did not end 10 s after its context did", args)
		}
	})
}

// FuzzRelPath: relPath gives a path that leads from dir back to the file.
func FuzzRelPath(f *testing.F) {
	f.Add("/r", "/r/a/b", "c/d")
	f.Add("/", "/x", "y")
	f.Add("/r", "/q", "a/")
	f.Fuzz(func(t *testing.T, top, dir, p string) {
		if !path.IsAbs(top) || !path.IsAbs(dir) || p == "" || path.IsAbs(p) {
			return
		}
		top, dir = path.Clean(top), path.Clean(dir)
		p = strings.TrimSuffix(path.Clean(p), "/")
		if p == "." || strings.HasPrefix(p, "..") {
			return
		}
		rel := relPath(top, dir, p)
		if got, want := path.Join(dir, rel), path.Join(top, p); got != want {
			t.Fatalf("relPath(%q, %q, %q) = %q: leads to %q, not %q", top, dir, p, rel, got, want)
		}
	})
}
