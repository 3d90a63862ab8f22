package awk

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
)

const (
	maxCallDepth = 5000
	regexCacheN  = 256
)

// Limits that keep a runaway program from taking all memory. Variables so
// that the fuzz test can lower them.
var (
	maxFields = 1 << 20   // highest field index and NF
	maxString = 256 << 20 // longest string a concatenation, sub or $0 makes
)

type cellKind uint8

const (
	cUntyped cellKind = iota
	cScalar
	cArray
)

// cell holds a variable: a scalar or an array. Arrays are Go maps, so
// cells that share one (a function's array parameter) share the array.
type cell struct {
	k cellKind
	v value
	a map[string]value
}

type flow uint8

const (
	flowNormal flow = iota
	flowBreak
	flowContinue
	flowNext
	flowNextFile
	flowExit
	flowReturn
)

// flowPanic carries next, nextfile and exit out of a function call.
type flowPanic struct{ f flow }

// runtimeError is a fatal error of the running program.
type runtimeError struct{ msg string }

func (e *runtimeError) Error() string { return e.msg }

// stopPanic unwinds when the context is done.
type stopPanic struct{}

type interp struct {
	ctx     context.Context
	stopped atomic.Bool
	cfg     *Config
	name    string
	prog    *program

	globals   []cell
	globalIdx map[string]int
	frame     []cell
	depth     int
	retval    value

	// The current record. fields[i-1] is $i once split.
	record    string
	fields    []value
	nf        int
	fieldsOK  bool
	splitFS   string
	splitPara bool
	splitBuf  []string

	nr, fnr         float64
	fs, ofs, ors    string
	rs, subsep      string
	convfmt, ofmt   string
	filename        value
	rstart, rlength float64
	argc            value
	rt              string

	out      *bufio.Writer
	stderr   io.Writer
	outputs  map[string]*outStream
	outOrder []string
	inputs   map[string]*inStream
	stdin    *recordReader

	main       *recordReader
	mainCloser io.Closer
	argi       int
	sawFile    bool
	stdinDone  bool
	mainEOF    bool

	regexes map[string]*regexp.Regexp

	rng      *rand.Rand
	seed     float64
	exitCode int
	errCode  int // 2 after a non-fatal error (a file that can't be read)
	line     int
	inMain   bool
	writeErr error
}

func (in *interp) errorf(format string, a ...any) {
	panic(&runtimeError{msg: fmt.Sprintf(format, a...)})
}

// tick is called in every loop iteration and record: it stops the program
// when the context is done.
func (in *interp) tick() {
	if in.stopped.Load() {
		panic(stopPanic{})
	}
}

func (in *interp) toStr(v value) string {
	if v.k == kNum {
		return formatNum(v.n, in.convfmt)
	}
	return v.s
}

func (in *interp) toOutStr(v value) string {
	if v.k == kNum {
		return formatNum(v.n, in.ofmt)
	}
	return v.s
}

// ---- variables

func (in *interp) cellOf(v *varExpr) *cell {
	if v.scope == scopeLocal {
		return &in.frame[v.idx]
	}
	return &in.globals[v.idx]
}

func (in *interp) arrayOf(v *varExpr) map[string]value {
	c := in.cellOf(v)
	switch c.k {
	case cArray:
		return c.a
	case cUntyped:
		c.k = cArray
		if c.a == nil {
			c.a = map[string]value{}
		}
		return c.a
	}
	in.errorf("can't use scalar %s as an array", v.name)
	return nil
}

func (in *interp) getVar(v *varExpr) value {
	if v.scope == scopeSpecial {
		return in.getSpecial(v.special)
	}
	c := in.cellOf(v)
	if c.k == cArray {
		in.errorf("can't use array %s in a scalar context", v.name)
	}
	return c.v
}

