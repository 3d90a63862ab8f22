package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// funcsModule is a module of functions by hand, each exported as f0, f1, …
// with the type (i32) -> i32 (type 0), and one mutable i32 global. With
// yield it imports WASI's sched_yield (type 1) as function 0.
func funcsModule(yield bool, bodies ...[]byte) []byte {
	sec := func(id byte, body ...byte) []byte {
		return append(append([]byte{id}, appendUleb(nil, uint32(len(body)))...), body...)
	}
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(1, 2, 0x60, 1, 0x7f, 1, 0x7f, 0x60, 0, 1, 0x7f)...)
	first := uint32(0)
	if yield {
		imp := append(appendName(appendName([]byte{1}, wasiModuleName), yieldField), 0, 1)
		m = append(m, sec(2, imp...)...)
		first = 1
	}
	fs := appendUleb(nil, uint32(len(bodies)))
	for range bodies {
		fs = append(fs, 0)
	}
	m = append(m, sec(3, fs...)...)
	m = append(m, sec(6, 1, 0x7f, 1, 0x41, 0, 0x0b)...) // (global (mut i32) (i32.const 0))
	ex := appendUleb(nil, uint32(len(bodies)))
	for i := range bodies {
		ex = appendName(ex, fmt.Sprintf("f%d", i))
		ex = append(ex, 0)
		ex = appendUleb(ex, first+uint32(i))
	}
	m = append(m, sec(7, ex...)...)
	code := appendUleb(nil, uint32(len(bodies)))
	for _, b := range bodies {
		code = appendUleb(code, uint32(len(b)))
		code = append(code, b...)
	}
	return append(m, sec(10, code...)...)
}

// wrapAdd is i64.extend_i32_u  i64.const c  i64.add  i32.wrap_i64.
func wrapAdd(c int64) []byte {
	b := []byte{0xad, 0x42}
	b = appendSleb64(b, c)
	return append(b, 0x7c, 0xa7)
}

// adjust is local.get l  i32.const a  i32.add  local.tee l  global.set g.
func adjust(l uint32, a int32, g uint32) []byte {
	b := appendUleb([]byte{0x20}, l)
	b = appendSleb32(append(b, 0x41), a)
	b = appendUleb(append(b, 0x6a, 0x22), l)
	return appendUleb(append(b, 0x24), g)
}

func appendSleb64(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// foldCases are functions of (x i32) -> i32 with the sequences foldGoCode
// shortens, and near misses it must leave; each returns a value that
// depends on every local and global it touches.
func foldCases(c int64, a, b int32) [][]byte {
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	// locals: one extra i32 (local 1)
	pre := []byte{1, 1, 0x7f}
	ret := []byte{0x23, 0, 0x20, 0, 0x73, 0x20, 1, 0x73, 0x0b} // global.get 0 ^ x ^ local 1
	return [][]byte{
		// x's address + c, wrapped
		cat(pre, []byte{0x20, 0}, wrapAdd(c), []byte{0x21, 1}, ret),
		// twice in a row, and once in a block
		cat(pre, []byte{0x20, 0}, wrapAdd(c), wrapAdd(-c), []byte{0x21, 1, 0x02, 0x40, 0x20, 1}, wrapAdd(c+1), []byte{0x21, 1, 0x0b}, ret),
		// the two adjustments of local 0 and global 0
		cat(pre, adjust(0, a, 0), adjust(0, b, 0), ret),
		// three in a row: all fold into one
		cat(pre, adjust(0, a, 0), adjust(0, b, 0), adjust(0, a, 0), ret),
		// near misses: another local, a read between
		cat(pre, adjust(0, a, 0), adjust(1, b, 0), ret),
		cat(pre, adjust(0, a, 0), []byte{0x23, 0, 0x21, 1}, adjust(0, b, 0), ret),
		// i64.extend_i32_s is not folded
		cat(pre, []byte{0x20, 0, 0xac, 0x42, 5, 0x7c, 0xa7, 0x21, 1}, ret),
	}
}

func TestFoldGoCode(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	for _, k := range []struct {
		c    int64
		a, b int32
	}{{16, 96, 8}, {0, 0, 0}, {-8, -8, 8}, {1 << 40, 1<<31 - 1, 1}, {-1 << 63, -1 << 31, -1 << 31}, {1<<32 - 1, 1 << 30, 1 << 30}} {
		t.Run(fmt.Sprint(k.c, k.a, k.b), func(t *testing.T) {
			in := funcsModule(false, foldCases(k.c, k.a, k.b)...)
			out, err := foldGoCode(in)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) >= len(in) {
				t.Fatalf("nothing folded: %d bytes, then %d", len(in), len(out))
			}
			compareModules(t, rt, in, out, 7)
		})
	}
	// The folded forms themselves.
	out, _ := foldGoCode(funcsModule(false, foldCases(16, 96, 8)...))
	for _, want := range [][]byte{
		{0x20, 0, 0x41, 16, 0x6a, 0x21, 1},                     // wrapAdd(16)
		{0x20, 0, 0x41, 0xe8, 0, 0x6a, 0x22, 0, 0x24, 0, 0x23}, // adjust by 104, then the return
		{0xac, 0x42, 5, 0x7c, 0xa7},                            // extend_s left as it was
	} {
		if !bytes.Contains(out, want) {
			t.Errorf("the folded module lacks % x", want)
		}
	}
	if again, err := foldGoCode(out); err != nil || !bytes.Equal(again, out) {
		t.Errorf("a second fold changed the module (%v)", err)
	}
	bad := funcsModule(false, foldCases(16, 96, 8)...)
	if _, err := foldGoCode(bad[:len(bad)-4]); !errors.Is(err, errChecksShape) {
		t.Errorf("a truncated module: %v, want errChecksShape", err)
	}
	if _, err := foldGoCode(funcsModule(false, []byte{0, 0x06, 0x0b})); !errors.Is(err, errChecksShape) {
		t.Error("a module with an unknown instruction was folded")
	}
}

