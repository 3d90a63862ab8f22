package engine

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/tetratelabs/wazero"
)

// goShapeModule is a module whose one function, f(pc, x i32) i32, has the
// shape of Go's wasm code (threadJumps): an entry loop around three
// dispatch blocks and a br_table on pc, and jumps written as
// i32.const P  local.set 0  br $loop. Section 0 doubles x into acc and
// goes to section 2 when x > 10, else to section 1 (both forward);
// section 1 adds 100 to acc and, while x > 3, takes 5 from x and goes
// back to section 0 (backward), else goes to section 2; section 2 returns
// acc + x.
func goShapeModule() []byte {
	sec := func(id byte, body ...byte) []byte {
		return append(append([]byte{id}, appendUleb(nil, uint32(len(body)))...), body...)
	}
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(1, 1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f)...) // (i32, i32) -> i32
	m = append(m, sec(3, 1, 0)...)
	m = append(m, sec(7, append(appendName([]byte{1}, "f"), 0, 0)...)...)
	f := []byte{1, 1, 0x7f, // local $acc i32 (local 2)
		0x03, 0x40, // loop
		0x02, 0x40, 0x02, 0x40, 0x02, 0x40, // block B2, B1, B0
		0x20, 0, 0x0e, 3, 0, 1, 2, 2, // local.get 0; br_table 0 1 2 (2)
		0x0b,                            // end B0: section 0
		0x20, 1, 0x41, 2, 0x6c, 0x21, 2, // acc = x*2
		0x20, 1, 0x41, 10, 0x4a, // x > 10
		0x04, 0x40, 0x41, 2, 0x21, 0, 0x0c, 3, 0x0b, // if: pc = 2; br $loop; end
		0x41, 1, 0x21, 0, 0x0c, 2, // pc = 1; br $loop
		0x0b,                                  // end B1: section 1
		0x20, 2, 0x41, 0xe4, 0, 0x6a, 0x21, 2, // acc += 100
		0x20, 1, 0x41, 3, 0x4a, // x > 3
		0x04, 0x40, 0x20, 1, 0x41, 5, 0x6b, 0x21, 1, 0x41, 0, 0x21, 0, 0x0c, 2, 0x0b, // if: x -= 5; pc = 0; br $loop; end
		0x41, 2, 0x21, 0, 0x0c, 1, // pc = 2; br $loop
		0x0b,                         // end B2: section 2
		0x20, 2, 0x20, 1, 0x6a, 0x0f, // return acc + x
		0x0b, 0x00, 0x0b} // end loop; unreachable; end
	code := append([]byte{1}, appendUleb(nil, uint32(len(f)))...)
	return append(m, sec(10, append(code, f...)...)...)
}

func TestThreadJumps(t *testing.T) {
	ctx := context.Background()
	in := goShapeModule()
	out, err := threadJumps(in)
	if err != nil {
		t.Fatal(err)
	}
	// The two forward jumps of section 0 and the one of section 1 become
	// br to their sections' blocks; the backward one stays; the entry gets
	// its direct branch for pc = 0.
	for _, want := range [][]byte{
		{0x20, 0, 0x45, 0x0d, 0, 0x20, 0, 0x0e},    // fast path, then the br_table
		{0x41, 2, 0x21, 0, 0x0c, 2, 0x0b},          // in the if: br B2 (was br 3)
		{0x41, 1, 0x21, 0, 0x0c, 0, 0x0b},          // br B1 (was br 2)
		{0x41, 0, 0x21, 0, 0x0c, 2, 0x0b},          // backward: still br $loop
		{0x41, 2, 0x21, 0, 0x0c, 0, 0x0b, 0x20, 2}, // section 1 to 2: br B2 (was br 1)
	} {
		if !bytes.Contains(out, want) {
			t.Errorf("the rewritten module lacks % x", want)
		}
	}
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	orig, err := rt.InstantiateWithConfig(ctx, in, wazero.NewModuleConfig().WithName("orig"))
	if err != nil {
		t.Fatal(err)
	}
	thr, err := rt.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithName("threaded"))
	if err != nil {
		t.Fatalf("the rewritten module does not instantiate: %v", err)
	}
	for pc := uint64(0); pc < 4; pc++ {
		for x := uint64(0); x < 30; x++ {
			want, err1 := orig.ExportedFunction("f").Call(ctx, pc, x)
			got, err2 := thr.ExportedFunction("f").Call(ctx, pc, x)
			if err1 != nil || err2 != nil || want[0] != got[0] {
				t.Errorf("f(%d, %d) = %v, %v; the original gives %v, %v", pc, x, got, err2, want, err1)
			}
		}
	}
	// A rewritten function is no longer of Go's shape: a second rewrite
	// changes nothing.
	if again, err := threadJumps(out); err != nil || !bytes.Equal(again, out) {
		t.Errorf("a second rewrite changed the module (%v)", err)
	}
}

func TestThreadJumpsLeavesOtherShapes(t *testing.T) {
	for _, m := range [][]byte{loopModule(true, false), entryModule(nil, 1)} {
		out, err := threadJumps(m)
		if err != nil || !bytes.Equal(out, m) {
			t.Errorf("threadJumps changed a module of another shape (%v)", err)
		}
	}
	bad := goShapeModule()
	bad = bad[:len(bad)-3]
	if _, err := threadJumps(bad); !errors.Is(err, errChecksShape) {
		t.Errorf("a truncated module: %v, want errChecksShape", err)
	}
}
