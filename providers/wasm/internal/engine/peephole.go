package engine

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
)

// foldGoCode returns wasm with two instruction sequences of Go's wasm code
// (cmd/internal/obj/wasm) shortened, each to one that leaves the same
// values in the same locals, globals and operand stack:
//
//   - An address computed in 64 bits and wrapped back,
//     i64.extend_i32_u  i64.const C  i64.add  i32.wrap_i64
//     (Go's address of a stack slot, 250 000 times in busybox), becomes
//     i32.const C'  i32.add, C' being C's low 32 bits: the low 32 bits of
//     a sum are the sum of the low 32 bits.
//   - Two adjustments of a local and a global in a row,
//     local.get L  i32.const A  i32.add  local.tee L  global.set G
//     local.get L  i32.const B  i32.add  local.tee L  global.set G
//     (Go's return: SP += frame size, then SP += 8 for the return
//     address, 19 000 times), become one adding A+B (mod 2^32): nothing
//     reads G between the two sets. (Any number in a row become one.)
//
// Nothing else changes; a module without either is returned as it is. A
// module the scanner cannot read is refused with errChecksShape.
func foldGoCode(wasm []byte) ([]byte, error) {
	return mapCode(wasm, foldFunc)
}

// mapCode returns wasm with each function body (locals included) replaced
// by what rewrite makes of it into out; rewrite reports whether it changed
// the body (out is then the new body). A module without a code section or
// with no change is returned as it is.
func mapCode(wasm []byte, rewrite func(out, f []byte) ([]byte, bool, error)) ([]byte, error) {
	return mapCodeN(wasm, func(out, f []byte, _ uint32) ([]byte, bool, error) { return rewrite(out, f) })
}

// mapCodeN is mapCode with each body's index among the module's defined
// functions passed to rewrite.
func mapCodeN(wasm []byte, rewrite func(out, f []byte, fn uint32) ([]byte, bool, error)) ([]byte, error) {
	secs, err := sections(wasm, errChecksShape)
	if err != nil {
		return nil, err
	}
	code := -1
	for i, s := range secs {
		if s.id == 10 {
			code = i
		}
	}
	if code < 0 {
		return wasm, nil
	}
	r := reader{b: secs[code].body}
	n := r.u32()
	if r.bad {
		return nil, fmt.Errorf("%w: malformed code section", errChecksShape)
	}
	body := appendUleb(make([]byte, 0, len(secs[code].body)), n)
	changed := false
	var out []byte
	for fn := range n {
		size := r.u32()
		if r.bad || uint64(r.i)+uint64(size) > uint64(len(r.b)) {
			return nil, fmt.Errorf("%w: function %d: malformed body", errChecksShape, fn)
		}
		f := r.b[r.i : r.i+int(size)]
		r.i += int(size)
		var did bool
		out, did, err = rewrite(out[:0], f, fn)
		if err != nil {
			return nil, fmt.Errorf("%w: function %d: %v", errChecksShape, fn, err)
		}
		if did {
			changed = true
			body = appendUleb(body, uint32(len(out)))
			body = append(body, out...)
		} else {
			body = appendUleb(body, size)
			body = append(body, f...)
		}
	}
	if r.i != len(r.b) {
		return nil, fmt.Errorf("%w: bytes after the last function body", errChecksShape)
	}
	if !changed {
		return wasm, nil
	}
	secs[code].body = body
	return assemble(wasm[:8], secs), nil
}

