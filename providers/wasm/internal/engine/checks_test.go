package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/vfs"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// loopModule is a module by hand: spin(n) loops n times and returns n;
// forever() never returns. It imports WASI's sched_yield when yield is
// set, and another function first when other is set (so that sched_yield
// is function 1).
func loopModule(yield, other bool) []byte {
	sec := func(id byte, body ...byte) []byte {
		return append(append([]byte{id}, appendUleb(nil, uint32(len(body)))...), body...)
	}
	m := []byte("\x00asm\x01\x00\x00\x00")
	// types: 0 () -> i32; 1 (i32) -> i32; 2 () -> ()
	m = append(m, sec(1, 3, 0x60, 0, 1, 0x7f, 0x60, 1, 0x7f, 1, 0x7f, 0x60, 0, 0)...)
	var imp []byte
	nimp := byte(0)
	if other {
		imp = append(imp, appendName(appendName(nil, "m"), "f")...)
		imp = append(imp, 0, 2)
		nimp++
	}
	if yield {
		imp = append(imp, appendName(appendName(nil, wasiModuleName), yieldField)...)
		imp = append(imp, 0, 0)
		nimp++
	}
	if nimp > 0 {
		m = append(m, sec(2, append([]byte{nimp}, imp...)...)...)
	}
	m = append(m, sec(3, 2, 1, 2)...)
	ex := []byte{2}
	ex = append(appendName(ex, "spin"), 0, nimp)
	ex = append(appendName(ex, "forever"), 0, nimp+1)
	m = append(m, sec(7, ex...)...)
	// spin: (local $i i32) loop: local.get i; i32.const 1; i32.add;
	// local.tee i; local.get 0; i32.lt_u; br_if 0; end; local.get 0
	spin := []byte{1, 1, 0x7f,
		0x03, 0x40,
		0x20, 1, 0x41, 1, 0x6a, 0x22, 1, 0x20, 0, 0x49, 0x0d, 0,
		0x0b,
		0x20, 0, 0x0b}
	forever := []byte{0, 0x03, 0x40, 0x0c, 0, 0x0b, 0x0b}
	code := []byte{2}
	code = append(append(code, byte(len(spin))), spin...)
	code = append(append(code, byte(len(forever))), forever...)
	return append(m, sec(10, code...)...)
}

func TestAddChecks(t *testing.T) {
	ctx := context.Background()
	for _, other := range []bool{false, true} {
		t.Run(fmt.Sprint("other import ", other), func(t *testing.T) {
			out, err := addChecks(loopModule(true, other))
			if err != nil {
				t.Fatal(err)
			}
			rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
			defer rt.Close(ctx)
			var yields atomic.Int64
			cancelled, cancel := context.WithCancel(ctx)
			cancel()
			_, err = rt.NewHostModuleBuilder(wasiModuleName).NewFunctionBuilder().
				WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, m api.Module, stack []uint64) {
					yields.Add(1)
					schedYield(ctx, m, stack)
				}), nil, []api.ValueType{api.ValueTypeI32}).Export(yieldField).Instantiate(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if other {
				if _, err := rt.NewHostModuleBuilder("m").NewFunctionBuilder().WithFunc(func() {}).Export("f").Instantiate(ctx); err != nil {
					t.Fatal(err)
				}
			}
			mod, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithName(""))
			if err != nil {
				t.Fatalf("the rewritten module does not instantiate: %v", err)
			}
			for _, c := range []struct{ n, yields uint64 }{{1, 0}, {checkEvery, 0}, {checkEvery + 1, 1}, {3*checkEvery + 5, 3}} {
				mod, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithName(""))
				if err != nil {
					t.Fatal(err)
				}
				yields.Store(0)
				res, err := mod.ExportedFunction("spin").Call(ctx, c.n)
				if err != nil || res[0] != c.n {
					t.Errorf("spin(%d) = %v, %v; want %d", c.n, res, err, c.n)
				}
				if got := uint64(yields.Load()); got != c.yields {
					t.Errorf("spin(%d) called %s %d times, want %d", c.n, yieldField, got, c.yields)
				}
			}
			// A loop without end ends when its context has.
			_, err = mod.ExportedFunction("forever").Call(cancelled)
			var exit *sys.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != sys.ExitCodeContextCanceled {
				t.Errorf("forever() with a cancelled context: %v, want exit code %d", err, sys.ExitCodeContextCanceled)
			}
		})
	}
}