func (in *interp) setVar(v *varExpr, val value) {
	if v.scope == scopeSpecial {
		in.setSpecial(v.special, val)
		return
	}
	c := in.cellOf(v)
	if c.k == cArray {
		in.errorf("can't assign to %s: it is an array", v.name)
	}
	c.k = cScalar
	c.v = val
	c.a = nil
}

func (in *interp) getSpecial(sp special) value {
	switch sp {
	case spNF:
		in.ensureFields()
		return num(float64(in.nf))
	case spNR:
		return num(in.nr)
	case spFNR:
		return num(in.fnr)
	case spFS:
		return str(in.fs)
	case spOFS:
		return str(in.ofs)
	case spORS:
		return str(in.ors)
	case spRS:
		return str(in.rs)
	case spFILENAME:
		return in.filename
	case spSUBSEP:
		return str(in.subsep)
	case spRSTART:
		return num(in.rstart)
	case spRLENGTH:
		return num(in.rlength)
	case spCONVFMT:
		return str(in.convfmt)
	case spOFMT:
		return str(in.ofmt)
	case spARGC:
		return in.argc
	case spRT:
		return str(in.rt)
	}
	return value{}
}

func (in *interp) setSpecial(sp special, v value) {
	switch sp {
	case spNF:
		in.setNF(v.toNum())
	case spNR:
		in.nr = math.Trunc(v.toNum())
	case spFNR:
		in.fnr = math.Trunc(v.toNum())
	case spFS:
		in.fs = in.toStr(v)
	case spOFS:
		in.ofs = in.toStr(v)
	case spORS:
		in.ors = in.toStr(v)
	case spRS:
		in.rs = in.toStr(v)
	case spFILENAME:
		in.filename = v
	case spSUBSEP:
		in.subsep = in.toStr(v)
	case spRSTART:
		in.rstart = v.toNum()
	case spRLENGTH:
		in.rlength = v.toNum()
	case spCONVFMT:
		in.convfmt = in.toStr(v)
	case spOFMT:
		in.ofmt = in.toStr(v)
	case spARGC:
		in.argc = v
	case spRT:
		in.rt = in.toStr(v)
	}
}

// key builds an array subscript.
func (in *interp) key(index []Expr) string {
	if len(index) == 1 {
		return in.toStr(in.eval(index[0]))
	}
	var b strings.Builder
	for i, e := range index {
		if i > 0 {
			b.WriteString(in.subsep)
		}
		b.WriteString(in.toStr(in.eval(e)))
	}
	return b.String()
}

// lref is a resolved lvalue.
type lref struct {
	v     *varExpr
	arr   map[string]value
	key   string
	field int
	isFld bool
}

func (in *interp) ref(lv Expr) lref {
	switch e := lv.(type) {
	case *varExpr:
		return lref{v: e}
	case *indexExpr:
		return lref{arr: in.arrayOf(e.arr), key: in.key(e.index)}
	case *fieldExpr:
		return lref{field: in.fieldIndex(in.eval(e.index)), isFld: true}
	}
	in.errorf("assignment to a non-variable")
	return lref{}
}

func (in *interp) get(r lref) value {
	switch {
	case r.v != nil:
		return in.getVar(r.v)
	case r.isFld:
		return in.getField(r.field)
	}
	v, ok := r.arr[r.key]
	if !ok {
		r.arr[r.key] = value{}
	}
	return v
}

func (in *interp) set(r lref, v value) {
	switch {
	case r.v != nil:
		in.setVar(r.v, v)
	case r.isFld:
		in.setField(r.field, v)
	default:
		r.arr[r.key] = v
	}
}

// ---- statements

func (in *interp) exec(stmts []Stmt) flow {
	for _, s := range stmts {
		if f := in.execStmt(s); f != flowNormal {
			return f
		}
	}
	return flowNormal
}