// foldFunc rewrites one function body as foldGoCode says.
func foldFunc(out, f []byte) (_ []byte, did bool, _ error) {
	r := reader{b: f}
	if _, err := r.locals(); err != nil {
		return nil, false, err
	}
	out = append(out, f[:r.i]...)
	for r.i < len(f) {
		if c, next, ok := matchWrapAdd(f, r.i); ok {
			out = append(out, 0x41)
			out = appendSleb32(out, c)
			out = append(out, 0x6a)
			r.i, did = next, true
			continue
		}
		if l, a, g, next, ok := matchAdjust(f, r.i); ok {
			// Fold every adjustment of the same pair that follows.
			sum, n := uint32(a), 1
			for {
				l2, b, g2, after, ok := matchAdjust(f, next)
				if !ok || l2 != l || g2 != g {
					break
				}
				sum += uint32(b)
				next = after
				n++
			}
			if n > 1 {
				out = append(out, 0x20)
				out = appendUleb(out, l)
				out = append(out, 0x41)
				out = appendSleb32(out, int32(sum))
				out = append(out, 0x6a, 0x22)
				out = appendUleb(out, l)
				out = append(out, 0x24)
				out = appendUleb(out, g)
				r.i, did = next, true
				continue
			}
		}
		start := r.i
		op := r.byte()
		if err := r.skipImmediates(op); err != nil {
			return nil, false, fmt.Errorf("at byte %d: %v", start, err)
		}
		if r.bad {
			return nil, false, fmt.Errorf("truncated instruction at byte %d", start)
		}
		out = append(out, f[start:r.i]...)
	}
	return out, did, nil
}

// matchWrapAdd matches i64.extend_i32_u  i64.const C  i64.add  i32.wrap_i64
// at f[i:], returning C's low 32 bits and where the sequence ends.
func matchWrapAdd(f []byte, i int) (c int32, next int, ok bool) {
	r := reader{b: f, i: i}
	if r.byte() != 0xad || r.byte() != 0x42 {
		return 0, 0, false
	}
	v := sleb64(&r)
	if r.bad || r.byte() != 0x7c || r.byte() != 0xa7 || r.bad {
		return 0, 0, false
	}
	return int32(uint32(uint64(v))), r.i, true
}

// matchAdjust matches local.get L  i32.const A  i32.add  local.tee L
// global.set G at f[i:].
func matchAdjust(f []byte, i int) (l uint32, a int32, g uint32, next int, ok bool) {
	r := reader{b: f, i: i}
	if r.byte() != 0x20 {
		return 0, 0, 0, 0, false
	}
	l = r.u32()
	if r.byte() != 0x41 {
		return 0, 0, 0, 0, false
	}
	v := sleb64(&r)
	if r.bad || v < -1<<31 || v >= 1<<31 || r.byte() != 0x6a || r.byte() != 0x22 || r.u32() != l || r.byte() != 0x24 {
		return 0, 0, 0, 0, false
	}
	g = r.u32()
	if r.bad {
		return 0, 0, 0, 0, false
	}
	return l, int32(v), g, r.i, true
}

// probeBounds returns wasm with one bounds probe where wazero's compiler
// would check the bounds of several accesses from one local. It checks
// each load's and store's bounds (address + offset + size against the
// memory's length) unless a check of the same address value already
// covered them, so accesses at rising offsets from one base, such as Go's
// loads of a frame's arguments from SP, each pay a check. In a stretch of
// code that can trap only at a load and has no effect (no store,
// global.set, call or branch; see probeSafe), ended by the first effect
// (a store is in the stretch it ends: its check comes before its write),
// probeBounds puts before the first local.get L whose value an access of
// the stretch uses as its address
//
//	local.get L  i32.load8_u offset=C-1  drop
//
// C being the highest end (offset + size) of those accesses, when at
// least two of them would each have been checked (L not set in between).
// The compiler drops the probe's load and keeps its check, which covers
// those accesses and any later one from the same value up to C.
// Semantics are unchanged: the probe traps exactly when one of those
// accesses would, with the same trap (out of bounds memory access), and
// as nothing between them has an effect (a load that traps first has
// none either), memory, globals and results are as the original leaves
// them. Accesses with a memory index (multi-memory) are not counted.
// Nothing else changes; a module without such a stretch is returned as it
// is. A module the scanner cannot read is refused with errChecksShape.
func probeBounds(wasm []byte) ([]byte, error) {
	return mapCode(wasm, probeFunc)
}

// probeRun is what probeFunc knows of one local in the current stretch:
// where a probe for it would go (an offset into out), the highest end of
// its loads so far, and how many of them raised it (each a check).
type probeRun struct {
	at     int
	ceil   uint64
	checks int
}

