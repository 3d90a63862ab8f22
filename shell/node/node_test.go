package node

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/spf13/afero"
)

// nodeTestDir is the current folder of the node tests' calls.
const nodeTestDir = "/home/user"

// nodeResult is what one node call printed and returned.
type nodeResult struct {
	stdout, stderr string
	code           int
	err            error // the builtin's error when ctx ended
	elapsed        time.Duration
}

// nodeRun runs the node builtin with args over fsys (a fresh MemMapFs when
// nil) holding files (relative to nodeTestDir or absolute), with stdin and
// the environment env (HOME and PATH when nil). ctx nil means a 20 s limit.
func nodeRun(t *testing.T, ctx context.Context, fsys afero.Fs, files map[string]string, stdin string, env []string, args ...string) nodeResult {
	t.Helper()
	if fsys == nil {
		fsys = afero.NewMemMapFs()
	}
	if err := fsys.MkdirAll(nodeTestDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		p := name
		if !path.IsAbs(p) {
			p = nodeTestDir + "/" + p
		}
		if strings.HasSuffix(name, "/") {
			if err := fsys.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := fsys.MkdirAll(path.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := afero.WriteFile(fsys, p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if env == nil {
		env = []string{"HOME=" + nodeTestDir, "PATH=/usr/bin:/bin"}
	}
	var stdout, stderr bytes.Buffer
	c := &command.Call{
		Stdin:  strings.NewReader(stdin),
		Stdout: &stdout,
		Stderr: &stderr,
		Dir:    nodeTestDir,
		FS:     fsys,
		Env: func(name string) (string, bool) {
			for _, kv := range env {
				if k, v, ok := strings.Cut(kv, "="); ok && k == name {
					return v, true
				}
			}
			return "", false
		},
		Environ: func() []string { return env },
	}
	c.Exec = func(ctx context.Context, args []string) error {
		return c.Errorf(127, args[0], "command not found")
	}
	if ctx == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
	}
	b, ok := command.Lookup("node")
	if !ok {
		t.Fatal("node is not registered")
	}
	start := time.Now()
	err := b(ctx, c, append([]string{"node"}, args...))
	res := nodeResult{stdout: stdout.String(), stderr: stderr.String(), code: command.ExitCode(err), elapsed: time.Since(start)}
	if err != nil && ctx.Err() != nil {
		res.err = err
	}
	return res
}

// nodeCase is one call of the node builtin and what it must print: stdout
// exactly (unless wantOut is nodeAny), every string of outHas in stdout,
// of errHas in stderr, the status.
type nodeCase struct {
	name    string
	files   map[string]string
	stdin   string
	env     []string
	args    []string
	wantOut string
	outHas  []string
	errHas  []string
	code    int
	check   func(t *testing.T, fsys afero.Fs)
}

// nodeAny as wantOut checks only outHas.
const nodeAny = "\x00any"

func runNodeCases(t *testing.T, cases []nodeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fsys := afero.NewMemMapFs()
			res := nodeRun(t, nil, fsys, tc.files, tc.stdin, tc.env, tc.args...)
			if tc.wantOut != nodeAny && res.stdout != tc.wantOut {
				t.Errorf("stdout:\ngot  %q\nwant %q\nstderr: %s", res.stdout, tc.wantOut, res.stderr)
			}
			for _, s := range tc.outHas {
				if !strings.Contains(res.stdout, s) {
					t.Errorf("stdout lacks %q:\n%s\nstderr: %s", s, res.stdout, res.stderr)
				}
			}
			for _, s := range tc.errHas {
				if !strings.Contains(res.stderr, s) {
					t.Errorf("stderr lacks %q:\n%s", s, res.stderr)
				}
			}
			if len(tc.errHas) == 0 && tc.code == 0 && res.stderr != "" {
				t.Errorf("unexpected stderr: %s", res.stderr)
			}
			if res.code != tc.code {
				t.Errorf("status %d, want %d; stderr: %s", res.code, tc.code, res.stderr)
			}
			if tc.check != nil {
				tc.check(t, fsys)
			}
		})
	}
}

// nodeScript is a case running one script file, x.js.
func nodeScript(name, src, want string) nodeCase {
	return nodeCase{name: name, files: map[string]string{"x.js": src}, args: []string{"x.js"}, wantOut: want}
}

func nodeFileIs(p, want string) func(t *testing.T, fsys afero.Fs) {
	return func(t *testing.T, fsys afero.Fs) {
		t.Helper()
		b, err := afero.ReadFile(fsys, p)
		if err != nil || string(b) != want {
			t.Errorf("%s: %q (%v), want %q", p, b, err, want)
		}
	}
}

func nodeMissing(p string) func(t *testing.T, fsys afero.Fs) {
	return func(t *testing.T, fsys afero.Fs) {
		t.Helper()
		if _, err := fsys.Stat(p); err == nil {
			t.Errorf("%s still exists", p)
		}
	}
}

func TestNodeCommandLine(t *testing.T) {
	runNodeCases(t, []nodeCase{
		{name: "version", args: []string{"--version"}, wantOut: "v20.0.0-goja\n"},
		{name: "version -v", args: []string{"-v"}, wantOut: nodeVersion + "\n"},
		{name: "eval", args: []string{"-e", "console.log(1+1)"}, wantOut: "2\n"},
		{name: "eval args", args: []string{"-e", "console.log(process.argv.slice(1))", "a", "-b"}, wantOut: "[ 'a', '-b' ]\n"},
		{name: "print", args: []string{"-p", "6*7"}, wantOut: "42\n"},
		{name: "print string", args: []string{"-p", "'str'"}, wantOut: "str\n"},
		{name: "print object", args: []string{"-p", "({a: [1, 'x']})"}, wantOut: "{ a: [ 1, 'x' ] }\n"},
		{name: "-pe", args: []string{"-pe", "process.argv.length"}, wantOut: "1\n"},
		{name: "eval globals", args: []string{"-e", "var g = 1; console.log(globalThis.g, __filename, typeof require, typeof module)"}, wantOut: "1 [eval] function object\n"},
		{name: "stdin script", stdin: "console.log('from stdin', __filename)", wantOut: "from stdin [stdin]\n"},
		{name: "stdin dash args", stdin: "console.log(process.argv.slice(1))", args: []string{"-", "x", "y"}, wantOut: "[ 'x', 'y' ]\n"},
		{name: "file argv", files: map[string]string{"s/x.js": "console.log(process.argv)"}, args: []string{"s/x.js", "a", "--b"},
			wantOut: "[ '/usr/bin/node', '/home/user/s/x.js', 'a', '--b' ]\n"},
		{name: "nodejs name", args: []string{"-e", "console.log(process.version)"}, wantOut: "v20.0.0-goja\n"},
		{name: "shebang", files: map[string]string{"x.js": "#!/usr/bin/env node\nconsole.log('ok')\n"}, args: []string{"x.js"}, wantOut: "ok\n"},
		{name: "bad option", args: []string{"--frobnicate"}, errHas: []string{"bad option: --frobnicate"}, code: 9, wantOut: ""},
		{name: "eval needs code", args: []string{"-e"}, errHas: []string{"-e requires an argument"}, code: 9, wantOut: ""},
		{name: "ignored options", args: []string{"--max-old-space-size=512", "--no-warnings", "-e", "console.log('ok')"}, wantOut: "ok\n"},
		{name: "check ok", files: map[string]string{"x.js": "console.log(1)"}, args: []string{"-c", "x.js"}, wantOut: ""},
		{name: "check bad", files: map[string]string{"x.js": "let x = ;"}, args: []string{"--check", "x.js"}, wantOut: "",
			errHas: []string{"/home/user/x.js:1", "SyntaxError: Unexpected token ';'"}, code: 1},
		{name: "preload", files: map[string]string{"pre.js": "globalThis.PRE = 'loaded'"}, args: []string{"-r", "./pre.js", "-e", "console.log(PRE)"}, wantOut: "loaded\n"},
		{name: "help", args: []string{"--help"}, outHas: []string{"Usage: node"}, wantOut: nodeAny},
		{name: "missing script", args: []string{"nope.js"}, wantOut: "", errHas: []string{"Error: Cannot find module '/home/user/nope.js'", "MODULE_NOT_FOUND"}, code: 1},
	})
}

