package node

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"github.com/spf13/afero"
)

// node is JavaScript for the sandboxes' code_execution tool: a Node.js-like
// runtime on the pure-Go engine github.com/dop251/goja (ECMAScript 2020
// and much of later editions, no JIT), so that it runs natively and,
// compiled for GOOS=wasip1, inside the WebAssembly sandbox alike.
//
//	node FILE [ARGS...]     run a script (CommonJS; ES modules are rewritten)
//	node -e CODE [ARGS...]  evaluate CODE ([eval]); -p prints its value
//	node [-]                read the script from standard input ([stdin])
//	node -c FILE            check the syntax only
//	node -r MODULE ...      require MODULE first
//	node --version          v20.0.0-goja
//
// The runtime is Go (this file, loop.go for the event loop, native.go and
// fs.go for what scripts call) and JavaScript (js/*.js, embedded by
// prelude.go: util.inspect and util.format ported from Node.js,
// path, events, Buffer, process, console, timers, the modules and the
// CommonJS loader). It follows Node.js v20:
//
//   - globals: console (log/info/debug to stdout, warn/error/trace to
//     stderr, util.format's %s %d %i %f %j %o %O %c %%, util.inspect's
//     output for values, table, group, count, time, assert, dir),
//     process (argv, env, exit, exitCode, on('exit'|'beforeExit'|
//     'uncaughtException'|'unhandledRejection'), cwd, chdir, platform,
//     version, stdout/stderr.write, stdin, nextTick, hrtime, memoryUsage),
//     setTimeout/setInterval/setImmediate and their clear functions
//     (timers can be unref'd), queueMicrotask, Promise and async/await,
//     Buffer, TextEncoder/TextDecoder, URL/URLSearchParams,
//     structuredClone, atob/btoa, AbortController, performance.now,
//     crypto.randomUUID/getRandomValues; fetch, http and https (request,
//     get) through the sandbox's network policy (http.go);
//   - require() of fs (sync, callback and promise forms, streams, fds),
//     fs/promises, path, os, util, events, assert, buffer, crypto
//     (hashes, HMAC, random), url, querystring, string_decoder, timers,
//     timers/promises, readline, module, perf_hooks, async_hooks, tty,
//     with or without "node:"; and of files: ./x, ./x.js, .json,
//     ./dir/index.js, package.json "main", node_modules lookup, a cache,
//     cycles, __filename/__dirname, require.main, require.resolve;
//   - child_process, net, dns, worker_threads, zlib, vm,
//     stream and the other modules that would reach past the sandbox or
//     are not implemented throw "X is not available in this sandbox";
//   - ES modules (import/export, import.meta, import(), top-level await)
//     run rewritten into CommonJS (see nodeToCJS).
//
// Nothing of the host is reached: every file is one of c.FS, paths
// resolved against the script's working folder (c.Dir, then
// process.chdir); process.env is c.Environ and nothing else; there is no
// network and no child process. One thing goja takes from the process:
// Date's local time zone is time.Local (UTC in the WebAssembly guest).
//
// An uncaught exception or unhandled rejection prints like node (the
// script's line and a caret, then the error's stack and properties, then
// "Node.js v20.0.0-goja") on stderr and exits 1; a syntax error exits 1
// with "SyntaxError: ..."; process.exit(n) exits n; a bad option exits 9.
// ctx is the time limit: when it ends, the script is interrupted (a busy
// loop within a few milliseconds; a long native call such as a huge
// JSON.stringify when it returns), timers are dropped, and node returns
// ctx.Err().
//
// Memory: goja cannot cap a script's heap, so natively a script can use as
// much memory as the process can; inside the WebAssembly sandbox each
// instance's linear memory is capped by the runtime, which bounds it
// there. The call stack is capped (nodeMaxCallStack).
func init() { command.Register(posixfs.Strictly(nodeMain), "node", "nodejs") }

