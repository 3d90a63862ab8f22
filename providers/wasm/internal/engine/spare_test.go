package engine

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
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
