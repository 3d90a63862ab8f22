package engine

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"runtime"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// checkEvery is how many loop iterations an instrumented guest runs between
// two looks at its context (addChecks). A loop iteration of the images
// takes a few nanoseconds, so a run ends well under a millisecond after
// its context, and the host call costs nothing measurable.
const checkEvery = 1 << 14

// yieldField is the WASI import whose call addChecks adds: sched_yield,
// which every libc and Go's runtime import, and which the engine's WASI
// defines as "end the run if its context ended, else let other goroutines
// run" (schedYield).
const yieldField = "sched_yield"

var errChecksShape = errors.New("engine: module cannot be instrumented")

// addChecks returns wasm with a countdown on every loop iteration, so
// that a guest spinning in a loop is ended at its deadline without wazero's
// WithCloseOnContextDone (which leaves native code at every back-edge and
// function entry, and doubles the CPU a guest takes). The rewrite adds one
// mutable i32 global, the countdown, starting at checkEvery, and the check
//
//	global.get $n  i32.eqz
//	if  i32.const checkEvery  global.set $n  call $sched_yield  drop  end
//	global.get $n  i32.const 1  i32.sub  global.set $n
//
// where $sched_yield is the module's import of WASI's sched_yield, so that
// no function index moves. The check goes before each br back to a loop
// whose every way back is a plain br (backEdgeLoops: Go's entry loops,
// which every call enters, once threadJumps has made the forward jumps
// direct), or at the head of any other loop; a loop nothing branches back
// to gets none. Nothing else changes.
//
// A module without loops is returned as it is. A module with loops that
// does not import sched_yield with WASI's type () -> i32, or that has an
// instruction the scanner does not know (those of wasm 2.0 with SIMD,
// threads and tail calls are known), is refused with errChecksShape: it
// could not be ended at its deadline.
func addChecks(wasm []byte) ([]byte, error) {
	secs, err := sections(wasm, errChecksShape)
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
	code := find(10)
	if code < 0 {
		return wasm, nil
	}
	// Imports: the sched_yield function's index and how many globals are
	// imported (the new global's index follows them and the defined ones).
	var types [][2]uint32 // params, results of each type, when it is a function type
	if t := find(1); t >= 0 {
		if types, err = funcTypes(secs[t].body); err != nil {
			return nil, err
		}
	}
	yield, funcs, globals := int64(-1), uint32(0), uint32(0)
	if imp := find(2); imp >= 0 {
		entries, err := readImports(secs[imp].body)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			switch e.kind {
			case 0:
				if e.module == wasiModuleName && e.field == yieldField && e.typ < uint32(len(types)) && types[e.typ] == [2]uint32{0, 1} {
					yield = int64(funcs)
				}
				funcs++
			case 3:
				globals++
			}
		}
	}
	defined := uint32(0)
	gsec := find(6)
	if gsec >= 0 {
		r := reader{b: secs[gsec].body}
		defined = r.u32()
		if r.bad {
			return nil, fmt.Errorf("%w: malformed global section", errChecksShape)
		}
	}
	if uint64(globals)+uint64(defined) >= 1<<32-1 {
		return nil, fmt.Errorf("%w: too many globals", errChecksShape)
	}
	g := globals + defined

	check := func(out []byte) []byte {
		out = append(out, 0x23) // global.get $n
		out = appendUleb(out, g)
		out = append(out, 0x45, 0x04, 0x40, 0x41) // i32.eqz; if (no result); i32.const
		out = appendSleb32(out, checkEvery)
		out = append(out, 0x24) // global.set $n
		out = appendUleb(out, g)
		out = append(out, 0x10) // call $sched_yield
		out = appendUleb(out, uint32(yield))
		out = append(out, 0x1a, 0x0b, 0x23) // drop; end; global.get $n
		out = appendUleb(out, g)
		out = append(out, 0x41, 0x01, 0x6b, 0x24) // i32.const 1; i32.sub; global.set $n
		return appendUleb(out, g)
	}

	r := reader{b: secs[code].body}
	n := r.u32()
	if r.bad {
		return nil, fmt.Errorf("%w: malformed code section", errChecksShape)
	}
	body := appendUleb(make([]byte, 0, len(secs[code].body)*5/4), n)
	loops := 0
	var out []byte // one function's body, rewritten
	for fn := range n {
		size := r.u32()
		if r.bad || uint64(r.i)+uint64(size) > uint64(len(r.b)) {
			return nil, fmt.Errorf("%w: function %d: malformed body", errChecksShape, fn)
		}
		f := reader{b: r.b[r.i : r.i+int(size)]}
		r.i += int(size)
		if _, err := f.locals(); err != nil {
			return nil, fmt.Errorf("%w: function %d: %v", errChecksShape, fn, err)
		}
		out = append(out[:0], f.b[:f.i]...)
		atBr, err := backEdgeLoops(f.b, f.i)
		if err != nil {
			return nil, fmt.Errorf("%w: function %d: %v", errChecksShape, fn, err)
		}
		// frames mirrors the control stack: whether each frame is a loop
		// whose checks sit at its back-edges (atBr).
		var frames []bool
		nloop := 0
		for f.i < len(f.b) {
			start := f.i
			op := f.byte()
			var imm uint32
			if op == 0x0c {
				imm = f.u32()
			} else if err := f.skipImmediates(op); err != nil {
				return nil, fmt.Errorf("%w: function %d at byte %d: %v", errChecksShape, fn, start, err)
			}
			if f.bad {
				return nil, fmt.Errorf("%w: function %d at byte %d: truncated instruction", errChecksShape, fn, start)
			}
			if op == 0x03 || op == 0x0c && int(imm) < len(frames) && frames[len(frames)-1-int(imm)] {
				if yield < 0 {
					return nil, fmt.Errorf("%w: it has loops but does not import %s.%s () -> i32", errChecksShape, wasiModuleName, yieldField)
				}
				loops++
			}
			switch op {
			case 0x02, 0x04:
				frames = append(frames, false)
			case 0x03:
				frames = append(frames, atBr[nloop])
				if !atBr[nloop] {
					out = append(out, f.b[start:f.i]...)
					out = check(out)
					nloop++
					continue
				}
				nloop++
			case 0x0b:
				if len(frames) > 0 {
					frames = frames[:len(frames)-1]
				}
			case 0x0c:
				if int(imm) < len(frames) && frames[len(frames)-1-int(imm)] {
					out = check(out) // a back-edge of a loop checked at its back-edges
				}
			}
			out = append(out, f.b[start:f.i]...)
		}
		body = appendUleb(body, uint32(len(out)))
		body = append(body, out...)
	}
	if r.i != len(r.b) {
		return nil, fmt.Errorf("%w: bytes after the last function body", errChecksShape)
	}
	if loops == 0 {
		return wasm, nil
	}
	secs[code].body = body

	// The countdown: (global (mut i32) (i32.const checkEvery)).
	glob := []byte{0x7f, 1, 0x41}
	glob = appendSleb32(glob, checkEvery)
	glob = append(glob, 0x0b)
	if gsec < 0 {
		// The global section goes before export (7), start (8), element
		// (9), data count (12), code (10) and data (11).
		at := len(secs)
		for i, s := range secs {
			if s.id == 7 || s.id == 8 || s.id == 9 || s.id == 10 || s.id == 11 || s.id == 12 {
				at = i
				break
			}
		}
		secs = append(secs[:at], append([]section{{id: 6, body: append([]byte{1}, glob...)}}, secs[at:]...)...)
	} else {
		rest := secs[gsec].body[len(appendUleb(nil, defined)):]
		b := appendUleb(nil, defined+1)
		b = append(b, rest...)
		secs[gsec].body = append(b, glob...)
	}
	return assemble(wasm[:8], secs), nil
}

