package shell

// The interpreter's handlers, wired to the session's filesystem: open
// (redirections, source), stat and access (cd, test), read-dir (globbing),
// and the call handler that routes the few shell builtins which would look
// at the host (source's $PATH search, command -v, type, pwd -P) to this
// package's versions.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/spf13/afero"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// shInternal starts the names of the session's internal commands, which
// the call handler substitutes for builtins that would reach the host (and
// which rewritten code calls). They survive printing and parsing again.
const shInternal = "__agentenkit_sh_"

// shSourceMark ends a path handed to the interpreter's source builtin: the
// NUL makes its $PATH lookup fail before any host system call, and tells
// the open handler to serve the session's prepared text.
const shSourceMark = "\x00"

// shNoFifoDir is what the interpreter takes for $TMPDIR: a path no script
// can name, so that it never opens a host file as one of its FIFOs.
const shNoFifoDir = "/\x00sh-no-fifo"

// shIdentity are the sandbox's fixed user variables, unless Env sets them.
var shIdentity = map[string]string{"UID": "1000", "EUID": "1000", "GID": "1000"}

// session is what every Runner of one Run shares: the filesystem, the
// command tables, the function names seen, temporary files.
type session struct {
	base     afero.Fs // Options.FS with POSIX rules
	handlers map[string]Builtin
	fallback Builtin
	fbNames  map[string]bool
	name     string
	runID    string
	interp   string // Options.Interpreter

	mu        sync.Mutex
	funcs     map[string]bool
	procN     int
	procFiles []string
	sources   map[string]string // prepared texts for source, by marked path
}

type sessionKey struct{}

// sessionFrom returns the session a builtin runs in, if any.
func sessionFrom(ctx context.Context) (*session, bool) {
	s, ok := ctx.Value(sessionKey{}).(*session)
	return s, ok
}

func newSession(opts Options) *session {
	var id [6]byte
	_, _ = rand.Read(id[:])
	s := &session{
		base:     posixfs.Strict(opts.FS),
		handlers: opts.Handlers,
		fallback: opts.Fallback,
		fbNames:  map[string]bool{},
		name:     opts.Name,
		interp:   cmpOr(opts.Interpreter, defaultInterpreter),
		runID:    hex.EncodeToString(id[:]),
		funcs:    map[string]bool{},
		sources:  map[string]string{},
	}
	if s.name == "" {
		s.name = "bash"
	}
	for _, n := range opts.FallbackNames {
		s.fbNames[n] = true
	}
	return s
}

// child is a session for a nested shell (bash -c, a script): the same
// filesystem and commands, its own functions.
func (s *session) child() *session {
	var id [6]byte
	_, _ = rand.Read(id[:])
	return &session{
		base:     s.base,
		handlers: s.handlers,
		fallback: s.fallback,
		fbNames:  s.fbNames,
		name:     s.name,
		interp:   s.interp,
		runID:    hex.EncodeToString(id[:]),
		funcs:    map[string]bool{},
		sources:  map[string]string{},
	}
}

func (s *session) addFunc(name string) {
	s.mu.Lock()
	s.funcs[name] = true
	s.mu.Unlock()
}

func (s *session) hasFunc(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.funcs[name]
}

// newRunner makes an interpreter for sp over the session. Its folder is
// set directly (interp.Dir would check the path on the host).
func (s *session) newRunner(sp scriptSpec) (*interp.Runner, error) {
	if platformStdin != nil {
		sp.stdin = platformStdin(s, sp.stdin)
	}
	env := &shEnviron{base: expand.ListEnviron(sp.env...)}
	opts := []interp.RunnerOption{
		interp.Env(env),
		func(r *interp.Runner) error { r.Dir = sp.dir; return nil },
		interp.StdIO(sp.stdin, sp.stdout, sp.stderr),
		interp.OpenHandler(s.openHandler),
		interp.StatHandler(s.statHandler),
		interp.ReadDirHandler2(s.readDirHandler),
		interp.AccessHandler(s.accessHandler),
		interp.CallHandler(s.callHandler),
		interp.ExecHandlers(s.execMiddleware),
	}
	if len(sp.flags) > 0 {
		opts = append(opts, interp.Params(sp.flags...))
	}
	if len(sp.params) > 0 {
		opts = append(opts, interp.Params(append([]string{"--"}, sp.params...)...))
	}
	r, err := interp.New(opts...)
	if err != nil {
		return nil, err
	}
	// The first Reset takes the FIFO folder from $TMPDIR: give it one no
	// script can reach, then show the real environment again.
	env.hideTMPDIR = true
	r.Reset()
	env.hideTMPDIR = false
	return r, nil
}