// probeFunc rewrites one function body as probeBounds says.
func probeFunc(out, f []byte) (_ []byte, did bool, _ error) {
	r := reader{b: f}
	if _, err := r.locals(); err != nil {
		return nil, false, err
	}
	out = append(out, f[:r.i]...)
	runs := map[uint32]*probeRun{}
	// free holds spent probeRun values for reuse.
	var free []*probeRun
	type probe struct {
		at   int
		l    uint32
		ceil uint64
	}
	var probes []probe
	// end closes the stretch of local l (all locals when all is set):
	// a probe is due where its loads made two checks or more.
	end := func(l uint32, all bool) {
		for k, run := range runs {
			if !all && k != l {
				continue
			}
			if run.checks >= 2 && run.ceil >= 1 && run.ceil-1 <= 0xffffffff {
				probes = append(probes, probe{run.at, k, run.ceil})
			}
			delete(runs, k)
			free = append(free, run)
		}
	}
	// flush inserts the due probes into out (at the positions recorded,
	// the last first so that the earlier positions hold).
	flush := func() {
		if len(probes) == 0 {
			return
		}
		slices.SortStableFunc(probes, func(a, b probe) int { return cmp.Compare(b.at, a.at) })
		for _, p := range probes {
			ins := appendUleb([]byte{0x20}, p.l)
			ins = append(ins, 0x2d, 0x00) // i32.load8_u align=0
			ins = appendUleb(ins, uint32(p.ceil-1))
			ins = append(ins, 0x1a) // drop
			out = slices.Insert(out, p.at, ins...)
		}
		probes = probes[:0]
		did = true
	}
	// stack models the operand stack of the stretch: for each value, the
	// local whose local.get pushed it (-1 for any other value, or a local
	// set since) and where that local.get starts in out. Values below the
	// stretch's start are not modelled (a pop from an empty stack is -1).
	var stack []stackVal
	pop := func() stackVal {
		if n := len(stack); n > 0 {
			v := stack[n-1]
			stack = stack[:n-1]
			return v
		}
		return stackVal{l: -1}
	}
	// access counts an access of size bytes at offset from the value v.
	access := func(v stackVal, offset, size uint64) {
		if v.l < 0 {
			return
		}
		l := uint32(v.l)
		run := runs[l]
		if run == nil {
			if n := len(free); n > 0 {
				run, free = free[n-1], free[:n-1]
				*run = probeRun{at: v.at}
			} else {
				run = &probeRun{at: v.at}
			}
			runs[l] = run
		}
		// The probe goes before the first local.get of L whose value an
		// access of the stretch uses: L keeps its value from there on.
		run.at = min(run.at, v.at)
		if c := offset + size; c > run.ceil {
			run.ceil = c
			run.checks++
		}
	}
	for r.i < len(f) {
		start, op, imm, err := r.instr()
		if err != nil {
			return nil, false, err
		}
		at := len(out)
		out = append(out, f[start:r.i]...)
		switch {
		case op == 0x20:
			stack = append(stack, stackVal{int64(imm), at})
		case op == 0x21 || op == 0x22:
			// The local has a new value from here: its stretch ends, a
			// new one starts after this instruction, and the values of
			// the old one on the stack are values like any other.
			end(imm, false)
			pop()
			for k := range stack {
				if stack[k].l == int64(imm) {
					stack[k].l = -1
				}
			}
			if op == 0x22 {
				// The value left is the local's new one: a probe for
				// it goes right after this instruction.
				stack = append(stack, stackVal{int64(imm), len(out)})
			}
		case op >= 0x28 && op <= 0x3e:
			m := reader{b: f, i: start + 1}
			align := m.u32()
			offset := uint64(0)
			if align&0x40 == 0 {
				offset = uint64(m.u32())
			}
			mem0 := align&0x40 == 0 && !m.bad
			if op <= 0x35 { // a load
				if v := pop(); mem0 {
					access(v, offset, loadSize(op))
				}
				stack = append(stack, stackVal{l: -1})
				continue
			}
			// A store: its check comes before its write, so a stretch
			// may end with it.
			pop()
			if v := pop(); mem0 {
				access(v, offset, storeSize(op))
			}
			end(0, true)
			flush()
			stack = stack[:0]
		default:
			pops, ok := probeSafe(op)
			if !ok {
				// An effect, a branch or a trap of another kind:
				// every stretch ends here.
				end(0, true)
				flush()
				stack = stack[:0]
				continue
			}
			for range pops {
				pop()
			}
			if op != 0x1a && op != 0x01 { // all but drop and nop push one
				stack = append(stack, stackVal{l: -1})
			}
		}
	}
	end(0, true)
	flush()
	return out, did, nil
}