// nodeVersion is what node --version and process.version report.
const nodeVersion = "v20.0.0-goja"

// nodeExecPath is process.execPath and process.argv[0].
const nodeExecPath = "/usr/bin/node"

// nodeMaxCallStack is the JavaScript call depth at which a script stops
// with "RangeError: Maximum call stack size exceeded" (node's is about
// 11000 frames).
const nodeMaxCallStack = 10000

// nodeInvocation is a parsed command line.
type nodeInvocation struct {
	code      string // -e / -p source
	hasCode   bool
	print     bool // -p
	check     bool // -c
	script    string
	fromStdin bool
	args      []string
	preload   []string
	execArgv  []string
	// unhandled is --unhandled-rejections: "throw" (the default),
	// "strict", "warn", "none", "warn-with-error-code".
	unhandled  string
	noWarnings bool
	// module is --input-type=module: -e code and standard input are ES
	// modules.
	module bool
}

// nodeUsageError is a bad command line (status 9, as node).
type nodeUsageError struct{ msg string }

func (e *nodeUsageError) Error() string { return e.msg }

// nodeIgnoredOptions are node options accepted and ignored (with or
// without "=value").
var nodeIgnoredOptions = []string{
	"--max-old-space-size", "--max-semi-space-size", "--stack-size", "--enable-source-maps",
	"--no-deprecation", "--trace-deprecation", "--throw-deprecation", "--pending-deprecation",
	"--trace-warnings", "--trace-uncaught", "--use-strict", "--expose-gc", "--harmony",
	"--no-experimental-fetch", "--preserve-symlinks", "--preserve-symlinks-main", "--abort-on-uncaught-exception",
	"--title", "--max-http-header-size", "--disable-proto", "--jitless", "--no-opt", "--optimize-for-size",
	"--input-type=commonjs", "--experimental-default-type=commonjs", "--no-addons", "--no-global-search-paths",
	"--icu-data-dir", "--openssl-config", "--tls-min-v1.2", "--dns-result-order", "--trace-exit",
}

// nodeParseArgs parses node's command line (without argv[0]). action is
// "run", "version" or "help".
func nodeParseArgs(args []string) (inv nodeInvocation, action string, err error) {
	inv.unhandled = "throw"
	action = "run"
	i := 0
	needValue := func(opt string) (string, error) {
		if i+1 >= len(args) {
			return "", &nodeUsageError{opt + " requires an argument"}
		}
		i++
		return args[i], nil
	}
	for i < len(args) {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if a == "-" {
			inv.fromStdin = true
			i++
			inv.args = append(inv.args, args[i:]...)
			return inv, action, nil
		}
		if !strings.HasPrefix(a, "-") || a == "" {
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case a == "-v" || a == "--version":
			return inv, "version", nil
		case a == "-h" || a == "--help":
			return inv, "help", nil
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-pe" || a == "-ep":
			v, err := needValue(a)
			if err != nil {
				return inv, action, err
			}
			inv.code, inv.hasCode = v, true
			if a == "-p" || a == "--print" || a == "-pe" || a == "-ep" {
				inv.print = true
			}
		case name == "--eval" || name == "--print":
			inv.code, inv.hasCode, inv.print = value, true, name == "--print"
		case a == "-c" || a == "--check":
			inv.check = true
		case a == "-r" || a == "--require":
			v, err := needValue(a)
			if err != nil {
				return inv, action, err
			}
			inv.preload = append(inv.preload, v)
		case name == "--require":
			inv.preload = append(inv.preload, value)
		case a == "-i" || a == "--interactive":
			return inv, action, &nodeUsageError{"the REPL is not available in this sandbox"}
		case name == "--unhandled-rejections" && hasValue:
			switch value {
			case "throw", "strict", "warn", "none", "warn-with-error-code":
				inv.unhandled = value
			default:
				return inv, action, &nodeUsageError{"invalid value for --unhandled-rejections"}
			}
		case a == "--no-warnings":
			inv.noWarnings = true
		case name == "--input-type" && value == "module", name == "--experimental-default-type" && value == "module":
			inv.module = true
		case nodeIgnored(a, name):
		default:
			return inv, action, &nodeUsageError{"bad option: " + a}
		}
		inv.execArgv = append(inv.execArgv, a)
		i++
	}
	if !inv.hasCode && !inv.fromStdin && i < len(args) {
		inv.script = args[i]
		i++
	}
	if !inv.hasCode && inv.script == "" {
		inv.fromStdin = true
	}
	inv.args = append(inv.args, args[i:]...)
	return inv, action, nil
}

