package engine

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/vfs"
	"github.com/spf13/afero"
	"github.com/tetratelabs/wazero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

// One engine and one compiled python for the whole package, as the adapter
// has: compiling python.wasm takes seconds.
var (
	setupOnce  sync.Once
	testEng    *Engine
	testPy     *Image
	testPyWasm string // testPy's file: the python image $AGENTENKIT_PYTHON_IMAGE names
	setupErr   error
	skipWhy    string
)

func python(t testing.TB) (*Engine, *Image) {
	t.Helper()
	setupOnce.Do(func() {
		paths, err := images.Find("")
		if err != nil {
			skipWhy = fmt.Sprintf("python image not fetched (run `%s`): %v", images.FetchCommand, err)
			return
		}
		ctx := context.Background()
		testEng, setupErr = New(ctx, Options{CacheDir: paths.CompileCache})
		if setupErr != nil {
			return
		}
		start := time.Now()
		var py string
		if py, setupErr = paths.PythonFor(""); setupErr != nil { // $AGENTENKIT_PYTHON_IMAGE
			return
		}
		testPyWasm = py
		testPy, setupErr = testEng.Load(ctx, Python, py)
		if setupErr == nil {
			fmt.Fprintf(os.Stderr, "engine_test: python.wasm loaded in %v\n", time.Since(start).Round(time.Millisecond))
		}
	})
	if skipWhy != "" {
		t.Skip(skipWhy)
	}
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	return testEng, testPy
}

type run struct {
	code           int
	err            error
	stdout, stderr string
	took           time.Duration
}

func runPy(t testing.TB, spec RunSpec) run {
	t.Helper()
	_, py := python(t)
	var out, errb bytes.Buffer
	spec.Stdout, spec.Stderr = &out, &errb
	if spec.Args == nil {
		t.Fatal("no args")
	}
	start := time.Now()
	code, err := py.Run(context.Background(), spec)
	return run{code, err, out.String(), errb.String(), time.Since(start)}
}

func pyc(code string) []string { return []string{"python3", "-c", code} }

func TestPythonPrint(t *testing.T) {
	r := runPy(t, RunSpec{Args: pyc("print(2+2)")})
	if r.err != nil || r.code != 0 || r.stdout != "4\n" {
		t.Fatalf("code %d err %v stdout %q stderr %q", r.code, r.err, r.stdout, r.stderr)
	}
	t.Logf("python -c 'print(2+2)' took %v", r.took)
}

func TestPythonExitCode(t *testing.T) {
	for _, tc := range []struct {
		code string
		want int
	}{
		{"import sys; sys.exit(3)", 3},
		{"raise ValueError('boom')", 1},
		{"import os; os._exit(5)", 5},
		{"pass", 0},
		// The codes wazero gives an instance its context ended are also
		// a guest's own exit(-1) and exit(-268435457): exits, not ends.
		{"import sys; sys.exit(-1)", 0xffffffff},
		{"import os; os._exit(-268435457)", 0xefffffff},
		// No kill() on WASI: CPython's main exits 128+SIGINT.
		{"raise KeyboardInterrupt", 130},
	} {
		r := runPy(t, RunSpec{Args: pyc(tc.code)})
		if r.err != nil || r.code != tc.want {
			t.Errorf("%s: code %d err %v, want %d; stderr %q", tc.code, r.code, r.err, tc.want, r.stderr)
		}
	}
}

func TestPythonStdin(t *testing.T) {
	for name, stdin := range map[string]func() io.Reader{
		"strings": func() io.Reader { return strings.NewReader("hello\nworld\n") },
		"pipe": func() io.Reader {
			pr, pw := io.Pipe()
			go func() {
				io.WriteString(pw, "hello\n")
				time.Sleep(50 * time.Millisecond)
				io.WriteString(pw, "world\n")
				pw.Close()
			}()
			return pr
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := runPy(t, RunSpec{Args: pyc("import sys; print(sys.stdin.read().upper(), end='')"), Stdin: stdin()})
			if r.err != nil || r.code != 0 || r.stdout != "HELLO\nWORLD\n" {
				t.Fatalf("code %d err %v stdout %q stderr %q", r.code, r.err, r.stdout, r.stderr)
			}
		})
	}
}