// loadSize is how many bytes the load op reads.
func loadSize(op byte) uint64 {
	switch op {
	case 0x29, 0x2b: // i64.load, f64.load
		return 8
	case 0x28, 0x2a, 0x34, 0x35: // i32.load, f32.load, i64.load32_s/u
		return 4
	case 0x2e, 0x2f, 0x32, 0x33: // i32.load16_s/u, i64.load16_s/u
		return 2
	}
	return 1 // i32.load8_s/u, i64.load8_s/u
}

// stackVal is a value on probeFunc's model of the operand stack.
type stackVal struct {
	l  int64 // the local whose local.get pushed it, or -1
	at int   // where that local.get starts in out
}

// storeSize is how many bytes the store op writes.
func storeSize(op byte) uint64 {
	switch op {
	case 0x37, 0x39: // i64.store, f64.store
		return 8
	case 0x36, 0x38, 0x3e: // i32.store, f32.store, i64.store32
		return 4
	case 0x3b, 0x3d: // i32.store16, i64.store16
		return 2
	}
	return 1 // i32.store8, i64.store8
}

// probeSafe tells whether op (one not handled by probeFunc itself: not a
// local access, a load or a store) neither traps nor has an effect, nor
// branches, and how many values it pops (all such but drop and nop push
// one): nop, drop, select, global.get, memory.size, the constants and the
// numeric instructions but integer division and remainder and the
// trapping float-to-integer truncations.
func probeSafe(op byte) (pops int, ok bool) {
	switch {
	case op == 0x01, op == 0x23, op == 0x3f, op >= 0x41 && op <= 0x44:
		return 0, true
	case op == 0x1a:
		return 1, true
	case op == 0x1b, op == 0x1c:
		return 3, true
	case op >= 0x6d && op <= 0x70, op >= 0x7f && op <= 0x82: // div, rem
		return 0, false
	case op >= 0xa8 && op <= 0xab, op >= 0xae && op <= 0xb1: // trunc
		return 0, false
	case op == 0x45, op == 0x50, // eqz
		op >= 0x67 && op <= 0x69, op >= 0x79 && op <= 0x7b, // clz, ctz, popcnt
		op >= 0x8b && op <= 0x91, op >= 0x99 && op <= 0x9f, // float unary
		op >= 0xa7 && op <= 0xc4: // conversions, sign extensions
		return 1, true
	case op >= 0x46 && op <= 0xa6: // comparisons, binary arithmetic
		return 2, true
	}
	return 0, false
}

// shareWraps returns wasm with Go's repeated 32-bit addresses computed
// once: in a stretch of straight code (no branch, block or call), the
// second and later local.get X  i32.wrap_i64 of an i64 local X not set in
// between become local.get T, T being a new i32 local that the first one
// sets (local.get X  i32.wrap_i64  local.tee T). Go's wasm code reads a
// pointer held in a local that way for each access through it; with one
// value for them all, wazero's compiler checks the bounds of the accesses
// once per rising offset (and probeBounds can make it once), and computes
// the address once. The values are the same, so nothing else changes; a
// module without such a repeat is returned as it is. A module the scanner
// cannot read is refused with errChecksShape.
func shareWraps(wasm []byte) ([]byte, error) {
	params, err := definedParams(wasm)
	if err != nil {
		return nil, err
	}
	return mapCodeN(wasm, func(out, f []byte, fn uint32) ([]byte, bool, error) {
		if int(fn) >= len(params) {
			return nil, false, fmt.Errorf("no type for the function")
		}
		return shareWrapsFunc(out, f, params[fn])
	})
}