func nodeIgnored(arg, name string) bool {
	for _, o := range nodeIgnoredOptions {
		if o == arg || !strings.Contains(o, "=") && o == name {
			return true
		}
	}
	return strings.HasPrefix(name, "--experimental-") || strings.HasPrefix(name, "--no-experimental-") ||
		strings.HasPrefix(name, "--harmony-") || strings.HasPrefix(name, "--trace-") ||
		strings.HasPrefix(name, "--inspect") || strings.HasPrefix(name, "--conditions") || name == "-C"
}

const nodeHelp = `Usage: node [options] [ script.js | -e "script" | - ] [arguments]

JavaScript on goja in this sandbox (Node.js v20 compatible subset).

Options:
  -e, --eval script      evaluate script
  -p, --print script     evaluate script and print the result
  -c, --check            syntax check script without executing
  -r, --require module   module to preload
  --input-type=module    -e code and standard input are ES modules
  --unhandled-rejections=throw|strict|warn|none
  --no-warnings          silence process warnings
  -v, --version          print the version
  -h, --help             print this help

Scripts are CommonJS; ES modules (import/export) are rewritten into it.
child_process, the network and native addons are not available.
`

// nodeMain is the node builtin.
func nodeMain(ctx context.Context, c *command.Call, args []string) error {
	inv, action, err := nodeParseArgs(args[1:])
	if err != nil {
		fmt.Fprintf(c.Stderr, "%s: %s\n", args[0], err)
		return command.Exit(9)
	}
	switch action {
	case "version":
		fmt.Fprintln(c.Stdout, nodeVersion)
		return nil
	case "help":
		io.WriteString(c.Stdout, nodeHelp)
		return nil
	}
	r := newNodeRT(ctx, c, inv)
	code := r.run(inv)
	if err := ctx.Err(); err != nil {
		return err
	}
	return command.Exit(code)
}

// nodeExitSignal interrupts the runtime for process.exit.
type nodeExitSignal struct{ code int }

// nodeFatalSignal interrupts the runtime for an exception thrown where it
// cannot propagate (a queueMicrotask or nextTick callback).
type nodeFatalSignal struct{}

// nodeSource is a script the runtime compiled, for the source line of an
// error message.
type nodeSource struct {
	text string
	// col1 is how many characters the module wrapper put before line 1.
	col1 int
}

// nodeRT is one run of a script.
type nodeRT struct {
	ctx context.Context
	c   *command.Call
	fs  afero.Fs
	vm  *goja.Runtime
	inv nodeInvocation

	hooks struct {
		inspect, runMain, runTask, setupEval, printResult, preload, formatFatal,
		emitExit, emitBeforeExit, uncaught, rejection, exitCode goja.Callable
	}

	stdout, stderr *nodeStream
	stdin          *bufio.Reader
	cwd            string
	start          time.Time

	loop nodeLoop

	sources map[string]*nodeSource
	arrows  map[*goja.Object]string

	rejected []*goja.Promise

	exiting  bool // process.exit was called
	dead     bool // a fatal error was printed
	exitCode int
	// exitCodeOverride is the status of a run that ended well but had an
	// unhandled rejection under --unhandled-rejections=warn-with-error-code.
	exitCodeOverride int
	fatalVal         goja.Value

	fds    map[int]*nodeFD
	nextFD int

	watchStop chan struct{}
	watchDone sync.WaitGroup
}

