package bc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/big"
)

// Limits as GNU bc 1.07 reports them (limits).
const (
	baseMax   = 2147483647
	dimMax    = 16777215
	scaleMax  = 2147483647
	maxFrames = 1 << 16 // calls in progress; deeper recursion is an error
)

// array is a bc array: elements by index, zero when unset.
type array struct{ el map[int64]num }

func newArray() *array { return &array{el: map[int64]num{}} }

// frame is a function call in progress.
type frame struct {
	fn, pc int
	ibase  int // ibase when called: the function's constants are read in it
}

// interp is one bc run: its names, variables, stacks and output.
type interp struct {
	ctx  context.Context
	out  *outWriter
	errw io.Writer
	name string // the input's name in messages: "(standard_in)" or a file

	varIdx   map[string]int
	arrIdx   map[string]int
	arrNames []string
	funcIdx  map[string]int
	funcs    []*function

	vars   map[int][]num
	arrays map[int][]*array

	ibase, obase, scale int
	last                num

	stack  []num
	frames []frame
	fn, pc int

	halted  bool
	failed  bool // a runtime error ended the current run
	stdin   *bufio.Reader
	counter int
}

func newInterp(ctx context.Context, out *outWriter, errw io.Writer) *interp {
	in := &interp{
		ctx: ctx, out: out, errw: errw,
		varIdx: map[string]int{}, arrIdx: map[string]int{}, arrNames: []string{""},
		funcIdx: map[string]int{"(main)": 0},
		funcs:   []*function{{name: "(main)", labels: map[int]int{}, defined: true}},
		vars:    map[int][]num{}, arrays: map[int][]*array{},
		ibase: 10, obase: 10, last: numZero,
	}
	return in
}

func (in *interp) varIndex(name string) int {
	if i, ok := in.varIdx[name]; ok {
		return i
	}
	i := len(in.varIdx) + 5
	in.varIdx[name] = i
	return i
}

func (in *interp) arrayIndex(name string) int {
	if i, ok := in.arrIdx[name]; ok {
		return i
	}
	i := len(in.arrNames)
	in.arrIdx[name] = i
	in.arrNames = append(in.arrNames, name)
	return i
}

func (in *interp) funcIndex(name string) int {
	if i, ok := in.funcIdx[name]; ok {
		return i
	}
	i := len(in.funcs)
	in.funcIdx[name] = i
	in.funcs = append(in.funcs, &function{name: name, labels: map[int]int{}})
	return i
}

func (in *interp) parseError(line int, msg string) {
	in.out.flush()
	fmt.Fprintf(in.errw, "%s %d: %s\n", in.name, line, msg)
}

func (in *interp) rtError(format string, a ...any) {
	in.out.flush()
	fmt.Fprintf(in.errw, "Runtime error (func=%s, adr=%d): %s\n", in.funcs[in.fn].name, in.pc, fmt.Sprintf(format, a...))
	in.failed = true
}

func (in *interp) rtWarn(format string, a ...any) {
	in.out.flush()
	fmt.Fprintf(in.errw, "Runtime warning (func=%s, adr=%d): %s\n", in.funcs[in.fn].name, in.pc, fmt.Sprintf(format, a...))
}

func (in *interp) warranty() {
	in.out.str("bc 1.07.1\nCopyright 1991-1994, 1997, 1998, 2000, 2004, 2006, 2008, 2012-2017 Free Software Foundation, Inc.\n\n" +
		"    This program is free software; you can redistribute it and/or modify\n" +
		"    it under the terms of the GNU General Public License as published by\n" +
		"    the Free Software Foundation; either version 3 of the License , or\n" +
		"    (at your option) any later version.\n\n" +
		"    This program is distributed in the hope that it will be useful,\n" +
		"    but WITHOUT ANY WARRANTY; without even the implied warranty of\n" +
		"    MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the\n" +
		"    GNU General Public License for more details.\n\n" +
		"    You should have received a copy of the GNU General Public License\n" +
		"    along with this program. If not, write to\n\n" +
		"       The Free Software Foundation, Inc.\n" +
		"       51 Franklin Street, Fifth Floor\n" +
		"       Boston, MA 02110-1301  USA\n\n")
}