// backEdgeLoops reads a function's instructions (from byte at of f) and
// tells, for each loop in order, whether its countdown check can sit at
// its back-edges instead of its head: every branch to it is a plain br
// (none a br_if or br_table), so each iteration after the first starts
// with one of those br, and a check before each counts the iterations as
// one at the head does, without one for the entry. A loop no branch
// targets does not repeat and gets no check. Go's wasm enters its entry
// loop at every call, and threadJumps leaves only its backward jumps
// going through it, so most calls of Go code then pass no check.
func backEdgeLoops(f []byte, at int) ([]bool, error) {
	r := reader{b: f, i: at}
	var frames []int // index of each open loop in atBr, or -1
	var atBr []bool
	target := func(depth uint32) int {
		if int64(depth) >= int64(len(frames)) {
			return -1
		}
		return frames[len(frames)-1-int(depth)]
	}
	for r.i < len(r.b) {
		start := r.i
		op := r.byte()
		switch op {
		case 0x0c:
			r.u32()
		case 0x0d:
			if k := target(r.u32()); k >= 0 {
				atBr[k] = false
			}
		case 0x0e:
			n := r.u32()
			for k := uint32(0); k <= n && !r.bad; k++ {
				if l := target(r.u32()); l >= 0 {
					atBr[l] = false
				}
			}
		default:
			if err := r.skipImmediates(op); err != nil {
				return nil, fmt.Errorf("at byte %d: %v", start, err)
			}
		}
		if r.bad {
			return nil, fmt.Errorf("at byte %d: truncated instruction", start)
		}
		switch op {
		case 0x02, 0x04:
			frames = append(frames, -1)
		case 0x03:
			frames = append(frames, len(atBr))
			atBr = append(atBr, true)
		case 0x0b:
			if len(frames) > 0 {
				frames = frames[:len(frames)-1]
			}
		}
	}
	return atBr, nil
}