func newNodeRT(ctx context.Context, c *command.Call, inv nodeInvocation) *nodeRT {
	stdout, stderr := c.Stdout, c.Stderr
	if stdout == nil {
		stdout = io.Discard
	}
	if stderr == nil {
		stderr = io.Discard
	}
	r := &nodeRT{
		ctx:     ctx,
		c:       c,
		fs:      c.FS,
		inv:     inv,
		cwd:     c.Dir,
		start:   time.Now(),
		sources: map[string]*nodeSource{},
		arrows:  map[*goja.Object]string{},
		fds:     map[int]*nodeFD{},
		nextFD:  3,
	}
	if r.cwd == "" {
		r.cwd = "/"
	}
	r.stdout = &nodeStream{w: stdout}
	r.stderr = &nodeStream{w: stderr}
	r.stdout.peer, r.stderr.peer = r.stderr, r.stdout
	r.stdin = bufio.NewReader(cmdutil.Stdin(c))
	r.loop.init()
	return r
}

// run runs the invocation and returns the exit status.
func (r *nodeRT) run(inv nodeInvocation) int {
	defer r.closeFDs()
	defer r.stdout.flush()
	defer r.stderr.flush()

	// The source first: a missing file or a syntax error needs no runtime.
	var src, name string
	switch {
	case inv.hasCode:
		src, name = inv.code, "[eval]"
	case inv.fromStdin:
		var b strings.Builder
		if err := cmdutil.Copy(r.ctx, &b, r.stdin); err != nil {
			if r.ctx.Err() != nil {
				return 1 // the caller reports the context's end
			}
			fmt.Fprintf(r.stderr, "node: reading standard input: %v\n", err)
			return 1
		}
		src, name = b.String(), "[stdin]"
		if r.ctx.Err() != nil {
			return 1
		}
	}
	if inv.check {
		if inv.script != "" {
			b, err := afero.ReadFile(r.fs, r.abs(inv.script))
			if err != nil {
				fmt.Fprintf(r.stderr, "node: cannot read %s: %s\n", inv.script, posixfs.ErrText(err))
				return 1
			}
			src, name = string(b), r.abs(inv.script)
			_, err = nodeParse(name, nodeWrap(src))
			if err != nil {
				r.printSyntaxError(name, src, len(nodeWrapperHead), err)
				return 1
			}
			return 0
		}
		if _, err := nodeParse(name, src); err != nil {
			r.printSyntaxError(name, src, 0, err)
			return 1
		}
		return 0
	}

	if err := r.setup(); err != nil {
		fmt.Fprintf(r.stderr, "node: %v\n", err)
		return 1
	}
	r.watch()
	defer r.unwatch()

	ok := true
	for _, m := range inv.preload {
		if _, ok = r.call(func() (goja.Value, error) { return r.hooks.preload(goja.Undefined(), r.vm.ToValue(m)) }); !ok {
			break
		}
	}
	if ok {
		if inv.script != "" {
			r.call(func() (goja.Value, error) {
				return r.hooks.runMain(goja.Undefined(), r.vm.ToValue(r.abs(inv.script)))
			})
		} else {
			r.runEval(src, name, inv.print)
		}
	}
	r.runLoop()
	return r.finish()
}