func TestNodeConsole(t *testing.T) {
	runNodeCases(t, []nodeCase{
		nodeScript("log values", `console.log(1, 'two', [3], {four: 4}, null, undefined, true, -0, 5n, Symbol('s'))`,
			"1 two [ 3 ] { four: 4 } null undefined true -0 5n Symbol(s)\n"),
		nodeScript("format specifiers", `console.log('%s|%d|%i|%f|%j|%o|%O|%%|%x', 'str', 42.5, 42.9, '1.5', {a: 1}, [1], {b: {c: {}}}, 'rest')`,
			"str|42.5|42|1.5|{\"a\":1}|[ 1, [length]: 1 ]|{ b: { c: {} } }|%|%x rest\n"),
		{name: "streams", files: map[string]string{"x.js": `console.info('i'); console.debug('d'); console.warn('w'); console.error('e')`}, args: []string{"x.js"}, wantOut: "i\nd\n", errHas: []string{"w\ne\n"}},
		nodeScript("nested depth", `console.log({a: {b: {c: {d: 1}}}, l: [[[[1]]]]})`, "{ a: { b: { c: [Object] } }, l: [ [ [Array] ] ] }\n"),
		nodeScript("strings quoted inside", `console.log(['a', "it's", 'say "hi"'], 'top level')`, "[ 'a', \"it's\", 'say \"hi\"' ] top level\n"),
		nodeScript("map set", `console.log(new Map([['k', {v: 1}]]), new Set([1, 'x']), new Map(), new Set())`, "Map(1) { 'k' => { v: 1 } } Set(2) { 1, 'x' } Map(0) {} Set(0) {}\n"),
		nodeScript("error message", `const e = new TypeError('bad thing'); console.log(String(e)); console.log(e.message, e.name)`, "TypeError: bad thing\nbad thing TypeError\n"),
		nodeScript("class instance", `class P { constructor() { this.x = 1; this.y = [2] } }; console.log(new P(), [new P()])`, "P { x: 1, y: [ 2 ] } [ P { x: 1, y: [ 2 ] } ]\n"),
		nodeScript("long array breaks", `console.log(Array.from({length: 30}, (_, i) => i * 1000))`,
			"[\n      0,  1000,  2000,  3000,  4000,\n   5000,  6000,  7000,  8000,  9000,\n  10000, 11000, 12000, 13000, 14000,\n  15000, 16000, 17000, 18000, 19000,\n  20000, 21000, 22000, 23000, 24000,\n  25000, 26000, 27000, 28000, 29000\n]\n"),
		nodeScript("circular", `const a = {n: 1}; a.self = a; console.log(a)`, "<ref *1> { n: 1, self: [Circular *1] }\n"),
		nodeScript("functions", `console.log(function f() {}, () => {}, class K {}, async function af() {})`, "[Function: f] [Function (anonymous)] [class K] [AsyncFunction: af]\n"),
		nodeScript("console misc", `console.count(); console.count(); console.group('g'); console.log('in'); console.groupEnd(); console.assert(1 === 1); console.table([{a: 1}])`,
			"default: 1\ndefault: 2\ng\n  in\n┌─────────┬───┐\n│ (index) │ a │\n├─────────┼───┤\n│ 0       │ 1 │\n└─────────┴───┘\n"),
		{name: "error to stderr", files: map[string]string{"x.js": `console.error('oops %d', 5); console.log('out')`}, args: []string{"x.js"}, wantOut: "out\n", errHas: []string{"oops 5\n"}},
		nodeScript("error with stack", `console.log(new Error('boom'))`, nodeAny),
	})
	res := nodeRun(t, nil, nil, map[string]string{"x.js": "\nconsole.log([new RangeError('boom')])"}, "", nil, "x.js")
	if !strings.HasPrefix(res.stdout, "[\n  RangeError: boom\n      at /home/user/x.js:2:14") {
		t.Errorf("error inspect: %q", res.stdout)
	}
}

func TestNodeProcess(t *testing.T) {
	runNodeCases(t, []nodeCase{
		{name: "env only from Environ", env: []string{"FOO=bar", "HOME=/h"}, args: []string{"-e", "console.log(JSON.stringify(process.env))"}, wantOut: "{\"FOO\":\"bar\",\"HOME\":\"/h\"}\n"},
		{name: "exit code", args: []string{"-e", "console.log('before'); process.exit(3); console.log('after')"}, wantOut: "before\n", code: 3},
		{name: "exit in timer", args: []string{"-e", "setTimeout(() => { process.exit(5) }, 1); setTimeout(() => console.log('no'), 50)"}, wantOut: "", code: 5},
		{name: "exit in promise", args: []string{"-e", "Promise.resolve().then(() => process.exit(6)).then(() => console.log('no'))"}, wantOut: "", code: 6},
		{name: "exitCode", args: []string{"-e", "process.exitCode = 4; console.log('x')"}, wantOut: "x\n", code: 4},
		{name: "exit event", args: []string{"-e", "process.on('exit', c => console.log('exit', c)); process.exitCode = 2"}, wantOut: "exit 2\n", code: 2},
		{name: "cwd platform", args: []string{"-e", "console.log(process.cwd(), process.platform, typeof process.pid, process.argv0)"}, wantOut: "/home/user linux number node\n"},
		{name: "chdir", files: map[string]string{"d/f.txt": "F"}, args: []string{"-e", "process.chdir('d'); console.log(process.cwd(), require('fs').readFileSync('f.txt', 'utf8'))"}, wantOut: "/home/user/d F\n"},
		{name: "stdout write", args: []string{"-e", "process.stdout.write('a'); process.stdout.write(Buffer.from('b')); process.stderr.write('e'); process.stdout.write('\\n')"}, wantOut: "ab\n", errHas: []string{"e"}},
		{name: "hrtime", args: []string{"-e", "const [s, n] = process.hrtime(); console.log(typeof s, typeof n, typeof process.hrtime.bigint(), process.uptime() >= 0)"}, wantOut: "number number bigint true\n"},
		{name: "stdin data", stdin: "line1\nline2\n", files: map[string]string{"x.js": "let d = ''; process.stdin.setEncoding('utf8'); process.stdin.on('data', c => d += c); process.stdin.on('end', () => console.log(JSON.stringify(d)))"}, args: []string{"x.js"}, wantOut: "\"line1\\nline2\\n\"\n"},
		{name: "stdin readFileSync", stdin: "in put", args: []string{"-e", "console.log(require('fs').readFileSync(0, 'utf8').toUpperCase(), require('fs').readFileSync('/dev/stdin', 'utf8') === '')"}, wantOut: "IN PUT true\n"},
		{name: "readline", stdin: "a\nb\nc", files: map[string]string{"x.js": "const rl = require('readline').createInterface({input: process.stdin}); const l = []; rl.on('line', x => l.push(x)); rl.on('close', () => console.log(l))"}, args: []string{"x.js"}, wantOut: "[ 'a', 'b', 'c' ]\n"},
		{name: "readline question", stdin: "Ann\n", files: map[string]string{"x.js": "const rl = require('readline').createInterface({input: process.stdin, output: process.stdout}); rl.question('name? ', a => { console.log('hi ' + a); rl.close() })"}, args: []string{"x.js"}, wantOut: "name? hi Ann\n"},
		{name: "uncaughtException handler", args: []string{"-e", "process.on('uncaughtException', e => console.log('caught', e.message)); setTimeout(() => console.log('later'), 1); throw new Error('x')"}, wantOut: "caught x\nlater\n"},
		{name: "unhandledRejection handler", args: []string{"-e", "process.on('unhandledRejection', r => console.log('rej', r)); Promise.reject(7)"}, wantOut: "rej 7\n"},
		{name: "beforeExit", args: []string{"-e", "let n = 0; process.on('beforeExit', () => { if (n++ < 2) setTimeout(() => console.log('more', n), 1) })"}, wantOut: "more 1\nmore 2\n"},
	})
}

