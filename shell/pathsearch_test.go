package shell

import (
	"bytes"
	"context"
	"os"
	"sync"
	"testing"

	"github.com/spf13/afero"
)

// statCounter counts the Stat calls of each path.
type statCounter struct {
	afero.Fs
	mu sync.Mutex
	n  map[string]int
}

func (s *statCounter) Stat(name string) (os.FileInfo, error) {
	s.mu.Lock()
	s.n[name]++
	s.mu.Unlock()
	return s.Fs.Stat(name)
}

func (s *statCounter) count(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n[name]
}

// TestPathSearchedOnce checks that a command's name is searched for in
// each folder of $PATH once per command that runs it (the interpreter's
// search, as it hashes the name, is the one the lookup chain uses), and
// that what runs is what bash runs: a script of $PATH shadowing a
// command built in, the command when $PATH has none, a hashed path
// after.
func TestPathSearchedOnce(t *testing.T) {
	for _, c := range []struct {
		name, script, want string
		stats              map[string]int // stats of each path, at most
	}{
		{"builtin command", "grep -c x <<<x", "1\n", map[string]int{"/a/grep": 1, "/b/grep": 1}},
		{"shadowed", "mkdir -p /b && printf '#!/bin/sh\\necho mine\\n' >/b/grep && chmod +x /b/grep && grep -c x <<<x", "mine\n", map[string]int{"/a/grep": 1}},
		{"twice, hashed", "grep -c x <<<x; grep -c x <<<x; hash", "1\n1\nhits\tcommand\n   2\t/usr/bin/grep\n", map[string]int{"/a/grep": 1, "/b/grep": 1}},
		{"not found", "nosuchcmd; echo $?", "127\n", map[string]int{"/a/nosuchcmd": 1, "/b/nosuchcmd": 1}},
		{"temporary PATH", "PATH=/b:/usr/bin grep -c x <<<x", "1\n", map[string]int{"/b/grep": 2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys := &statCounter{Fs: afero.NewMemMapFs(), n: map[string]int{}}
			var out, errb bytes.Buffer
			_, err := Run(context.Background(), c.script, Options{FS: fsys, Stdout: &out, Stderr: &errb,
				Env: map[string]string{"PATH": "/a:/b:/usr/bin"}})
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != c.want {
				t.Errorf("stdout %q, want %q (stderr %q)", out.String(), c.want, errb.String())
			}
			for p, most := range c.stats {
				if n := fsys.count(p); n > most || n == 0 {
					t.Errorf("%s stated %d times, want 1 to %d", p, n, most)
				}
			}
		})
	}
}