func (in *interp) execStmt(s Stmt) flow {
	switch s := s.(type) {
	case *exprStmt:
		in.line = s.line
		in.eval(s.e)
	case *printStmt:
		in.line = s.line
		in.print(s)
	case *ifStmt:
		in.line = s.line
		if in.eval(s.cond).isTrue() {
			return in.exec(s.then)
		}
		return in.exec(s.els)
	case *whileStmt:
		for {
			in.tick()
			in.line = s.line
			if !in.eval(s.cond).isTrue() {
				return flowNormal
			}
			switch f := in.exec(s.body); f {
			case flowBreak:
				return flowNormal
			case flowNormal, flowContinue:
			default:
				return f
			}
		}
	case *doStmt:
		for {
			in.tick()
			switch f := in.exec(s.body); f {
			case flowBreak:
				return flowNormal
			case flowNormal, flowContinue:
			default:
				return f
			}
			in.line = s.line
			if !in.eval(s.cond).isTrue() {
				return flowNormal
			}
		}
	case *forStmt:
		if s.init != nil {
			if f := in.execStmt(s.init); f != flowNormal {
				return f
			}
		}
		for {
			in.tick()
			in.line = s.line
			if s.cond != nil && !in.eval(s.cond).isTrue() {
				return flowNormal
			}
			switch f := in.exec(s.body); f {
			case flowBreak:
				return flowNormal
			case flowNormal, flowContinue:
			default:
				return f
			}
			if s.post != nil {
				in.execStmt(s.post)
			}
		}
	case *forInStmt:
		in.line = s.line
		arr := in.arrayOf(s.arr)
		for _, k := range sortedKeys(arr) {
			in.tick()
			if _, ok := arr[k]; !ok {
				continue
			}
			in.setVar(s.v, strnum(k))
			switch f := in.exec(s.body); f {
			case flowBreak:
				return flowNormal
			case flowNormal, flowContinue:
			default:
				return f
			}
		}
	case *blockStmt:
		return in.exec(s.body)
	case *nextStmt:
		in.line = s.line
		if !in.inMain {
			in.errorf("next used in BEGIN or END")
		}
		return flowNext
	case *nextfile:
		in.line = s.line
		if !in.inMain {
			in.errorf("nextfile used in BEGIN or END")
		}
		return flowNextFile
	case *exitStmt:
		in.line = s.line
		if s.e != nil {
			in.exitCode = int(int64(in.eval(s.e).toNum()))
		}
		return flowExit
	case *returnStmt:
		in.line = s.line
		if s.e != nil {
			in.retval = in.eval(s.e)
		} else {
			in.retval = value{}
		}
		return flowReturn
	case *breakStmt:
		return flowBreak
	case *continueStmt:
		return flowContinue
	case *deleteStmt:
		in.line = s.line
		arr := in.arrayOf(s.arr)
		if s.index == nil {
			clear(arr)
		} else {
			delete(arr, in.key(s.index))
		}
	}
	return flowNormal
}

// sortedKeys lists an array's keys for for-in: numbers first in numeric
// order, then strings in byte order. (awk leaves the order unspecified; a
// stable one is kinder to scripts and tests.)
func sortedKeys(arr map[string]value) []string {
	type k struct {
		s   string
		n   float64
		num bool
	}
	ks := make([]k, 0, len(arr))
	for s := range arr {
		n, ok := looksNumeric(s)
		ks = append(ks, k{s, n, ok})
	}
	sort.Slice(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		if a.num != b.num {
			return a.num
		}
		if a.num && a.n != b.n {
			return a.n < b.n
		}
		return a.s < b.s
	})
	out := make([]string, len(ks))
	for i := range ks {
		out[i] = ks[i].s
	}
	return out
}

// ---- expressions

