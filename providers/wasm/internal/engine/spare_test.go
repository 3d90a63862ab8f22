package engine

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/vfs"
)

// TestSpareShellBind: a spare shell runs nothing before Bind, sees only the
// files it was bound to (reads and writes land there, not in other files),
// binds once, and refuses files with a path its template's start looked up.
func TestSpareShellBind(t *testing.T) {
	bb := reactorBusybox(t, Options{})
	ctx := context.Background()
	w, err := bb.NewSpareShell(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if !w.IsSpare() || w.FS() != nil {
		t.Fatal("a new spare is not an unbound spare")
	}
	if code, err := w.Run(ctx, RunSpec{Args: []string{"sh", "-c", "echo hi"}}); !errors.Is(err, ErrSpareUnbound) || code != -1 {
		t.Fatalf("Run before Bind: %d %v", code, err)
	}

	a, b := vfs.New(vfs.Options{}), vfs.New(vfs.Options{})
	for name, f := range map[string]*vfs.FS{"a": a, "b": b} {
		if err := f.WriteFile("/"+name+".txt", []byte(name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tmpl, err := bb.shellTemplate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(tmpl.looked) > 0 {
		bad := vfs.New(vfs.Options{})
		p := "/" + strings.TrimPrefix(tmpl.looked[0], "/")
		if err := bad.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := w.Bind(bad.WASI(), nil); !errors.Is(err, ErrSpareServes) {
			t.Fatalf("Bind to files with %s: %v", p, err)
		}
	}
	afs := a.WASI()
	if err := w.Bind(afs, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Bind(b.WASI(), nil); !errors.Is(err, ErrSpareBound) {
		t.Fatalf("a second Bind: %v", err)
	}
	if w.FS() != afs {
		t.Fatal("FS is not the bound files")
	}
	out, _, code := shellRun(t, w, "ls /*.txt; cat /a.txt; cat /b.txt 2>/dev/null || echo no b; echo new > /made.txt", nil, "/")
	if out != "/a.txt\na\nno b\n" || code != 0 {
		t.Fatalf("got %q (exit %d)", out, code)
	}
	if got, err := fs.ReadFile(a.IOFS(), "made.txt"); err != nil || string(got) != "new\n" {
		t.Fatalf("the write did not land in the bound files: %q %v", got, err)
	}
	if _, err := b.Stat("/made.txt"); err == nil {
		t.Fatal("the write landed in other files")
	}
	// Another FS than the bound one is refused, as for any warm instance.
	if _, err := w.Run(ctx, RunSpec{Args: []string{"sh", "-c", "true"}, FS: b.WASI()}); err == nil {
		t.Fatal("Run with other files than the bound ones")
	}
	if err := (&Warm{}).Bind(afs, nil); !errors.Is(err, ErrSpareBound) {
		t.Fatalf("Bind on a Warm that is not a spare: %v", err)
	}
}

// TestSpareShellsRandom: spares made one after another, then used, have
// random states of their own ($RANDOM differs).
func TestSpareShellsRandom(t *testing.T) {
	bb := reactorBusybox(t, Options{})
	ctx := context.Background()
	var spares []*Warm
	for range 4 {
		w, err := bb.NewSpareShell(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		spares = append(spares, w)
	}
	seen := map[string]bool{}
	for _, w := range spares {
		if err := w.Bind(vfs.New(vfs.Options{}).WASI(), nil); err != nil {
			t.Fatal(err)
		}
		out, _, _ := shellRun(t, w, "echo $RANDOM $RANDOM $RANDOM", nil, "/")
		if seen[out] {
			t.Fatalf("two spares gave the same $RANDOM values %q", out)
		}
		seen[out] = true
	}
}

// TestSparePython: a spare Python is refused before Bind, binds its
// command's budget (over it, it stays unbound and can be bound with
// another), runs its command on the bound files, and its random module
// is seeded apart from another spare's.
func TestSparePython(t *testing.T) {
	if !canMapData {
		t.Skip("clones need memory mappings (Linux)")
	}
	_, py := python(t)
	ctx := context.Background()
	env := map[string]string{"HOME": "/work", "LANG": "C.UTF-8"}
	run := func(w *Warm, code string, fsys *vfs.FS) string {
		t.Helper()
		var out, errb bytes.Buffer
		c, err := w.Run(ctx, RunSpec{Args: pyc(code), Env: env, Dir: "/", Stdout: &out, Stderr: &errb, Timeout: time.Minute})
		if err != nil || c != 0 {
			t.Fatalf("%q: exit %d %v %s", code, c, err, errb.String())
		}
		return out.String()
	}
	seen := map[string]bool{}
	for i := range 2 {
		w, err := py.NewSparePython(ctx, 0, "python3", env)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		if _, err := w.Run(ctx, RunSpec{Args: pyc("print(1)"), Env: env}); !errors.Is(err, ErrSpareUnbound) {
			t.Fatalf("Run before Bind: %v", err)
		}
		fsys := vfs.New(vfs.Options{})
		if err := fsys.WriteFile("/mine.txt", []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			small := NewMemoryBudget(1 << 20)
			if err := w.Bind(fsys.WASI(), small); !errors.Is(err, ErrSpareBudget) {
				t.Fatalf("Bind within 1 MiB: %v", err)
			}
			if small.Used() != 0 {
				t.Fatal("a refused budget holds memory")
			}
		}
		if i == 1 {
			// Files with a path the template's start looked up (and
			// found missing) would start a new CPython another way.
			tmpl := py.readyTemplate(py.prestartFor("python3", env))
			if tmpl == nil {
				t.Fatal("no template")
			}
			missing := ""
			for _, l := range tmpl.looked {
				if l.errno != 0 {
					missing = l.path
					break
				}
			}
			if missing == "" {
				t.Fatal("the template's start looked up no missing path")
			}
			bad := vfs.New(vfs.Options{})
			if err := bad.MkdirAll("/"+strings.TrimPrefix(missing, "/"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := w.Bind(bad.WASI(), nil); !errors.Is(err, ErrSpareServes) {
				t.Fatalf("Bind to files with %s: %v", missing, err)
			}
		}
		budget := NewMemoryBudget(256 << 20)
		if err := w.Bind(fsys.WASI(), budget); err != nil {
			t.Fatal(err)
		}
		if budget.Used() == 0 {
			t.Fatal("the bound budget holds none of the spare's memory")
		}
		if !w.Serves(pyc("print(1)"), env) {
			t.Fatal("a bound spare does not serve python3 -c")
		}
		out := run(w, "import os, random; print(sorted(os.listdir('/')), open('/mine.txt').read(), random.random())", fsys)
		if !strings.HasPrefix(out, "['mine.txt'] mine ") || seen[out] {
			t.Fatalf("got %q (the files, or the same random value as another spare)", out)
		}
		seen[out] = true
	}
}

// TestSpareRecycle: a spare shell recycled after its sandbox's commands is
// an unbound spare again, then sees only the files it is bound to next
// (the preopen's root folder too), draws random numbers of its own, and
// counts as a clone; one that is not a spare shell, was never bound, has a
// file open, ended (by its time limit here) or grew its memory is refused and closed
// by the caller.
func TestSpareRecycle(t *testing.T) {
	bb := reactorBusybox(t, Options{})
	ctx := context.Background()
	files := func(name string) *vfs.FS {
		f := vfs.New(vfs.Options{})
		if err := f.WriteFile("/"+name+".txt", []byte(name+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	w, err := bb.NewSpareShell(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := w.Recycle(ctx); !errors.Is(err, ErrNotRecyclable) {
		t.Fatalf("Recycle of an unbound spare: %v", err)
	}
	a, b := files("a"), files("b")
	if err := w.Bind(a.WASI(), nil); err != nil {
		t.Fatal(err)
	}
	// The files the shell opened for its redirections are closed when
	// its descriptors let go of them (exec 3>&-) and when the command
	// ends (exec 4>... left open): they do not keep it from recycling.
	first, _, _ := shellRun(t, w, "echo $RANDOM $RANDOM; echo new > /made.txt; ls /; exec 3>/f3; exec 3>&-; exec 4>/f4 5</a.txt; echo x >&4", nil, "/")
	before := bb.ShellClones()
	if err := w.Recycle(ctx); err != nil {
		t.Fatal(err)
	}
	if bb.ShellClones() != before+1 || !w.IsSpare() || w.FS() != nil || !w.Reusable() {
		t.Fatal("a recycled spare is not an unbound spare counted as a clone")
	}
	if code, err := w.Run(ctx, RunSpec{Args: []string{"sh", "-c", "echo hi"}}); !errors.Is(err, ErrSpareUnbound) || code != -1 {
		t.Fatalf("Run of a recycled spare before Bind: %d %v", code, err)
	}
	if err := w.Bind(b.WASI(), nil); err != nil {
		t.Fatal(err)
	}
	out, _, code := shellRun(t, w, "echo $RANDOM $RANDOM; ls /*.txt; cat /a.txt 2>/dev/null || echo no a; echo b2 > /b2.txt", nil, "/")
	rnd, rest, _ := strings.Cut(out, "\n")
	if code != 0 || rest != "/b.txt\nno a\n" {
		t.Fatalf("after Recycle and Bind to other files: %q (exit %d)", out, code)
	}
	if firstRnd, _, _ := strings.Cut(first, "\n"); rnd == firstRnd {
		t.Fatalf("the recycled spare drew the same $RANDOM %q", rnd)
	}
	if _, err := a.Stat("/b2.txt"); err == nil {
		t.Fatal("a write after Recycle landed in the files bound before")
	}
	if _, err := b.Stat("/b2.txt"); err != nil {
		t.Fatal("a write after Recycle did not land in the files bound now")
	}
	// The preopen's own folder is the new files' root.
	if r := w.spare.fs.root; r == nil || r.File == nil {
		t.Fatal("the preopen's root folder was never opened")
	} else if ents, errno := r.Readdir(-1); errno != 0 {
		t.Fatalf("readdir of the preopen: %v", errno)
	} else {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name)
		}
		if !slices.Contains(names, "b.txt") || slices.Contains(names, "a.txt") || slices.Contains(names, "made.txt") {
			t.Fatalf("the preopen lists %q, not the bound files", names)
		}
	}

	if err := w.Recycle(ctx); err != nil && !strings.Contains(err.Error(), "memory grew") {
		t.Fatalf("Recycle after a command: %v", err)
	} else if err != nil {
		// the guest's GC paces itself by the clock: on a loaded machine
		// the heap can outgrow the template's memory
		w.Close()
		if w, err = bb.NewSpareShell(ctx, 0); err != nil {
			t.Fatal(err)
		}
		defer w.Close()
	}

	// Refused: a file open through "/" (closed, it is recycled). No
	// command runs between Bind and Recycle, so the memory is the
	// template's and only the open file is in the way.
	if err := w.Bind(files("e").WASI(), nil); err != nil {
		t.Fatal(err)
	}
	if w.spare.fs.root == nil {
		// a new spare (the memory grew above): the first file opened
		// through its "/" is the preopen's own, as wazero's first use
		// of fd 3 opens it
		if _, errno := w.spare.fs.OpenFile(".", 0, 0); errno != 0 {
			t.Fatal(errno)
		}
	}
	f, errno := w.spare.fs.OpenFile("e.txt", 0, 0)
	if errno != 0 {
		t.Fatal(errno)
	}
	if err := w.Recycle(ctx); !errors.Is(err, ErrNotRecyclable) || !strings.Contains(err.Error(), "a file is open") {
		t.Fatalf("Recycle with a file open: %v", err)
	}
	_ = f.Close()
	if err := w.Recycle(ctx); err != nil {
		t.Fatalf("Recycle once the file is closed: %v", err)
	}
	for _, script := range []string{
		"",                              // ended by its time limit: not Reusable
		"x=$(seq 1 200000); echo ${#x}", // the memory grew past the template's
	} {
		if err := w.Bind(files("c").WASI(), nil); err != nil {
			t.Fatal(err)
		}
		if script == "" {
			_, _ = w.Run(ctx, RunSpec{Args: []string{"sh", "-c", "sleep 10"}, Timeout: 50 * time.Millisecond})
		} else {
			shellRun(t, w, script, nil, "/")
		}
		if err := w.Recycle(ctx); !errors.Is(err, ErrNotRecyclable) {
			t.Fatalf("Recycle after %q: %v", script, err)
		}
		w.Close()
		if w, err = bb.NewSpareShell(ctx, 0); err != nil {
			t.Fatal(err)
		}
		defer w.Close()
	}
	cold, err := bb.NewWarm(ctx, WarmSpec{FS: files("d").WASI()})
	if err != nil {
		t.Fatal(err)
	}
	defer cold.Close()
	shellRun(t, cold, "true", nil, "/")
	if err := cold.Recycle(ctx); !errors.Is(err, ErrNotRecyclable) {
		t.Fatalf("Recycle of a shell that is not a spare: %v", err)
	}
}
