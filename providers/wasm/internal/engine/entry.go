package engine

import (
	"errors"
	"fmt"
)

// Names addEntry exports.
const (
	entrySP   = "agentenkit_sp"   // global 0, the C stack pointer of a wasi-libc module
	entryCall = "agentenkit_call" // call(f, a, b, c, d) -> i32: table entry f with (a, b, c, d)
)

var errEntryShape = errors.New("engine: module of another shape")

// addEntry returns wasm with two more exports, so that the host can run a C
// function of a snapshotted instance (clone.go): global 0,
// which must be a mutable i32 (wasi-libc's __stack_pointer), as entrySP,
// and a new function entryCall that calls table 0's entry f with four i32
// arguments and returns its i32. Nothing else changes: the new types and
// the function go after the existing ones, so no index moves. Only
// function imports are allowed (a module importing a table, memory or
// global is refused).
func addEntry(wasm []byte) ([]byte, error) {
	secs, err := sections(wasm, errEntryShape)
	if err != nil {
		return nil, err
	}
	find := func(id byte) int {
		for i, s := range secs {
			if s.id == id {
				return i
			}
		}
		return -1
	}
	types, funcs, exports, code, globals := find(1), find(3), find(7), find(10), find(6)
	if types < 0 || funcs < 0 || exports < 0 || code < 0 || globals < 0 {
		return nil, fmt.Errorf("%w: a type, function, global, export or code section is missing", errEntryShape)
	}
	if g := secs[globals].body; len(g) < 3 || g[0] == 0 || g[1] != 0x7f || g[2] != 1 {
		return nil, fmt.Errorf("%w: global 0 is not a mutable i32", errEntryShape)
	}
	imported := uint32(0)
	if imp := find(2); imp >= 0 {
		b := secs[imp].body
		cnt, j := uleb(b)
		for range cnt {
			for range 2 { // module and field names
				l, k := uleb(b[j:])
				if k == 0 || j+k+int(l) >= len(b) {
					return nil, errEntryShape
				}
				j += k + int(l)
			}
			if b[j] != 0 { // only functions: other kinds would shift global or table indices
				return nil, fmt.Errorf("%w: imports other than functions", errEntryShape)
			}
			_, k := uleb(b[j+1:])
			if k == 0 {
				return nil, errEntryShape
			}
			j += 1 + k
			imported++
		}
	}
	// grow appends items to a vector section: its count goes up by n.
	grow := func(i int, n uint32, items ...byte) (uint32, error) {
		cnt, k := uleb(secs[i].body)
		if k == 0 {
			return 0, errEntryShape
		}
		b := appendUleb(nil, cnt+n)
		b = append(b, secs[i].body[k:]...)
		secs[i].body = append(b, items...)
		return cnt, nil
	}
	i32 := byte(0x7f)
	target, err := grow(types, 2,
		0x60, 4, i32, i32, i32, i32, 1, i32, // the callee: (i32 x4) -> i32
		0x60, 5, i32, i32, i32, i32, i32, 1, i32) // the entry: (f, i32 x4) -> i32
	if err != nil {
		return nil, err
	}
	own, err := grow(funcs, 1, appendUleb(nil, target+1)...)
	if err != nil {
		return nil, err
	}
	body := []byte{0} // no locals
	for p := byte(1); p <= 4; p++ {
		body = append(body, 0x20, p) // local.get p
	}
	body = append(body, 0x20, 0, 0x11) // local.get 0 (f); call_indirect
	body = appendUleb(body, target)
	body = append(body, 0, 0x0b) // table 0; end
	if _, err := grow(code, 1, append(appendUleb(nil, uint32(len(body))), body...)...); err != nil {
		return nil, err
	}
	ex := appendName(nil, entrySP)
	ex = append(ex, 3, 0) // global 0
	ex = appendName(ex, entryCall)
	ex = append(ex, 0)
	ex = appendUleb(ex, imported+own)
	if _, err := grow(exports, 2, ex...); err != nil {
		return nil, err
	}
	return assemble(wasm[:8], secs), nil
}

func appendUleb(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendName(b []byte, s string) []byte {
	return append(appendUleb(b, uint32(len(s))), s...)
}