func (in *interp) eval(e Expr) value {
	switch e := e.(type) {
	case *numLit:
		return num(e.n)
	case *strLit:
		return str(e.s)
	case *regexLit:
		return boolNum(e.re.MatchString(in.record))
	case *varExpr:
		return in.getVar(e)
	case *indexExpr:
		arr := in.arrayOf(e.arr)
		k := in.key(e.index)
		v, ok := arr[k]
		if !ok {
			arr[k] = value{}
		}
		return v
	case *fieldExpr:
		return in.getField(in.fieldIndex(in.eval(e.index)))
	case *assignExpr:
		if e.op == 0 {
			r := in.ref(e.lhs)
			v := in.eval(e.rhs)
			in.set(r, v)
			return v
		}
		r := in.ref(e.lhs)
		rv := in.eval(e.rhs)
		v := num(in.arith(e.op, in.get(r).toNum(), rv.toNum()))
		in.set(r, v)
		return v
	case *condExpr:
		if in.eval(e.cond).isTrue() {
			return in.eval(e.yes)
		}
		return in.eval(e.no)
	case *binaryExpr:
		switch e.op {
		case tAnd:
			return boolNum(in.eval(e.l).isTrue() && in.eval(e.r).isTrue())
		case tOr:
			return boolNum(in.eval(e.l).isTrue() || in.eval(e.r).isTrue())
		case tConcat:
			l := in.toStr(in.eval(e.l))
			r := in.toStr(in.eval(e.r))
			if len(l)+len(r) > maxString {
				in.errorf("string too long (over %d bytes)", maxString)
			}
			return str(l + r)
		case tEq, tNe, tLt, tLe, tGt, tGe:
			return boolNum(in.compare(e.op, in.eval(e.l), in.eval(e.r)))
		}
		l := in.eval(e.l).toNum()
		r := in.eval(e.r).toNum()
		return num(in.arith(e.op, l, r))
	case *matchExpr:
		s := in.toStr(in.eval(e.l))
		m := in.regexArg(e.re).MatchString(s)
		return boolNum(m != e.neg)
	case *inExpr:
		arr := in.arrayOf(e.arr)
		_, ok := arr[in.key(e.index)]
		return boolNum(ok)
	case *unaryExpr:
		v := in.eval(e.e)
		switch e.op {
		case tNot:
			return boolNum(!v.isTrue())
		case tSub:
			return num(-v.toNum())
		}
		return num(v.toNum())
	case *incrExpr:
		r := in.ref(e.lv)
		old := in.get(r).toNum()
		in.set(r, num(old+e.delta))
		if e.pre {
			return num(old + e.delta)
		}
		return num(old)
	case *callExpr:
		return in.call(e)
	case *builtinExpr:
		return in.builtin(e)
	case *getlineExpr:
		return in.getline(e)
	case *groupExpr:
		in.errorf("unexpected grouping")
	}
	in.errorf("internal error: unknown expression %T", e)
	return value{}
}

func (in *interp) arith(op token, l, r float64) float64 {
	switch op {
	case tAdd:
		return l + r
	case tSub:
		return l - r
	case tMul:
		return l * r
	case tDiv:
		if r == 0 {
			in.errorf("division by zero")
		}
		return l / r
	case tMod:
		if r == 0 {
			in.errorf("division by zero in %%")
		}
		return math.Mod(l, r)
	case tPow:
		return pow(l, r)
	}
	in.errorf("internal error: bad operator %v", op)
	return 0
}

func pow(x, y float64) float64 {
	if y == math.Trunc(y) && y >= 0 && y <= 64 {
		r := 1.0
		for n := int(y); n > 0; n-- {
			r *= x
		}
		return r
	}
	return math.Pow(x, y)
}

// compare applies a comparison operator with awk's rules: numeric when
// both sides are numbers or numeric strings from input, else as strings.
func (in *interp) compare(op token, l, r value) bool {
	if ln, ok := l.numeric(); ok {
		if rn, ok := r.numeric(); ok {
			switch op {
			case tEq:
				return ln == rn
			case tNe:
				return ln != rn
			case tLt:
				return ln < rn
			case tLe:
				return ln <= rn
			case tGt:
				return ln > rn
			}
			return ln >= rn
		}
	}
	c := strings.Compare(in.toStr(l), in.toStr(r))
	switch op {
	case tEq:
		return c == 0
	case tNe:
		return c != 0
	case tLt:
		return c < 0
	case tLe:
		return c <= 0
	case tGt:
		return c > 0
	}
	return c >= 0
}

