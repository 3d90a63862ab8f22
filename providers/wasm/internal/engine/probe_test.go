package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/tetratelabs/wazero"
)

// memFuncsModule is a module of functions (x i32) -> i32 by hand, each
// exported as f0, f1, …, with two extra i32 locals (1 and 2), one page
// of memory exported as "mem" whose byte k holds k*7+3, and one mutable
// i32 global exported as "g".
func memFuncsModule(bodies ...[]byte) []byte {
	return memFuncsModuleWith([]byte{1, 2, 0x7f}, bodies...)
}

// memFuncsModuleWith is memFuncsModule with the functions' locals
// declared as locals says.
func memFuncsModuleWith(locals []byte, bodies ...[]byte) []byte {
	sec := func(id byte, body ...byte) []byte {
		return append(append([]byte{id}, appendUleb(nil, uint32(len(body)))...), body...)
	}
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(1, 1, 0x60, 1, 0x7f, 1, 0x7f)...)
	fs := appendUleb(nil, uint32(len(bodies)))
	for range bodies {
		fs = append(fs, 0)
	}
	m = append(m, sec(3, fs...)...)
	m = append(m, sec(5, 1, 0, 1)...)                   // (memory 1)
	m = append(m, sec(6, 1, 0x7f, 1, 0x41, 0, 0x0b)...) // (global (mut i32) (i32.const 0))
	ex := appendUleb(nil, uint32(len(bodies)+2))
	for i := range bodies {
		ex = appendName(ex, fmt.Sprintf("f%d", i))
		ex = append(ex, 0)
		ex = appendUleb(ex, uint32(i))
	}
	ex = append(appendName(ex, "mem"), 2, 0)
	ex = append(appendName(ex, "g"), 3, 0)
	m = append(m, sec(7, ex...)...)
	code := appendUleb(nil, uint32(len(bodies)))
	for _, b := range bodies {
		b = append(bytes.Clone(locals), b...)
		code = appendUleb(code, uint32(len(b)))
		code = append(code, b...)
	}
	m = append(m, sec(10, code...)...)
	data := make([]byte, 1<<16)
	for k := range data {
		data[k] = byte(k*7 + 3)
	}
	seg := append([]byte{1, 0, 0x41, 0, 0x0b}, appendUleb(nil, uint32(len(data)))...)
	return append(m, sec(11, append(seg, data...)...)...)
}

// load is local.get l  OP offset=o  (align 0).
func load(l uint32, op byte, o uint32) []byte {
	return appendUleb(append(appendUleb([]byte{0x20}, l), op, 0), o)
}

// probeCases are functions of memFuncsModule with stretches of loads
// probeBounds probes, and near misses it must leave as they are: an
// effect or a trap of another kind between loads. Each returns a value
// that depends on what it loaded.
func probeCases() [][]byte {
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	add := []byte{0x6a}
	wrap := []byte{0xa7}
	end := []byte{0x0b}
	return [][]byte{
		// f0: three loads from x at rising ends (4, 16, 24): one probe.
		cat(load(0, 0x28, 0), load(0, 0x28, 12), add, load(0, 0x29, 16), wrap, add, end),
		// f1: falling ends: one check already, no probe.
		cat(load(0, 0x29, 16), wrap, load(0, 0x28, 4), add, load(0, 0x2d, 0), add, end),
		// f2: a store between: the loads after it trap after the
		// store, as before.
		cat(load(0, 0x28, 0), load(0, 0x28, 8), add, []byte{0x21, 1, 0x41, 0xe4, 0, 0x20, 1, 0x36, 2, 0},
			load(0, 0x28, 40), load(0, 0x28, 60), add, end),
		// f3: global.set between.
		cat(load(0, 0x28, 0), load(0, 0x28, 8), add, []byte{0x24, 0},
			load(0, 0x28, 40), load(0, 0x28, 60), add, end),
		// f4: a division that traps for even x, then farther loads.
		cat(load(0, 0x28, 0), load(0, 0x28, 4), add, []byte{0x41, 7, 0x20, 0, 0x41, 1, 0x71, 0x6e, 0x6a},
			load(0, 0x28, 30), add, load(0, 0x28, 50), add, end),
		// f5: a br_if out of a block for odd x between loads.
		cat([]byte{0x02, 0x7f}, load(0, 0x28, 0), load(0, 0x28, 4), add, []byte{0x20, 0, 0x41, 1, 0x71, 0x0d, 0},
			load(0, 0x28, 30), add, load(0, 0x28, 50), add, end, end),
		// f6: the base local set between: a probe for each value of it.
		cat(load(0, 0x28, 0), load(0, 0x28, 8), add, []byte{0x21, 2, 0x20, 0, 0x41, 16, 0x6a, 0x21, 0},
			load(0, 0x28, 0), load(0, 0x28, 20), add, []byte{0x20, 2, 0x6a}, end),
		// f7: two bases in one stretch (x and x*3 in local 1).
		cat([]byte{0x20, 0, 0x41, 3, 0x6c, 0x21, 1}, load(0, 0x2d, 0), load(1, 0x2d, 0), add,
			load(0, 0x2f, 20), add, load(1, 0x29, 10), wrap, add, end),
		// f8: a load whose address is not a local.get is not counted.
		cat(load(0, 0x28, 0), []byte{0x20, 0, 0x41, 1, 0x6a, 0x28, 0, 30, 0x6a}, end),
		// f9: a store to x ends the stretch and is in its probe; the
		// load after it is covered.
		cat(load(0, 0x28, 0), load(0, 0x28, 8), add, []byte{0x21, 2, 0x20, 0, 0x20, 2, 0x36, 2, 40},
			load(0, 0x28, 20), end),
		// f10: a store's address pushed before a global.set is not
		// counted with the loads before it.
		cat([]byte{0x20, 0}, load(0, 0x28, 0), load(0, 0x28, 4), add, []byte{0x24, 0},
			load(0, 0x28, 56), []byte{0x36, 2, 60, 0x23, 0}, end),
	}
}