// runEval runs -e, -p or standard input as a script in the global scope,
// with require, module, exports, __filename and __dirname as globals.
func (r *nodeRT) runEval(src, name string, print bool) {
	if _, ok := r.call(func() (goja.Value, error) { return r.hooks.setupEval(goja.Undefined(), r.vm.ToValue(name)) }); !ok {
		return
	}
	var prg *goja.Program
	var err error
	asModule := false
	if r.inv.module {
		err = errors.New("module")
	} else {
		prg, err = r.compile(name, src, false)
	}
	if err != nil {
		// An ES module (import, export, top-level await) runs as a module
		// with the eval's require and module.
		mprg, col1, merr := r.compileModule(name, src)
		if merr != nil {
			if _, ok := nodeToCJS(src); ok {
				r.printSyntaxError(name, src, col1, merr)
			} else {
				r.sources[name] = &nodeSource{text: src}
				r.printSyntaxError(name, src, 0, err)
			}
			r.dead, r.exitCode = true, 1
			return
		}
		prg, asModule = mprg, true
	}
	run := r.vm.ToValue(func(goja.FunctionCall) goja.Value {
		v, err := r.vm.RunProgram(prg)
		if err != nil {
			panic(err)
		}
		if !asModule {
			return v
		}
		fn, _ := goja.AssertFunction(v)
		g := r.vm.GlobalObject()
		mod := g.Get("module").ToObject(r.vm)
		exports := mod.Get("exports")
		v, err = fn(exports, exports, g.Get("require"), mod, g.Get("__filename"), g.Get("__dirname"))
		if err != nil {
			panic(err)
		}
		return v
	})
	v, ok := r.call(func() (goja.Value, error) { return r.hooks.runTask(goja.Undefined(), run) })
	if ok && print {
		r.call(func() (goja.Value, error) { return r.hooks.printResult(goja.Undefined(), v) })
	}
}

// stopped tells whether the script may not run any further.
func (r *nodeRT) stopped() bool {
	return r.exiting || r.dead || r.ctx.Err() != nil
}

// call runs fn, a call into JavaScript from the top (nothing of the script
// on the stack), and deals with what it threw: an exit, the end of ctx, an
// uncaught exception. Then it reports unhandled rejections. ok tells
// whether the script goes on.
func (r *nodeRT) call(fn func() (goja.Value, error)) (v goja.Value, ok bool) {
	if r.stopped() {
		return nil, false
	}
	v, err := fn()
	if err != nil {
		r.handleErr(err)
	}
	if !r.stopped() {
		r.checkRejections()
	}
	return v, !r.stopped()
}

// handleErr deals with an error a call into JavaScript returned.
func (r *nodeRT) handleErr(err error) {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		r.vm.ClearInterrupt()
		switch v := ie.Value().(type) {
		case nodeExitSignal:
			r.exiting, r.exitCode = true, v.code
		case nodeFatalSignal:
			val := r.fatalVal
			r.fatalVal = nil
			r.uncaught(val, nil)
		}
		return
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		val, _ := r.vm.New(r.vm.Get("RangeError"), r.vm.ToValue("Maximum call stack size exceeded"))
		var frames []goja.StackFrame
		if st := so.Stack(); len(st) > 0 {
			frames = st[:1]
		}
		r.uncaught(val, frames)
		return
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		r.uncaught(ex.Value(), ex.Stack())
		return
	}
	fmt.Fprintf(r.stderr, "node: %v\n", err)
	r.dead, r.exitCode = true, 1
}

// uncaught handles an exception nothing caught: process.on('uncaughtException')
// listeners get it, or it is printed and the script ends with status 1.
func (r *nodeRT) uncaught(val goja.Value, frames []goja.StackFrame) {
	if val == nil {
		val = goja.Undefined()
	}
	handled, err := r.hooks.uncaught(goja.Undefined(), val)
	if err == nil && handled.ToBoolean() {
		return
	}
	if err != nil {
		var ie *goja.InterruptedError
		if errors.As(err, &ie) {
			r.handleErr(err)
			return
		}
		// The handler threw: node prints that error and exits 7.
		var ex *goja.Exception
		if errors.As(err, &ex) {
			r.printFatal(ex.Value(), ex.Stack())
			r.dead, r.exitCode = true, 7
			return
		}
	}
	r.printFatal(val, frames)
	r.dead, r.exitCode = true, 1
}

