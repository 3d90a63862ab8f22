package node

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"math/big"
	"net/url"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// nodePID is process.pid: a sandbox has no real one to give.
const nodePID = 100

// nodeUID and nodeGID are process.getuid() and getgid().
const (
	nodeUID = 1000
	nodeGID = 1000
)

// nodeStream buffers one of the script's output streams. Before it writes,
// it flushes its peer, so that stdout and stderr keep their order when
// they go to the same place.
type nodeStream struct {
	w      io.Writer
	buf    []byte
	peer   *nodeStream
	broken bool
}

func (s *nodeStream) Write(p []byte) (int, error) {
	if s.peer != nil && len(s.peer.buf) > 0 {
		s.peer.flush()
	}
	s.buf = append(s.buf, p...)
	if len(s.buf) >= 32<<10 {
		s.flush()
	}
	if s.broken {
		return 0, io.ErrClosedPipe
	}
	return len(p), nil
}

func (s *nodeStream) flush() {
	if len(s.buf) == 0 {
		return
	}
	if !s.broken {
		if _, err := s.w.Write(s.buf); err != nil {
			s.broken = true
		}
	}
	s.buf = s.buf[:0]
}

var (
	nodePreludeOnce sync.Once
	nodePreludePrg  *goja.Program
	nodePreludeErr  error
)

// nodePreludeProgram compiles the JavaScript half of the runtime once per
// process (a Program is shareable between runtimes).
func nodePreludeProgram() (*goja.Program, error) {
	nodePreludeOnce.Do(func() {
		src := "(function (native) {\n'use strict';\n" + nodeJSInspect + nodeJSPath + nodeJSCore +
			nodeJSProcess + nodeJSHTTP + nodeJSFS + nodeJSModules + nodeJSGlobals + "\n})"
		nodePreludePrg, nodePreludeErr = goja.Compile("node:internal/bootstrap", src, true)
	})
	return nodePreludePrg, nodePreludeErr
}

// setup makes the runtime: goja, the natives, the prelude.
func (r *nodeRT) setup() error {
	prg, err := nodePreludeProgram()
	if err != nil {
		return fmt.Errorf("internal error: %v", err)
	}
	vm := goja.New()
	r.vm = vm
	vm.SetMaxCallStackSize(nodeMaxCallStack)
	vm.SetPromiseRejectionTracker(func(p *goja.Promise, op goja.PromiseRejectionOperation) {
		switch op {
		case goja.PromiseRejectionReject:
			r.rejected = append(r.rejected, p)
		case goja.PromiseRejectionHandle:
			for i, q := range r.rejected {
				if q == p {
					r.rejected = append(r.rejected[:i], r.rejected[i+1:]...)
					break
				}
			}
		}
	})
	fnv, err := vm.RunProgram(prg)
	if err != nil {
		return fmt.Errorf("internal error: %v", err)
	}
	fn, _ := goja.AssertFunction(fnv)
	hv, err := fn(goja.Undefined(), r.natives())
	if err != nil {
		return fmt.Errorf("internal error: %v", err)
	}
	h := hv.ToObject(vm)
	get := func(name string) goja.Callable {
		f, ok := goja.AssertFunction(h.Get(name))
		if !ok {
			panic("node: prelude hook missing: " + name)
		}
		return f
	}
	r.hooks.inspect = get("inspect")
	r.hooks.runMain = get("runMain")
	r.hooks.runTask = get("runTask")
	r.hooks.setupEval = get("setupEval")
	r.hooks.printResult = get("printResult")
	r.hooks.preload = get("preload")
	r.hooks.formatFatal = get("formatFatal")
	r.hooks.emitExit = get("emitExit")
	r.hooks.emitBeforeExit = get("emitBeforeExit")
	r.hooks.uncaught = get("uncaught")
	r.hooks.rejection = get("rejection")
	r.hooks.exitCode = get("exitCode")
	return nil
}

// nodeFn is a native function.
type nodeFn = func(goja.FunctionCall) goja.Value