func TestNodeTimers(t *testing.T) {
	runNodeCases(t, []nodeCase{
		nodeScript("order", `
setTimeout(() => console.log('t20'), 20);
setTimeout(() => {
  console.log('t0');
  setTimeout(() => console.log('timeout from timer'), 0);
  setImmediate(() => console.log('immediate from timer'));
}, 0);
Promise.resolve().then(() => console.log('micro'));
process.nextTick(() => console.log('tick'));
queueMicrotask(() => console.log('qm'));
console.log('sync');
`, "sync\ntick\nmicro\nqm\nt0\nimmediate from timer\ntimeout from timer\nt20\n"),
		nodeScript("interval", `let n = 0; const i = setInterval(() => { console.log('i', ++n); if (n === 3) clearInterval(i) }, 2)`, "i 1\ni 2\ni 3\n"),
		nodeScript("clearTimeout", `const t = setTimeout(() => console.log('no'), 5); clearTimeout(t); setTimeout(() => console.log('yes'), 10)`, "yes\n"),
		nodeScript("args and this", `setTimeout((a, b) => console.log(a + b), 1, 2, 3); setImmediate(x => console.log(x), 'imm')`, "imm\n5\n"),
		nodeScript("unref", `setTimeout(() => console.log('never'), 60000).unref(); console.log('done')`, "done\n"),
		nodeScript("nested", `setTimeout(() => { console.log(1); setTimeout(() => { console.log(2); setImmediate(() => console.log(3)) }, 1) }, 1)`, "1\n2\n3\n"),
		nodeScript("timers/promises", `const { setTimeout: sleep } = require('timers/promises'); (async () => { const v = await sleep(5, 'val'); console.log(v) })()`, "val\n"),
		nodeScript("async await", `
async function f(x) { await null; return x * 2 }
(async () => {
  const r = await Promise.all([f(1), f(2), new Promise(r => setTimeout(() => r(10), 5))]);
  console.log(r);
  for (const p of [f(3), f(4)]) console.log(await p);
})();
`, "[ 2, 4, 10 ]\n6\n8\n"),
		nodeScript("promisify", `const util = require('util'); const sleep = util.promisify(setTimeout); sleep(2).then(() => console.log('slept')); util.promisify((a, cb) => cb(null, a + 1))(1).then(console.log)`, "2\nslept\n"),
	})
}