func (in *interp) limits() {
	in.out.str(fmt.Sprintf("BC_BASE_MAX     = %d\nBC_DIM_MAX      = %d\nBC_SCALE_MAX    = %d\nBC_STRING_MAX   = %d\nMAX Exponent    = %d\nNumber of vars  = %d\n",
		baseMax, dimMax, scaleMax, 2147483647, int64(9223372036854775807), 32767))
}

func (in *interp) byte() byte {
	f := in.funcs[in.fn]
	if in.pc >= len(f.code) {
		in.pc++
		return ':'
	}
	b := f.code[in.pc]
	in.pc++
	return b
}

func (in *interp) operand() int {
	b := int(in.byte())
	if b&0x80 != 0 {
		b = (b&0x7f)<<8 + int(in.byte())
	}
	return b
}

func (in *interp) push(n num) { in.stack = append(in.stack, n) }

func (in *interp) pop() num {
	n := in.stack[len(in.stack)-1]
	in.stack = in.stack[:len(in.stack)-1]
	return n
}

func (in *interp) top() num { return in.stack[len(in.stack)-1] }

func (in *interp) loadVar(idx int) num {
	switch idx {
	case 0:
		return intNum(int64(in.ibase))
	case 1:
		return intNum(int64(in.obase))
	case 2:
		return intNum(int64(in.scale))
	case 3:
		return numZero
	case 4:
		return in.last
	}
	if s := in.vars[idx]; len(s) > 0 {
		return s[len(s)-1]
	}
	return numZero
}

// storeVar sets variable idx to v, with GNU's checks for ibase, obase
// and scale.
func (in *interp) storeVar(idx int, v num) {
	clamp := func(name string, lo, hi int) int {
		n, ok := v.toInt64()
		switch {
		case v.isNeg():
			in.rtWarn("negative %s, set to %d", name, lo)
			return lo
		case !ok || n > int64(hi):
			in.rtWarn("%s too large, set to %d", name, hi)
			return hi
		case n < int64(lo):
			in.rtWarn("%s too small, set to %d", name, lo)
			return lo
		}
		return int(n)
	}
	switch idx {
	case 0:
		in.ibase = clamp("ibase", 2, 36)
	case 1:
		in.obase = clamp("obase", 2, baseMax)
	case 2:
		n, ok := v.toInt64()
		switch {
		case v.isNeg():
			in.rtWarn("negative scale, set to 0")
			in.scale = 0
		case !ok || n > scaleMax:
			in.rtWarn("scale too large, set to %d", scaleMax)
			in.scale = scaleMax
		default:
			in.scale = int(n)
		}
	case 3:
	case 4:
		in.last = v
	default:
		s := in.vars[idx]
		if len(s) == 0 {
			in.vars[idx] = []num{v}
		} else {
			s[len(s)-1] = v
		}
	}
}

func (in *interp) arrayOf(idx int) *array {
	s := in.arrays[idx]
	if len(s) == 0 {
		a := newArray()
		in.arrays[idx] = []*array{a}
		return a
	}
	return s[len(s)-1]
}

// index converts an array subscript, reporting one out of bounds.
func (in *interp) index(arr int, v num) (int64, bool) {
	n, ok := v.toInt64()
	if !ok || n < 0 || n > dimMax {
		in.rtError("Array %s subscript out of bounds.", in.arrNames[arr])
		return 0, false
	}
	return n, true
}

func (in *interp) element(arr int, i int64) num {
	if v, ok := in.arrayOf(arr).el[i]; ok {
		return v
	}
	return numZero
}

// constant reads a constant's digits (K ... :) in base.
func (in *interp) constant(base int) num {
	var ip, fp []int
	frac := false
	for {
		c := in.byte()
		if c == ':' {
			break
		}
		if c == '.' {
			frac = true
			continue
		}
		if frac {
			fp = append(fp, int(c))
		} else {
			ip = append(ip, int(c))
		}
	}
	return digitsNum(ip, fp, base)
}

