package engine

import "fmt"

// threadJumps returns wasm with the jumps of Go's wasm code made direct
// where structured control flow allows it. It is for images built by Go
// (GOOS=wasip1), where a function with branches has this shape
// (cmd/internal/obj/wasm):
//
//	loop                         ;; the entry loop
//	  block … block              ;; m blocks, B(m-1) outermost … B(0)
//	    local.get $pc  br_table  ;; to the section named by $pc
//	  end                        ;; section 0 follows
//	  …  end  …  end  …          ;; section i follows the end of B(i)
//	end
//
// and every jump between basic blocks, even to the next section, is
//
//	i32.const P  local.set $pc  br $loop
//
// so that it goes through the br_table: an indirect jump (and a countdown
// check of addChecks, which counts loop iterations) per Go branch. A jump to a
// later section k (forward) can instead be `br` to the end of B(k), which
// encloses the jump: threadJumps rewrites the br's label so, and leaves
// the i32.const and local.set as they are ($pc is read only by the
// br_table). A backward jump still goes through the loop, so every cycle
// of the function still passes the loop head (and a check). It also puts
// `local.get $pc  i32.eqz  br_if 0` before the br_table when $pc = 0 names
// section 0, so that a call (which enters with $pc = 0) takes a direct
// branch instead of the indirect one.
//
// Functions of another shape are left as they are, as is a module with no
// such function. A module the scanner cannot read is refused with
// errChecksShape.
func threadJumps(wasm []byte) ([]byte, error) {
	return mapCode(wasm, threadFunc)
}

// threadFunc rewrites one function body (locals included) into out, as
// threadJumps says; did is false when the function is not of Go's shape
// (out is then not to be used).
func threadFunc(out, f []byte) (_ []byte, did bool, _ error) {
	r := reader{b: f}
	if _, err := r.locals(); err != nil {
		return nil, false, err
	}
	out = append(out, f[:r.i]...)

	// The prologue: a few global.get, local.get, local.set and block,
	// then loop block×m local.get $pc br_table … end.
	type ctl struct{ dispatch bool }
	var stack []ctl
	loopAt, m := -1, 0
	p := r
	for k := 0; ; k++ {
		q := p
		op := q.byte()
		if op == 0x03 && q.byte() == 0x40 {
			p = q
			break
		}
		switch {
		case k >= 8:
			return nil, false, nil
		case op == 0x02 && q.byte() == 0x40:
			stack = append(stack, ctl{})
		case op == 0x20, op == 0x21, op == 0x23:
			q.u32()
		default:
			return nil, false, nil
		}
		if q.bad {
			return nil, false, nil
		}
		p = q
	}
	loopAt = len(stack)
	stack = append(stack, ctl{})
	for {
		q := p
		if q.byte() != 0x02 || q.byte() != 0x40 {
			break
		}
		p = q
		m++
		stack = append(stack, ctl{dispatch: true})
	}
	headEnd := p.i
	if m == 0 || p.byte() != 0x20 {
		return nil, false, nil
	}
	pcLocal := p.u32()
	if p.byte() != 0x0e {
		return nil, false, nil
	}
	cnt := p.u32()
	if p.bad || uint64(cnt) > uint64(len(f)) {
		return nil, false, nil
	}
	labels := make([]uint32, cnt+1)
	for k := range labels {
		labels[k] = p.u32()
		if labels[k] >= uint32(m) {
			return nil, false, nil
		}
	}
	if p.bad {
		return nil, false, nil
	}
	// The body so far: the blocks, then the fast path when $pc = 0 names
	// section 0, then local.get $pc br_table as they were.
	out = append(out, f[r.i:headEnd]...)
	if labels[0] == 0 {
		out = append(out, 0x20)
		out = appendUleb(out, pcLocal)
		out = append(out, 0x45, 0x0d, 0x00) // i32.eqz; br_if 0
	}
	out = append(out, f[headEnd:p.i]...)
	r = p

	// open counts the dispatch blocks still open: B(m-1) … B(m-open).
	open := m
	// The starts of the two instructions before this one, to match
	// i32.const P  local.set $pc  br $loop.
	prev := [2]int{-1, -1}
	for r.i < len(f) {
		start := r.i
		op := r.byte()
		var imm uint32
		if op == 0x0c {
			imm = r.u32()
		} else if err := r.skipImmediates(op); err != nil {
			return nil, false, err
		}
		if r.bad {
			return nil, false, fmt.Errorf("truncated instruction at byte %d", start)
		}
		switch op {
		case 0x02, 0x03, 0x04:
			stack = append(stack, ctl{})
		case 0x0b:
			if len(stack) > 0 {
				if stack[len(stack)-1].dispatch {
					open--
				}
				stack = stack[:len(stack)-1]
			}
		}
		rewritten := false
		if op == 0x0c && prev[1] >= 0 && prev[0] >= 0 && len(stack) > 0 {
			top := len(stack) - 1
			if int(imm) <= top && top-int(imm) == loopAt {
				// br $loop: preceded by i32.const P; local.set $pc?
				c := reader{b: f, i: prev[0]}
				s := reader{b: f, i: prev[1]}
				if c.byte() == 0x41 && s.byte() == 0x21 {
					pc := sleb64(&c)
					if s.u32() == pcLocal && !c.bad && !s.bad && pc >= 0 {
						k := labels[len(labels)-1]
						if pc < int64(len(labels)-1) {
							k = labels[pc]
						}
						// Section j = m-1-open; B(k) is open iff k > j.
						if j := m - 1 - open; int(k) > j {
							// B(k) sits at loopAt+1+(m-1-k).
							depth := top - (loopAt + 1 + (m - 1 - int(k)))
							out = append(out, 0x0c)
							out = appendUleb(out, uint32(depth))
							rewritten, did = true, true
						}
					}
				}
			}
		}
		if !rewritten {
			out = append(out, f[start:r.i]...)
		}
		prev[0], prev[1] = prev[1], start
	}
	if len(stack) != 0 {
		return nil, false, fmt.Errorf("unbalanced blocks")
	}
	// The fast path alone is a change too.
	return out, did || labels[0] == 0, nil
}

// sleb64 reads a signed LEB128 of at most 10 bytes.
func sleb64(r *reader) int64 {
	var v int64
	var shift uint
	for k := 0; k < 10; k++ {
		c := r.byte()
		if r.bad {
			return 0
		}
		v |= int64(c&0x7f) << shift
		shift += 7
		if c&0x80 == 0 {
			if shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v
		}
	}
	r.bad = true
	return 0
}