// natives is the object the prelude gets as "native".
func (r *nodeRT) natives() *goja.Object {
	vm := r.vm
	n := vm.NewObject()
	set := func(name string, f nodeFn) { n.Set(name, f) }

	argv := []any{nodeExecPath}
	if r.inv.script != "" {
		argv = append(argv, r.abs(r.inv.script))
	}
	for _, a := range r.inv.args {
		argv = append(argv, a)
	}
	n.Set("argv", vm.NewArray(argv...))
	execArgv := make([]any, len(r.inv.execArgv))
	for i, a := range r.inv.execArgv {
		execArgv[i] = a
	}
	n.Set("execArgv", vm.NewArray(execArgv...))
	n.Set("execPath", nodeExecPath)
	env := vm.NewObject()
	if r.c.Environ != nil {
		for _, kv := range r.c.Environ() {
			if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
				env.Set(k, v)
			}
		}
	}
	n.Set("env", env)
	n.Set("pid", nodePID)
	n.Set("uid", nodeUID)
	n.Set("gid", nodeGID)
	n.Set("version", nodeVersion)
	n.Set("arch", nodeArch())
	n.Set("machine", nodeMachine())
	n.Set("noWarnings", r.inv.noWarnings)
	n.Set("timeOrigin", float64(r.start.UnixNano())/1e6)

	set("write", r.nWrite)
	set("httpRequest", r.nHTTPRequest)
	set("classOf", func(call goja.FunctionCall) goja.Value {
		if o, ok := call.Argument(0).(*goja.Object); ok {
			return vm.ToValue(nodeClassOf(o))
		}
		return vm.ToValue("")
	})
	set("promiseState", func(call goja.FunctionCall) goja.Value {
		p, ok := call.Argument(0).Export().(*goja.Promise)
		if !ok {
			return vm.NewArray(0, goja.Undefined())
		}
		switch p.State() {
		case goja.PromiseStateFulfilled:
			return vm.NewArray(1, p.Result())
		case goja.PromiseStateRejected:
			return vm.NewArray(2, p.Result())
		}
		return vm.NewArray(0, goja.Undefined())
	})
	set("stringWidth", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(nodeStringWidth(call.Argument(0).String()))
	})
	set("fixFrame", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(r.fixFrame(call.Argument(0).String()))
	})
	set("cwd", func(goja.FunctionCall) goja.Value { return vm.ToValue(r.cwd) })
	set("chdir", func(call goja.FunctionCall) goja.Value {
		dir := call.Argument(0).String()
		p := r.abs(dir)
		fi, err := r.fs.Stat(p)
		if err == nil && !fi.IsDir() {
			err = errENOTDIR
		}
		if err != nil {
			panic(r.fsError(err, "chdir", dir, "", "process.chdir"))
		}
		r.cwd = p
		return goja.Undefined()
	})
	set("exit", func(call goja.FunctionCall) goja.Value {
		vm.Interrupt(nodeExitSignal{code: int(call.Argument(0).ToInteger()) & 255})
		return goja.Undefined()
	})
	set("fatal", func(call goja.FunctionCall) goja.Value {
		r.fatalVal = call.Argument(0)
		vm.Interrupt(nodeFatalSignal{})
		return goja.Undefined()
	})
	set("hrtime", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(big.NewInt(int64(time.Since(r.start)) + 1e9))
	})
	set("now", func(goja.FunctionCall) goja.Value {
		return vm.ToValue(float64(time.Since(r.start).Nanoseconds()) / 1e6)
	})
	set("memoryUsage", func(goja.FunctionCall) goja.Value {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		o := vm.NewObject()
		o.Set("rss", int64(ms.Sys))
		o.Set("heapTotal", int64(ms.HeapSys))
		o.Set("heapUsed", int64(ms.HeapAlloc))
		o.Set("external", 0)
		o.Set("arrayBuffers", 0)
		return o
	})

	// Timers.
	set("setTimer", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(vm.NewTypeError("callback is not a function"))
		}
		ms := call.Argument(1).ToFloat()
		d := time.Duration(ms * float64(time.Millisecond))
		return vm.ToValue(r.loop.add(fn, d, call.Argument(2).ToBoolean()))
	})
	set("clearTimer", func(call goja.FunctionCall) goja.Value {
		r.loop.clear(call.Argument(0).ToInteger())
		return goja.Undefined()
	})
	set("refTimer", func(call goja.FunctionCall) goja.Value {
		r.loop.setRef(call.Argument(0).ToInteger(), call.Argument(1).ToBoolean())
		return goja.Undefined()
	})
	set("hasRefTimer", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(r.loop.hasRef(call.Argument(0).ToInteger()))
	})
	set("refreshTimer", func(call goja.FunctionCall) goja.Value {
		r.loop.refresh(call.Argument(0).ToInteger())
		return goja.Undefined()
	})
	set("setImmediate", func(call goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(call.Argument(0))
		if !ok {
			panic(vm.NewTypeError("callback is not a function"))
		}
		return vm.ToValue(r.loop.addImmediate(fn))
	})
	set("clearImmediate", func(call goja.FunctionCall) goja.Value {
		r.loop.clear(call.Argument(0).ToInteger())
		return goja.Undefined()
	})

	// Text.
	set("encode", func(call goja.FunctionCall) goja.Value {
		b := nodeEncode(call.Argument(0).String(), call.Argument(1).String())
		return vm.ToValue(vm.NewArrayBuffer(b))
	})
	set("decode", func(call goja.FunctionCall) goja.Value {
		b, _ := r.bytesOf(call.Argument(0))
		return vm.ToValue(nodeDecode(b, call.Argument(1).String()))
	})
	set("utf8Length", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(len(call.Argument(0).String()))
	})
	set("validUTF8", func(call goja.FunctionCall) goja.Value {
		b, _ := r.bytesOf(call.Argument(0))
		return vm.ToValue(utf8.Valid(b))
	})
	set("percentDecode", func(call goja.FunctionCall) goja.Value {
		return vm.ToValue(nodePercentDecode(call.Argument(0).String()))
	})

	// Standard input.
	set("readStdin", func(goja.FunctionCall) goja.Value {
		r.stdout.flush()
		r.stderr.flush()
		b, _ := io.ReadAll(r.stdin)
		return vm.ToValue(vm.NewArrayBuffer(b))
	})
	set("readLine", func(goja.FunctionCall) goja.Value {
		r.stdout.flush()
		r.stderr.flush()
		line, err := r.stdin.ReadString('\n')
		if line == "" && err != nil {
			return goja.Null()
		}
		line = strings.TrimSuffix(line, "\n")
		line = strings.TrimSuffix(line, "\r")
		return vm.ToValue(line)
	})

	// Modules.
	set("compile", func(call goja.FunctionCall) goja.Value {
		src, name := call.Argument(0).String(), call.Argument(1).String()
		prg, col1, err := r.compileModule(name, src)
		if err != nil {
			panic(r.syntaxError(name, src, col1, err))
		}
		v, err := vm.RunProgram(prg)
		if err != nil {
			panic(err)
		}
		return v
	})

	// Crypto.
	set("randomBytes", func(call goja.FunctionCall) goja.Value {
		size := call.Argument(0).ToInteger()
		if size < 0 || size > 1<<31-1 {
			panic(r.nodeErr("RangeError", "ERR_OUT_OF_RANGE", fmt.Sprintf("The value of \"size\" is out of range. It must be >= 0 && <= 2147483647. Received %d", size)))
		}
		b := make([]byte, size)
		rand.Read(b)
		return vm.ToValue(vm.NewArrayBuffer(b))
	})
	set("hash", func(call goja.FunctionCall) goja.Value {
		h := nodeHash(call.Argument(0).String())
		b, _ := r.bytesOf(call.Argument(1))
		h.Write(b)
		return vm.ToValue(vm.NewArrayBuffer(h.Sum(nil)))
	})
	set("hmac", func(call goja.FunctionCall) goja.Value {
		alg := call.Argument(0).String()
		key, _ := r.bytesOf(call.Argument(1))
		b, _ := r.bytesOf(call.Argument(2))
		m := hmac.New(func() hash.Hash { return nodeHash(alg) }, key)
		m.Write(b)
		return vm.ToValue(vm.NewArrayBuffer(m.Sum(nil)))
	})

	set("parseURL", func(call goja.FunctionCall) goja.Value {
		base := ""
		if b := call.Argument(1); !goja.IsUndefined(b) {
			base = b.String()
		}
		u, ok := nodeParseURL(call.Argument(0).String(), base, !goja.IsUndefined(call.Argument(1)))
		if !ok {
			return goja.Null()
		}
		o := vm.NewObject()
		for _, kv := range u {
			o.Set(kv[0], kv[1])
		}
		o.Set("slashes", u.get("slashes") == "true")
		return o
	})
	set("errnoName", func(call goja.FunctionCall) goja.Value {
		n := -call.Argument(0).ToInteger()
		for _, e := range nodeErrnos {
			if int64(e.num) == n {
				return vm.ToValue(e.code)
			}
		}
		return vm.ToValue(fmt.Sprintf("Unknown system error %d", -n))
	})

	n.Set("fs", r.fsNatives())
	return n
}