// shEnviron is the interpreter's base environment: Options.Env, the
// sandbox's UID, EUID and GID (not exported), and, while the Runner is
// first reset, shNoFifoDir as $TMPDIR.
type shEnviron struct {
	base       expand.Environ
	hideTMPDIR bool
}

func (e *shEnviron) Get(name string) expand.Variable {
	if e.hideTMPDIR && name == "TMPDIR" {
		return expand.Variable{Set: true, Kind: expand.String, Str: shNoFifoDir}
	}
	if user, ok := strings.CutPrefix(name, "HOME "); ok {
		return shUserHome(user)
	}
	vr := e.base.Get(name)
	if !vr.Declared() {
		if v, ok := shIdentity[name]; ok {
			return expand.Variable{Set: true, Kind: expand.String, ReadOnly: true, Str: v}
		}
	}
	return vr
}

// shUserHome is what ~NAME expands to: the sandbox's users are user
// (/home/user) and root (/root); any other name stays as written, as bash
// leaves the tilde of a user it does not know. (The interpreter would
// otherwise ask the host's user database.)
func shUserHome(name string) expand.Variable {
	home := "~" + name
	switch name {
	case "user":
		home = "/home/user"
	case "root":
		home = "/root"
	}
	return expand.Variable{Set: true, Kind: expand.String, Str: home}
}

func (e *shEnviron) Each(fn func(name string, vr expand.Variable) bool) {
	stop := false
	e.base.Each(func(name string, vr expand.Variable) bool {
		if !fn(name, vr) {
			stop = true
			return false
		}
		return true
	})
	if stop {
		return
	}
	for _, name := range []string{"EUID", "GID", "UID"} {
		if vr := e.base.Get(name); vr.Declared() {
			continue
		}
		if !fn(name, e.Get(name)) {
			return
		}
	}
}

// hcFS is the session's filesystem with the devices bound to the
// handler context's streams.
func (s *session) hcFS(hc interp.HandlerContext) afero.Fs {
	return posixfs.WithDev(s.base, hc.Stdin, hc.Stdout, hc.Stderr)
}