// definedParams returns the parameter count of each function the module
// defines, in order.
func definedParams(wasm []byte) ([]uint32, error) {
	secs, err := sections(wasm, errChecksShape)
	if err != nil {
		return nil, err
	}
	var types [][2]uint32
	var params []uint32
	for _, s := range secs {
		switch s.id {
		case 1:
			if types, err = funcTypes(s.body); err != nil {
				return nil, err
			}
		case 2: // not needed (params are by defined function), but checked
			if _, err := readImports(s.body); err != nil {
				return nil, err
			}
		case 3:
			r := reader{b: s.body}
			n := r.u32()
			if r.bad || uint64(n) > uint64(len(s.body)) {
				return nil, fmt.Errorf("%w: malformed function section", errChecksShape)
			}
			for range n {
				t := r.u32()
				if r.bad || t >= uint32(len(types)) {
					return nil, fmt.Errorf("%w: malformed function section", errChecksShape)
				}
				params = append(params, types[t][0])
			}
		}
	}
	return params, nil
}

// shareWrapsFunc rewrites one function body with nparams parameters as
// shareWraps says.
func shareWrapsFunc(out, f []byte, nparams uint32) (_ []byte, did bool, _ error) {
	r := reader{b: f}
	declared, err := r.locals()
	if err != nil {
		return nil, false, err
	}
	nlocals := uint64(nparams) + declared
	groups, _ := uleb(f)
	body := r.i
	// First pass: the positions of the wraps to share (pos of their
	// local.get), firsts (which set T) and repeats (which read it).
	first := map[int]uint32{}  // at -> x, for a wrap a later one repeats
	repeat := map[int]uint32{} // at -> x
	seen := map[uint32]int{}   // x -> at of its first wrap in this stretch
	prevGet, prevAt := int64(-1), 0
	for r.i < len(f) {
		start, op, imm, err := r.instr()
		if err != nil {
			return nil, false, err
		}
		get := int64(-1)
		switch {
		case op == 0x20:
			get = int64(imm)
		case op == 0x21 || op == 0x22:
			delete(seen, imm)
		case op == 0xa7 && prevGet >= 0:
			x := uint32(prevGet)
			if at, ok := seen[x]; ok {
				first[at] = x
				repeat[prevAt] = x
			} else {
				seen[x] = prevAt
			}
		case op <= 0x1a && op != 0x01 || op >= 0xfb:
			// A branch, block, call or anything of another kind: a new
			// stretch.
			clear(seen)
		}
		prevGet, prevAt = get, start
	}
	if len(repeat) == 0 {
		return nil, false, nil
	}
	if nlocals+uint64(len(first)) > 50000 {
		return nil, false, nil // over the locals engines take
	}
	// One new i32 local per shared X, in a new locals group.
	// (numbered in the order of their first wraps, so that the output
	// is the same every time).
	tmp := map[uint32]uint32{}
	for _, at := range slices.Sorted(maps.Keys(first)) {
		if _, ok := tmp[first[at]]; !ok {
			x := first[at]
			tmp[x] = uint32(nlocals) + uint32(len(tmp))
		}
	}
	out = appendUleb(out, groups+1)
	r = reader{b: f}
	r.u32()
	out = append(out, f[r.i:body]...)
	out = appendUleb(out, uint32(len(tmp)))
	out = append(out, 0x7f)
	r.i = body
	for r.i < len(f) {
		start := r.i
		op := r.byte()
		if err := r.skipImmediates(op); err != nil {
			return nil, false, err
		}
		if x, ok := repeat[start]; ok {
			// local.get X  i32.wrap_i64  ->  local.get T
			r.byte() // the wrap
			out = appendUleb(append(out, 0x20), tmp[x])
			continue
		}
		out = append(out, f[start:r.i]...)
		if x, ok := first[start]; ok {
			r.byte()
			out = append(out, 0xa7, 0x22) // i32.wrap_i64  local.tee T
			out = appendUleb(out, tmp[x])
		}
	}
	return out, true, nil
}

// instr reads one instruction: where it starts, its opcode and, for
// local.get, local.set and local.tee, the local's index (else 0).
func (r *reader) instr() (start int, op byte, local uint32, err error) {
	start = r.i
	op = r.byte()
	switch op {
	case 0x20, 0x21, 0x22:
		local = r.u32()
	default:
		if err := r.skipImmediates(op); err != nil {
			return start, op, 0, fmt.Errorf("at byte %d: %v", start, err)
		}
	}
	if r.bad {
		return start, op, 0, fmt.Errorf("truncated instruction at byte %d", start)
	}
	return start, op, local, nil
}
