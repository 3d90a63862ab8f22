package engine

import "fmt"

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
		out, did, err = rewrite(out[:0], f)
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
	groups := r.u32()
	for range groups {
		r.u32()
		r.byte()
		if r.bad {
			return nil, false, fmt.Errorf("malformed locals")
		}
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