func shAbs(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

// shPathError is an error the interpreter prints as it is ("bash: x: No
// such file or directory") and treats as a failed operation (status 1):
// an *os.PathError whose Op is the shell's name.
func (s *session) shPathError(p string, err error) error {
	return &os.PathError{Op: s.name + ":", Path: p, Err: shErrText{err}}
}

// shErrText shows an error as strerror's text while keeping it for
// errors.Is.
type shErrText struct{ err error }

func (e shErrText) Error() string { return posixfs.ErrText(e.err) }
func (e shErrText) Unwrap() error { return e.err }

// openHandler opens redirections' files (and source's) in the FS.
func (s *session) openHandler(ctx context.Context, p string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	if strings.HasSuffix(p, shSourceMark) {
		s.mu.Lock()
		text, ok := s.sources[p]
		s.mu.Unlock()
		if ok {
			return shTextFile{strings.NewReader(text)}, nil
		}
		p = strings.TrimSuffix(p, shSourceMark)
	}
	if p == "" {
		return nil, s.shPathError(p, syscall.ENOENT)
	}
	f, err := s.hcFS(hc).OpenFile(shAbs(hc.Dir, p), flag, perm)
	if err != nil {
		return nil, s.shPathError(p, err)
	}
	if platformOpen != nil {
		return platformOpen(s, hc, p, flag, f)
	}
	return f, nil
}

// shTextFile is a read-only text given to the interpreter as a file.
type shTextFile struct{ *strings.Reader }

func (shTextFile) Write([]byte) (int, error) { return 0, syscall.EBADF }
func (shTextFile) Close() error              { return nil }

// statHandler is stat or lstat in the FS; the FileInfo's Sys is what the
// interpreter's -O, -G and -N tests look for.
func (s *session) statHandler(ctx context.Context, name string, followSymlinks bool) (fs.FileInfo, error) {
	hc := interp.HandlerCtx(ctx)
	fsys := s.hcFS(hc)
	abs := shAbs(hc.Dir, name)
	var fi fs.FileInfo
	var err error
	if followSymlinks {
		fi, err = fsys.Stat(abs)
	} else {
		fi, err = posixfs.Lstat(fsys, abs)
	}
	if err != nil {
		return nil, err
	}
	return shStatInfo{fi}, nil
}

// shStatInfo gives a FileInfo the Sys the interpreter expects on this
// platform (see fsSys).
type shStatInfo struct{ fs.FileInfo }

func (i shStatInfo) Sys() any { return posixfs.Sys(i.FileInfo) }

// readDirHandler lists a folder for globbing.
func (s *session) readDirHandler(ctx context.Context, name string) ([]fs.DirEntry, error) {
	hc := interp.HandlerCtx(ctx)
	fsys := s.hcFS(hc)
	abs := shAbs(hc.Dir, name)
	fi, err := fsys.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, posixfs.PathErr("readdirent", abs, syscall.ENOTDIR)
	}
	list, err := posixfs.ReadDir(fsys, abs)
	if err != nil {
		return nil, err
	}
	out := make([]fs.DirEntry, len(list))
	for i, fi := range list {
		out[i] = fs.FileInfoToDirEntry(fi)
	}
	return out, nil
}

// accessHandler answers -r, -w, -x and cd's check from the owner's
// permission bits: the sandbox's user owns every file.
func (s *session) accessHandler(ctx context.Context, name string, mode interp.AccessMode) error {
	hc := interp.HandlerCtx(ctx)
	fi, err := s.hcFS(hc).Stat(shAbs(hc.Dir, name))
	if err != nil {
		return err
	}
	perm := fi.Mode().Perm()
	if (mode&interp.AccessRead != 0 && perm&0o400 == 0) ||
		(mode&interp.AccessWrite != 0 && perm&0o200 == 0) ||
		(mode&interp.AccessExec != 0 && perm&0o100 == 0) {
		return posixfs.PathErr("access", name, syscall.EACCES)
	}
	return nil
}

// shMaxFrames caps the Go stack frames under a simple command: about
// 10,000 levels of nested functions or scripts. Past it a command halts
// the shell instead of growing the goroutine's stack to Go's fatal limit.
// (A variable for the tests.)
var shMaxFrames = 120_000

var shFramePool sync.Pool

// shTooDeep tells whether the calling goroutine's stack is past
// shMaxFrames (cheaply when it is shallow, as it nearly always is).
func shTooDeep() bool {
	var small [512]uintptr
	if runtime.Callers(0, small[:]) < len(small) {
		return false
	}
	buf, _ := shFramePool.Get().(*[]uintptr)
	if buf == nil || len(*buf) != shMaxFrames {
		b := make([]uintptr, shMaxFrames)
		buf = &b
	}
	defer shFramePool.Put(buf)
	return runtime.Callers(0, *buf) >= shMaxFrames
}