type section struct {
	id   byte
	body []byte
}

// sections splits a module into its sections (custom ones included); a
// malformed module is an error wrapping shape, the caller's sentinel.
func sections(wasm []byte, shape error) ([]section, error) {
	if len(wasm) < 8 || string(wasm[:4]) != "\x00asm" {
		return nil, fmt.Errorf("%w: not a wasm module", shape)
	}
	var secs []section
	for i := 8; i < len(wasm); {
		size, n := uleb(wasm[i+1:])
		start := i + 1 + n
		end := start + int(size)
		if n == 0 || end > len(wasm) || end < start {
			return nil, fmt.Errorf("%w: malformed section at byte %d", shape, i)
		}
		secs = append(secs, section{wasm[i], wasm[start:end]})
		i = end
	}
	return secs, nil
}

// assemble writes a module back from its header and sections.
func assemble(header []byte, secs []section) []byte {
	n := len(header)
	for _, s := range secs {
		n += 6 + len(s.body)
	}
	out := append(make([]byte, 0, n), header...)
	for _, s := range secs {
		out = append(out, s.id)
		out = appendUleb(out, uint32(len(s.body)))
		out = append(out, s.body...)
	}
	return out
}

// importEntry is one entry of an import section: kind 0 a function (typ
// its type's index), 1 a table, 2 a memory, 3 a global, 4 a tag.
type importEntry struct {
	module, field string
	kind          byte
	typ           uint32
}