// regex returns the compiled dynamic regex src.
func (in *interp) regex(src string) *regexp.Regexp {
	if re, ok := in.regexes[src]; ok {
		return re
	}
	re, err := compileRegex(src)
	if err != nil {
		in.errorf("%v", err)
	}
	if len(in.regexes) >= regexCacheN {
		clear(in.regexes)
	}
	in.regexes[src] = re
	return re
}

func (in *interp) regexArg(e Expr) *regexp.Regexp {
	if r, ok := e.(*regexLit); ok {
		return r.re
	}
	return in.regex(in.toStr(in.eval(e)))
}

func (in *interp) call(c *callExpr) value {
	f := c.fn
	if in.depth >= maxCallDepth {
		in.errorf("function call nesting too deep (over %d) in %s", maxCallDepth, f.name)
	}
	in.tick()
	frame := make([]cell, f.nlocals)
	for i, arg := range c.args {
		if v, ok := arg.(*varExpr); ok && v.scope != scopeSpecial {
			src := in.cellOf(v)
			switch src.k {
			case cArray:
				frame[i] = cell{k: cArray, a: src.a}
				continue
			case cUntyped:
				// Either may make it an array; share one to be safe.
				if src.a == nil {
					src.a = map[string]value{}
				}
				frame[i] = cell{k: cUntyped, a: src.a}
				continue
			}
		}
		frame[i] = cell{k: cScalar, v: in.eval(arg)}
	}
	saved, savedLine := in.frame, in.line
	in.frame = frame
	in.depth++
	fl := in.exec(f.body)
	in.depth--
	in.frame = saved
	in.line = savedLine
	switch fl {
	case flowReturn:
		v := in.retval
		in.retval = value{}
		return v
	case flowExit, flowNext, flowNextFile:
		panic(flowPanic{fl})
	}
	return value{}
}

func (in *interp) print(s *printStmt) {
	var w io.Writer = in.out
	var text string
	var vals []string
	if s.printf {
		format := in.toStr(in.eval(s.args[0]))
		args := make([]value, len(s.args)-1)
		for i, a := range s.args[1:] {
			args[i] = in.eval(a)
		}
		text = formatf(format, args, in.convfmt)
	} else if len(s.args) == 0 {
		vals = []string{in.record}
	} else if len(s.args) == 1 {
		text = in.toOutStr(in.eval(s.args[0]))
		vals = nil
	} else {
		vals = make([]string, len(s.args))
		for i, a := range s.args {
			vals[i] = in.toOutStr(in.eval(a))
		}
	}
	if s.redir != redirNone {
		w = in.outputFor(s.redir, in.toStr(in.eval(s.dest)))
	}
	var err error
	switch {
	case s.printf:
		_, err = io.WriteString(w, text)
	case vals == nil:
		if _, err = io.WriteString(w, text); err == nil {
			_, err = io.WriteString(w, in.ors)
		}
	default:
		for i, v := range vals {
			if i > 0 {
				if _, err = io.WriteString(w, in.ofs); err != nil {
					break
				}
			}
			if _, err = io.WriteString(w, v); err != nil {
				break
			}
		}
		if err == nil {
			_, err = io.WriteString(w, in.ors)
		}
	}
	if err != nil {
		in.writeFailed(err)
	}
}

func (in *interp) writeFailed(err error) {
	in.writeErr = err
	in.errorf("write error: %v", err)
}

// ---- fields

func (in *interp) setRecord(s string) {
	in.record = s
	in.fieldsOK = false
	in.splitFS = in.fs
	in.splitPara = in.rs == ""
}