// printFatal prints an uncaught exception as node does: the source line
// it came from, the error (its stack and extra properties), node's
// version.
func (r *nodeRT) printFatal(val goja.Value, frames []goja.StackFrame) {
	arrow := r.arrowFor(val, frames)
	body := r.formatFatal(val)
	var b strings.Builder
	b.WriteString(arrow)
	if r.isError(val) {
		if arrow != "" {
			b.WriteString("\n")
		}
		b.WriteString(body)
		b.WriteString("\n")
	} else {
		if _, isStr := val.Export().(string); !isStr {
			b.WriteString("Uncaught ")
		}
		b.WriteString(body)
		b.WriteString("\n(Use `node --trace-uncaught ...` to show where the exception was thrown)\n")
	}
	fmt.Fprintf(&b, "\nNode.js %s\n", nodeVersion)
	io.WriteString(r.stderr, b.String())
}

// formatFatal is util.inspect of an uncaught value (a string as is).
func (r *nodeRT) formatFatal(val goja.Value) string {
	v, err := r.hooks.formatFatal(goja.Undefined(), val)
	if err != nil {
		r.vm.ClearInterrupt()
		if o, ok := val.(*goja.Object); ok {
			return o.String()
		}
		return fmt.Sprint(val)
	}
	return v.String()
}

// isError tells whether v is an Error object.
func (r *nodeRT) isError(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	return ok && o.ClassName() == "Error"
}

// checkRejections reports the promises rejected with no handler after the
// last macrotask: process.on('unhandledRejection') listeners get them, or
// (in the default "throw" mode) the first is fatal.
func (r *nodeRT) checkRejections() {
	for len(r.rejected) > 0 && !r.stopped() {
		p := r.rejected[0]
		r.rejected = r.rejected[1:]
		reason := p.Result()
		handled, err := r.hooks.rejection(goja.Undefined(), reason, r.vm.ToValue(p))
		if err != nil {
			r.handleErr(err)
			continue
		}
		if handled.ToBoolean() {
			continue
		}
		switch r.inv.unhandled {
		case "none":
			continue
		case "warn", "warn-with-error-code":
			if !r.inv.noWarnings {
				fmt.Fprintf(r.stderr, "(node:%d) UnhandledPromiseRejectionWarning: %s\n", nodePID, r.formatFatal(reason))
			}
			if r.inv.unhandled == "warn-with-error-code" {
				r.exitCodeOverride = 1
			}
			continue
		}
		if r.isError(reason) {
			handled, err := r.hooks.uncaught(goja.Undefined(), reason)
			if err == nil && handled.ToBoolean() {
				continue
			}
			r.printFatal(reason, nil)
		} else {
			msg := "UnhandledPromiseRejection: This error originated either by throwing inside of an async function without a catch block, or by rejecting a promise which was not handled with .catch(). The promise rejected with the reason \"" + r.inspect(reason) + "\"."
			fmt.Fprintf(r.stderr, "node:internal/process/promises:289\n            triggerUncaughtException(err, true /* fromPromise */);\n            ^\n\n[%s] {\n  code: 'ERR_UNHANDLED_REJECTION'\n}\n\nNode.js %s\n", msg, nodeVersion)
		}
		r.dead, r.exitCode = true, 1
	}
}

// inspect is util.inspect(v).
func (r *nodeRT) inspect(v goja.Value) string {
	s, err := r.hooks.inspect(goja.Undefined(), v)
	if err != nil {
		r.vm.ClearInterrupt()
		return fmt.Sprint(v)
	}
	return s.String()
}

// finish emits process 'exit' and returns the exit status.
func (r *nodeRT) finish() int {
	if r.ctx.Err() != nil {
		return command.StatusTimeout
	}
	code := r.exitCode
	if !r.exiting && !r.dead {
		if v, err := r.hooks.exitCode(goja.Undefined()); err == nil {
			code = int(v.ToInteger())
		}
		if code == 0 && r.exitCodeOverride != 0 {
			code = r.exitCodeOverride
		}
	}
	r.exiting, r.dead = false, false
	r.exitCode = code
	_, err := r.hooks.emitExit(goja.Undefined(), r.vm.ToValue(code))
	if err != nil {
		r.handleErr(err)
	}
	return r.exitCode
}