func TestAddChecksRefuses(t *testing.T) {
	noLoops := loopModule(true, false)
	if out, err := addChecks(entryModule(nil, 1)); err != nil || !bytes.Equal(out, entryModule(nil, 1)) {
		t.Errorf("a module without loops changed (%v)", err)
	}
	unknown := bytes.Replace(loopModule(true, false), []byte{0x0d, 0, 0x0b}, []byte{0x0d, 0, 0x06}, 1) // 0x06 (try) for end
	for name, m := range map[string][]byte{
		"not wasm":              []byte("hello, world"),
		"truncated":             noLoops[:len(noLoops)-3],
		"loops, no sched_yield": loopModule(false, false),
		"unknown instruction":   unknown,
	} {
		if _, err := addChecks(m); !errors.Is(err, errChecksShape) {
			t.Errorf("%s: %v, want errChecksShape", name, err)
		}
	}
}

// FuzzAddChecks: any bytes give a module or errChecksShape, never a panic,
// and a module it rewrote takes the rewrite again, with one more countdown
// per loop. (Whether rewritten modules compile is TestAddChecks's and the
// images' part: wazero allocates what a fuzzed count says, gigabytes.)
func FuzzAddChecks(f *testing.F) {
	f.Add(loopModule(true, false))
	f.Add(loopModule(true, true))
	f.Add(loopModule(false, false))
	f.Add(entryModule(nil, 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		out, err := addChecks(b)
		if err != nil {
			if !errors.Is(err, errChecksShape) {
				t.Fatalf("error %v is not errChecksShape", err)
			}
			return
		}
		if bytes.Equal(out, b) {
			return
		}
		again, err := addChecks(out)
		if err != nil {
			t.Fatalf("its own output refused: %v", err)
		}
		if len(again) <= len(out) {
			t.Fatalf("the second rewrite added nothing (%d bytes, then %d)", len(out), len(again))
		}
	})
}

// TestPrepareCached: a second engine on the same cache folder takes the
// rewritten module from it instead of rewriting.
func TestPrepareCached(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	e, err := New(ctx, Options{CacheDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	want, err := e.prepare(loopModule(true, false), false)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(e.prepared, "*.wasm"))
	if len(files) != 1 {
		t.Fatalf("cached files %v, want one", files)
	}
	// Changed on disk: the next engine's module is the file's.
	marked := append(bytes.Clone(want), 0, 1, 'x') // a custom section "x", empty
	if err := os.WriteFile(files[0], marked, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := e.prepare(loopModule(true, false), false)
	if err != nil || !bytes.Equal(got, marked) {
		t.Errorf("the second prepare did not take the cached module (%v)", err)
	}
}

// busybox loads the busybox image into a new engine with opts, with the
// adapter's host module stubbed (every function returns zeros): enough
// for a shell loop.
func busybox(t testing.TB, opts Options) (*Engine, *Image) {
	t.Helper()
	python(t) // skips when the images are missing
	paths, _ := images.Find("")
	bb := filepath.Join(paths.Dir, "busybox.wasm")
	if _, err := os.Stat(bb); err != nil {
		t.Skipf("no busybox image (make images): %v", err)
	}
	ctx := context.Background()
	e, err := New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close(ctx) })
	img, err := e.Load(ctx, "busybox", bb)
	if err != nil {
		t.Fatal(err)
	}
	stubs := map[string]api.FunctionDefinition{}
	for _, f := range img.compiled.ImportedFunctions() {
		if m, n, _ := f.Import(); m == "agentenkit" {
			stubs[n] = f
		}
	}
	err = e.AddHostModule(ctx, "agentenkit", func(b wazero.HostModuleBuilder) wazero.HostModuleBuilder {
		for n, f := range stubs {
			b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(_ context.Context, _ api.Module, stack []uint64) {
				clear(stack)
			}), f.ParamTypes(), f.ResultTypes()).Export(n)
		}
		return b
	})
	if err != nil {
		t.Fatal(err)
	}
	return e, img
}