// digitsNum is the number of integer digits ip and fraction digits fp in
// base, as GNU bc converts constants: a lone digit keeps its value (A is
// 10 whatever the base), other digits past the base count as base-1, and
// the fraction is cut to as many decimal digits as it has digits.
func digitsNum(ip, fp []int, base int) num {
	if len(ip) == 1 && len(fp) == 0 {
		return intNum(int64(ip[0]))
	}
	b := big.NewInt(int64(base))
	v := new(big.Int)
	for k, d := range ip {
		if !(k == 0 && len(ip) == 1 && base != 10) {
			d = min(d, base-1)
		}
		v.Mul(v, b)
		v.Add(v, big.NewInt(int64(d)))
	}
	n := num{i: v}
	if len(fp) == 0 {
		return n
	}
	f := new(big.Int)
	dv := big.NewInt(1)
	for _, d := range fp {
		f.Mul(f, b)
		f.Add(f, big.NewInt(int64(min(d, base-1))))
		dv.Mul(dv, b)
	}
	q, _ := div(num{i: f}, num{i: dv}, len(fp))
	return add(n, q)
}

// run executes the main program's code from its start.
func (in *interp) run() error {
	in.fn, in.pc = 0, 0
	in.failed = false
	in.stack = in.stack[:0]
	defer func() {
		// Unwind calls left by a runtime error.
		for len(in.frames) > 0 {
			in.popScope(in.fn)
			fr := in.frames[len(in.frames)-1]
			in.frames = in.frames[:len(in.frames)-1]
			in.fn, in.pc = fr.fn, fr.pc
		}
		in.stack = in.stack[:0]
		in.out.flush()
	}()
	for !in.failed && !in.halted {
		f := in.funcs[in.fn]
		if in.pc >= len(f.code) {
			if in.fn == 0 {
				return nil
			}
			// A function's code always ends in R.
			return nil
		}
		if in.counter++; in.counter&1023 == 0 {
			if err := in.ctx.Err(); err != nil {
				return err
			}
		}
		if err := in.step(); err != nil {
			return err
		}
	}
	return nil
}

func (in *interp) binary(op byte) {
	if len(in.stack) < 2 {
		in.rtError("stack error")
		return
	}
	b := in.pop()
	a := in.pop()
	var r num
	ok := true
	switch op {
	case '+':
		r = add(a, b)
	case '-':
		r = sub(a, b)
	case '*':
		r = mul(a, b, in.scale)
	case '/':
		if r, ok = div(a, b, in.scale); !ok {
			in.push(a)
			in.push(b)
			in.rtError("Divide by zero")
			return
		}
	case '%':
		if r, ok = mod(a, b, in.scale); !ok {
			in.push(a)
			in.push(b)
			in.rtError("Modulo by zero")
			return
		}
	case '^':
		if b.s > 0 && new(big.Int).Rem(b.i, pow10(b.s)).Sign() != 0 {
			in.rtWarn("non-zero scale in exponent")
		}
		e, fits := b.toInt64()
		if !fits || tooBig(a, e) {
			in.push(a)
			in.push(b)
			in.rtError("exponent too large in raise")
			return
		}
		if r, ok = raise(a, e, in.scale); !ok {
			in.rtError("divide by zero")
			return
		}
	case '=', '#', '<', '{', '>', '}':
		c := cmp(a, b)
		t := map[byte]bool{'=': c == 0, '#': c != 0, '<': c < 0, '{': c <= 0, '>': c > 0, '}': c >= 0}[op]
		r = boolNum(t)
	case '&':
		r = boolNum(!a.isZero() && !b.isZero())
	case '|':
		r = boolNum(!a.isZero() || !b.isZero())
	}
	if r.i.Sign() == 0 {
		r.i = new(big.Int)
	}
	in.push(r)
}

// tooBig tells whether a^e would have more than a million digits (the
// sandbox's bound, reported as GNU's "exponent too large in raise": GNU
// bc would compute on, for minutes, until memory runs out).
func tooBig(a num, e int64) bool {
	if e < 0 {
		e = -e
	}
	if a.isZero() || new(big.Int).Abs(a.i).Cmp(pow10(a.s)) == 0 {
		return false
	}
	return float64(a.length()+a.s)*float64(e) > 1e6
}

func boolNum(b bool) num {
	if b {
		return numOne
	}
	return numZero
}