// compareMem instantiates in and out with rt and checks that each of
// their n functions gives, for x over the last 200 bytes of memory and
// some others, the same result or the same error, and leaves the same
// memory and global.
func compareMem(t *testing.T, rt wazero.Runtime, in, out []byte, n int) {
	t.Helper()
	ctx := context.Background()
	a, err := rt.CompileModule(ctx, in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := rt.CompileModule(ctx, out)
	if err != nil {
		t.Fatalf("the rewritten module does not compile: %v", err)
	}
	xs := []uint32{0, 1, 7, 4096, 1<<16 + 1, 1 << 31, 1<<32 - 1}
	for x := uint32(1<<16 - 200); x <= 1<<16; x++ {
		xs = append(xs, x)
	}
	for i := range n {
		name := fmt.Sprintf("f%d", i)
		for _, x := range xs {
			run := func(c wazero.CompiledModule) (uint64, string, []byte, uint64) {
				m, err := rt.InstantiateModule(ctx, c, wazero.NewModuleConfig().WithName(""))
				if err != nil {
					t.Fatal(err)
				}
				defer m.Close(ctx)
				res, err := m.ExportedFunction(name).Call(ctx, uint64(x))
				var r uint64
				msg := ""
				if err != nil {
					msg = err.Error()
				} else {
					r = res[0]
				}
				mem, _ := m.ExportedMemory("mem").Read(0, 1<<16)
				return r, msg, bytes.Clone(mem), m.ExportedGlobal("g").Get()
			}
			r1, e1, m1, g1 := run(a)
			r2, e2, m2, g2 := run(b)
			if r1 != r2 || e1 != e2 || g1 != g2 || !bytes.Equal(m1, m2) {
				t.Errorf("%s(%d) = %d, %q, global %d; the original gives %d, %q, global %d (memory the same: %v)",
					name, x, r2, e2, g2, r1, e1, g1, bytes.Equal(m1, m2))
			}
		}
	}
}

func TestProbeBounds(t *testing.T) {
	ctx := context.Background()
	in := memFuncsModule(probeCases()...)
	out, err := probeBounds(in)
	if err != nil {
		t.Fatal(err)
	}
	probe := func(l uint32, ceil uint32) []byte {
		return append(load(l, 0x2d, ceil-1), 0x1a)
	}
	// Where the probes go, and where none may.
	for _, c := range []struct {
		want []byte
		ok   bool
	}{
		{append(probe(0, 24), load(0, 0x28, 0)...), true},      // f0
		{append(probe(0, 24), load(0, 0x29, 16)...), false},    // f1: none
		{append(probe(0, 12), load(0, 0x28, 0)...), true},      // f2, f3: before the effect
		{append(probe(0, 64), load(0, 0x28, 40)...), true},     // and after it
		{append(probe(0, 54), load(0, 0x28, 0)...), false},     // f4, f5: none across the div or br_if
		{append(probe(0, 8), load(0, 0x28, 0)...), true},       // f4, f5: before them
		{append(probe(0, 54), load(0, 0x28, 30)...), true},     // and after them
		{append(probe(0, 24), []byte{0x20, 0, 0x28}...), true}, // f6, the new value of x
		{append(probe(0, 22), load(0, 0x2d, 0)...), true},      // f7, x
		{append(probe(1, 18), load(1, 0x2d, 0)...), true},      // f7, x*3
		{append(probe(0, 34), load(0, 0x28, 0)...), false},     // f8
	} {
		if got := bytes.Contains(out, c.want); got != c.ok {
			t.Errorf("the probed module has % x: %v, want %v", c.want, got, c.ok)
		}
	}
	for _, cfg := range []wazero.RuntimeConfig{wazero.NewRuntimeConfigInterpreter(), wazero.NewRuntimeConfigCompiler()} {
		rt := wazero.NewRuntimeWithConfig(ctx, cfg)
		compareMem(t, rt, in, out, len(probeCases()))
		rt.Close(ctx)
	}
	if again, err := probeBounds(out); err != nil || !bytes.Equal(again, out) {
		t.Errorf("a second rewrite changed the module (%v)", err)
	}
	if _, err := probeBounds(in[:len(in)-1<<16-8]); !errors.Is(err, errChecksShape) {
		t.Errorf("a truncated module: %v, want errChecksShape", err)
	}
	if _, err := probeBounds(funcsModule(false, []byte{0, 0x06, 0x0b})); !errors.Is(err, errChecksShape) {
		t.Error("a module with an unknown instruction was rewritten")
	}
}

// probeProgram makes a function of memFuncsModule from fuzz bytes, two a
// statement: a kind and an offset o. The statements are loads from x
// (local 0) or from x*3 (local 1) added into local 2, a store to x, a
// move of x, a global.set, a division that traps when x%4 = 0, a br_if
// out for odd x, a store to x whose address was pushed before a
// global.set, and Go's read through a pointer in the i64 local 3 (x at
// first) and a move of it; the function returns local 2.
func probeProgram(prog []byte) []byte {
	// local 1 = x*3; local 3 = x (i64); block
	f := []byte{0x20, 0, 0x41, 3, 0x6c, 0x21, 1, 0x20, 0, 0xad, 0x21, 3, 0x02, 0x40}
	acc := func(b []byte) []byte { return append(b, 0x20, 2, 0x6a, 0x21, 2) }
	for k := 0; k+1 < len(prog) && k < 64; k += 2 {
		o := uint32(prog[k+1])
		switch prog[k] % 12 {
		case 0:
			f = acc(append(f, load(0, 0x28, o)...))
		case 1:
			f = acc(append(append(f, load(0, 0x29, o)...), 0xa7))
		case 2:
			f = acc(append(f, load(0, 0x2d, o)...))
		case 3:
			f = acc(append(f, load(1, 0x2f, o)...))
		case 4:
			f = appendUleb(append(f, 0x20, 0, 0x20, 2, 0x36, 0), o) // i32.store offset=o
		case 5:
			f = appendSleb32(append(f, 0x20, 0, 0x41), int32(o)-128)
			f = append(f, 0x6a, 0x21, 0) // x += o-128
		case 6:
			f = append(f, 0x20, 2, 0x24, 0) // global.set
		case 7:
			f = acc(append(f, 0x41, 7, 0x20, 0, 0x41, 3, 0x71, 0x6e)) // 7 / (x&3)
		case 8:
			f = append(f, 0x20, 0, 0x41, 1, 0x71, 0x0d, 0) // br_if 0 when x is odd
		case 9:
			// the address of a store pushed before a global.set
			f = appendUleb(append(f, 0x20, 0, 0x20, 2, 0x24, 0, 0x20, 2, 0x36, 0), o)
		case 10:
			f = acc(appendUleb(append(f, 0x20, 3, 0xa7, 0x28, 0), o)) // a read through local 3
		case 11:
			f = appendSleb32(append(f, 0x20, 3, 0x42), int32(o)-128)
			f = append(f, 0x7c, 0x21, 3) // local 3 += o-128
		}
	}
	return append(f, 0x0b, 0x20, 2, 0x0b)
}

// FuzzProbeBounds: sharing the wraps of (shareWraps) and probing
// (probeBounds) any mix of loads, effects and other traps gives functions
// with the original's results, errors, memory and global.
func FuzzProbeBounds(f *testing.F) {
	f.Add([]byte{0, 0, 0, 8, 1, 16})
	f.Add([]byte{0, 0, 4, 100, 1, 60, 3, 0, 3, 40})
	f.Add([]byte{2, 0, 7, 0, 0, 90, 5, 200, 0, 0, 1, 30})
	f.Add([]byte{0, 0, 8, 0, 1, 120, 6, 0, 2, 250, 0, 3})
	f.Add([]byte{0, 0, 0, 30, 9, 90, 0, 8, 4, 100, 2, 7})
	f.Add([]byte{10, 0, 10, 8, 4, 60, 10, 40, 11, 140, 10, 0, 10, 20, 8, 0, 10, 90})
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigCompiler())
	f.Cleanup(func() { rt.Close(ctx) })
	f.Fuzz(func(t *testing.T, prog []byte) {
		in := memFuncsModuleWith(wrapLocals, probeProgram(prog))
		shared, err := shareWraps(in)
		if err != nil {
			t.Fatal(err)
		}
		out, err := probeBounds(shared)
		if err != nil {
			t.Fatal(err)
		}
		compareMem(t, rt, in, out, 1)
	})
}