var (
	nodeMapType         = reflect.TypeOf([][2]any{})
	nodeSetType         = reflect.TypeOf([]any{})
	nodePromiseType     = reflect.TypeOf((*goja.Promise)(nil))
	nodeBigIntType      = reflect.TypeOf((*big.Int)(nil))
	nodeStringType      = reflect.TypeOf("")
	nodeArrayBufferType = reflect.TypeOf(goja.ArrayBuffer{})
)

// nodeClassOf names the kind of a built-in object: "Map", "Set",
// "Promise", "Date", "RegExp", "Error", "Array", "Arguments", "Number",
// "String", "Boolean", "BigInt", "Symbol", "ArrayBuffer", else what goja's
// class says ("Object", "Function").
func nodeClassOf(o *goja.Object) string {
	switch c := o.ClassName(); c {
	case "Array", "Arguments", "Error", "RegExp", "Date", "Number", "String", "Boolean":
		return c
	case "Object":
		switch o.ExportType() {
		case nodeMapType:
			return "Map"
		case nodeSetType:
			return "Set"
		case nodePromiseType:
			return "Promise"
		case nodeBigIntType:
			return "BigInt"
		case nodeStringType:
			return "Symbol"
		case nodeArrayBufferType:
			return "ArrayBuffer"
		}
		return c
	default:
		return c
	}
}