// compareModules instantiates in and out in rt and checks that each of
// their n functions gives the same results for a spread of arguments.
func compareModules(t *testing.T, rt wazero.Runtime, in, out []byte, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		name := fmt.Sprintf("f%d", i)
		for _, x := range []uint32{0, 1, 7, 16, 1 << 20, 1<<31 - 1, 1 << 31, 1<<32 - 17, 1<<32 - 1} {
			a, err := rt.InstantiateWithConfig(ctx, in, wazero.NewModuleConfig().WithName(""))
			if err != nil {
				t.Fatal(err)
			}
			b, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithName(""))
			if err != nil {
				t.Fatalf("the rewritten module does not instantiate: %v", err)
			}
			want, err1 := a.ExportedFunction(name).Call(ctx, uint64(x))
			got, err2 := b.ExportedFunction(name).Call(ctx, uint64(x))
			if err1 != nil || err2 != nil || want[0] != got[0] {
				t.Errorf("%s(%d) = %v, %v; the original gives %v, %v", name, x, got, err2, want, err1)
			}
			a.Close(ctx)
			b.Close(ctx)
		}
	}
}

// FuzzFoldGoCode: folding the sequences with any constants gives
// functions with the original's results.
func FuzzFoldGoCode(f *testing.F) {
	f.Add(int64(16), int32(96), int32(8))
	f.Add(int64(-1), int32(-1<<31), int32(-1))
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	f.Cleanup(func() { rt.Close(ctx) })
	f.Fuzz(func(t *testing.T, c int64, a, b int32) {
		in := funcsModule(false, foldCases(c, a, b)...)
		out, err := foldGoCode(in)
		if err != nil {
			t.Fatal(err)
		}
		compareModules(t, rt, in, out, 7)
	})
}

// TestChecksAtBackEdges: a loop whose only way back is a br gets its
// countdown before that br, so its iterations after the first are counted
// and its entry is not; a loop with a br_if back gets it at its head (as
// loopModule's spin); a loop nothing branches to gets none.
func TestChecksAtBackEdges(t *testing.T) {
	ctx := context.Background()
	// f0: loop i++; if i < x { br 1 } end; i  (the back-edge in an if, as Go's)
	spinBr := []byte{1, 1, 0x7f, 0x03, 0x40,
		0x20, 1, 0x41, 1, 0x6a, 0x22, 1, 0x20, 0, 0x49,
		0x04, 0x40, 0x0c, 1, 0x0b,
		0x0b, 0x20, 1, 0x0b}
	// f1: loop x++ end; x  (no way back)
	once := []byte{0, 0x03, 0x40, 0x20, 0, 0x41, 1, 0x6a, 0x21, 0, 0x0b, 0x20, 0, 0x0b}
	in := funcsModule(true, spinBr, once)
	out, err := addChecks(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte{0x03, 0x40, 0x20, 1}) || !bytes.Contains(out, []byte{0x03, 0x40, 0x20, 0, 0x41, 1}) {
		t.Error("a check at a loop head")
	}
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	var yields atomic.Int64
	_, err = rt.NewHostModuleBuilder(wasiModuleName).NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, m api.Module, stack []uint64) {
			yields.Add(1)
			schedYield(ctx, m, stack)
		}), nil, []api.ValueType{api.ValueTypeI32}).Export(yieldField).Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f               string
		n, want, yields uint64
	}{
		{"f0", 1, 1, 0}, {"f0", checkEvery + 1, checkEvery + 1, 0}, {"f0", checkEvery + 2, checkEvery + 2, 1},
		{"f0", 3*checkEvery + 6, 3*checkEvery + 6, 3}, {"f1", 5, 6, 0},
	} {
		mod, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithName(""))
		if err != nil {
			t.Fatalf("the rewritten module does not instantiate: %v", err)
		}
		yields.Store(0)
		res, err := mod.ExportedFunction(c.f).Call(ctx, c.n)
		if err != nil || res[0] != c.want {
			t.Errorf("%s(%d) = %v, %v; want %d", c.f, c.n, res, err, c.want)
		}
		if got := uint64(yields.Load()); got != c.yields {
			t.Errorf("%s(%d) called %s %d times, want %d", c.f, c.n, yieldField, got, c.yields)
		}
		mod.Close(ctx)
	}
	// A loop with no end, its way back a br in an if, ends when its
	// context has.
	forever := []byte{0, 0x03, 0x40, 0x41, 1, 0x04, 0x40, 0x0c, 1, 0x0b, 0x0b, 0x20, 0, 0x0b}
	fout, err := addChecks(funcsModule(true, forever))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := rt.InstantiateWithConfig(ctx, fout, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := mod.ExportedFunction("f0").Call(cancelled, 0); err == nil {
		t.Error("a loop without end returned with its context cancelled")
	}
}