// wrapLocals are the locals of wrapCases: two i32 (1, 2) and an i64 (3).
var wrapLocals = []byte{2, 2, 0x7f, 1, 0x7e}

// wrapCases are functions of memFuncsModuleWith(wrapLocals) that read
// memory through the pointer in local 3 (x, widened) as Go's code does,
// local.get 3  i32.wrap_i64  then the access, with the reads shareWraps
// shares and those it must leave.
func wrapCases() [][]byte {
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	set := []byte{0x20, 0, 0xad, 0x21, 3} // local 3 = x
	at := func(op byte, o uint32) []byte { return append([]byte{0x20, 3, 0xa7}, load(99, op, o)[2:]...) }
	add := []byte{0x6a}
	end := []byte{0x0b}
	return [][]byte{
		// f0: three reads, a store between the second and the third.
		cat(set, at(0x28, 0), at(0x28, 8), add, []byte{0x21, 1, 0x20, 0, 0x20, 1, 0x36, 2, 30}, at(0x28, 12), []byte{0x20, 1}, add, end),
		// f1: local 3 moved between: the read after it is its own.
		cat(set, at(0x28, 0), []byte{0x20, 3, 0x42, 4, 0x7c, 0x21, 3}, at(0x28, 0), add, at(0x28, 8), add, end),
		// f2: a block between: nothing shared across it.
		cat(set, at(0x28, 0), []byte{0x02, 0x7f}, at(0x28, 4), end, add, end),
		// f3: one read: nothing to share.
		cat(set, at(0x28, 16), end),
	}
}