// nWrite is native.write(fd, data): data a string or bytes.
func (r *nodeRT) nWrite(call goja.FunctionCall) goja.Value {
	fd := int(call.Argument(0).ToInteger())
	data := call.Argument(1)
	var b []byte
	if s, ok := data.Export().(string); ok {
		b = []byte(s)
	} else {
		b, _ = r.bytesOf(data)
	}
	var w *nodeStream
	switch fd {
	case 1:
		w = r.stdout
	case 2:
		w = r.stderr
	default:
		if _, err := r.fdWrite(fd, b, -1); err != nil {
			panic(r.fsError(err, "write", "", "", ""))
		}
		return goja.Undefined()
	}
	if _, err := w.Write(b); err != nil && fd == 1 {
		// The reader of stdout went away (node x.js | head): stop quietly.
		r.vm.Interrupt(nodeExitSignal{code: 0})
	}
	return goja.Undefined()
}

// bytesOf returns the bytes of a string, ArrayBuffer, typed array or
// DataView (a view of the memory, not a copy, for the last three).
func (r *nodeRT) bytesOf(v goja.Value) ([]byte, bool) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil, false
	}
	switch x := v.Export().(type) {
	case string:
		return []byte(x), true
	case goja.ArrayBuffer:
		return x.Bytes(), true
	case []byte:
		return x, true
	}
	var b []byte
	if err := r.vm.ExportTo(v, &b); err == nil {
		return b, true
	}
	return nil, false
}

// nodeErr makes an Error (of the global constructor ctor) with a code.
func (r *nodeRT) nodeErr(ctor, code, msg string) *goja.Object {
	c := r.vm.Get(ctor)
	o, err := r.vm.New(c, r.vm.ToValue(msg))
	if err != nil {
		o = r.vm.NewGoError(errors.New(msg))
	}
	o.DefineDataProperty("code", r.vm.ToValue(code), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return o
}

// syntaxError makes the SyntaxError thrown for a module that does not
// parse, and records node's arrow for it.
func (r *nodeRT) syntaxError(name, src string, col1 int, err error) *goja.Object {
	msg, line, col := nodeSyntaxInfo(err, src, col1)
	o, e := r.vm.New(r.vm.Get("SyntaxError"), r.vm.ToValue(msg))
	if e != nil {
		o = r.vm.NewGoError(errors.New(msg))
	}
	if line > 0 {
		r.arrows[o] = nodeArrow(name, src, line, col)
		o.DefineDataProperty("stack", r.vm.ToValue(fmt.Sprintf("SyntaxError: %s\n    at %s:%d:%d", msg, name, line, col)), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	}
	return o
}

// fixFrame takes the module wrapper's width off a line-1 column of a
// stack frame ("f (file:1:70)").
func (r *nodeRT) fixFrame(frame string) string {
	file, line, col, ok := nodeFrameLocation(frame)
	if !ok || line != 1 {
		return frame
	}
	src, ok := r.sources[file]
	if !ok || src.col1 == 0 {
		return frame
	}
	old := fmt.Sprintf("%s:%d:%d", file, line, col)
	i := strings.LastIndex(frame, old)
	if i < 0 {
		return frame
	}
	c := col - src.col1
	if c < 1 {
		c = 1
	}
	return frame[:i] + fmt.Sprintf("%s:%d:%d", file, line, c) + frame[i+len(old):]
}

func nodeArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	case "wasm":
		return "wasm32"
	}
	return runtime.GOARCH
}