// readImports reads an import section's entries.
func readImports(body []byte) ([]importEntry, error) {
	r := reader{b: body}
	n := r.u32()
	if r.bad || uint64(n) > uint64(len(body)) {
		return nil, fmt.Errorf("%w: malformed import section", errChecksShape)
	}
	entries := make([]importEntry, 0, n)
	for range n {
		e := importEntry{module: r.name(), field: r.name(), kind: r.byte()}
		switch e.kind {
		case 0: // function: type
			e.typ = r.u32()
		case 1: // table: reftype, limits
			r.byte()
			r.limits()
		case 2: // memory: limits
			r.limits()
		case 3: // global: valtype, mutability
			r.byte()
			r.byte()
		case 4: // tag: attribute, type
			r.byte()
			r.u32()
		default:
			r.bad = true
		}
		if r.bad {
			return nil, fmt.Errorf("%w: malformed import section", errChecksShape)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// funcTypes reads a type section: the parameter and result counts of each
// type. A type that is not a plain function type is refused.
func funcTypes(b []byte) ([][2]uint32, error) {
	r := reader{b: b}
	n := r.u32()
	if r.bad || uint64(n) > uint64(len(b)) {
		return nil, fmt.Errorf("%w: malformed type section", errChecksShape)
	}
	types := make([][2]uint32, 0, n)
	for range n {
		if r.byte() != 0x60 {
			return nil, fmt.Errorf("%w: a type other than a function type", errChecksShape)
		}
		var pr [2]uint32
		for k := range pr {
			pr[k] = r.u32()
			for range pr[k] {
				r.byte()
				if r.bad {
					break
				}
			}
		}
		if r.bad {
			return nil, fmt.Errorf("%w: malformed type section", errChecksShape)
		}
		types = append(types, pr)
	}
	return types, nil
}

// reader reads a module's bytes; bad is set (and stays set) when a read
// runs past the end or a LEB128 is malformed.
type reader struct {
	b   []byte
	i   int
	bad bool
}

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.bad = true
		return 0
	}
	c := r.b[r.i]
	r.i++
	return c
}

func (r *reader) u32() uint32 {
	if r.i > len(r.b) {
		r.bad = true
		return 0
	}
	v, n := uleb(r.b[r.i:])
	if n == 0 {
		r.bad = true
	}
	r.i += n
	return v
}

// locals reads a function body's local declarations (groups of a count
// and a type), leaving r at its first instruction, and returns how many
// locals they declare.
func (r *reader) locals() (uint64, error) {
	var n uint64
	groups := r.u32()
	for range groups {
		n += uint64(r.u32())
		r.byte()
		if r.bad {
			return 0, errors.New("malformed locals")
		}
	}
	if r.bad {
		return 0, errors.New("malformed locals")
	}
	return n, nil
}

// leb skips a LEB128 of at most maxBytes bytes.
func (r *reader) leb(maxBytes int) {
	for k := 0; k < maxBytes; k++ {
		if r.byte()&0x80 == 0 || r.bad {
			return
		}
	}
	r.bad = true
}

func (r *reader) skip(n int) {
	if n > len(r.b)-r.i {
		r.bad = true
		return
	}
	r.i += n
}

func (r *reader) name() string {
	l := r.u32()
	if r.bad || int(l) > len(r.b)-r.i {
		r.bad = true
		return ""
	}
	s := string(r.b[r.i : r.i+int(l)])
	r.i += int(l)
	return s
}

// limits skips a table's or memory's limits.
func (r *reader) limits() {
	flags := r.byte()
	r.leb(10)
	if flags&1 != 0 {
		r.leb(10)
	}
}

// memarg skips a memory instruction's alignment (whose bit 6 says a memory
// index follows) and offset.
func (r *reader) memarg() {
	align := r.u32()
	if align&0x40 != 0 {
		r.u32()
	}
	r.leb(10)
}

// blockType skips a block type: empty, a value type or a type index.
func (r *reader) blockType() { r.leb(5) }

// skipImmediates skips the immediates of the instruction op whose opcode
// byte was just read. An opcode it does not know is an error.
func (r *reader) skipImmediates(op byte) error {
	switch {
	case op == 0x00, op == 0x01, op == 0x05, op == 0x0b, op == 0x0f, op == 0x1a, op == 0x1b,
		op >= 0x45 && op <= 0xc4, op == 0xd1:
		// no immediates
	case op == 0x02, op == 0x03, op == 0x04:
		r.blockType()
	case op == 0x0c, op == 0x0d, op == 0x10, op == 0x12, op == 0xd2,
		op >= 0x20 && op <= 0x26, op == 0x3f, op == 0x40:
		r.u32()
	case op == 0x0e: // br_table
		n := r.u32()
		for k := uint32(0); k <= n && !r.bad; k++ {
			r.u32()
		}
	case op == 0x11, op == 0x13: // call_indirect, return_call_indirect
		r.u32()
		r.u32()
	case op == 0x1c: // select t*
		n := r.u32()
		for k := uint32(0); k < n && !r.bad; k++ {
			r.byte()
		}
	case op >= 0x28 && op <= 0x3e:
		r.memarg()
	case op == 0x41:
		r.leb(5)
	case op == 0x42:
		r.leb(10)
	case op == 0x43:
		r.skip(4)
	case op == 0x44:
		r.skip(8)
	case op == 0xd0: // ref.null heaptype
		r.leb(5)
	case op == 0xfc:
		switch sub := r.u32(); {
		case sub <= 7: // saturating truncations
		case sub == 8, sub == 10, sub == 12, sub == 14: // memory.init, memory.copy, table.init, table.copy
			r.u32()
			r.u32()
		case sub == 9, sub == 11, sub == 13, sub >= 15 && sub <= 17:
			r.u32()
		default:
			return fmt.Errorf("unknown instruction 0xfc %d", sub)
		}
	case op == 0xfd:
		switch sub := r.u32(); {
		case sub <= 11, sub == 92, sub == 93: // loads and stores
			r.memarg()
		case sub == 12, sub == 13: // v128.const, i8x16.shuffle
			r.skip(16)
		case sub >= 21 && sub <= 34: // extract_lane, replace_lane
			r.byte()
		case sub >= 84 && sub <= 91: // load_lane, store_lane
			r.memarg()
			r.byte()
		case sub <= 275:
			// the other SIMD instructions have no immediates
		default:
			return fmt.Errorf("unknown instruction 0xfd %d", sub)
		}
	case op == 0xfe:
		switch sub := r.u32(); {
		case sub == 3: // atomic.fence
			r.byte()
		case sub <= 0x4e:
			r.memarg()
		default:
			return fmt.Errorf("unknown instruction 0xfe %d", sub)
		}
	default:
		return fmt.Errorf("unknown instruction 0x%02x", op)
	}
	return nil
}

func appendSleb32(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// schedYield is WASI's sched_yield for the engine's guests, and the call
// addChecks puts in loops: when the context of the call has ended, it
// closes the instance with the exit code wazero gives a run its context
// ended (sys.ExitCodeDeadlineExceeded or sys.ExitCodeContextCanceled) and
// unwinds the guest; else it yields to other goroutines, as wazero's does.
func schedYield(ctx context.Context, mod api.Module, stack []uint64) {
	if err := ctx.Err(); err != nil {
		code := uint32(sys.ExitCodeContextCanceled)
		if errors.Is(err, context.DeadlineExceeded) {
			code = sys.ExitCodeDeadlineExceeded
		}
		_ = mod.CloseWithExitCode(ctx, code)
		panic(sys.NewExitError(code))
	}
	runtime.Gosched()
	stack[0] = 0
}

// preparedVersion names the rewrites prepare makes; a change to addEntry,
// threadJumps, foldGoCode, shareWraps, probeBounds, addChecks or
// addGlobalExports must change it, so that no module rewritten the old
// way is taken from the cache.
const preparedVersion = "v6"

// prepare is the module the engine compiles for wasm: rewrite's result.
// With a compilation cache, the result is kept in its folder, keyed by
// wasm's content and the rewrite's version (preparedBase), so that the
// rewrite (about 0.3 s of CPU for busybox) is done once per image, not per
// process; a cached file that cannot be read is made anew. Load goes
// through loadModule, which also keeps the module split from its data.
func (e *Engine) prepare(wasm []byte, python bool) ([]byte, error) {
	var file string
	if e.prepared != "" {
		file = e.preparedBase(fmt.Sprintf("%x", sha256.Sum256(wasm)), python) + ".wasm"
		if b, err := readModule(file); err == nil {
			return b, nil
		}
	}
	b, err := e.rewrite(wasm, python)
	if err != nil {
		return nil, err
	}
	if file != "" && len(b) != len(wasm) {
		writeCacheFile(file, b)
	}
	return b, nil
}

// rewrite returns wasm for a Python image with the exports a snapshot clone
// needs (addEntry; a module of another shape goes without them), with
// the checks that end a run at its deadline (addChecks), and for any
// other image (Go's) with direct jumps where Go's code dispatches through
// its entry loop (threadJumps), two of Go's instruction sequences
// shortened (foldGoCode), repeated address computations shared
// (shareWraps), one bounds check where the compiler would make several
// (probeBounds) and its mutable globals exported
// (addGlobalExports).
func (e *Engine) rewrite(wasm []byte, python bool) ([]byte, error) {
	b := wasm
	if python {
		if with, err := addEntry(b); err == nil {
			b = with // the exports a snapshot clone needs (clone.go)
		}
	}
	if !python {
		// Go's images: direct jumps where Go's wasm code goes through its
		// entry loop (threadJumps), then shorter address and SP
		// arithmetic (foldGoCode), then one address value for repeated
		// reads of a pointer (shareWraps) and bounds probes
		// (probeBounds).
		var err error
		if b, err = threadJumps(b); err != nil {
			return nil, err
		}
		if b, err = foldGoCode(b); err != nil {
			return nil, err
		}
		if b, err = shareWraps(b); err != nil {
			return nil, err
		}
		if b, err = probeBounds(b); err != nil {
			return nil, err
		}
	}
	if e.opts.cancel == cancelChecks {
		var err error
		if b, err = addChecks(b); err != nil {
			return nil, err
		}
	}
	if !python {
		if with, ok, err := addGlobalExports(b); err == nil && ok {
			b = with // the exports a snapshot of a Go reactor needs (shellclone.go)
		}
	}
	return b, nil
}