// watch interrupts the runtime when ctx ends.
func (r *nodeRT) watch() {
	r.watchStop = make(chan struct{})
	r.watchDone.Add(1)
	go func() {
		defer r.watchDone.Done()
		select {
		case <-r.ctx.Done():
			r.vm.Interrupt(r.ctx.Err())
		case <-r.watchStop:
		}
	}()
}

func (r *nodeRT) unwatch() {
	close(r.watchStop)
	r.watchDone.Wait()
}

// abs resolves a path against the script's working folder.
func (r *nodeRT) abs(p string) string {
	c := *r.c
	c.Dir = r.cwd
	return c.Abs(p)
}

// nodeWrapperHead and nodeWrapperTail make a module's source a function,
// as node's CommonJS loader does; the head is on line 1 so that line
// numbers stay the file's.
const (
	nodeWrapperHead = "(function (exports, require, module, __filename, __dirname) { "
	nodeWrapperTail = "\n})"
)

// nodeWrap wraps a module's source, a "#!" line made a comment.
func nodeWrap(src string) string {
	if strings.HasPrefix(src, "#!") {
		src = "//" + src[2:]
	}
	return nodeWrapperHead + src + nodeWrapperTail
}

// nodeParse parses src (a whole script) for goja.
func nodeParse(name, src string) (*goja.Program, error) {
	prg, err := parser.ParseFile(nil, name, src, 0)
	if err != nil {
		return nil, err
	}
	return goja.CompileAST(prg, false)
}

// compile compiles src named name, remembering it for error messages.
func (r *nodeRT) compile(name, src string, wrapped bool) (*goja.Program, error) {
	text, col1 := src, 0
	if wrapped {
		text, col1 = nodeWrap(src), len(nodeWrapperHead)
	}
	r.sources[name] = &nodeSource{text: src, col1: col1}
	return nodeParse(name, text)
}