func nodeMachine() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64"
	case "arm64":
		return "aarch64"
	}
	return runtime.GOARCH
}

// nodeStringWidth is the columns a string takes on a terminal (wide East
// Asian characters and emoji count two), as util.inspect measures them.
func nodeStringWidth(s string) int {
	w := 0
	for _, c := range s {
		switch {
		case c < 0x20 || c >= 0x7f && c <= 0x9f || c >= 0x300 && c <= 0x36f ||
			c >= 0x200b && c <= 0x200f || c >= 0x20d0 && c <= 0x20ff ||
			c >= 0xfe00 && c <= 0xfe0f || c >= 0xfe20 && c <= 0xfe2f || c >= 0xe0100 && c <= 0xe01ef:
		case nodeFullWidth(c):
			w += 2
		default:
			w++
		}
	}
	return w
}

func nodeFullWidth(c rune) bool {
	return c >= 0x1100 && (c <= 0x115f || c == 0x2329 || c == 0x232a ||
		c >= 0x2e80 && c <= 0x3247 && c != 0x303f || c >= 0x3250 && c <= 0x4dbf ||
		c >= 0x4e00 && c <= 0xa4c6 || c >= 0xa960 && c <= 0xa97c || c >= 0xac00 && c <= 0xd7a3 ||
		c >= 0xf900 && c <= 0xfaff || c >= 0xfe10 && c <= 0xfe19 || c >= 0xfe30 && c <= 0xfe6b ||
		c >= 0xff01 && c <= 0xff60 || c >= 0xffe0 && c <= 0xffe6 || c >= 0x1b000 && c <= 0x1b001 ||
		c >= 0x1f200 && c <= 0x1f251 || c >= 0x1f300 && c <= 0x1f64f || c >= 0x20000 && c <= 0x3fffd)
}

// nodeEncode is Buffer.from(s, enc)'s bytes.
func nodeEncode(s, enc string) []byte {
	switch enc {
	case "latin1", "ascii":
		u := utf16.Encode([]rune(s))
		b := make([]byte, len(u))
		for i, c := range u {
			b[i] = byte(c)
		}
		return b
	case "utf16le":
		u := utf16.Encode([]rune(s))
		b := make([]byte, 2*len(u))
		for i, c := range u {
			b[2*i], b[2*i+1] = byte(c), byte(c>>8)
		}
		return b
	case "hex":
		n := len(s) / 2
		b := make([]byte, 0, n)
		for i := 0; i+1 < len(s); i += 2 {
			v, err := hex.DecodeString(s[i : i+2])
			if err != nil {
				break
			}
			b = append(b, v[0])
		}
		return b
	case "base64", "base64url":
		return nodeBase64Decode(s)
	}
	return []byte(s)
}

// nodeBase64Decode decodes base64 or base64url leniently, as Buffer does:
// other characters are skipped, padding is optional.
func nodeBase64Decode(s string) []byte {
	clean := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		case c == '-':
			clean = append(clean, '+')
		case c == '_':
			clean = append(clean, '/')
		case c == '=':
			i = len(s)
		}
	}
	if len(clean)%4 == 1 {
		clean = clean[:len(clean)-1]
	}
	b, err := base64.RawStdEncoding.DecodeString(string(clean))
	if err != nil {
		// Trailing bits that do not make a byte: decode what does.
		b, _ = base64.RawStdEncoding.DecodeString(string(clean[:len(clean)/4*4]))
	}
	return b
}