func TestShareWraps(t *testing.T) {
	ctx := context.Background()
	in := memFuncsModuleWith(wrapLocals, wrapCases()...)
	out, err := shareWraps(in)
	if err != nil {
		t.Fatal(err)
	}
	// The new local is 4, in a group of its own.
	for _, c := range []struct {
		want []byte
		ok   bool
	}{
		{[]byte{3, 2, 0x7f, 1, 0x7e, 1, 0x7f}, true},                                            // f0, f1: a group for local 4
		{[]byte{0x20, 3, 0xa7, 0x22, 4, 0x28, 0, 0, 0x20, 4, 0x28, 0, 8}, true},                 // f0: set once, read twice
		{[]byte{0x20, 4, 0x28, 0, 12}, true},                                                    // f0: across the store
		{[]byte{0x21, 3, 0x20, 3, 0xa7, 0x22, 4, 0x28, 0, 0}, true},                             // f1: anew after the set
		{[]byte{0x02, 0x7f, 0x20, 3, 0xa7, 0x28, 0, 4}, true},                                   // f2: left
		{[]byte{2, 2, 0x7f, 1, 0x7e, 0x20, 0, 0xad, 0x21, 3, 0x20, 3, 0xa7, 0x28, 0, 16}, true}, // f3: left
	} {
		if got := bytes.Contains(out, c.want); got != c.ok {
			t.Errorf("the rewritten module has % x: %v, want %v", c.want, got, c.ok)
		}
	}
	for _, cfg := range []wazero.RuntimeConfig{wazero.NewRuntimeConfigInterpreter(), wazero.NewRuntimeConfigCompiler()} {
		rt := wazero.NewRuntimeWithConfig(ctx, cfg)
		compareMem(t, rt, in, out, len(wrapCases()))
		rt.Close(ctx)
	}
	if again, err := shareWraps(out); err != nil || !bytes.Equal(again, out) {
		t.Errorf("a second rewrite changed the module (%v)", err)
	}
	if _, err := shareWraps(in[:len(in)-1<<16-8]); !errors.Is(err, errChecksShape) {
		t.Errorf("a truncated module: %v, want errChecksShape", err)
	}
}
