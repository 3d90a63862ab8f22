package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestPrestartLikeCold: a prestarted Python prints, exits and fails exactly
// as a new CPython does for what it serves; TestCloneLikeCold: one cloned
// from a template (clone.go) too.
func TestPrestartLikeCold(t *testing.T) { testPrestartLikeCold(t, false, false, false) }

// TestRunCloneLikeCold: Image.Run, once PrewarmPython made the template,
// runs each case in a clone, exactly as a new CPython.
func TestRunCloneLikeCold(t *testing.T) {
	if !canMapData {
		t.Skip("clones need memory mappings (Linux)")
	}
	_, py := python(t)
	before := py.cloneRuns.Load()
	n := testPrestartLikeCold(t, true, true, false)
	if got := py.cloneRuns.Load() - before; got != int64(n) {
		t.Errorf("%d of %d runs started from a clone", got, n)
	}
}

func TestCloneLikeCold(t *testing.T) {
	if !canMapData {
		t.Skip("clones need memory mappings (Linux)")
	}
	_, py := python(t)
	testPrestartLikeCold(t, true, false, false)
	py.tmpl.mu.Lock()
	defer py.tmpl.mu.Unlock()
	if len(py.tmpl.m) == 0 {
		t.Error("no template was made: the cases ran on prestarted CPythons")
	}
	for k, s := range py.tmpl.m {
		if s.err != nil || s.t == nil {
			t.Errorf("template %q: %v", k, s.err)
		}
	}
}

// TestSparePythonLikeCold: a spare Python (NewSparePython), bound to the
// files after it started, runs each case exactly as a new CPython.
func TestSparePythonLikeCold(t *testing.T) {
	if !canMapData {
		t.Skip("clones need memory mappings (Linux)")
	}
	testPrestartLikeCold(t, true, false, true)
}

