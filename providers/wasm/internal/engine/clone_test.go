package engine

import (
	"bytes"
	"context"
	"io/fs"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/agentenkit/agentenkit/vfs"
)

// A clone serves only files where every path CPython's start looked up is
// missing, as in the template's.
func TestCloneLookups(t *testing.T) {
	_, py := python(t)
	tm, err := py.template(context.Background(), py.prestartFor("python3", map[string]string{"HOME": "/home/user"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the start looked up: %v", tm.looked)
	if len(tm.looked) == 0 {
		t.Fatal("the start looked up nothing in /: the record is not working")
	}
	fsys, files := testFS(t)
	if !tm.serves(fsys) {
		t.Error("an empty FS is not served")
	}
	if err := files.MkdirAll("/work", 0o755); err != nil {
		t.Fatal(err)
	}
	if !tm.serves(fsys) {
		t.Error("a folder the start never looks at stops clones")
	}
	if err := files.MkdirAll(tm.looked[len(tm.looked)-1].path, 0o755); err != nil {
		t.Fatal(err)
	}
	if tm.serves(fsys) {
		t.Errorf("%s exists, and the start looked it up: still served", tm.looked[len(tm.looked)-1].path)
	}
}

// Two clones of one template draw different random numbers.
func TestClonesRandom(t *testing.T) {
	if !canMapData {
		t.Skip("clones need memory mappings (Linux)")
	}
	_, py := python(t)
	fsys, _ := testFS(t)
	seen := map[string]bool{}
	for range 2 {
		w, err := py.Prestart(context.Background(), WarmSpec{FS: fsys}, "python3", nil)
		if err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		code, err := w.Run(context.Background(), RunSpec{Args: pyc("import random, os; print(random.random(), os.urandom(8).hex())"), Stdout: &out, Stderr: &errb, Timeout: time.Minute})
		w.Close()
		if code != 0 || err != nil {
			t.Fatalf("exit %d, %v: %s", code, err, errb.String())
		}
		seen[out.String()] = true
	}
	if len(seen) != 2 {
		t.Errorf("two clones printed the same random numbers: %v", seen)
	}
}

// TestCloneBudget: a python3 started from a clone counts against the
// command's budget from its start, as its own process, and ends as a new
// CPython does at the budget: a MemoryError and the message naming the
// command's processes together, where the budget holds its start; the
// same end as a new CPython's where the budget cannot even hold that.
func TestCloneBudget(t *testing.T) {
	if !canMapData {
		t.Skip("clones need memory mappings (Linux)")
	}
	_, py := python(t)
	ctx := context.Background()
	if err := py.PrewarmPython(ctx, "python3", nil); err != nil {
		t.Fatal(err)
	}
	type end struct {
		code        int
		stdout, msg string
	}
	run := func(clone bool, budget *MemoryBudget, code string) end {
		var out, errb bytes.Buffer
		spec := RunSpec{Args: pyc(code), Stdout: &out, Stderr: &errb, Budget: budget, Timeout: time.Minute}
		var c int
		before := py.CloneRuns()
		if clone {
			c, _ = py.Run(ctx, spec)
		} else {
			c, _ = py.run(ctx, spec, py.site, py.stdlib)
		}
		if clone && py.CloneRuns() == before && budget.Limit() > 32<<20 {
			t.Errorf("%q with a budget of %d MiB did not start from a clone", code, budget.Limit()>>20)
		}
		lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
		return end{c, out.String(), lines[len(lines)-1]}
	}
	for _, c := range []struct {
		mib  uint64
		code string
		// held: the run lasts long enough (0.5 s) for the sampler below
		// to see the budget hold the clone's memory; a run that fails at
		// once can end before the sampler runs on a loaded machine.
		held bool
	}{
		{48, "import sys; sys.stdout.write('started\\n'); x = bytearray(60 << 20); print('held')", false},
		{48, "import time; time.sleep(0.5); print('small')", true},
		{4, "print('never')", false}, // under a CPython's start
	} {
		// During a clone's run the budget holds its memory.
		b := NewMemoryBudget(c.mib << 20)
		var peak atomic.Uint64
		done := make(chan struct{})
		go func() {
			for {
				peak.Store(max(peak.Load(), b.Used()))
				select {
				case <-done:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		got := run(true, b, c.code)
		close(done)
		want := run(false, NewMemoryBudget(c.mib<<20), c.code)
		if got != want || strings.Contains(got.msg, "host panic") {
			t.Errorf("%q in %d MiB: from a clone %+v, new %+v", c.code, c.mib, got, want)
		}
		if c.held && peak.Load() < 8<<20 {
			t.Errorf("%q: the budget held at most %d bytes while the clone ran", c.code, peak.Load())
		}
		if b.Used() != 0 {
			t.Errorf("%q: %d bytes still held after the run", c.code, b.Used())
		}
		t.Logf("%q in %d MiB: %+v, budget peak %d MiB", c.code, c.mib, got, peak.Load()>>20)
	}
}

// A template serves files where each path its start looked up looks as it
// did in the template's files: missing there too, or there with the same
// type.
func TestCloneServesLookAlike(t *testing.T) {
	tm := &pyTemplate{looked: []lookup{
		{path: "bin/python3", typ: 0},
		{path: "usr/bin", typ: fs.ModeDir},
		{path: "pyvenv.cfg", errno: experimentalsys.ENOENT},
	}}
	for _, c := range []struct {
		name  string
		make  func(files *vfs.FS) error
		serve bool
	}{
		{"the same", func(files *vfs.FS) error { return nil }, true},
		{"a file that is missing", func(files *vfs.FS) error { return files.Remove("/bin/python3") }, false},
		{"a folder for a file", func(files *vfs.FS) error {
			if err := files.Remove("/bin/python3"); err != nil {
				return err
			}
			return files.Mkdir("/bin/python3", 0o755)
		}, false},
		{"a link for a folder", func(files *vfs.FS) error {
			if err := files.RemoveAll("/usr/bin"); err != nil {
				return err
			}
			return files.SymlinkIfPossible("/bin", "/usr/bin")
		}, false},
		{"a file where none was", func(files *vfs.FS) error { return afero.WriteFile(files, "/pyvenv.cfg", nil, 0o644) }, false},
	} {
		fsys, files := testFS(t)
		require.NoError(t, files.MkdirAll("/usr/bin", 0o755))
		require.NoError(t, files.MkdirAll("/bin", 0o755))
		require.NoError(t, afero.WriteFile(files, "/bin/python3", []byte("#!/bin/sh\n"), 0o755))
		require.NoError(t, c.make(files), c.name)
		assert.Equal(t, c.serve, tm.serves(fsys), c.name)
	}
}