// testFS is a sandbox's in-memory filesystem and its WASI view.
// writeFiles writes each file (path: content) into files, its folders made.
func writeFiles(t *testing.T, files *vfs.FS, each map[string]string) {
	t.Helper()
	for name, body := range each {
		if err := files.MkdirAll(path.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := files.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func testFS(t *testing.T) (experimentalsys.FS, *vfs.FS) {
	files := vfs.New(vfs.Options{})
	return files.WASI(), files
}

func TestPythonFilesAndWorkdir(t *testing.T) {
	fsys, files := testFS(t)
	writeFiles(t, files, map[string]string{
		"/work/pkg/__init__.py": "",
		"/work/pkg/helper.py":   "X = 41\n",
		"/work/s.py":            "import os, sys\nfrom pkg.helper import X\nprint(os.getcwd(), X+1, sys.argv[1:])\nopen('from_script.txt','w').write('s')\n",
	})

	t.Run("-c", func(t *testing.T) {
		r := runPy(t, RunSpec{Args: pyc("import os; print(os.getcwd()); open('out.txt', 'w').write('written by python')"), FS: fsys, Dir: "/work"})
		if r.err != nil || r.code != 0 || r.stdout != "/work\n" {
			t.Fatalf("code %d err %v stdout %q stderr %q", r.code, r.err, r.stdout, r.stderr)
		}
		b, err := afero.ReadFile(files, "/work/out.txt")
		if err != nil || string(b) != "written by python" {
			t.Fatalf("file on the FS: %q, %v", b, err)
		}
	})
	t.Run("relative script", func(t *testing.T) {
		r := runPy(t, RunSpec{Args: []string{"python3", "-u", "s.py", "a", "b"}, FS: fsys, Dir: "/work"})
		if r.err != nil || r.code != 0 || r.stdout != "/work 42 ['a', 'b']\n" {
			t.Fatalf("code %d err %v stdout %q stderr %q", r.code, r.err, r.stdout, r.stderr)
		}
		if _, err := files.Stat("/work/from_script.txt"); err != nil {
			t.Fatal(err)
		}
		if _, err := files.Stat("/work/pkg/__pycache__"); err == nil {
			t.Error("python wrote __pycache__ into the sandbox's files")
		}
	})
	t.Run("-m", func(t *testing.T) {
		r := runPy(t, RunSpec{Args: []string{"python3", "-m", "pkg.helper"}, FS: fsys, Dir: "/work"})
		if r.err != nil || r.code != 0 {
			t.Fatalf("code %d err %v stdout %q stderr %q", r.code, r.err, r.stdout, r.stderr)
		}
	})
	t.Run("only the FS is visible", func(t *testing.T) {
		r := runPy(t, RunSpec{Args: pyc("import os; print(sorted(os.listdir('/')), sorted(os.environ))"), FS: fsys, Env: map[string]string{"HOME": "/work"}})
		want := "['work'] ['HOME', 'PWD', 'PYTHONDONTWRITEBYTECODE', 'PYTHONPATH', 'PYTHONUNBUFFERED']\n"
		if r.err != nil || r.code != 0 || r.stdout != want {
			t.Fatalf("code %d err %v stdout %q want %q stderr %q", r.code, r.err, r.stdout, want, r.stderr)
		}
	})
}

func TestPythonTimeout(t *testing.T) {
	r := runPy(t, RunSpec{Args: pyc("print('started', flush=True)\nwhile True: pass"), Timeout: time.Second})
	if r.code != ExitTimeout || !errors.Is(r.err, ErrTimeout) || !errors.Is(r.err, context.DeadlineExceeded) {
		t.Fatalf("code %d err %v stderr %q", r.code, r.err, r.stderr)
	}
	if r.took > 1500*time.Millisecond {
		t.Errorf("killed after %v, want about 1 s", r.took)
	}
	if r.stdout != "started\n" {
		t.Errorf("output before the kill: %q", r.stdout)
	}
	t.Logf("busy loop killed after %v", r.took)
}

func TestPythonCancel(t *testing.T) {
	_, py := python(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	start := time.Now()
	code, err := py.Run(ctx, RunSpec{Args: pyc("while True: pass")})
	if code != ExitCanceled || !errors.Is(err, ErrCanceled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("code %d err %v", code, err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("cancelled after %v", took)
	}
}

func TestPythonSleep(t *testing.T) {
	t.Run("works", func(t *testing.T) {
		r := runPy(t, RunSpec{Args: pyc("import time; t = time.monotonic(); time.sleep(0.25); print(round(time.monotonic() - t, 1))")})
		if r.err != nil || r.code != 0 || r.stdout != "0.2\n" && r.stdout != "0.3\n" {
			t.Fatalf("code %d err %v stdout %q stderr %q", r.code, r.err, r.stdout, r.stderr)
		}
	})
	t.Run("wakes at the deadline", func(t *testing.T) {
		r := runPy(t, RunSpec{Args: pyc("import time; time.sleep(30)"), Timeout: 500 * time.Millisecond})
		if r.code != ExitTimeout || !errors.Is(r.err, ErrTimeout) {
			t.Fatalf("code %d err %v stderr %q", r.code, r.err, r.stderr)
		}
		if r.took > time.Second {
			t.Errorf("a sleeping python was stopped after %v, want about 0.5 s", r.took)
		}
	})
	t.Run("select", func(t *testing.T) {
		r := runPy(t, RunSpec{Args: pyc("import select, time; t = time.monotonic(); select.select([], [], [], 0.1); print(time.monotonic() - t >= 0.09)")})
		if r.err != nil || r.code != 0 || r.stdout != "True\n" {
			t.Fatalf("code %d err %v stdout %q stderr %q", r.code, r.err, r.stdout, r.stderr)
		}
	})
}

func TestPythonStdinWaitEndsAtDeadline(t *testing.T) {
	pr, pw := io.Pipe() // never written
	defer pw.Close()
	r := runPy(t, RunSpec{Args: pyc("import sys; sys.stdin.read()"), Stdin: pr, Timeout: 500 * time.Millisecond})
	if r.code != ExitTimeout || !errors.Is(r.err, ErrTimeout) {
		t.Fatalf("code %d err %v stderr %q", r.code, r.err, r.stderr)
	}
	if r.took > time.Second {
		t.Errorf("a python waiting on stdin was stopped after %v", r.took)
	}
}

func TestPythonMemoryLimit(t *testing.T) {
	r := runPy(t, RunSpec{Args: pyc("b = bytearray(600*1024*1024)")})
	if r.code == 0 || !errors.Is(r.err, ErrMemoryLimit) {
		t.Fatalf("code %d err %v stderr %q", r.code, r.err, r.stderr)
	}
	if !strings.Contains(r.stderr, "MemoryError") || !strings.Contains(r.stderr, "memory limit exceeded") {
		t.Errorf("stderr %q", r.stderr)
	}
	// Handled inside the guest, it is not a failure.
	r = runPy(t, RunSpec{Args: pyc("try:\n  bytearray(600*1024*1024)\nexcept MemoryError:\n  print('caught')\nb = bytearray(100*1024*1024); print(len(b) >> 20)")})
	if r.err != nil || r.code != 0 || r.stdout != "caught\n100\n" {
		t.Fatalf("code %d err %v stdout %q stderr %q", r.code, r.err, r.stdout, r.stderr)
	}
	// A smaller cap for one run.
	r = runPy(t, RunSpec{Args: pyc("b = bytearray(100*1024*1024)"), MemoryLimitPages: 1024})
	if !errors.Is(r.err, ErrMemoryLimit) {
		t.Fatalf("64 MiB cap: code %d err %v stderr %q", r.code, r.err, r.stderr)
	}
	// The host is fine.
	r = runPy(t, RunSpec{Args: pyc("print('still here')")})
	if r.err != nil || r.stdout != "still here\n" {
		t.Fatalf("after: code %d err %v stdout %q", r.code, r.err, r.stdout)
	}
}

func TestPythonConcurrent(t *testing.T) {
	python(t)
	const n = 8
	var wg sync.WaitGroup
	results := make([]run, n)
	start := time.Now()
	stop, sampled := make(chan struct{}), make(chan struct{})
	var peak int64
	go func() { // sample the process's RSS while they run
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				peak = max(peak, rssKiB("VmRSS"))
			}
		}
	}()
	before := rssKiB("VmRSS")
	fsys, files := testFS(t) // one sandbox's files, shared by all
	for i := range n {
		wg.Go(func() {
			code := fmt.Sprintf("import json, re; open('out%d.json', 'w').write(json.dumps({'i': %d})); print(open('out%d.json').read())", i, i, i)
			results[i] = runPy(t, RunSpec{Args: pyc(code), FS: fsys})
		})
	}
	wg.Wait()
	close(stop)
	<-sampled
	for i, r := range results {
		want := fmt.Sprintf("{\"i\": %d}\n", i)
		if r.err != nil || r.code != 0 || r.stdout != want {
			t.Errorf("%d: code %d err %v stdout %q stderr %q", i, r.code, r.err, r.stdout, r.stderr)
		}
		if b, err := afero.ReadFile(files, fmt.Sprintf("/out%d.json", i)); err != nil || string(b)+"\n" != want {
			t.Errorf("out%d.json: %q %v", i, b, err)
		}
	}
	t.Logf("%d concurrent pythons in %v; RSS before %d MiB, peak sampled %d MiB, process high-water %d MiB",
		n, time.Since(start).Round(time.Millisecond), before>>10, peak>>10, rssKiB("VmHWM")>>10)
}

// rssKiB reads a field of /proc/self/status (Linux only; 0 elsewhere).
func rssKiB(field string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

func TestLoadOnce(t *testing.T) {
	e, py := python(t)
	var wg sync.WaitGroup
	start := time.Now()
	for range 4 {
		wg.Go(func() {
			again, err := e.Load(context.Background(), Python, py.path)
			if err != nil || again != py {
				t.Errorf("second Load: %p %v, want %p", again, err, py)
			}
		})
	}
	wg.Wait()
	if took := time.Since(start); took > 50*time.Millisecond {
		t.Errorf("loading again took %v", took)
	}
	if _, err := e.Load(context.Background(), Python, "/elsewhere/python.wasm"); err == nil {
		t.Error("the same name from another path loaded")
	}
}

func TestTrap(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	img, err := e.Load(ctx, "trap", "testdata/trap.wasm")
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code, err := img.Run(ctx, RunSpec{Stderr: &stderr})
	if code != ExitTrap || !errors.Is(err, ErrTrap) {
		t.Fatalf("code %d err %v", code, err)
	}
	if !strings.Contains(stderr.String(), "unreachable") {
		t.Errorf("stderr %q", stderr.String())
	}
	if _, err := e.Load(ctx, "missing", "testdata/none.wasm"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestHostModule(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	define := func(b wazero.HostModuleBuilder) wazero.HostModuleBuilder {
		return b.NewFunctionBuilder().WithFunc(func() uint32 { return 7 }).Export("seven")
	}
	if err := e.AddHostModule(ctx, "sandbox", define); err != nil {
		t.Fatal(err)
	}
	if err := e.AddHostModule(ctx, "sandbox", define); !errors.Is(err, ErrHostModuleExists) {
		t.Fatalf("defined twice: %v", err)
	}
	if err := e.AddHostModule(ctx, wasiModuleName, define); !errors.Is(err, ErrHostModuleExists) {
		t.Fatalf("redefined WASI: %v", err)
	}
}

func TestPythonArgs(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		i        int
	}{
		{"python3 s.py a", "python3 /w/s.py a", 1},
		{"python3 -u s.py", "python3 -u /w/s.py", 2},
		{"python3 /abs/s.py", "python3 /abs/s.py", 0},
		{"python3 -c s.py", "python3 -c s.py", 0},
		{"python3 -uc s.py", "python3 -uc s.py", 0},
		{"python3 -m s.py", "python3 -m s.py", 0},
		{"python3 -W ignore s.py", "python3 -W ignore /w/s.py", 3},
		{"python3 -Wignore s.py", "python3 -Wignore /w/s.py", 2},
		{"python3 -X dev -B s.py", "python3 -X dev -B /w/s.py", 4},
		{"python3 --check-hash-based-pycs never d/s.py", "python3 --check-hash-based-pycs never /w/d/s.py", 3},
		{"python3 -- -s.py", "python3 -- /w/-s.py", 2},
		{"python3 - s.py", "python3 - s.py", 0},
		// CPython's __file__ is the folder and the path as given.
		{"python3 ../s.py", "python3 /w/../s.py", 1},
		{"python3 ./s.py", "python3 /w/./s.py", 1},
		{"python3", "python3", 0},
	} {
		args, i := pythonArgs(strings.Fields(tc.in), "/w")
		if got := strings.Join(args, " "); got != tc.want || i != tc.i {
			t.Errorf("%s: got %s (script at %d), want %s (at %d)", tc.in, got, i, tc.want, tc.i)
		}
	}
	if args, _ := pythonArgs([]string{"python3", "s.py"}, "/"); args[1] != "/s.py" {
		t.Errorf("in /: %q", args)
	}
}

func TestCapMemory(t *testing.T) {
	a := &capAllocator{limit: 4 << 16}
	m := a.Allocate(0, 1<<32)
	if b := m.Reallocate(1 << 16); len(b) != 1<<16 {
		t.Fatalf("len %d", len(b))
	}
	b := m.Reallocate(2 << 16)
	b[0] = 9
	if b = m.Reallocate(4 << 16); len(b) != 4<<16 || b[0] != 9 {
		t.Fatalf("grow lost data or size: %d", len(b))
	}
	if a.hit.Load() {
		t.Fatal("hit within the cap")
	}
	if m.Reallocate(5<<16) != nil || !a.hit.Load() {
		t.Fatal("grew past the cap")
	}
	if a.peak.Load() != 4<<16 {
		t.Errorf("peak %d", a.peak.Load())
	}
	m.Free()
}

// BenchmarkPythonPrint is python -c 'print(1)' on a warm engine: one fresh
// instance per op, a new CPython's start (cold) or a clone of the template
// PrewarmPython made (clone); cpu-ns/op is the process's CPU time.
func BenchmarkPythonPrint(b *testing.B) {
	_, py := python(b)
	ctx := context.Background()
	for _, clone := range []bool{false, true} {
		b.Run(map[bool]string{false: "cold", true: "clone"}[clone], func(b *testing.B) {
			if clone {
				if !canMapData {
					b.Skip("clones need memory mappings (Linux)")
				}
				if err := py.PrewarmPython(ctx, "python3", nil); err != nil {
					b.Fatal(err)
				}
			}
			var out bytes.Buffer
			cpu0, clones := cpuTime(), py.CloneRuns()
			for b.Loop() {
				out.Reset()
				spec := RunSpec{Args: pyc("print(1)"), Stdout: &out}
				var code int
				var err error
				if clone {
					code, err = py.Run(ctx, spec)
				} else {
					code, err = py.run(ctx, spec, py.site, py.stdlib)
				}
				if err != nil || code != 0 || out.String() != "1\n" {
					b.Fatalf("code %d err %v out %q", code, err, out.String())
				}
			}
			if clone && py.CloneRuns()-clones != int64(b.N) {
				b.Fatalf("%d of %d runs from a clone", py.CloneRuns()-clones, b.N)
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// BenchmarkLoadPython is a fresh Engine compiling python.wasm: with no disk
// cache, with an empty one (compiles and writes it), and with a warm one.
func BenchmarkLoadPython(b *testing.B) {
	python(b) // skip when not fetched
	ctx := context.Background()
	load := func(b *testing.B, cacheDir string) {
		e, err := New(ctx, Options{CacheDir: cacheDir})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.Load(ctx, Python, testPyWasm); err != nil {
			b.Fatal(err)
		}
		e.Close(ctx)
	}
	b.Run("no-cache", func(b *testing.B) {
		for b.Loop() {
			load(b, "")
		}
	})
	b.Run("cold-cache", func(b *testing.B) {
		for b.Loop() {
			load(b, b.TempDir())
		}
	})
	b.Run("warm-cache", func(b *testing.B) {
		dir := b.TempDir()
		load(b, dir)
		b.ResetTimer()
		for b.Loop() {
			load(b, dir)
		}
	})
}

func TestPythonSiteIsBytecode(t *testing.T) {
	r := runPy(t, RunSpec{Args: pyc("import sitecustomize; print(sitecustomize.__file__)")})
	if r.err != nil || r.code != 0 || r.stdout != PythonSiteDir+"/sitecustomize.pyc\n" {
		t.Fatalf("code %d err %v stdout %q stderr %q", r.code, r.err, r.stdout, r.stderr)
	}
}

func TestWazeroVersion(t *testing.T) {
	b, err := os.ReadFile("../../../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "github.com/tetratelabs/wazero "+wazeroModule) {
		t.Fatalf("go.mod does not require wazero %s: update wazeroModule in cache.go", wazeroModule)
	}
}

// TestPythonStdlib: the standard library is served from the host folder at
// PythonStdlibDir, after the caller's PYTHONPATH (which still shadows it, as
// it shadows the zip), and modules outside the startup set import from it.
// An image with its own library beside it (the project's build) has it at
// its prefix's folder, sources with their .pyc, where CPython puts it on
// sys.path after PYTHONPATH by itself.
func TestPythonStdlib(t *testing.T) {
	_, py := python(t)
	dir, ext := PythonStdlibDir, ".pyc" // the npm image's zip has no sources
	if py.ownStdlib {
		dir, ext = py.stdlibDir, ".py"
	}
	fsys, files := testFS(t)
	if err := files.MkdirAll("/mods/json", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := files.WriteFile("/mods/json/__init__.py", []byte("X = 'mine'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, code, want string
		env              map[string]string
	}{
		{name: "startup modules", code: "import encodings; print(encodings.__file__)",
			want: dir + "/encodings/__init__" + ext + "\n"},
		{name: "later imports", code: "import json, decimal; print(json.dumps([decimal.Decimal('1.5')], default=str), json.__file__)",
			want: `["1.5"] ` + dir + "/json/__init__" + ext + "\n"},
		{name: "PYTHONPATH first", code: "import json, sys; print(json.X, sys.path.index('/mods') < sys.path.index('" + dir + "'))",
			env: map[string]string{"PYTHONPATH": "/mods"}, want: "mine True\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runPy(t, RunSpec{Args: pyc(tc.code), FS: fsys, Env: tc.env})
			if r.err != nil || r.code != 0 || r.stdout != tc.want {
				t.Fatalf("code %d err %v stdout %q want %q stderr %q", r.code, r.err, r.stdout, tc.want, r.stderr)
			}
		})
	}
}

// TestPruneCache: other versions' folders go, and the oldest files until
// the rest fits the limit.
func TestPruneCache(t *testing.T) {
	root := t.TempDir()
	current := filepath.Join(root, "wazero-v9")
	old := filepath.Join(root, "wazero-v8")
	other := filepath.Join(root, "not-ours")
	for _, d := range []string{filepath.Join(current, "a"), filepath.Join(current, "b"), old, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	files := []struct {
		path string
		age  time.Duration
	}{
		{filepath.Join(current, "a", "newest"), 0},
		{filepath.Join(current, "b", "newer"), time.Hour},
		{filepath.Join(current, "a", "old"), 2 * time.Hour},
		{filepath.Join(current, "b", "oldest"), 3 * time.Hour},
		{filepath.Join(old, "x"), 0},
		{filepath.Join(other, "y"), 5 * time.Hour},
	}
	for _, f := range files {
		if err := os.WriteFile(f.path, make([]byte, 100), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(f.path, now.Add(-f.age), now.Add(-f.age)); err != nil {
			t.Fatal(err)
		}
	}
	pruneCache(root, current, 250)
	for _, c := range []struct {
		path string
		kept bool
	}{
		{files[0].path, true}, {files[1].path, true}, {files[2].path, false}, {files[3].path, false},
		{old, false}, {files[5].path, true},
	} {
		_, err := os.Stat(c.path)
		if kept := err == nil; kept != c.kept {
			t.Errorf("%s kept %v, want %v", c.path, kept, c.kept)
		}
	}
}

// A guest that recurses without end overflows wazero's stack: a trap like
// any other (ExitTrap, ErrTrap, the message on stderr), not an error of the
// engine. testdata/recurse.wasm is `(func $start (call $start))`.
func TestStackOverflowIsATrap(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	img, err := e.Load(ctx, "recurse", "testdata/recurse.wasm")
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	code, err := img.Run(ctx, RunSpec{Stderr: &stderr})
	if code != ExitTrap || !errors.Is(err, ErrTrap) {
		t.Fatalf("code %d err %v, want %d and ErrTrap", code, err, ExitTrap)
	}
	if !strings.Contains(stderr.String(), "stack overflow") {
		t.Errorf("stderr %q", stderr.String())
	}
}