func (in *interp) jumpTo(label int) {
	in.pc = in.funcs[in.fn].labels[label]
}

// step executes one operation.
func (in *interp) step() error {
	op := in.byte()
	switch op {
	case '0':
		in.push(numZero)
	case '1':
		in.push(numOne)
	case 'K':
		base := in.ibase
		if len(in.frames) > 0 {
			base = in.frames[len(in.frames)-1].ibase
		}
		in.push(in.constant(base))
	case 'l':
		in.push(in.loadVar(in.operand()))
	case 's':
		in.storeVar(in.operand(), in.top())
	case 'i', 'd':
		idx := in.operand()
		v := in.loadVar(idx)
		if op == 'i' {
			v = add(v, numOne)
		} else {
			v = sub(v, numOne)
		}
		in.storeVar(idx, v)
	case 'L':
		arr := in.operand()
		if i, ok := in.index(arr, in.pop()); ok {
			in.push(in.element(arr, i))
		}
	case 'S':
		arr := in.operand()
		v := in.pop()
		if i, ok := in.index(arr, in.pop()); ok {
			in.arrayOf(arr).el[i] = v
			in.push(v)
		}
	case 'A', 'M':
		arr := in.operand()
		if i, ok := in.index(arr, in.pop()); ok {
			v := in.element(arr, i)
			if op == 'A' {
				v = add(v, numOne)
			} else {
				v = sub(v, numOne)
			}
			in.arrayOf(arr).el[i] = v
		}
	case 'D':
		in.push(in.top())
	case 'x':
		n := len(in.stack)
		in.stack[n-1], in.stack[n-2] = in.stack[n-2], in.stack[n-1]
	case 'p':
		in.pop()
	case 'W', 'P':
		v := in.pop()
		if !v.format(in.obase, in.out.char, func() bool { return in.ctx.Err() != nil }) {
			return in.ctx.Err()
		}
		if op == 'W' {
			in.out.char('\n')
		}
		in.last = v
		in.out.flush()
	case 'w', 'O':
		for {
			c := in.byte()
			if c == '"' {
				break
			}
			if op == 'O' && c == '\\' {
				c = in.byte()
				if c == '"' {
					break
				}
				e, ok := map[byte]byte{'a': 7, 'b': '\b', 'f': '\f', 'n': '\n', 'q': '"', 'r': '\r', 't': '\t', '\\': '\\'}[c]
				if !ok {
					continue
				}
				c = e
			}
			in.out.char(c)
		}
		in.out.flush()
	case 'J', 'B', 'Z':
		jump := op == 'J'
		if op != 'J' {
			z := in.pop().isZero()
			jump = op == 'B' && !z || op == 'Z' && z
		}
		label := int(in.byte())
		label += int(in.byte()) << 8
		if jump {
			in.jumpTo(label)
		}
	case 'n':
		v := in.pop()
		if v.isZero() {
			in.push(num{i: v.i, s: v.s})
		} else {
			in.push(neg(v))
		}
	case '!':
		in.push(boolNum(in.pop().isZero()))
	case '+', '-', '*', '/', '%', '^', '=', '#', '<', '{', '>', '}', '&', '|':
		in.binary(op)
	case 'c':
		switch in.byte() {
		case 'L':
			v := in.pop()
			if v.length() == 1 && v.s != 0 && v.intPart().Sign() == 0 {
				in.push(intNum(int64(v.s)))
			} else {
				in.push(intNum(int64(v.length() + v.s)))
			}
		case 'S':
			in.push(intNum(int64(in.pop().s)))
		case 'R':
			r, ok := sqrt(in.top(), in.scale, func() bool { return in.ctx.Err() != nil })
			if in.ctx.Err() != nil {
				return in.ctx.Err()
			}
			if !ok {
				in.rtError("Square root of a negative number")
				return nil
			}
			in.pop()
			in.push(r)
		case 'I':
			in.push(in.read())
		}
	case 'h':
		in.halted = true
	case 'C':
		return in.call(in.operand())
	case 'R':
		if len(in.frames) == 0 {
			in.rtError("Return from main program.")
			return nil
		}
		in.popScope(in.fn)
		fr := in.frames[len(in.frames)-1]
		in.frames = in.frames[:len(in.frames)-1]
		in.fn, in.pc = fr.fn, fr.pc
	default:
		in.rtError("bad instruction: inst=%c", op)
	}
	return nil
}