// TestBusyGuestsEndAtDeadline: twice as many guests spinning as there are
// cores (CPython's while True: pass and the shell's while :; do :; done),
// each with a 2 s limit, all end with ErrTimeout soon after their own
// deadline.
func TestBusyGuestsEndAtDeadline(t *testing.T) {
	_, py := python(t)
	paths, _ := images.Find("")
	_, bb := busybox(t, Options{CacheDir: paths.CompileCache})
	const limit = 2 * time.Second
	// The margin a loaded machine needs: a guest must get a core again
	// after its deadline to see it.
	const margin = 1500 * time.Millisecond
	n := 2 * runtime.NumCPU()
	for _, c := range []struct {
		name string
		img  *Image
		args []string
	}{
		{"python", py, pyc("while True: pass")},
		{"shell", bb, []string{"bash", "-c", "while :; do :; done"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					var errb bytes.Buffer
					start := time.Now()
					fsys, _ := testFS(t) // the shell needs a working folder
					code, err := c.img.Run(context.Background(), RunSpec{Args: c.args, FS: fsys, Stderr: &errb, Timeout: limit})
					took := time.Since(start)
					if code != ExitTimeout || !errors.Is(err, ErrTimeout) {
						t.Errorf("guest %d: code %d, %v (%s); want %d, ErrTimeout", i, code, err, errb.String(), ExitTimeout)
					}
					if took < limit || took > limit+margin {
						t.Errorf("guest %d ended after %v; want between %v and %v", i, took, limit, limit+margin)
					}
					t.Logf("guest %d ended after %v", i, took)
				})
			}
			wg.Wait()
		})
	}
}

// BenchmarkCancelCost runs a CPU-bound CPython program and the shell loop
// on three engines, one after the other in each op: the default (checks at
// loop iterations), one without any cancellation (the image as built), and one
// with wazero's WithCloseOnContextDone (what the engine used before). It
// reports each one's CPU per op and the ratios to the uncancellable one.
func BenchmarkCancelCost(b *testing.B) {
	python(b)
	paths, _ := images.Find("")
	ctx := context.Background()
	modes := []struct {
		name string
		mode cancelMode
	}{{"checks", cancelChecks}, {"none", cancelNone}, {"closeondone", cancelCloseOnDone}}
	for _, w := range []struct {
		name string
		args []string
		want string
	}{
		{"python", pyc("i = 0\nwhile i < 2_000_000: i += 1\nprint(i)"), "2000000\n"},
		{"shell", []string{"bash", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo $i"}, "20000\n"},
	} {
		b.Run(w.name, func(b *testing.B) {
			imgs := make([]*Image, len(modes))
			for k, m := range modes {
				// A cache folder per mode: wazero's cache key leaves out
				// WithCloseOnContextDone, which changes the code.
				opts := Options{CacheDir: b.TempDir(), cancel: m.mode}
				if m.mode == cancelChecks {
					opts.CacheDir = paths.CompileCache
				}
				if w.name == "python" {
					e, err := New(ctx, opts)
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { e.Close(ctx) })
					if imgs[k], err = e.Load(ctx, Python, testPyWasm); err != nil {
						b.Fatal(err)
					}
				} else {
					_, imgs[k] = busybox(b, opts)
				}
			}
			cpu := make([]time.Duration, len(modes))
			for b.Loop() {
				for k, img := range imgs {
					var out bytes.Buffer
					start := cpuTime()
					fsys := vfs.New(vfs.Options{}).WASI()
					code, err := img.Run(ctx, RunSpec{Args: w.args, FS: fsys, Stdout: &out, Stderr: &out})
					cpu[k] += cpuTime() - start
					if code != 0 || err != nil || out.String() != w.want {
						b.Fatalf("%s: code %d, %v, output %q; want %q", modes[k].name, code, err, out.String(), w.want)
					}
				}
			}
			for k, m := range modes {
				b.ReportMetric(float64(cpu[k].Milliseconds())/float64(b.N), "cpu-ms-"+m.name+"/op")
			}
			b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "checks/none")
			b.ReportMetric(float64(cpu[2])/float64(cpu[1]), "closeondone/none")
		})
	}
}