// testPrestartLikeCold runs each case in a new CPython and in a prestarted
// one (viaRun: through Image.Run after PrewarmPython; spare: a spare bound
// to the files) and compares; it returns how many cases it ran.
func testPrestartLikeCold(t *testing.T, clones, viaRun, spare bool) int {
	eng, py := python(t)
	eng.opts.NoClones = !clones
	defer func() { eng.opts.NoClones = false }()
	fsys, files := testFS(t)
	writeFiles(t, files, map[string]string{
		"/work/pkg/__init__.py": "",
		"/work/pkg/helper.py":   "import sys\nprint('helper', __name__, sys.argv[1:])\n",
		"/work/s.py":            "import os, sys\nprint(__name__, __file__, os.getcwd(), sys.argv, sys.orig_argv, sys.path[0])\n",
		"/work/boom.py":         "def f():\n    raise ValueError('boom')\nf()\n",
		"/work/in.py":           "import sys\nprint(sys.stdin.read().upper(), end='')\n",
	})
	env := map[string]string{"HOME": "/work", "LANG": "C.UTF-8"}
	cases := []struct {
		name  string
		args  []string
		stdin string
		env   map[string]string
	}{
		{name: "print", args: pyc("print(6*7)")},
		{name: "argv", args: []string{"python3", "-c", "import sys; print(sys.argv)", "a", "b c"}},
		{name: "globals", args: pyc("print(sorted(globals()), __name__, __spec__, __loader__)")},
		{name: "path and folder", args: pyc("import sys, os; print(sys.path[0] == '', os.getcwd())")},
		{name: "exit code", args: pyc("import sys; sys.exit(3)")},
		{name: "exit message", args: pyc("raise SystemExit('bye')")},
		{name: "traceback", args: pyc("def f():\n    1/0\nf()")},
		{name: "syntax error", args: pyc("print(")},
		{name: "stdin", args: pyc("import sys; print(sys.stdin.read()[::-1])"), stdin: "olleh"},
		{name: "input", args: pyc("print(input() + '!')"), stdin: "hi\n"},
		{name: "env set for the command", args: pyc("import os; print(os.environ['FOO'], 'BAR' in os.environ)"), env: map[string]string{"FOO": "x"}},
		{name: "nothing of the start's environment", args: pyc("import os, posix; print(sorted(os.environ), sorted(posix.environ), os.getenv('OLD'))")},
		{name: "script", args: []string{"python3", "s.py", "1", "2"}},
		{name: "script in dot", args: []string{"python3", "./s.py"}},
		{name: "script through a folder", args: []string{"python3", "pkg/../s.py"}},
		{name: "script absolute", args: []string{"python3", "/work/s.py"}},
		{name: "script traceback", args: []string{"python3", "boom.py"}},
		{name: "script stdin", args: []string{"python3", "in.py"}, stdin: "shout\n"},
		{name: "missing script", args: []string{"python3", "nope.py"}},
		{name: "script in a missing folder", args: []string{"python3", "nope/s.py"}},
		{name: "script under a file", args: []string{"python3", "s.py/x.py"}},
		{name: "missing script quoted", args: []string{"python3", "it's \"q\".py"}},
		{name: "module", args: []string{"python3", "-m", "pkg.helper", "x"}},
		{name: "stderr", args: pyc("import sys; print('out'); print('err', file=sys.stderr)")},
		{name: "atexit", args: pyc("import atexit; atexit.register(print, 'at exit'); print('main')")},
		{name: "atexit not imported", args: pyc("import sys; print('atexit' in sys.modules)")},
		{name: "atexit callbacks are the interpreter's", args: pyc("import atexit, sys; atexit.register(print, 'at exit'); sys.modules['atexit'] = None; print('main')")},
		// How CPython's main ends (pythonrun.c, pylifecycle.c), which a
		// clone, unable to return into it, does itself.
		{name: "exit -1", args: pyc("import sys; sys.exit(-1)")},
		{name: "exit 256", args: pyc("import sys; sys.exit(256)")},
		{name: "exit True", args: pyc("import sys; sys.exit(True)")},
		{name: "KeyboardInterrupt", args: pyc("print('before'); raise KeyboardInterrupt")},
		{name: "KeyboardInterrupt subclass", args: pyc("class K(KeyboardInterrupt): pass\nraise K")},
		{name: "KeyboardInterrupt then atexit", args: pyc("import atexit; atexit.register(print, 'at exit'); raise KeyboardInterrupt('x')")},
		{name: "last exception", args: pyc("import atexit, sys; atexit.register(lambda: print(repr(sys.last_value))); 1/0")},
		{name: "open file flushed at exit", args: pyc("f = open('/work/unclosed.txt', 'w'); f.write('data')\nimport atexit; atexit.register(lambda: print(repr(open('/work/unclosed.txt').read())))")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := map[string]string{}
			for k, v := range env {
				e[k] = v
			}
			for k, v := range c.env {
				e[k] = v
			}
			spec := func(out, errb *bytes.Buffer) RunSpec {
				return RunSpec{Args: c.args, Env: e, Dir: "/work", FS: fsys, Stdin: strings.NewReader(c.stdin), Stdout: out, Stderr: errb, Timeout: time.Minute}
			}
			var coldOut, coldErr, preOut, preErr bytes.Buffer
			coldCode, coldRunErr := py.run(context.Background(), spec(&coldOut, &coldErr), py.site, py.stdlib)
			if viaRun {
				if err := py.PrewarmPython(context.Background(), "python3", e); err != nil {
					t.Fatal(err)
				}
				preCode, preRunErr := py.Run(context.Background(), spec(&preOut, &preErr))
				compareCold(t, c.name, preCode, coldCode, preRunErr, coldRunErr, &preOut, &coldOut, &preErr, &coldErr)
				return
			}

			start := map[string]string{"OLD": "from the command before"}
			for k, v := range env {
				start[k] = v
			}
			var w *Warm
			var err error
			if spare {
				if w, err = py.NewSparePython(context.Background(), 0, "python3", start); err == nil {
					err = w.Bind(fsys, nil)
				}
			} else {
				w, err = py.Prestart(context.Background(), WarmSpec{FS: fsys}, "python3", start)
			}
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			if !w.Serves(c.args, e) {
				t.Fatalf("does not serve %q", c.args)
			}
			preCode, preRunErr := w.Run(context.Background(), spec(&preOut, &preErr))
			compareCold(t, c.name, preCode, coldCode, preRunErr, coldRunErr, &preOut, &coldOut, &preErr, &coldErr)
			if w.Reusable() {
				t.Error("a prestarted Python is reusable after its command")
			}
		})
	}
	return len(cases)
}

// compareCold fails t where a prestarted Python's exit, stdout or stderr
// differs from a new CPython's.
func compareCold(t *testing.T, name string, preCode, coldCode int, preRunErr, coldRunErr error, preOut, coldOut, preErr, coldErr *bytes.Buffer) {
	t.Helper()
	if preCode != coldCode || (preRunErr == nil) != (coldRunErr == nil) {
		t.Errorf("exit %d (%v), a new CPython %d (%v)", preCode, preRunErr, coldCode, coldRunErr)
	}
	cold, pre := coldOut.String(), preOut.String()
	if pre != cold {
		t.Errorf("stdout %q, a new CPython %q", pre, cold)
	}
	if preErr.String() != coldErr.String() {
		t.Errorf("stderr %q, a new CPython %q", preErr.String(), coldErr.String())
	}
}