// call enters function fn: its arguments are on the stack and the kinds
// of them ('0' value, '1' array) follow in the code, then ':'.
func (in *interp) call(fn int) error {
	f := in.funcs[fn]
	if !f.defined {
		in.rtError("Function %s not defined.", f.name)
		return nil
	}
	if len(in.frames) >= maxFrames {
		in.rtError("Function call nesting too deep")
		return nil
	}
	type binding struct {
		p   param
		val num
		arr *array
	}
	var bound []binding
	k := 0
	for {
		kind := in.byte()
		if kind == ':' {
			break
		}
		if k >= len(f.params) {
			in.rtError("Parameter number mismatch")
			return nil
		}
		p := f.params[k]
		v := in.pop()
		switch {
		case kind == '0' && !p.array:
			k++
			bound = append(bound, binding{p: p, val: v})
		case kind == '0':
			in.rtError("Parameter type mismatch parameter %s.", in.arrNames[p.idx])
		case p.array:
			k++
			n, _ := v.toInt64()
			src := in.arrayOf(int(n))
			if !p.ref {
				cp := newArray()
				for i, e := range src.el {
					cp.el[i] = e
				}
				src = cp
			}
			bound = append(bound, binding{p: p, arr: src})
		default:
			name := "(null)"
			if p.idx < len(in.arrNames) {
				name = in.arrNames[p.idx]
			}
			in.rtError("Parameter type mismatch, parameter %s.", name)
		}
	}
	if k < len(f.params) {
		in.rtError("Parameter number mismatch")
		return nil
	}
	if in.failed {
		return nil
	}
	for _, b := range bound {
		if b.p.array {
			in.arrays[b.p.idx] = append(in.arrays[b.p.idx], b.arr)
		} else {
			in.vars[b.p.idx] = append(in.vars[b.p.idx], b.val)
		}
	}
	for _, a := range f.autos {
		if a.array {
			in.arrays[a.idx] = append(in.arrays[a.idx], newArray())
		} else {
			in.vars[a.idx] = append(in.vars[a.idx], numZero)
		}
	}
	ib := in.ibase
	in.frames = append(in.frames, frame{fn: in.fn, pc: in.pc, ibase: ib})
	in.fn, in.pc = fn, 0
	return nil
}

// popScope drops the parameters and autos of function fn.
func (in *interp) popScope(fn int) {
	f := in.funcs[fn]
	for _, list := range [][]param{f.autos, f.params} {
		for _, p := range list {
			if p.array {
				if s := in.arrays[p.idx]; len(s) > 0 {
					in.arrays[p.idx] = s[:len(s)-1]
				}
			} else if s := in.vars[p.idx]; len(s) > 0 {
				in.vars[p.idx] = s[:len(s)-1]
			}
		}
	}
}

// read is read(): a number from standard input in ibase (0 at its end).
func (in *interp) read() num {
	if in.stdin == nil {
		return numZero
	}
	var ip, fp []int
	neg, frac, started := false, false, false
	for {
		c, err := in.stdin.ReadByte()
		if err != nil {
			break
		}
		switch {
		case c == '\\':
			if p, err := in.stdin.Peek(1); err == nil && p[0] == '\n' {
				_, _ = in.stdin.ReadByte()
			}
			continue
		case !started && (c == ' ' || c == '\t' || c == '\n'):
			continue
		case !started && (c == '-' || c == '+'):
			neg, started = c == '-', true
			continue
		case c == '.' && !frac:
			frac, started = true, true
			continue
		}
		d := -1
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'A' && c <= 'Z':
			d = int(c-'A') + 10
		}
		if d < 0 {
			break
		}
		started = true
		if frac {
			fp = append(fp, d)
		} else {
			ip = append(ip, d)
		}
	}
	v := digitsNum(ip, fp, in.ibase)
	if neg && !v.isZero() {
		v = neg2(v)
	}
	return v
}

func neg2(v num) num { return neg(v) }