func (in *interp) ensureFields() {
	if in.fieldsOK {
		return
	}
	in.fieldsOK = true
	parts := in.splitString(in.record, in.splitFS, in.splitPara, in.splitBuf[:0], nil)
	in.splitBuf = parts[:0]
	in.fields = in.fields[:0]
	for _, p := range parts {
		in.fields = append(in.fields, strnum(p))
	}
	in.nf = len(in.fields)
}

func (in *interp) fieldIndex(v value) int {
	n := v.toNum()
	if n < 0 || n != n {
		in.errorf("attempt to access field %s", formatNum(n, "%.6g"))
	}
	if n > float64(maxFields) {
		in.errorf("field index %s too large (limit %d)", formatNum(n, "%.6g"), maxFields)
	}
	return int(n)
}

func (in *interp) getField(i int) value {
	if i == 0 {
		return strnum(in.record)
	}
	in.ensureFields()
	if i > in.nf {
		return value{}
	}
	return in.fields[i-1]
}

func (in *interp) setField(i int, v value) {
	if i == 0 {
		in.setRecord(in.toStr(v))
		return
	}
	in.ensureFields()
	for in.nf < i {
		in.fields = append(in.fields, value{})
		in.nf++
	}
	in.fields[i-1] = v
	in.rebuild()
}

func (in *interp) setNF(f float64) {
	in.ensureFields()
	if f < 0 || f != f {
		in.errorf("NF set to a negative value")
	}
	if f > float64(maxFields) {
		in.errorf("NF %s too large (limit %d)", formatNum(f, "%.6g"), maxFields)
	}
	n := int(f)
	for in.nf < n {
		in.fields = append(in.fields, value{})
		in.nf++
	}
	in.fields = in.fields[:n]
	in.nf = n
	in.rebuild()
}

// rebuild joins the fields into $0 with OFS.
func (in *interp) rebuild() {
	var b strings.Builder
	for i, f := range in.fields[:in.nf] {
		if i > 0 {
			b.WriteString(in.ofs)
		}
		b.WriteString(in.toStr(f))
		if b.Len() > maxString {
			in.errorf("record too long")
		}
	}
	in.record = b.String()
}

// splitString splits s by a field separator with awk's rules: " " splits
// on runs of blanks and newlines, ignoring them at both ends; another
// single character splits on itself; "" splits into characters; anything
// else is a regex. In paragraph mode (RS == "") newline separates too.
// seps, when non-nil, gets the separators (split's fourth argument).
func (in *interp) splitString(s, fs string, para bool, out []string, seps *[]string) []string {
	if s == "" {
		return out
	}
	switch {
	case fs == " ":
		i := 0
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if seps != nil {
			*seps = append(*seps, s[:i])
		}
		for i < len(s) {
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' {
				j++
			}
			out = append(out, s[i:j])
			k := j
			for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n') {
				k++
			}
			if seps != nil {
				*seps = append(*seps, s[j:k])
			}
			i = k
		}
		return out
	case fs == "":
		for _, r := range s {
			out = append(out, string(r))
			if seps != nil {
				*seps = append(*seps, "")
			}
		}
		return out
	case len(fs) == 1 && fs != "\\" && !(para && fs != "\n"):
		c := fs[0]
		for {
			i := strings.IndexByte(s, c)
			if i < 0 {
				out = append(out, s)
				return out
			}
			out = append(out, s[:i])
			if seps != nil {
				*seps = append(*seps, fs)
			}
			s = s[i+1:]
		}
	}
	var re *regexp.Regexp
	switch {
	case len(fs) == 1 && fs != "\\":
		re = in.regex("[" + classLiteralSrc(fs[0]) + "\n]")
	case fs == "\\":
		if para {
			re = in.regex(`[\\` + "\n]")
		} else {
			re = in.regex(`\\`)
		}
	case para:
		re = in.regex("(" + fs + ")|\n")
	default:
		re = in.regex(fs)
	}
	last := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[1] == m[0] {
			continue // a separator never matches empty
		}
		out = append(out, s[last:m[0]])
		if seps != nil {
			*seps = append(*seps, s[m[0]:m[1]])
		}
		last = m[1]
	}
	out = append(out, s[last:])
	return out
}