// nodeSyntaxInfo returns the message, line and column of a parse or
// compile error, node's way ("Unexpected token ';'").
func nodeSyntaxInfo(err error, src string, col1 int) (msg string, line, col int) {
	var el parser.ErrorList
	var ce *goja.CompilerSyntaxError
	switch {
	case errors.As(err, &el) && len(el) > 0:
		msg, line, col = el[0].Message, el[0].Position.Line, el[0].Position.Column
	case errors.As(err, &ce):
		msg = ce.Message
		if ce.File != nil {
			p := ce.File.Position(ce.Offset)
			line, col = p.Line, p.Column
		}
	default:
		return strings.TrimPrefix(err.Error(), "SyntaxError: "), 0, 0
	}
	if line == 1 {
		col -= col1
		if col < 1 {
			col = 1
		}
	}
	srcLine := nodeLine(src, line)
	switch {
	case strings.HasPrefix(msg, "Unexpected token ") && !strings.Contains(msg, "'"):
		msg = "Unexpected token '" + strings.TrimPrefix(msg, "Unexpected token ") + "'"
	case msg == "Unexpected reserved word" || msg == "Unexpected token import" || msg == "Unexpected token export":
		rest := ""
		if col-1 >= 0 && col-1 <= len(srcLine) {
			rest = srcLine[col-1:]
		}
		if strings.HasPrefix(rest, "import") || strings.HasPrefix(rest, "export") {
			msg = "Cannot use import statement outside a module (ES modules are not supported in this sandbox; use require())"
			if strings.HasPrefix(rest, "export") {
				msg = "Unexpected token 'export' (ES modules are not supported in this sandbox; use module.exports)"
			}
		}
	case msg == "Unexpected identifier":
		if col-1 >= 0 && col-1 < len(srcLine) {
			id := srcLine[col-1:]
			end := strings.IndexFunc(id, func(r rune) bool {
				return !(r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
			})
			if end > 0 {
				msg = "Unexpected identifier '" + id[:end] + "'"
			}
		}
	}
	return msg, line, col
}

// nodeLine returns line n (1-based) of src.
func nodeLine(src string, n int) string {
	if n < 1 {
		return ""
	}
	for i := 1; i < n; i++ {
		j := strings.IndexByte(src, '\n')
		if j < 0 {
			return ""
		}
		src = src[j+1:]
	}
	if j := strings.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return strings.TrimSuffix(src, "\r")
}

// nodeArrow is node's pointer at a source position: "file:line\n<the
// line>\n   ^\n".
func nodeArrow(name, src string, line, col int) string {
	text := nodeLine(src, line)
	if col < 1 {
		col = 1
	}
	var pad strings.Builder
	for i, ch := range text {
		if i >= col-1 {
			break
		}
		if ch == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	return fmt.Sprintf("%s:%d\n%s\n%s^\n", name, line, text, pad.String())
}

// printSyntaxError prints a syntax error of the main script as node does.
func (r *nodeRT) printSyntaxError(name, src string, col1 int, err error) {
	msg, line, col := nodeSyntaxInfo(err, src, col1)
	var b strings.Builder
	if line > 0 {
		b.WriteString(nodeArrow(name, src, line, col))
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "SyntaxError: %s\n\nNode.js %s\n", msg, nodeVersion)
	io.WriteString(r.stderr, b.String())
}

// arrowFor finds where an uncaught value came from: the arrow a syntax
// error recorded, else the first frame of the exception (or of the error's
// stack) in a script the runtime compiled.
func (r *nodeRT) arrowFor(val goja.Value, frames []goja.StackFrame) string {
	if o, ok := val.(*goja.Object); ok {
		if a, ok := r.arrows[o]; ok {
			return a
		}
	}
	for _, f := range frames {
		src, ok := r.sources[f.SrcName()]
		if !ok {
			continue
		}
		p := f.Position()
		col := p.Column
		if p.Line == 1 {
			col -= src.col1
		}
		return nodeArrow(f.SrcName(), src.text, p.Line, col)
	}
	if o, ok := val.(*goja.Object); ok && o.ClassName() == "Error" {
		stack := o.Get("stack")
		if stack == nil {
			return ""
		}
		for _, l := range strings.Split(stack.String(), "\n") {
			file, line, col, ok := nodeFrameLocation(strings.TrimPrefix(l, "\tat "))
			if !ok {
				continue
			}
			if src, ok := r.sources[file]; ok {
				if line == 1 {
					col -= src.col1
				}
				return nodeArrow(file, src.text, line, col)
			}
		}
	}
	return ""
}

// nodeFrameLocation parses "f (file:1:2(3))", "file:1:2(3)" or the same
// without "(3)" into its file, line and column.
func nodeFrameLocation(frame string) (file string, line, col int, ok bool) {
	frame = strings.TrimSpace(frame)
	if i := strings.LastIndex(frame, " ("); i >= 0 && strings.HasSuffix(frame, ")") {
		frame = frame[i+2 : len(frame)-1]
	}
	if i := strings.LastIndexByte(frame, '('); i >= 0 && strings.HasSuffix(frame, ")") {
		frame = frame[:i]
	}
	j := strings.LastIndexByte(frame, ':')
	if j < 0 {
		return "", 0, 0, false
	}
	i := strings.LastIndexByte(frame[:j], ':')
	if i < 0 {
		return "", 0, 0, false
	}
	if _, err := fmt.Sscanf(frame[i+1:], "%d:%d", &line, &col); err != nil {
		return "", 0, 0, false
	}
	return frame[:i], line, col, true
}