// TestPrestartServes: what a prestarted Python refuses, so that a new
// CPython runs it.
func TestPrestartServes(t *testing.T) {
	ps := &prestart{argv0: "python3", env: map[string]string{"HOME": "/h"}}
	pythonEnv(ps.env, PythonStdlibDir)
	ps.stdlib = PythonStdlibDir
	for _, c := range []struct {
		name string
		args []string
		env  map[string]string
		ok   bool
	}{
		{"-c", []string{"python3", "-c", "pass"}, map[string]string{"HOME": "/h", "OTHER": "1"}, true},
		{"script", []string{"python3", "x.py", "-c"}, map[string]string{"HOME": "/h"}, true},
		{"-m", []string{"python3", "-m", "json.tool"}, map[string]string{"HOME": "/h"}, true},
		{"another name", []string{"python", "-c", "pass"}, map[string]string{"HOME": "/h"}, false},
		{"an option", []string{"python3", "-u", "-c", "pass"}, map[string]string{"HOME": "/h"}, false},
		{"program on stdin", []string{"python3"}, map[string]string{"HOME": "/h"}, false},
		{"stdin as script", []string{"python3", "-"}, map[string]string{"HOME": "/h"}, false},
		{"another HOME", []string{"python3", "-c", "pass"}, map[string]string{"HOME": "/x"}, false},
		{"no HOME", []string{"python3", "-c", "pass"}, map[string]string{}, false},
		{"a PYTHON variable", []string{"python3", "-c", "pass"}, map[string]string{"HOME": "/h", "PYTHONHASHSEED": "0"}, false},
		{"PYTHONHASHSEED=random", []string{"python3", "-c", "pass"}, map[string]string{"HOME": "/h", "PYTHONHASHSEED": "random"}, false},
		{"a PYTHONPATH", []string{"python3", "-c", "pass"}, map[string]string{"HOME": "/h", "PYTHONPATH": "/lib"}, false},
		{"a locale", []string{"python3", "-c", "pass"}, map[string]string{"HOME": "/h", "LC_ALL": "C"}, false},
		{"a NUL", []string{"python3", "-c", "print('\x00')"}, map[string]string{"HOME": "/h"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := ps.request(c.args, c.env, "/w"); ok != c.ok {
				t.Errorf("serves %q with %v: %v, want %v", c.args, c.env, ok, c.ok)
			}
		})
	}
	// One started with PYTHONHASHSEED=random serves nothing: each CPython
	// asked for so must draw its own str hash seed, which a prestarted
	// one (or a clone of a template) drew before.
	rnd := &prestart{argv0: "python3", env: map[string]string{"HOME": "/h", "PYTHONHASHSEED": "random"}}
	pythonEnv(rnd.env, PythonStdlibDir)
	rnd.stdlib = PythonStdlibDir
	for _, c := range []struct {
		name string
		env  map[string]string
		ok   bool
	}{
		{"PYTHONHASHSEED=random", map[string]string{"HOME": "/h", "PYTHONHASHSEED": "random"}, false},
		{"unset", map[string]string{"HOME": "/h"}, false},
	} {
		t.Run("started random, "+c.name, func(t *testing.T) {
			if _, ok := rnd.request([]string{"python3", "-c", "pass"}, c.env, "/w"); ok != c.ok {
				t.Errorf("serves with %v: %v, want %v", c.env, ok, c.ok)
			}
		})
	}
}

// TestPrestartLimits: the time limit and the memory cap hold as for a new
// CPython.
func TestPrestartLimits(t *testing.T) {
	_, py := python(t)
	for _, c := range []struct {
		name  string
		code  string
		pages uint32
		exit  int
		kind  error
	}{
		{"time", "while True: pass", 0, ExitTimeout, ErrTimeout},
		{"memory", "x = bytearray(200 << 20)", 1600, 1, ErrMemoryLimit},
	} {
		t.Run(c.name, func(t *testing.T) {
			fsys, _ := testFS(t)
			w, err := py.Prestart(context.Background(), WarmSpec{FS: fsys, MemoryLimitPages: c.pages}, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			var errb bytes.Buffer
			code, err := w.Run(context.Background(), RunSpec{Args: pyc(c.code), Stderr: &errb, Timeout: 2 * time.Second})
			if code != c.exit || !errors.Is(err, c.kind) {
				t.Fatalf("exit %d err %v stderr %q; want %d %v", code, err, errb.String(), c.exit, c.kind)
			}
		})
	}
}