// classLiteralSrc writes c for use inside an awk bracket expression.
func classLiteralSrc(c byte) string {
	switch c {
	case '\\', ']', '^', '-', '[':
		return `\` + string(c)
	}
	return string(c)
}

// ---- main loop

func (in *interp) runAction(stmts []Stmt) (f flow) {
	defer func() {
		if r := recover(); r != nil {
			if fp, ok := r.(flowPanic); ok {
				in.frame = nil
				in.depth = 0
				f = fp.f
				return
			}
			panic(r)
		}
	}()
	return in.exec(stmts)
}

// runItems runs the pattern-action items on the current record.
func (in *interp) runItems() (f flow) {
	defer func() {
		if r := recover(); r != nil {
			if fp, ok := r.(flowPanic); ok {
				in.frame = nil
				in.depth = 0
				f = fp.f
				if f == flowNext {
					f = flowNormal
				}
				return
			}
			panic(r)
		}
	}()
	for _, it := range in.prog.items {
		matched := false
		switch {
		case it.pattern == nil:
			matched = true
		case it.pattern2 != nil:
			if it.inRange {
				matched = true
				if in.eval(it.pattern2).isTrue() {
					it.inRange = false
				}
			} else if in.eval(it.pattern).isTrue() {
				matched = true
				it.inRange = !in.eval(it.pattern2).isTrue()
			}
		default:
			matched = in.eval(it.pattern).isTrue()
		}
		if !matched {
			continue
		}
		if it.noAction {
			if _, err := io.WriteString(in.out, in.record+in.ors); err != nil {
				in.writeFailed(err)
			}
			continue
		}
		switch f := in.exec(it.body); f {
		case flowNext:
			return flowNormal
		case flowExit, flowNextFile:
			return f
		}
	}
	return flowNormal
}

func (in *interp) runProgram() {
	exiting := false
	for _, b := range in.prog.begin {
		if in.runAction(b) == flowExit {
			exiting = true
			break
		}
	}
	if !exiting && (len(in.prog.items) > 0 || len(in.prog.end) > 0) {
		in.inMain = true
		for {
			in.tick()
			rec, ok := in.nextMain()
			if !ok {
				break
			}
			in.setRecord(rec)
			f := in.runItems()
			if f == flowExit {
				break
			}
			if f == flowNextFile {
				in.closeMain()
			}
		}
		in.inMain = false
	}
	for _, b := range in.prog.end {
		if in.runAction(b) == flowExit {
			break
		}
	}
}

// assignArg runs a command-line "name=value" operand; it tells whether arg
// was one.
func (in *interp) assignArg(arg string) bool {
	eq := strings.IndexByte(arg, '=')
	if eq <= 0 || !isName(arg[:eq]) {
		return false
	}
	in.assignVarByName(arg[:eq], unescape(arg[eq+1:]))
	return true
}

func isName(s string) bool {
	if s == "" || !isIdentStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isIdentStart(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	_, kw := keywords[s]
	return !kw && !builtinNames[s]
}

func (in *interp) assignVarByName(name, val string) {
	if sp, ok := specialNames[name]; ok {
		in.setSpecial(sp, strnum(val))
		return
	}
	i, ok := in.globalIdx[name]
	if !ok {
		return // the program never uses it
	}
	c := &in.globals[i]
	if c.k == cArray {
		in.errorf("can't assign to %s: it is an array", name)
	}
	c.k = cScalar
	c.v = strnum(val)
}

func itoa(i int) string { return strconv.Itoa(i) }