func TestNodeGlobals(t *testing.T) {
	runNodeCases(t, []nodeCase{
		nodeScript("TextEncoder", `const u = new TextEncoder().encode('héllo €'); console.log(u.length, u[1], new TextDecoder().decode(u), new TextDecoder('utf-8').encoding)`, "10 195 héllo € utf-8\n"),
		nodeScript("Buffer", `const b = Buffer.from('hello'); console.log(b.toString('base64'), b.toString('hex'), Buffer.from('aGk=', 'base64').toString(), Buffer.from([104, 105]).toString('utf8'), Buffer.from('6869', 'hex').toString(), b.length, Buffer.isBuffer(b), b instanceof Uint8Array)`,
			"aGVsbG8= 68656c6c6f hi hi hi 5 true true\n"),
		nodeScript("Buffer more", `const b = Buffer.alloc(4); b.writeUInt32BE(0xdeadbeef); console.log(b, b.readUInt16LE(0), Buffer.concat([Buffer.from('a'), Buffer.from('bc')]).toString(), b.slice(1, 3), JSON.stringify(Buffer.from('A')), Buffer.byteLength('€'), Buffer.from('abc').equals(Buffer.from('abc')))`,
			"<Buffer de ad be ef> 44510 abc <Buffer ad be> {\"type\":\"Buffer\",\"data\":[65]} 3 true\n"),
		nodeScript("atob btoa structuredClone", `console.log(btoa('hi'), atob('aGk='), structuredClone({a: [1, {b: new Map([[1, 2]])}]}))`, "aGk= hi { a: [ 1, { b: [Map] } ] }\n"),
		nodeScript("URL", `const u = new URL('https://user:pw@Example.com:8080/a/b?x=1&y=two#frag'); console.log(u.hostname, u.port, u.pathname, u.search, u.hash, u.searchParams.get('y'), u.origin); const r = new URL('../c?q', 'http://h/a/b/'); console.log(r.href); const p = new URLSearchParams({a: '1 2', b: 'x&y'}); console.log(p.toString())`,
			"example.com 8080 /a/b ?x=1&y=two #frag two https://example.com:8080\nhttp://h/a/c?q\na=1+2&b=x%26y\n"),
		nodeScript("crypto", `const c = require('crypto'); console.log(c.createHash('sha256').update('abc').digest('hex'), c.createHash('md5').update('a').update('bc').digest('base64'), c.createHmac('sha1', 'k').update('m').digest('hex'), c.randomBytes(8).length, /^[0-9a-f-]{36}$/.test(crypto.randomUUID()), c.randomUUID().length)`,
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad kAFQmDzST7DWlj99KOF/cg== 772b71c8a2997e768be01d9711e4a4f34a24ef33 8 true 36\n"),
		nodeScript("globalThis", `console.log(typeof global, global === globalThis, typeof setTimeout, typeof fetch, typeof performance.now(), typeof require, typeof module, typeof exports, typeof __dirname)`, "object true function function number function object object string\n"),
		nodeScript("fetch with no network", `fetch('http://x').catch(e => console.log(e.message, e.cause.code, e.cause.message))`, "fetch failed ECONNREFUSED Failed to connect to x port 80 after 0 ms: this sandbox has no network (its adapter offers none)\n"),
	})
}

func TestNodeFS(t *testing.T) {
	runNodeCases(t, []nodeCase{
		{name: "write read append", args: []string{"x.js"}, files: map[string]string{"x.js": `
const fs = require('fs');
fs.writeFileSync('out.txt', 'hello');
fs.appendFileSync('out.txt', ' world\n');
console.log(fs.readFileSync('out.txt', 'utf8'), fs.readFileSync('out.txt').length, fs.readFileSync('/home/user/out.txt', {encoding: 'utf8'}).trim());
console.log(fs.existsSync('out.txt'), fs.existsSync('nope'));
fs.writeFileSync('bin', Buffer.from([0, 1, 2]));
console.log(fs.readFileSync('bin'));
`}, wantOut: "hello world\n 12 hello world\ntrue false\n<Buffer 00 01 02>\n", check: nodeFileIs("/home/user/out.txt", "hello world\n")},
		{name: "mkdir readdir stat", args: []string{"x.js"}, files: map[string]string{"x.js": `
const fs = require('fs');
console.log(fs.mkdirSync('a/b/c', {recursive: true}));
console.log(fs.mkdirSync('a/b/c', {recursive: true}));
fs.writeFileSync('a/f.txt', '12345');
fs.mkdirSync('a/d');
console.log(fs.readdirSync('a'));
console.log(fs.readdirSync('a', {withFileTypes: true}).map(d => d.name + (d.isDirectory() ? '/' : '')));
console.log(fs.readdirSync('a', {recursive: true}));
const st = fs.statSync('a/f.txt');
console.log(st.isFile(), st.isDirectory(), st.size, st.mtime instanceof Date, st.mtimeMs > 0, fs.statSync('a').isDirectory());
console.log(fs.statSync('nope', {throwIfNoEntry: false}));
`}, wantOut: "/home/user/a\nundefined\n[ 'b', 'd', 'f.txt' ]\n[ 'b/', 'd/', 'f.txt' ]\n[ 'b', 'd', 'f.txt', 'b/c' ]\ntrue false 5 true true true\nundefined\n"},
		{name: "unlink rm rename copy", args: []string{"x.js"}, files: map[string]string{"f1": "one", "f2": "two", "t/a/b.txt": "b", "x.js": `
const fs = require('fs');
fs.unlinkSync('f1');
fs.renameSync('f2', 'f3');
fs.copyFileSync('f3', 'f4');
fs.rmSync('t', {recursive: true, force: true});
fs.rmSync('not-there', {force: true});
console.log(fs.readdirSync('.').sort().join(','), fs.readFileSync('f4', 'utf8'));
`}, wantOut: "f3,f4,x.js two\n", check: func(t *testing.T, fsys afero.Fs) {
			nodeMissing("/home/user/t")(t, fsys)
			nodeMissing("/home/user/f1")(t, fsys)
			nodeFileIs("/home/user/f4", "two")(t, fsys)
		}},
		{name: "errors", args: []string{"x.js"}, files: map[string]string{"d/": "", "x.js": `
const fs = require('fs');
for (const f of [() => fs.readFileSync('missing.txt'), () => fs.readdirSync('x.js'), () => fs.mkdirSync('d'), () => fs.rmSync('d'), () => fs.unlinkSync('nope'), () => fs.renameSync('nope', 'x')]) {
  try { f() } catch (e) { console.log(e.code, e.message) }
}
try { fs.readFileSync('missing.txt') } catch (e) { console.log(e instanceof Error, e.errno, e.syscall, e.path) }
`}, wantOut: "ENOENT ENOENT: no such file or directory, open 'missing.txt'\nENOTDIR ENOTDIR: not a directory, scandir 'x.js'\nEEXIST EEXIST: file already exists, mkdir 'd'\nERR_FS_EISDIR Path is a directory: rm returned EISDIR (is a directory) d\nENOENT ENOENT: no such file or directory, unlink 'nope'\nENOENT ENOENT: no such file or directory, rename 'nope' -> 'x'\ntrue -2 open missing.txt\n"},
		{name: "promises and callbacks", args: []string{"x.js"}, files: map[string]string{"in.txt": "data", "x.js": `
const fs = require('fs');
(async () => {
  await fs.promises.writeFile('p.txt', 'via promises');
  console.log(await fs.promises.readFile('p.txt', 'utf8'));
  console.log((await require('fs/promises').readdir('.')).length);
  try { await fs.promises.readFile('nope') } catch (e) { console.log('rejected', e.code) }
  fs.readFile('in.txt', 'utf8', (err, d) => console.log('cb', err, d));
})();
`}, wantOut: "via promises\n3\nrejected ENOENT\ncb null data\n", check: nodeFileIs("/home/user/p.txt", "via promises")},
		{name: "fds and streams", args: []string{"x.js"}, files: map[string]string{"x.js": `
const fs = require('fs');
const fd = fs.openSync('fd.txt', 'w');
fs.writeSync(fd, 'abc');
fs.writeSync(fd, Buffer.from('def'));
fs.closeSync(fd);
const rfd = fs.openSync('fd.txt', 'r');
const buf = Buffer.alloc(4);
console.log(fs.readSync(rfd, buf, 0, 4, 1), buf.toString());
fs.closeSync(rfd);
const ws = fs.createWriteStream('s.txt');
ws.write('one ');
ws.end('two', () => {
  fs.createReadStream('s.txt', 'utf8').on('data', d => console.log('read', d)).on('end', () => console.log('end'));
});
`}, wantOut: "4 bcde\nread one two\nend\n", check: nodeFileIs("/home/user/fd.txt", "abcdef")},
		{name: "json and text encodings", args: []string{"x.js"}, files: map[string]string{"x.js": `
const fs = require('fs');
fs.writeFileSync('d.json', JSON.stringify({a: [1, 2]}, null, 2));
console.log(JSON.parse(fs.readFileSync('d.json', 'utf8')).a[1]);
fs.writeFileSync('h.txt', '68690a', 'hex');
console.log(JSON.stringify(fs.readFileSync('h.txt', 'latin1')));
`}, wantOut: "2\n\"hi\\n\"\n", check: nodeFileIs("/home/user/h.txt", "hi\n")},
		{name: "data arg type", args: []string{"-e", "try { require('fs').writeFileSync('x', 5) } catch (e) { console.log(e.code) }"}, wantOut: "ERR_INVALID_ARG_TYPE\n"},
		{name: "cp opendir mkdtemp truncate", args: []string{"x.js"}, files: map[string]string{"src/a.txt": "A", "src/sub/b.txt": "B", "x.js": `
const fs = require('fs');
fs.cpSync('src', 'dst', {recursive: true});
console.log(fs.readdirSync('dst', {recursive: true}), fs.readFileSync('dst/sub/b.txt', 'utf8'));
const d = fs.opendirSync('src'); const names = []; let e; while ((e = d.readSync())) names.push(e.name); d.closeSync();
console.log(names, fs.mkdtempSync('tmp-').length, fs.realpathSync('src/../src/a.txt'));
fs.truncateSync('src/a.txt', 0); fs.chmodSync('src/sub/b.txt', 0o600);
console.log(fs.statSync('src/a.txt').size, (fs.statSync('src/sub/b.txt').mode & 0o777).toString(8));
`}, wantOut: "[ 'a.txt', 'sub', 'sub/b.txt' ] B\n[ 'a.txt', 'sub' ] 10 /home/user/src/a.txt\n0 600\n", check: nodeFileIs("/home/user/dst/a.txt", "A")},
	})
}

func TestNodeModules(t *testing.T) {
	runNodeCases(t, []nodeCase{
		nodeScript("path", `const p = require('path'); console.log(p.join('/a/b', '../c', 'd.txt'), p.resolve('x'), p.dirname('/a/b/c'), p.basename('/a/b.js', '.js'), p.extname('f.tar.gz'), p.relative('/a/b', '/a/c/d'), p.isAbsolute('/x'), p.normalize('a//b/./c/..'), p.sep, require('node:path') === p)`,
			"/a/c/d.txt /home/user/x /a/b b .gz ../c/d true a/b / true\n"),
		{name: "os", env: []string{"HOME=/home/someone"}, args: []string{"-e", "const os = require('os'); console.log(JSON.stringify(os.EOL), os.platform(), os.tmpdir(), os.homedir(), os.type(), typeof os.cpus().length)"},
			wantOut: "\"\\n\" linux /tmp /home/someone Linux number\n"},
		nodeScript("util", `const u = require('util'); console.log(u.format('%s:%d', 'a', 1), u.inspect({a: {b: {c: {d: {}}}}}, {depth: 0}), u.inspect('q'), u.isDeepStrictEqual([1, {a: 2}], [1, {a: 2}]), u.types.isDate(new Date()))`,
			"a:1 { a: [Object] } 'q' true true\n"),
		nodeScript("events", `const E = require('events'); const e = new E(); e.on('x', (a, b) => console.log('x', a, b)); e.once('x', () => console.log('once')); e.emit('x', 1, 2); e.emit('x', 3, 4); console.log(e.listenerCount('x')); class C extends E {}; new C().on('y', console.log).emit('y', 'sub')`,
			"x 1 2\nonce\nx 3 4\n1\nsub\n"),
		nodeScript("assert", `const assert = require('assert'); assert.strictEqual(1, 1); assert.deepStrictEqual({a: [1]}, {a: [1]}); try { assert.strictEqual(1, 2) } catch (e) { console.log(e.name, e.code, e.message.split('\n')[0]) } try { assert(false, 'custom') } catch (e) { console.log(e.message) } assert.throws(() => { throw new TypeError('t') }, TypeError); console.log('ok')`,
			"AssertionError ERR_ASSERTION Expected values to be strictly equal:\ncustom\nok\n"),
		nodeScript("child_process unavailable", `try { require('child_process') } catch (e) { console.log(e.message) } try { require('node:child_process').execSync('ls') } catch (e) { console.log(e.message) }`,
			"child_process is not available in this sandbox\nchild_process is not available in this sandbox\n"),
		nodeScript("other unavailable", `for (const m of ['http2', 'net', 'worker_threads']) { try { require(m) } catch (e) { console.log(e.message) } }`,
			"http2 is not available in this sandbox\nnet is not available in this sandbox\nworker_threads is not available in this sandbox\n"),
		{name: "relative requires", args: []string{"main.js"}, files: map[string]string{
			"main.js":          `const a = require('./lib/a'); const b = require('./lib/b.js'); const d = require('./lib/dir'); const j = require('./data.json'); console.log(a.name, b(), d.kind, j.list, require('./lib/a') === a, a.count()); console.log(__filename, __dirname, require.main === module, module.id)`,
			"lib/a.js":         `let n = 0; exports.name = 'a'; exports.count = () => ++n; exports.count(); console.log('loading a', __filename.endsWith('lib/a.js'), __dirname)`,
			"lib/b.js":         `module.exports = () => 'b:' + require('./a').name`,
			"lib/dir/index.js": `module.exports = { kind: require('../../data').list.length + ' items' }`,
			"data.json":        `{"list": [1, 2, 3]}`,
		}, wantOut: "loading a true /home/user/lib\na b:a 3 items [ 1, 2, 3 ] true 2\n/home/user/main.js /home/user true .\n"},
		{name: "node_modules and package main", args: []string{"src/main.js"}, files: map[string]string{
			"src/main.js":                   `console.log(require('pkg').hello(), require('single'), require('pkg/extra'), require.resolve('pkg'))`,
			"node_modules/pkg/package.json": `{"name": "pkg", "main": "lib/entry.js"}`,
			"node_modules/pkg/lib/entry.js": `exports.hello = () => 'hello from pkg'`,
			"node_modules/pkg/extra.js":     `module.exports = 'extra'`,
			"node_modules/single/index.js":  `module.exports = 'single'`,
		}, wantOut: "hello from pkg single extra /home/user/node_modules/pkg/lib/entry.js\n"},
		{name: "cycle", args: []string{"a.js"}, files: map[string]string{
			"a.js": `exports.done = false; const b = require('./b'); console.log('in a, b.done =', b.done); exports.done = true`,
			"b.js": `const a = require('./a'); console.log('in b, a.done =', a.done); exports.done = true`,
		}, wantOut: "in b, a.done = false\nin a, b.done = true\n"},
		{name: "module not found", args: []string{"x.js"}, files: map[string]string{"x.js": "try { require('./nope') } catch (e) { console.log(e.code, e.message.split('\\n')[0]) } try { require('leftpad') } catch (e) { console.log(e.code) }"},
			wantOut: "MODULE_NOT_FOUND Cannot find module './nope'\nMODULE_NOT_FOUND\n"},
		{name: "bad json", args: []string{"x.js"}, files: map[string]string{"bad.json": "{oops", "x.js": "try { require('./bad.json') } catch (e) { console.log(e.name, e.message.startsWith('/home/user/bad.json:')) }"},
			wantOut: "SyntaxError true\n"},
		{name: "syntax error in module", args: []string{"x.js"}, files: map[string]string{"bad.js": "\nlet = = 1", "x.js": "require('./bad')"},
			wantOut: "", errHas: []string{"/home/user/bad.js:2", "SyntaxError"}, code: 1},
		{name: "bad import statement", args: []string{"x.js"}, files: map[string]string{"x.js": "import fs from;\nconsole.log(1)"},
			wantOut: "", errHas: []string{"/home/user/x.js:1", "SyntaxError: Cannot use import statement outside a module"}, code: 1},
		{name: "createRequire and builtinModules", args: []string{"x.js"}, files: map[string]string{"lib/m.js": "module.exports = 'm'", "x.js": "const { createRequire, builtinModules } = require('module'); console.log(createRequire('/home/user/lib/')('./m'), builtinModules.includes('fs'))"},
			wantOut: "m true\n"},
	})
}

// TestNodeESM checks the rewriting of ES modules into CommonJS.
func TestNodeESM(t *testing.T) {
	runNodeCases(t, []nodeCase{
		{name: "mjs project", args: []string{"main.mjs"}, files: map[string]string{
			"main.mjs": `import fs, { readFileSync as rfs } from 'node:fs';
import * as path from 'path';
import Thing, { count, inc, VERSION, list } from './lib.mjs';
import data from './data.json' with { type: 'json' };
inc(); inc();
console.log(typeof fs.readFileSync, typeof rfs, path.basename('/a/b.txt'), new Thing().name, count(), VERSION, list, data.n);
console.log(import.meta.url, import.meta.filename);
`,
			"lib.mjs": `export const VERSION = '1.0', list = [1, 2];
export let counter = 0;
export function inc() { counter++ }
export const count = () => counter;
export default class Thing { constructor() { this.name = 'thing' } }
`,
			"data.json": `{"n": 7}`,
		}, wantOut: "function function b.txt thing 2 1.0 [ 1, 2 ] 7\nfile:///home/user/main.mjs /home/user/main.mjs\n"},
		{name: "import in .js and top-level await", args: []string{"x.js"}, files: map[string]string{
			"x.js": "import { sq } from './m.js';\nconst v = await new Promise(r => setTimeout(() => r(sq(4)), 5));\nconsole.log(v);\nconst os = await import('os');\nconsole.log(os.platform());\n",
			"m.js": "export const sq = x => x * x;\nexport { sq as square };\nexport * from './n.js';\n",
			"n.js": "export const extra = 1;\n",
		}, wantOut: "16\nlinux\n"},
		{name: "require of an ES module", args: []string{"x.js"}, files: map[string]string{
			"x.js":  "const m = require('./m.mjs'); console.log(m.default, m.named, Object.keys(m).sort())",
			"m.mjs": "export default 'def';\nexport const named = 'n';\n",
		}, wantOut: "def n [ 'default', 'named' ]\n"},
		{name: "input-type module", args: []string{"--input-type=module", "-e", "import os from 'os'; console.log(os.platform(), typeof module)"}, wantOut: "linux object\n"},
		{name: "eval module", args: []string{"-e", "import { join } from 'path'; console.log(join('a', 'b'), await Promise.resolve(3))"}, wantOut: "a/b 3\n"},
		{name: "strings left alone", args: []string{"x.mjs"}, files: map[string]string{
			"x.mjs": "import os from 'os';\nconst s = `\nimport nope from 'nope'\n`;\nconst r = /export default 1/;\nconsole.log(s.trim(), r.source, typeof os.EOL);\n",
		}, wantOut: "import nope from 'nope' export default 1 string\n"},
		{name: "error line kept", args: []string{"x.mjs"}, files: map[string]string{
			"x.mjs": "import {\n  join,\n} from 'path';\nlet o = null;\no.f();\n",
		}, wantOut: "", errHas: []string{"/home/user/x.mjs:5\no.f();\n"}, code: 1},
	})
}

func TestNodeErrors(t *testing.T) {
	runNodeCases(t, []nodeCase{
		{name: "uncaught", files: map[string]string{"x.js": "console.log('before');\nfunction f() {\n  throw new TypeError('bad value');\n}\nf();\nconsole.log('after');"}, args: []string{"x.js"},
			wantOut: "before\n", errHas: []string{"/home/user/x.js:3\n  throw new TypeError('bad value');\n", "\nTypeError: bad value\n    at f (/home/user/x.js:3:", "\nNode.js v20.0.0-goja\n"}, code: 1},
		{name: "uncaught with props", args: []string{"-e", "const e = new Error('m'); e.code = 'E_X'; throw e"},
			wantOut: "", errHas: []string{"[eval]:1", "Error: m\n", "code: 'E_X'"}, code: 1},
		{name: "throw string", args: []string{"-e", "throw 'plain'"}, wantOut: "", errHas: []string{"[eval]:1\nthrow 'plain'\n^\nplain\n"}, code: 1},
		{name: "syntax error", files: map[string]string{"x.js": "console.log(1)\nlet x = ;\n"}, args: []string{"x.js"},
			wantOut: "", errHas: []string{"/home/user/x.js:2\nlet x = ;\n        ^\n\nSyntaxError: Unexpected token ';'"}, code: 1},
		{name: "syntax error eval", args: []string{"-e", "console.log(("}, wantOut: "", errHas: []string{"[eval]:1", "SyntaxError: Unexpected end of input"}, code: 1},
		{name: "reference error", args: []string{"-e", "nope()"}, wantOut: "", errHas: []string{"ReferenceError: nope is not defined"}, code: 1},
		{name: "unhandled rejection", files: map[string]string{"x.js": "async function f() {\n  throw new Error('async boom');\n}\nf();\nsetTimeout(() => console.log('not reached'), 50);"}, args: []string{"x.js"},
			wantOut: "", errHas: []string{"/home/user/x.js:2", "Error: async boom"}, code: 1},
		{name: "unhandled rejection value", args: []string{"-e", "Promise.reject(42)"}, wantOut: "", errHas: []string{"The promise rejected with the reason \"42\"", "ERR_UNHANDLED_REJECTION"}, code: 1},
		{name: "unhandled warn mode", args: []string{"--unhandled-rejections=warn", "-e", "Promise.reject(1); setTimeout(() => console.log('went on'), 1)"}, wantOut: "went on\n", errHas: []string{"UnhandledPromiseRejectionWarning"}},
		{name: "handled later in same tick", args: []string{"-e", "const p = Promise.reject(new Error('x')); p.catch(e => console.log('handled', e.message))"}, wantOut: "handled x\n"},
		{name: "error in timer", args: []string{"-e", "setTimeout(() => { null.x }, 1)"}, wantOut: "", errHas: []string{"TypeError: Cannot read property 'x' of"}, code: 1},
		{name: "error in microtask", args: []string{"-e", "queueMicrotask(() => { throw new Error('qm') }); setTimeout(() => console.log('no'), 5)"}, wantOut: "", errHas: []string{"Error: qm"}, code: 1},
		{name: "stack overflow", args: []string{"-e", "function f() { return f() + 1 } f()"}, wantOut: "", errHas: []string{"RangeError: Maximum call stack size exceeded"}, code: 1},
		{name: "custom error class", args: []string{"-e", "class MyError extends Error { constructor(m) { super(m); this.name = 'MyError' } } throw new MyError('mine')"}, wantOut: "", errHas: []string{"MyError: mine"}, code: 1},
	})
}

// TestNodeNoHost checks that a script reaches nothing of the host: not its
// files, not its environment.
func TestNodeNoHost(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "host-secret-8c1f.txt")
	if err := os.WriteFile(secret, []byte("HOST SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("NODE_TEST_HOST_SECRET_8C1F", "leaked")
	src := `const fs = require('fs');
try { console.log(fs.readFileSync(process.argv[2], 'utf8')) } catch (e) { console.log(e.code, e instanceof Error) }
console.log(fs.existsSync(process.argv[2]), fs.existsSync(process.argv[3]));
try { fs.readdirSync(process.argv[3]) } catch (e) { console.log(e.code) }
console.log(process.env.NODE_TEST_HOST_SECRET_8C1F, Object.keys(process.env).join(','));
console.log(require('os').homedir());
`
	res := nodeRun(t, nil, nil, map[string]string{"x.js": src}, "", []string{"HOME=/home/user"}, "x.js", secret, dir)
	if want := "ENOENT true\nfalse false\nENOENT\nundefined HOME\n/home/user\n"; res.stdout != want || res.code != 0 {
		t.Errorf("got %q (status %d, stderr %s), want %q", res.stdout, res.code, res.stderr, want)
	}
	if strings.Contains(res.stdout, "HOST SECRET") || strings.Contains(res.stdout, "leaked") {
		t.Errorf("host data reached the script: %q", res.stdout)
	}
	// require of a host path fails too.
	res = nodeRun(t, nil, nil, nil, "", nil, "-e", "require(process.argv[1])", secret)
	if res.code != 1 || !strings.Contains(res.stderr, "Cannot find module") {
		t.Errorf("require of a host file: status %d, stderr %s", res.code, res.stderr)
	}
}

// TestNodeContext checks that ctx stops a busy loop and pending timers.
func TestNodeContext(t *testing.T) {
	for _, src := range []string{
		"while (true) {}",
		"for (;;) { Math.sqrt(2) }",
		"setInterval(() => {}, 1)",
		"setTimeout(() => console.log('late'), 60000)",
		"(async () => { for (;;) await null })()",
		"function spin() { setImmediate(spin) } spin()",
		"const a = []; while (true) { a.push([1, 2, 3].map(x => x * 2)); if (a.length > 1000) a.length = 0 }",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		res := nodeRun(t, ctx, nil, map[string]string{"x.js": src}, "", nil, "x.js")
		cancel()
		if !errors.Is(res.err, context.DeadlineExceeded) {
			t.Errorf("%s: err %v (status %d, stderr %s), want the deadline", src, res.err, res.code, res.stderr)
		}
		if res.elapsed > 300*time.Millisecond+200*time.Millisecond {
			t.Errorf("%s: stopped after %v", src, res.elapsed)
		}
		if strings.Contains(res.stdout, "late") {
			t.Errorf("%s: a timer outlived ctx", src)
		}
	}
}

// nodeDiffCases are pure-computation scripts whose standard output must be
// the host node's, byte for byte.
var nodeDiffCases = []struct{ name, src string }{
	{"numbers", "console.log(1, 1.5, -0, 0.1 + 0.2, 1e21, 1e-7, 2 ** 53, NaN, Infinity, -Infinity, 0xff, 123456789012345680000, (255).toString(16), (3.14159).toFixed(2), Number.MAX_SAFE_INTEGER, 5 / 3, 10n ** 20n, -5 % 3, Math.round(2.5), Math.max());\n"},
	{"strings", "console.log(\"plain\", 'it\\'s', \"tab\\tnew\\nline\", [\"a'b\", 'a\"b', \"a'b\\\"c\", \"x\\ny\", \"\\u0001\", \"é\", \"日本\"], \"abc\".padStart(6, \"-\"), \"Hello\".split(\"\").reverse().join(\"\"), \"a-b-c\".replaceAll(\"-\", \"+\"), \"  trim  \".trim() + \"|\", \"abc\".at(-1), String.raw`a\\nb`);\n"},
	{"arrays", "console.log([], [1, 2, 3], [[1, [2, [3, [4, [5]]]]]], new Array(3), [1, , 3], Array.from({ length: 5 }, (_, i) => i * i), [3, 1, 2].sort(), [10, 9, 1, 100].sort(), [10, 9, 1, 100].sort((a, b) => a - b), [1, 2, 3].map(x => x * 2).filter(x => x > 2).reduce((a, b) => a + b, 0), [1, [2, [3, [4]]]].flat(Infinity), [\"b\", \"a\", \"c\"].toString());\n"},
	{"longarray", "console.log(Array.from({ length: 30 }, (_, i) => i)); console.log(Array.from({ length: 120 }, (_, i) => i * 3)); console.log(Array.from({ length: 12 }, (_, i) => \"item\" + i)); console.log(Array.from({length: 8}, (_, i) => ({id: i})));\n"},
	{"objects", "console.log({}, { a: 1, b: \"two\", c: [3], d: { e: { f: { g: 1 } } } }, { \"key with space\": 1, valid_id: 2, 3: \"three\", \"4x\": 4 }, { f() {}, g: () => 1, h: function named() {} }, { u: undefined, n: null, t: true, s: Symbol(\"sym\") });\n"},
	{"nested", "const o = { level1: { level2: { level3: { level4: \"deep\" } } }, arr: [[[[\"deep\"]]]] }; console.log(o); console.log(JSON.stringify(o)); console.log(JSON.stringify(o, null, 2));\n"},
	{"wideobject", "console.log({ alpha: \"aaaaaaaaaa\", beta: \"bbbbbbbbbb\", gamma: \"cccccccccc\", delta: \"dddddddddd\", epsilon: \"eeeeeeeeee\", zeta: 1 }); console.log({ name: \"Alice\", age: 30, email: \"alice@example.com\", roles: [\"admin\", \"user\"], active: true, meta: { created: \"2024-01-01\", tags: [\"a\", \"b\"] } });\n"},
	{"json", "const data = { name: \"x\", list: [1, 2, { a: null }], nested: { t: true } }; const s = JSON.stringify(data); console.log(s); console.log(JSON.parse(s)); console.log(JSON.stringify([new Date(0), undefined, () => 1, NaN])); console.log(JSON.stringify({ b: 2, a: 1 }, [\"a\"])); console.log(JSON.stringify(\"he said \\\"hi\\\"\\n\"));\n"},
	{"classes", "class Animal { constructor(name) { this.name = name; } speak() { return `${this.name} makes a sound`; } get upper() { return this.name.toUpperCase(); } static create(n) { return new this(n); } }\nclass Dog extends Animal { #secret = 42; constructor(name) { super(name); this.tricks = [\"sit\"]; } speak() { return `${super.speak()} (woof)`; } get secret() { return this.#secret; } }\nconst d = Dog.create(\"Rex\"); console.log(d.speak(), d.upper, d.secret, d instanceof Animal, Object.getPrototypeOf(d) === Dog.prototype); console.log(d); console.log(Dog, Animal, typeof Dog); console.log(Dog.name, d.constructor.name);\n"},
	{"asyncawait", "const sleep = (ms, v) => new Promise(r => setTimeout(() => r(v), ms));\nasync function main() { console.log(\"start\"); const a = await sleep(20, \"a\"); const [b, c] = await Promise.all([sleep(10, \"b\"), sleep(5, \"c\")]); console.log(a, b, c); try { await Promise.reject(new Error(\"nope\")); } catch (e) { console.log(\"caught\", e.message); } const r = await Promise.allSettled([sleep(1, 1), Promise.reject(2)]); console.log(r); console.log(await Promise.race([sleep(30, \"slow\"), sleep(3, \"fast\")])); console.log(await Promise.any([Promise.reject(1), sleep(2, \"any\")])); return \"done\"; }\nmain().then(v => console.log(v));\n"},
	{"eventorder", "console.log(\"sync 1\"); setTimeout(() => console.log(\"timeout 0\"), 0); setTimeout(() => console.log(\"timeout 10\"), 10); Promise.resolve().then(() => console.log(\"micro 1\")); queueMicrotask(() => console.log(\"micro 2\")); process.nextTick(() => console.log(\"tick\")); (async () => { console.log(\"async body\"); await null; console.log(\"after await\"); })(); console.log(\"sync 2\");\n"},
	{"intervals", "let n = 0; const id = setInterval(() => { n++; console.log(\"tick\", n); if (n === 3) { clearInterval(id); console.log(\"cleared\"); } }, 5); const t = setTimeout(() => console.log(\"never\"), 1); clearTimeout(t);\n"},
	{"templates", "const name = \"World\", n = 3; console.log(`Hello, ${name}! ${n * 2} ${[1, 2].map(x => `<${x}>`).join(\"\")}`); function tag(s, ...v) { return s.raw.join(\"|\") + v.join(\",\"); } console.log(tag`a${1}b${2}c`); console.log(`multi\nline`);\n"},
	{"mapset", "const m = new Map([[\"a\", 1], [\"b\", { x: [1, 2] }]]); m.set(NaN, \"nan\").set({ k: 1 }, \"obj\"); console.log(m, m.size, m.get(\"a\"), [...m.keys()]); const s = new Set([1, 2, 2, 3, \"3\"]); s.add(4); console.log(s, s.has(2), [...s].length); console.log(new Map(), new Set(), new Map([[new Map([[1, 2]]), new Set([new Set([1])])]])); const wm = new WeakMap(); console.log(Object.fromEntries(m.entries().toArray ? [] : [[\"z\", 26]]));\n"},
	{"sorting", "const people = [{ n: \"bob\", a: 25 }, { n: \"alice\", a: 30 }, { n: \"carol\", a: 25 }, { n: \"dave\", a: 20 }]; console.log(people.sort((x, y) => x.a - y.a || x.n.localeCompare(y.n)).map(p => p.n)); console.log([\"b\", \"B\", \"a\", \"A\", \"c\"].sort()); console.log([5, 1, 4].toString(), [3, 2, 1].reverse(), [1, 2, 3, 4, 5].slice(-2), [1, 2, 3].includes(2), [1, 2, 3].findLast(x => x < 3), Object.entries({ x: 1, y: 2 }));\n"},
	{"regex", "const re = /(\\d{4})-(\\d{2})-(\\d{2})/g; const str = \"dates: 2024-01-15 and 2023-12-31\"; console.log(str.match(re), [...str.matchAll(re)].map(m => m[1])); console.log(\"a1b2c3\".replace(/\\d/g, d => d * 2), /^[\\w.]+@\\w+\\.\\w+$/.test(\"me@x.io\"), \"CamelCaseString\".split(/(?=[A-Z])/)); const named = /(?<year>\\d+)-(?<month>\\d+)/.exec(\"2024-05\"); console.log(named.groups.year, named.groups.month, named.index); console.log(/a+/gi, new RegExp(\"x.y\", \"s\").flags, \"aaa\".lastIndexOf(\"a\"), \"x\".repeat(3));\n"},
	{"errors", "try { null.foo; } catch (e) { console.log(e instanceof TypeError, e.name); } try { undefinedVar; } catch (e) { console.log(e.name, e.message); } try { throw new RangeError(\"bad range\"); } catch (e) { console.log(e.name + \": \" + e.message, String(e)); } class MyErr extends Error { constructor(m) { super(m); this.name = \"MyErr\"; this.code = 42; } } try { throw new MyErr(\"custom\"); } catch (e) { console.log(e.name, e.message, e.code, e instanceof MyErr, e instanceof Error); } const e2 = new Error(\"outer\", { cause: \"inner\" }); console.log(e2.cause); console.log(typeof Error.captureStackTrace);\n"},
	{"generators", "function* fib() { let [a, b] = [0, 1]; while (true) { yield a; [a, b] = [b, a + b]; } } const out = []; for (const x of fib()) { if (x > 100) break; out.push(x); } console.log(out); const it = [1, 2, 3][Symbol.iterator](); console.log(it.next(), [...it]); function* g() { const x = yield 1; console.log(\"got\", x); } const gi = g(); gi.next(); gi.next(\"hello\");\n"},
	{"destructuring", "const { a, b: { c = 5 } = {}, ...rest } = { a: 1, b: {}, d: 4, e: 5 }; console.log(a, c, rest); const [x, , y = 10, ...zs] = [1, 2, undefined, 4, 5]; console.log(x, y, zs); const merged = { ...{ p: 1 }, ...{ q: 2 }, p: 3 }; console.log(merged); const fn = ({ k = \"def\" } = {}) => k; console.log(fn(), fn({ k: \"v\" })); console.log(Math.max(...[1, 5, 3]), [...\"héllo\"]);\n"},
	{"closures", "function counter() { let c = 0; return { inc: () => ++c, get: () => c }; } const c1 = counter(), c2 = counter(); c1.inc(); c1.inc(); c2.inc(); console.log(c1.get(), c2.get()); const adders = []; for (let i = 0; i < 3; i++) adders.push(x => x + i); console.log(adders.map(f => f(10))); const memo = (f, cache = new Map()) => n => cache.has(n) ? cache.get(n) : (cache.set(n, f(n)), cache.get(n)); const fact = memo(n => n <= 1 ? 1 : n * fact(n - 1)); console.log(fact(20), fact(25));\n"},
	{"dates", "const d = new Date(Date.UTC(2024, 0, 15, 10, 30, 45, 123)); console.log(d.toISOString(), d.getTime(), d.getUTCDay(), JSON.stringify({ d })); console.log(d); console.log([d]); console.log(new Date(\"2024-03-01T00:00:00Z\").getTime() - new Date(\"2024-02-01T00:00:00Z\").getTime()); console.log(new Date(NaN).getTime(), isNaN(new Date(\"garbage\")));\n"},
	{"bigint", "const big = 2n ** 100n; console.log(big, big.toString(), typeof big, BigInt(123) * 2n, big % 7n, -(2n ** 64n)); console.log([1n, 2n], { b: 10n }); console.log(BigInt.asUintN(8, 257n), 5n > 3, 0n == false);\n"},
	{"format", "console.log(\"%s is %d years and %i, %f\", \"Bob\", 42.5, 42.9, \"3.5\"); console.log(\"%j %o\", { a: 1 }, [1]); console.log(\"%O\", { deep: { er: { est: { x: 1 } } } }); console.log(\"100%%\", \"%c styled\", \"color: red\"); console.log(\"%s\", { toString() { return \"custom\" } }, \"extra\", 1); console.log(\"%d\", \"abc\", \"%s\"); console.log(\"no subs\", \"%s\");\n"},
	{"util", "const util = require(\"util\"); console.log(util.format(\"%s=%d\", \"x\", 5), util.inspect({ a: [1, 2, { b: { c: { d: 1 } } }] }, { depth: 0 }), util.inspect(\"str\"), util.inspect(new Map([[1, 2]]), { compact: false })); console.log(util.inspect({ a: 1, b: [1, 2, 3] }, { compact: false, breakLength: 80 })); console.log(util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), util.types.isPromise(Promise.resolve()), util.inspect(Symbol(\"x\")), util.inspect(123n), util.inspect(null), util.inspect([undefined, null]));\n"},
	{"path", "const path = require(\"path\"); console.log(path.join(\"/a/b\", \"../c\", \"./d.txt\"), path.resolve(\"/x\", \"y\", \"..\", \"z\"), path.dirname(\"/a/b/c.js\"), path.basename(\"/a/b/c.js\"), path.basename(\"/a/b/c.js\", \".js\"), path.extname(\"file.tar.gz\"), path.relative(\"/a/b/c\", \"/a/d\"), path.isAbsolute(\"./x\"), path.normalize(\"/a//b/../c/./d/\"), path.sep, path.parse(\"/home/u/f.txt\"), path.format({ dir: \"/x\", base: \"y.z\" }), path.join(), path.extname(\".bashrc\"));\n"},
	{"getterssetters", "const o = { _v: 1, get v() { return this._v; }, set v(x) { this._v = x * 2; } }; o.v = 5; console.log(o.v, o); const frozen = Object.freeze({ a: 1 }); \"use strict\"; console.log(Object.isFrozen(frozen), Object.keys(o), Object.getOwnPropertyNames(o)); const p = new Proxy({}, { get: (t, k) => k === \"hello\" ? \"world\" : undefined }); console.log(p.hello); console.log(Object.entries({ a: 1, b: [2] }), Reflect.ownKeys({ [Symbol.for(\"s\")]: 1, x: 2 }));\n"},
	{"typed", "const u8 = new Uint8Array([1, 2, 255]); console.log(u8, new Float64Array([1.5, -2]), new Int16Array(3), u8.buffer.byteLength, Array.from(u8)); const b = Buffer.from(\"héllo wörld\"); console.log(b.length, b.toString(\"hex\"), b.toString(\"base64\"), Buffer.from(\"aGVsbG8=\", \"base64\").toString(), b); console.log(new TextEncoder().encode(\"€\"), new TextDecoder().decode(new Uint8Array([226, 130, 172]))); console.log(Buffer.concat([Buffer.from(\"a\"), Buffer.from(\"b\")]).toString(), Buffer.alloc(3, 1), Buffer.byteLength(\"€\"));\n"},
	{"labels", "outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j === 1) continue outer; if (i === 2) break outer; console.log(i, j); } } let k = 0; do { k++; } while (k < 5); console.log(k); switch (3) { case 1: console.log(\"one\"); case 3: console.log(\"three\"); case 4: console.log(\"four (fallthrough)\"); break; default: console.log(\"default\"); } console.log(typeof null, typeof undefined, typeof [], typeof function () {}, void 0);\n"},
	{"optional", "const o = { a: { b: null }, f: null }; console.log(o?.a?.b?.c, o.x?.y, o.f?.(), o.a.b ?? \"default\", 0 || \"or\", 0 ?? \"nullish\", \"\"?.length); let x = null; x ??= 5; let y = 1; y ||= 2; let z = 1; z &&= 3; console.log(x, y, z, 2 ** 10, 7 % -3, -7 % 3, 1_000_000);\n"},
	{"iteration", "const obj = { b: 1, a: 2, 10: \"ten\", 2: \"two\" }; for (const k in obj) console.log(k); console.log(Object.keys(obj), Object.values(obj)); const arr = [\"x\", \"y\"]; for (const [i, v] of arr.entries()) console.log(i, v); arr.forEach((v, i, a) => console.log(v, i, a.length)); console.log(Object.groupBy ? \"has groupBy\" : \"no groupBy\");\n"},
	{"console", "console.log(); console.log(\"\"); console.log(null, undefined); console.info(\"info\"); console.debug(\"debug\"); console.group(\"G\"); console.log(\"inside\"); console.group(); console.log(\"deeper\"); console.groupEnd(); console.groupEnd(); console.log(\"out\"); console.table([{ a: 1, b: \"x\" }, { a: 2, c: true }]); console.table({ r1: { c: 1 }, r2: { c: 2 } }); console.count(); console.count(\"k\"); console.count(); console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });\n"},
	{"process", "console.log(typeof process.argv, process.argv.length >= 2, process.platform, typeof process.env, process.exitCode, typeof process.hrtime.bigint(), typeof process.memoryUsage().heapUsed, typeof process.nextTick, process.stdout.write(\"raw write\\n\")); process.stdout.write(\"no newline\"); process.stdout.write(\"\\n\"); process.on(\"exit\", (c) => console.log(\"exiting with\", c));\n"},
	{"strictmode", "\"use strict\"; try { undeclared = 1; } catch (e) { console.log(e.name); } const o = Object.freeze({ a: 1 }); try { o.a = 2; } catch (e) { console.log(e.name); } console.log((function () { return this; })());\n"},
	{"symbols", "const s = Symbol(\"desc\"); const o = { [s]: 1, regular: 2, [Symbol.iterator]: function* () { yield 1; yield 2; } }; console.log(o, [...o], s.toString(), s.description, Symbol.for(\"x\") === Symbol.for(\"x\")); class C { static [Symbol.hasInstance](x) { return x === 1; } get [Symbol.toStringTag]() { return \"Custom\"; } } console.log(1 instanceof C, Object.prototype.toString.call(new C()), new C());\n"},
	{"inspectcustom", "const util = require(\"util\"); class Money { constructor(a) { this.a = a; } [util.inspect.custom]() { return `Money<${this.a}>`; } } console.log(new Money(5), [new Money(1)], { m: new Money(2) }); const circ = { name: \"c\" }; circ.self = circ; circ.list = [circ]; console.log(circ); console.log([function () {}, () => {}, async () => {}, class {}, Math.max]);\n"},
	{"longstrings", "const long = \"x\".repeat(100); console.log({ long }); console.log([long.slice(0, 50), long.slice(0, 30)]); console.log({ multi: \"line one\\nline two\\nline three that is rather long to force a break maybe\" }); console.log(\"a\".repeat(200).length);\n"},
	{"numbersformat", "console.log([0.1, 0.25, 1 / 3, 100, 1e100, -1e-100, 2 ** 31, 2 ** 32 + 0.5]); console.log((1234.5678).toFixed(1), (0.000001234).toPrecision(2), (123.456).toExponential(2), Number(\"12px\"), parseInt(\"12px\"), parseFloat(\"1.5e3\"), Number(\"\"), +true, 0.1 * 3, 9007199254740993, 1 / 0, -1 / 0); console.log([1, -1, 10, -10, 100, -100, 1000]);\n"},
	{"spreadmisc", "console.log([...\"abc\"].map(c => c.charCodeAt(0)), Array.of(7, 8), Array.prototype.concat.call([1], [2], 3), Object.assign({}, { a: 1 }, null, { b: 2 }), Array.isArray([]), [3, 1, 2].toSorted ? \"toSorted\" : \"none\", structuredClone({ a: [1, { b: 2 }] }), \"abc\".localeCompare(\"abd\"), encodeURIComponent(\"a b&c=d/é\"), decodeURIComponent(\"%E2%82%AC\"), escape ? \"escape\" : \"\", btoa(\"hello\"), atob(\"aGVsbG8=\"));\n"},
}

// TestNodeDifferential runs nodeDiffCases with the host's node (skipped
// when there is none) and with the builtin, and compares their stdout.
func TestNodeDifferential(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on the host")
	}
	version, _ := exec.Command(nodeBin, "--version").Output()
	pass := 0
	for _, tc := range nodeDiffCases {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "main.js"), []byte(tc.src), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(nodeBin, "main.js")
		cmd.Dir = dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "TZ=UTC", "NODE_DISABLE_COLORS=1"}
		want, err := cmd.Output()
		if err != nil {
			t.Errorf("%s: host node: %v", tc.name, err)
			continue
		}
		res := nodeRun(t, nil, nil, map[string]string{"main.js": tc.src}, "", nil, "main.js")
		if res.stdout != string(want) || res.code != 0 {
			t.Errorf("%s: differs from node %s--- node:\n%s--- builtin (status %d):\n%s--- stderr:\n%s", tc.name, version, want, res.code, res.stdout, res.stderr)
			continue
		}
		pass++
	}
	t.Logf("differential: %d/%d scripts print the same as node %s", pass, len(nodeDiffCases), strings.TrimSpace(string(version)))
}