// callHandler sees every simple command after expansion and routes the
// builtins that would reach the host to the session's own versions. It
// halts a shell nested too deep (runaway recursion).
func (s *session) callHandler(ctx context.Context, args []string) ([]string, error) {
	if shTooDeep() {
		return nil, fmt.Errorf("%s: maximum function nesting level exceeded", args[0])
	}
	i := 0 // skip "builtin" and "command" prefixes
	for i < len(args)-1 && (args[i] == "builtin" || (args[i] == "command" && !strings.HasPrefix(args[i+1], "-"))) {
		i++
	}
	rest := args[i+1:]
	with := func(name string, tail ...string) []string {
		return append([]string{name}, tail...)
	}
	switch args[i] {
	case "source", ".":
		return s.callSource(interp.HandlerCtx(ctx), args, i)
	case "command":
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
				break
			}
			if strings.ContainsAny(a, "vV") {
				return with(shInternal+"command", rest...), nil
			}
		}
	case "type":
		return with(shInternal+"type", rest...), nil
	case "umask":
		return with(shInternal+"umask", rest...), nil
	case "pwd":
		if slices.Contains(rest, "-P") {
			return with(shInternal+"pwd", rest...), nil
		}
	case "test", "[":
		for j := i + 1; j < len(args)-1; j++ {
			if (args[j] == "-O" || args[j] == "-G") && (j == i+1 || slices.Contains([]string{"!", "(", "-a", "-o"}, args[j-1])) {
				args[j] = "-e"
			}
		}
	case "eval":
		src := strings.Join(rest, " ")
		f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		if err == nil && s.rewrite(f) {
			var b strings.Builder
			if syntax.NewPrinter().Print(&b, f) == nil {
				return append(slices.Clone(args[:i+1]), b.String()), nil
			}
		}
	case "shift":
		// The interpreter panics on a negative count.
		if len(rest) == 1 {
			if n, err := strconv.Atoi(rest[0]); err == nil && n < 0 {
				fmt.Fprintf(interp.HandlerCtx(ctx).Stderr, "%s: shift: %s: shift count out of range\n", s.name, rest[0])
				return []string{shInternal + "status", "1"}, nil
			}
		}
	case "unset":
		if slices.Contains(rest, "-f") {
			s.mu.Lock()
			for _, n := range rest {
				delete(s.funcs, n)
			}
			s.mu.Unlock()
		}
	}
	return args, nil
}

// callSource finds source's file in the FS (a name without a slash
// through $PATH, then the current folder, as bash does), checks and
// prepares its text, and hands the interpreter a marked path its open
// handler serves.
func (s *session) callSource(hc interp.HandlerContext, args []string, i int) ([]string, error) {
	if len(args) < i+2 {
		return args, nil
	}
	name := args[i+1]
	fsys := s.hcFS(hc)
	abs := ""
	if strings.Contains(name, "/") {
		abs = shAbs(hc.Dir, name)
	} else {
		for _, d := range append(strings.Split(hc.Env.Get("PATH").String(), ":"), hc.Dir) {
			if d == "" {
				d = hc.Dir
			}
			cand := shAbs(hc.Dir, path.Join(d, name))
			if fi, err := fsys.Stat(cand); err == nil && !fi.IsDir() {
				abs = cand
				break
			}
		}
		if abs == "" {
			abs = shAbs(hc.Dir, name)
		}
	}
	fail := func(code int, format string, a ...any) ([]string, error) {
		fmt.Fprintf(hc.Stderr, format, a...)
		return []string{shInternal + "status", fmt.Sprint(code)}, nil
	}
	if fi, err := fsys.Stat(abs); err != nil {
		return fail(1, "%s: %s: %s\n", s.name, name, posixfs.ErrText(err))
	} else if fi.IsDir() {
		return fail(1, "%s: %s: %s\n", s.name, name, "is a directory")
	}
	data, err := afero.ReadFile(fsys, abs)
	if err != nil {
		return fail(1, "%s: %s: %s\n", s.name, name, posixfs.ErrText(err))
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(string(data)), name)
	if err != nil {
		return fail(2, "%s\n", s.syntaxMessage(name, err))
	}
	text := string(data)
	if s.rewrite(f) {
		var b strings.Builder
		if err := syntax.NewPrinter().Print(&b, f); err == nil {
			text = b.String()
		}
	}
	marked := abs + shSourceMark
	s.mu.Lock()
	s.sources[marked] = text
	s.mu.Unlock()
	out := slices.Clone(args[:i+1])
	out = append(out, marked)
	return append(out, args[i+2:]...), nil
}

