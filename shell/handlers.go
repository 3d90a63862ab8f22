package shell

// The session of one Run (the filesystem and command tables every nested
// shell shares), the lookup of commands in $PATH of the filesystem, and
// the cap on nesting.

import (
	"context"
	"path"
	"runtime"
	"strings"
	"sync"

	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/spf13/afero"
)

// session is what every shell of one Run shares: the filesystem and the
// command tables.
type session struct {
	base afero.Fs // Options.FS with POSIX rules
	// look is base without the POSIX rules' errors (the system folders
	// over Options.FS): a search of $PATH needs only whether a file is
	// there, not which error (ENOENT or ENOTDIR) a missing one gives,
	// which costs a stat of each parent folder.
	look     afero.Fs
	handlers map[string]Builtin
	fallback Builtin
	fbNames  map[string]bool
	name     string
}

type sessionKey struct{}

// sessionFrom returns the session a builtin runs in, if any.
func sessionFrom(ctx context.Context) (*session, bool) {
	s, ok := ctx.Value(sessionKey{}).(*session)
	return s, ok
}

func newSession(opts Options) *session {
	s := commandSession(opts)
	s.fallback = opts.Fallback
	s.name = opts.Name
	if s.name == "" {
		s.name = "bash"
	}
	s.look = posixfs.WithSystem(opts.FS, sysCommands{s})
	s.base = posixfs.Strict(s.look)
	return s
}

// commandSession is a session with opts's command tables only.
func commandSession(opts Options) *session {
	s := &session{handlers: opts.Handlers, fbNames: map[string]bool{}}
	for _, n := range opts.FallbackNames {
		s.fbNames[n] = true
	}
	return s
}

// SystemCommands are the commands /usr/bin lists in a shell run with
// opts (the system folders, posixfs.WithSystem): its Handlers and
// FallbackNames, the commands built in, and the shell's builtins that
// Debian has as programs too (echo, test, [, ...). Only opts's Handlers
// and FallbackNames matter. The wasm adapter shows the same folders to
// the sandbox's other programs (python3, node) from this list, which the
// busybox image prints (`busybox --list`).
func SystemCommands(opts Options) posixfs.Commands { return sysCommands{commandSession(opts)} }

// sysCommands are the commands /usr/bin lists (posixfs.WithSystem): the
// session's handlers, the commands built in, the fallback's names, and the
// shell's builtins that Debian has as programs too (echo, test, [, ...).
type sysCommands struct{ s *session }

func (c sysCommands) Has(name string) bool {
	_, handled := c.s.handlers[name]
	_, builtin := lookupBuiltin(name)
	return handled || builtin || c.s.fbNames[name] || fsWhichUtilities[name]
}

func (c sysCommands) Names() []string {
	names := Builtins()
	for n := range c.s.handlers {
		names = append(names, n)
	}
	for n := range c.s.fbNames {
		names = append(names, n)
	}
	for n := range fsWhichUtilities {
		names = append(names, n)
	}
	return names
}

// child is a session for a nested shell (bash -c, a script): the same
// filesystem and commands.
func (s *session) child() *session {
	c := *s
	return &c
}

func shAbs(dir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
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