// nodeDecode is buf.toString(enc).
func nodeDecode(b []byte, enc string) string {
	switch enc {
	case "latin1":
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return string(r)
	case "ascii":
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c & 0x7f)
		}
		return string(r)
	case "utf16le":
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return string(utf16.Decode(u))
	case "hex":
		return hex.EncodeToString(b)
	case "base64":
		return base64.StdEncoding.EncodeToString(b)
	case "base64url":
		return base64.RawURLEncoding.EncodeToString(b)
	}
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	for len(b) > 0 {
		c, size := utf8.DecodeRune(b)
		if c == utf8.RuneError && size <= 1 {
			sb.WriteString("\uFFFD")
			if size == 0 {
				size = 1
			}
		} else {
			sb.Write(b[:size])
		}
		b = b[size:]
	}
	return sb.String()
}

// nodePercentDecode decodes %XX escapes, leaving bad ones as they are.
func nodePercentDecode(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s)+0 && i+2 <= len(s)-1 {
			if v, err := hex.DecodeString(s[i+1 : i+3]); err == nil {
				b = append(b, v[0])
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return nodeDecode(b, "utf8")
}

func nodeHash(alg string) hash.Hash {
	switch alg {
	case "md5":
		return md5.New()
	case "sha1":
		return sha1.New()
	case "sha224":
		return sha256.New224()
	case "sha384":
		return sha512.New384()
	case "sha512":
		return sha512.New()
	}
	return sha256.New()
}

// nodeURLParts is a parsed URL as the URL class keeps it.
type nodeURLParts [][2]string

func (u nodeURLParts) get(k string) string {
	for _, kv := range u {
		if kv[0] == k {
			return kv[1]
		}
	}
	return ""
}

// nodeSpecialPorts are the schemes WHATWG URL calls special, with their
// default ports.
var nodeSpecialPorts = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "file": ""}

// nodeParseURL parses input (against base when hasBase) into the parts
// of a WHATWG URL, near enough for scripts: lower-case scheme and host,
// default ports dropped, "/" as the path of special URLs.
func nodeParseURL(input, base string, hasBase bool) (nodeURLParts, bool) {
	input = strings.TrimSpace(input)
	if strings.ContainsAny(input, "\t\n\r") {
		input = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(input)
	}
	u, err := url.Parse(input)
	if err != nil {
		return nil, false
	}
	if hasBase {
		b, ok := nodeParseURL(base, "", false)
		if !ok {
			return nil, false
		}
		bu, err := url.Parse(b.get("href"))
		if err != nil {
			return nil, false
		}
		u = bu.ResolveReference(u)
	}
	if u.Scheme == "" {
		return nil, false
	}
	scheme := strings.ToLower(u.Scheme)
	_, special := nodeSpecialPorts[scheme]
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if special && port == nodeSpecialPorts[scheme] {
		port = ""
	}
	if special && scheme != "file" && host == "" {
		return nil, false
	}
	slashes := u.Host != "" || special || strings.HasPrefix(u.Opaque, "//") || strings.HasPrefix(input[len(u.Scheme)+1:], "//")
	pathname := u.EscapedPath()
	if u.Opaque != "" {
		pathname = u.Opaque
	}
	if special && pathname == "" {
		pathname = "/"
	}
	user, pass := "", ""
	if u.User != nil {
		user = u.User.Username()
		pass, _ = u.User.Password()
		user = url.PathEscape(user)
		pass = url.PathEscape(pass)
	}
	search := ""
	if u.RawQuery != "" || u.ForceQuery {
		search = "?" + u.RawQuery
	}
	hash := ""
	if u.Fragment != "" || strings.HasSuffix(input, "#") {
		hash = "#" + u.EscapedFragment()
	}
	hostPort := host
	if strings.Contains(host, ":") {
		hostPort = "[" + host + "]"
	}
	hostname := hostPort
	if port != "" {
		hostPort += ":" + port
	}
	var href strings.Builder
	href.WriteString(scheme + ":")
	if slashes {
		href.WriteString("//")
	}
	if user != "" || pass != "" {
		href.WriteString(user)
		if pass != "" {
			href.WriteString(":" + pass)
		}
		href.WriteString("@")
	}
	href.WriteString(hostPort + pathname + search + hash)
	origin := "null"
	if special && scheme != "file" {
		origin = scheme + "://" + hostPort
	}
	return nodeURLParts{
		{"href", href.String()}, {"protocol", scheme + ":"}, {"username", user}, {"password", pass},
		{"hostname", hostname}, {"port", port}, {"pathname", pathname}, {"search", search},
		{"hash", hash}, {"origin", origin}, {"slashes", fmt.Sprint(slashes)},
	}, true
}