// internal runs one of the session's internal commands (see callHandler).
func (s *session) internal(ctx context.Context, hc interp.HandlerContext, args []string) error {
	name := strings.TrimPrefix(args[0], shInternal)
	switch name {
	case "status":
		var n int
		fmt.Sscan(args[1], &n)
		return Exit(n)
	case "echo":
		fmt.Fprintln(hc.Stdout, strings.Join(args[1:], " "))
		return nil
	case "fail":
		fmt.Fprintf(hc.Stderr, "%s: %s\n", s.name, strings.Join(args[1:], " "))
		return Exit(1)
	case "command":
		return s.commandV(hc, args[1:])
	case "type":
		return s.typeBuiltin(hc, args[1:])
	case "pwd":
		return s.pwdP(hc, args[1:])
	case "umask":
		return s.umaskBuiltin(hc, args[1:])
	}
	return fmt.Errorf("unknown internal command %q", name)
}

// lookKind is what a command name is: "keyword", "function", "builtin",
// "file" (with its path) or "" (nothing).
func (s *session) lookKind(c lookEnv, name string) (kind, where string) {
	switch {
	case syntax.IsKeyword(name):
		return "keyword", ""
	case s.hasFunc(name):
		return "function", ""
	case interp.IsBuiltin(name):
		return "builtin", ""
	}
	if p := s.lookPath(c, name); p != "" {
		return "file", p
	}
	return "", ""
}

// lookEnv is what a $PATH search needs.
type lookEnv struct {
	fsys afero.Fs
	dir  string
	path string // $PATH
}

// lookPath finds the program name would run as a file: a path with a
// slash (an executable file of the FS), a handler, a coreutil or a
// fallback name ("/usr/bin/NAME"), an executable in a $PATH folder of the
// FS. It returns "" for none.
func (s *session) lookPath(c lookEnv, name string) string {
	if name == "" {
		return ""
	}
	if strings.Contains(name, "/") {
		if fsExecutable(c.fsys, shAbs(c.dir, name)) {
			return name
		}
		if _, ok := s.binPath(c.fsys, shAbs(c.dir, name)); ok {
			return name
		}
		return ""
	}
	if _, ok := s.handlers[name]; ok {
		return "/usr/bin/" + name
	}
	if _, ok := lookupBuiltin(name); ok {
		return "/usr/bin/" + name
	}
	if p := fsLookPath(c.fsys, c.dir, c.path, name); p != "" {
		return p
	}
	if s.fbNames[name] {
		return "/usr/bin/" + name
	}
	return ""
}

// fsExecutable tells whether name is a file with an execute bit.
func fsExecutable(fsys afero.Fs, name string) bool {
	fi, err := fsys.Stat(name)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// fsLookPath searches the folders of pathList in fsys for an executable
// file called name; "" for none.
func fsLookPath(fsys afero.Fs, dir, pathList, name string) string {
	if pathList == "" {
		return ""
	}
	for _, d := range strings.Split(pathList, ":") {
		if d == "" {
			d = "."
		}
		cand := path.Join(d, name)
		if fsExecutable(fsys, shAbs(dir, cand)) {
			if !path.IsAbs(cand) && !strings.HasPrefix(cand, ".") {
				cand = "./" + cand
			}
			return cand
		}
	}
	return ""
}

// fsLookPathNoExec is the first regular file called name in the folders
// of pathList that has no execute bit, as bash names it when no folder has
// an executable one ("Permission denied"); "" for none.
func fsLookPathNoExec(fsys afero.Fs, dir, pathList, name string) string {
	if pathList == "" {
		return ""
	}
	for _, d := range strings.Split(pathList, ":") {
		if d == "" {
			d = "."
		}
		cand := path.Join(d, name)
		if fi, err := fsys.Stat(shAbs(dir, cand)); err == nil && fi.Mode().IsRegular() {
			return cand
		}
	}
	return ""
}

func (s *session) hcLook(hc interp.HandlerContext) lookEnv {
	return lookEnv{fsys: s.hcFS(hc), dir: hc.Dir, path: hc.Env.Get("PATH").String()}
}

// commandV is command -v and command -V.
func (s *session) commandV(hc interp.HandlerContext, args []string) error {
	verbose := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, ch := range a[1:] {
			switch ch {
			case 'v':
			case 'V':
				verbose = true
			case 'p':
			default:
				fmt.Fprintf(hc.Stderr, "%s: command: -%c: invalid option\ncommand: usage: command [-pVv] command [arg ...]\n", s.name, ch)
				return Exit(2)
			}
		}
	}
	status := 0
	look := s.hcLook(hc)
	for _, name := range args {
		kind, where := s.lookKind(look, name)
		switch {
		case kind == "":
			status = 1
			if verbose {
				fmt.Fprintf(hc.Stderr, "%s: command: %s: not found\n", s.name, name)
			}
		case !verbose && kind == "file":
			fmt.Fprintln(hc.Stdout, where)
		case !verbose:
			fmt.Fprintln(hc.Stdout, name)
		default:
			fmt.Fprintln(hc.Stdout, shTypeText(name, kind, where))
		}
	}
	return Exit(status)
}

