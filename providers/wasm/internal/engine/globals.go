package engine

import (
	"errors"
	"fmt"
	"strconv"
)

// globalPrefix names the exports addGlobalExports adds: the k-th mutable
// global the module defines is exported as globalPrefix+k.
const globalPrefix = "agentenkit_mg"

var errGlobalsShape = errors.New("engine: globals: module of another shape")

// addGlobalExports returns wasm with each mutable global it defines
// exported (globalPrefix + 0, 1, ...), so that the host can read an
// instance's globals after its init and set a clone's
// (shellclone.go). Nothing else changes. A module that imports anything
// but functions, or has no global section, is returned as it is with
// ok false.
func addGlobalExports(wasm []byte) (out []byte, ok bool, err error) {
	secs, err := sections(wasm, errGlobalsShape)
	if err != nil {
		return nil, false, err
	}
	find := func(id byte) int {
		for i, s := range secs {
			if s.id == id {
				return i
			}
		}
		return -1
	}
	globals, exports := find(6), find(7)
	if globals < 0 || exports < 0 {
		return wasm, false, nil
	}
	if imp := find(2); imp >= 0 {
		r := &reader{b: secs[imp].body}
		for n := r.u32(); n > 0 && !r.bad; n-- {
			r.name()
			r.name()
			if kind := r.byte(); kind != 0 {
				return wasm, false, nil
			}
			r.u32()
		}
		if r.bad {
			return nil, false, fmt.Errorf("%w: imports", errGlobalsShape)
		}
	}
	r := &reader{b: secs[globals].body}
	var mutable []uint32
	for i, n := uint32(0), r.u32(); i < n && !r.bad; i++ {
		r.byte() // value type
		if r.byte() == 1 {
			mutable = append(mutable, i)
		}
		for !r.bad { // the init expression, up to its end
			op := r.byte()
			if op == 0x0b {
				break
			}
			switch op {
			case 0x41, 0x23, 0xd2: // i32.const, global.get, ref.func
				r.leb(5)
			case 0x42: // i64.const
				r.leb(10)
			case 0x43:
				r.skip(4)
			case 0x44:
				r.skip(8)
			case 0xd0: // ref.null t
				r.byte()
			default:
				return nil, false, fmt.Errorf("%w: init expression op 0x%x", errGlobalsShape, op)
			}
		}
	}
	if r.bad {
		return nil, false, errGlobalsShape
	}
	if len(mutable) == 0 {
		return wasm, false, nil
	}
	cnt, k := uleb(secs[exports].body)
	if k == 0 {
		return nil, false, errGlobalsShape
	}
	b := appendUleb(nil, cnt+uint32(len(mutable)))
	b = append(b, secs[exports].body[k:]...)
	for j, g := range mutable {
		b = appendName(b, globalPrefix+strconv.Itoa(j))
		b = append(b, 3)
		b = appendUleb(b, g)
	}
	secs[exports].body = b
	return assemble(wasm[:8], secs), true, nil
}