func shTypeText(name, kind, where string) string {
	switch kind {
	case "keyword":
		return name + " is a shell keyword"
	case "function":
		return name + " is a function"
	case "builtin":
		return name + " is a shell builtin"
	}
	return name + " is " + where
}

// typeBuiltin is bash's type (-t, -p, -P, -a).
func (s *session) typeBuiltin(hc interp.HandlerContext, args []string) error {
	mode, all := "", false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, ch := range a[1:] {
			switch ch {
			case 't', 'p', 'P':
				mode = string(ch)
			case 'a':
				all = true
			case 'f':
			default:
				fmt.Fprintf(hc.Stderr, "%s: type: -%c: invalid option\ntype: usage: type [-afptP] name [name ...]\n", s.name, ch)
				return Exit(2)
			}
		}
	}
	status := 0
	look := s.hcLook(hc)
	for _, name := range args {
		kind, where := s.lookKind(look, name)
		if mode == "P" || (all && kind != "file") {
			if p := s.lookPath(look, name); p != "" {
				if mode == "P" {
					fmt.Fprintln(hc.Stdout, p)
					continue
				}
				if kind != "" {
					fmt.Fprintln(hc.Stdout, shTypeText(name, kind, where))
				}
				kind, where = "file", p
			} else if mode == "P" {
				status = 1
				continue
			}
		}
		switch {
		case kind == "":
			status = 1
			if mode == "" {
				fmt.Fprintf(hc.Stderr, "%s: type: %s: not found\n", s.name, name)
			}
		case mode == "t":
			fmt.Fprintln(hc.Stdout, kind)
		case mode == "p":
			if kind == "file" {
				fmt.Fprintln(hc.Stdout, where)
			}
		default:
			fmt.Fprintln(hc.Stdout, shTypeText(name, kind, where))
		}
	}
	return Exit(status)
}

// pwdP is pwd with -P: the current folder with its links resolved.
func (s *session) pwdP(hc interp.HandlerContext, args []string) error {
	physical := false
	for _, a := range args {
		switch a {
		case "-P":
			physical = true
		case "-L":
			physical = false
		default:
			fmt.Fprintf(hc.Stderr, "%s: pwd: %s: invalid option\npwd: usage: pwd [-LP]\n", s.name, a)
			return Exit(2)
		}
	}
	dir := hc.Env.Get("PWD").String()
	if dir == "" || !path.IsAbs(dir) {
		dir = hc.Dir
	}
	if physical {
		real, err := posixfs.Realpath(s.hcFS(hc), hc.Dir, true)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "pwd: error retrieving current directory: %s\n", posixfs.ErrText(err))
			return Exit(1)
		}
		dir = real
	}
	fmt.Fprintln(hc.Stdout, dir)
	return nil
}
