package posixfs

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/afero"
)

// Commands are what the system tree of WithSystem lists in /usr/bin: the
// names of the commands a shell runs itself.
type Commands interface {
	// Has reports whether name is one of them.
	Has(name string) bool
	// Names lists them, in any order.
	Names() []string
}

// fsSystem is an afero.Fs that shows, over a base filesystem, the system
// folders of a merged-/usr Debian box, read-only and stored nowhere:
//
//   - /usr/bin holds one file per command (Commands), mode 0755, whose
//     text is a short sh script that runs the command (StubScript): the
//     shell runs the command itself for /usr/bin/NAME, and a copy of the
//     file elsewhere still runs it;
//   - /usr/sbin is an empty folder;
//   - /bin and /sbin are symbolic links to usr/bin and usr/sbin;
//   - /usr is a folder whose other entries are the base's: /usr/local and
//     anything else under /usr stay the user's to make (the base's /usr is
//     made, 0755, when something is first made in it);
//   - /etc holds the few files that say what the box is (EtcFiles:
//     os-release, debian_version, hostname, hosts, passwd, group, shells),
//     each 0644.
//
// All of them belong to root (RootOwned). The sandbox's user cannot
// change them, as a non-root user of Debian cannot: making, writing,
// removing or renaming anything there is EACCES ("Permission denied"),
// chmod, chown and setting times EPERM ("Operation not permitted").
// Whatever the base holds at those paths is hidden. Paths are made
// absolute and clean first, as fsPOSIX does; a path through /bin or /sbin
// leads into /usr/bin or /usr/sbin.
type fsSystem struct {
	base afero.Fs
	cmds Commands

	once  sync.Once
	names []string // the valid names of cmds, sorted
}

var (
	_ afero.Fs        = (*fsSystem)(nil)
	_ afero.Symlinker = (*fsSystem)(nil)
)

// WithSystem returns base with the read-only system folders of fsSystem
// (/usr/bin listing cmds, /bin -> usr/bin, ...). A base that already has
// them (under the POSIX and device layers too) is returned as it is.
func WithSystem(base afero.Fs, cmds Commands) afero.Fs {
	if HasSystem(base) {
		return base
	}
	return &fsSystem{base: base, cmds: cmds}
}

// HasSystem reports whether fsys shows the system folders of WithSystem.
func HasSystem(fsys afero.Fs) bool {
	_, ok := systemOf(fsys)
	return ok
}

// RootOwned reports whether fi describes one of the system folders' nodes
// (WithSystem), which belong to root: ls, stat and find say so.
func RootOwned(fi fs.FileInfo) bool {
	r, ok := fi.(interface{ RootOwned() bool })
	return ok && r.RootOwned()
}

// SystemCommand reports whether abs, an absolute path, leads to a
// command's file in the system folders of fsys (/usr/bin/NAME,
// /bin/NAME), and returns the command's name.
func SystemCommand(fsys afero.Fs, abs string) (string, bool) {
	f, ok := systemOf(fsys)
	if !ok {
		return "", false
	}
	clean := fsClean(abs)
	real, kind := f.classify(clean, true)
	if kind == sysNone {
		// a link of the base's that leads to a command's file (a base
		// that shows the system folders itself, as the wasm adapter's
		// WASI view does, answers for it with a node of root's)
		if fi, err := Lstat(f.base, clean); err == nil && !IsSymlink(fi) && !RootOwned(fi) {
			return "", false
		}
		real, kind = f.viaLinks(clean, true)
	}
	if kind != sysFile || !strings.HasPrefix(real, "/usr/bin/") {
		return "", false
	}
	return path.Base(real), true
}

// SystemPath reports whether the system folders of fsys (WithSystem)
// answer for name, an absolute path, themselves, whatever the base holds,
// and the real path it stands for there (/bin/ls: /usr/bin/ls): /usr,
// /usr/bin, /usr/sbin and any name in them (but /usr's others, such as
// /usr/local), /bin, /sbin and any path through them. follow says whether
// a last element that is a link (/bin) is followed.
//
// It is for a front end other than afero's over the same base (the wasm
// adapter's WASI view of a sandbox): such a front end does an operation
// on such a path through fsys, and any other on the base, as fsys does,
// asking SystemPathVia when the base fails. It also opens the root for
// reading through fsys, which lists bin, sbin and usr with the base's
// others, and calls PrepareSystemBase before making anything on the base.
func SystemPath(fsys afero.Fs, name string, follow bool) (real string, ok bool) {
	s, ok := systemOf(fsys)
	if !ok {
		return "", false
	}
	real, kind := s.classify(fsClean(name), follow)
	return real, kind != sysNone
}

// SystemPathVia is SystemPath for a path the base failed on with err: it
// reports whether a link of the base leads into the system folders
// (~/b/ls with ~/b -> /bin), for which fsys answers, as it does itself.
func SystemPathVia(fsys afero.Fs, name string, follow bool, err error) (real string, ok bool) {
	s, ok := systemOf(fsys)
	if !ok {
		return "", false
	}
	real, kind := s.where(fsClean(name), follow, err)
	return real, kind != sysNone
}

// PrepareSystemBase makes the base's /usr (0755) when name, a path about
// to be made on the base by a front end of SystemPath, is under /usr and
// the base has none, as fsys does before its own makes.
func PrepareSystemBase(fsys afero.Fs, name string) error {
	s, ok := systemOf(fsys)
	if !ok {
		return nil
	}
	return s.ensureUsr(fsClean(name))
}

// systemOf finds the system layer of fsys, under the POSIX and device
// layers too.
func systemOf(fsys afero.Fs) (*fsSystem, bool) {
	for {
		switch f := fsys.(type) {
		case *fsSystem:
			return f, true
		case *fsDev:
			fsys = f.base
		case *fsPOSIX:
			fsys = f.base
		default:
			return nil, false
		}
	}
}

// CommandNames is what /usr/bin lists for cmds: the names that can be
// file names there (no slash or control character, not "." or "..", at
// most 255 bytes), sorted, each once.
func CommandNames(cmds Commands) []string {
	var names []string
	for _, n := range cmds.Names() {
		if validCommandName(n) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// EtcFiles are the files of the system's /etc, by name: a Debian 12 box
// named sandbox whose users are root and the sandbox's user (uid and gid
// 1000, home /home/user).
var EtcFiles = map[string]string{
	"os-release": `PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"
NAME="Debian GNU/Linux"
VERSION_ID="12"
VERSION="12 (bookworm)"
VERSION_CODENAME=bookworm
ID=debian
`,
	"debian_version": "12.11\n",
	"hostname":       "sandbox\n",
	"hosts":          "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\tsandbox\n",
	"passwd":         "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000:user:/home/user:/bin/bash\n",
	"group":          "root:x:0:\nuser:x:1000:\n",
	"shells":         "# /etc/shells: valid login shells\n/bin/sh\n/usr/bin/sh\n/bin/bash\n/usr/bin/bash\n",
}

// sysData is the text of the system file real: an /etc file's, or a
// command's StubScript.
func sysData(real string) []byte {
	if dir, name := path.Split(real); dir == "/etc/" {
		return []byte(EtcFiles[name])
	}
	return StubScript(path.Base(real))
}

// StubScript is the text of /usr/bin/name: a script that runs the command
// itself.
func StubScript(name string) []byte {
	q := "'" + strings.ReplaceAll(name, "'", `'\''`) + "'"
	return []byte("#!/bin/sh\n# " + name + " is built into this sandbox's shell; this file stands for it.\nexec /usr/bin/" + q + " \"$@\"\n")
}

// sysTime is the modification time of the system folders and files.
var sysTime = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// sysKind is what a clean absolute path is in the system folders.
type sysKind int

const (
	sysNone    sysKind = iota // not theirs: the base's
	sysLink                   // /bin, /sbin
	sysUsr                    // /usr, whose other entries are the base's
	sysDir                    // /usr/bin, /usr/sbin, /etc
	sysFile                   // /usr/bin/NAME, /etc/NAME
	sysMissing                // a name in /usr/bin, /usr/sbin or /etc that is not there
	sysAbsent                 // deeper under a missing name: ENOENT
	sysNotDir                 // a path through a command's file: ENOTDIR
)

// sysLinks are the system's links and their targets.
var sysLinks = map[string]string{"/bin": "usr/bin", "/sbin": "usr/sbin"}

// classify says what clean (absolute and clean) is in the system folders
// and returns its real path: a path through /bin or /sbin leads into
// /usr/bin or /usr/sbin, as does /bin itself when follow is set.
func (s *fsSystem) classify(clean string, follow bool) (string, sysKind) {
	for link := range sysLinks {
		switch {
		case clean == link && !follow:
			return clean, sysLink
		case clean == link, strings.HasPrefix(clean, link+"/"):
			clean = "/usr" + clean
		}
	}
	switch clean {
	case "/usr":
		return clean, sysUsr
	case "/usr/bin", "/usr/sbin", "/etc":
		return clean, sysDir
	}
	var rest string
	switch {
	case strings.HasPrefix(clean, "/usr/bin/"):
		rest = clean[len("/usr/bin/"):]
	case strings.HasPrefix(clean, "/usr/sbin/"):
		rest = clean[len("/usr/sbin/"):]
	case strings.HasPrefix(clean, "/etc/"):
		rest = clean[len("/etc/"):]
	default:
		return clean, sysNone
	}
	name, deeper, _ := strings.Cut(rest, "/")
	_, etc := EtcFiles[name]
	switch {
	case strings.HasPrefix(clean, "/usr/bin/") && s.has(name), strings.HasPrefix(clean, "/etc/") && etc:
		if deeper != "" {
			return clean, sysNotDir
		}
		return clean, sysFile
	case deeper != "":
		return clean, sysAbsent
	}
	return clean, sysMissing
}

// has reports whether /usr/bin lists name.
func (s *fsSystem) has(name string) bool { return validCommandName(name) && s.cmds.Has(name) }

// validCommandName: a name /usr/bin can hold, with no control character
// (so that StubScript's lines stay lines).
func validCommandName(name string) bool {
	if name == "" || name == "." || name == ".." || len(name) > 255 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c == 0x7f || c == '/' {
			return false
		}
	}
	return true
}

// commandNames lists /usr/bin, sorted.
func (s *fsSystem) commandNames() []string {
	s.once.Do(func() { s.names = CommandNames(s.cmds) })
	return s.names
}

// info describes the system node real of the given kind, named name.
func (s *fsSystem) info(name, real string, kind sysKind) sysInfo {
	switch kind {
	case sysLink:
		return sysInfo{name: name, mode: fs.ModeSymlink | 0o777, size: int64(len(sysLinks[real]))}
	case sysFile:
		mode := fs.FileMode(0o755)
		if strings.HasPrefix(real, "/etc/") {
			mode = 0o644
		}
		return sysInfo{name: name, mode: mode, size: int64(len(sysData(real)))}
	}
	return sysInfo{name: name, mode: fs.ModeDir | 0o755, size: 4096}
}

// kindErr is the error for a path of kind that is not there.
func kindErr(op, name string, kind sysKind) error {
	if kind == sysNotDir {
		return PathErr(op, name, syscall.ENOTDIR)
	}
	return PathErr(op, name, syscall.ENOENT)
}

// exists reports whether kind is a node of the system folders.
func (k sysKind) exists() bool { return k >= sysLink && k <= sysFile }

// ensureUsr makes the base's /usr (0755) when clean, a path to make, is
// under /usr and the base has none.
func (s *fsSystem) ensureUsr(clean string) error {
	if !strings.HasPrefix(clean, "/usr/") {
		return nil
	}
	if _, err := Lstat(s.base, "/usr"); err == nil {
		return nil
	}
	if err := s.base.Mkdir("/usr", 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return nil
}

// where is what clean is in the system's folders when the base failed
// on it with err: a path through a link of the base that leads there
// (~/b/ls with ~/b -> /bin, /usr/local/bin/py -> /usr/bin/python3) is
// theirs. It returns sysNone when the base's answer stands.
func (s *fsSystem) where(clean string, follow bool, err error) (string, sysKind) {
	if err == nil || !(errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) {
		return clean, sysNone
	}
	return s.viaLinks(clean, follow)
}

// errWalkEnd ends viaLinks's walk where its answer is known.
var errWalkEnd = errors.New("posixfs: the walk has its answer")

// viaLinks resolves clean element by element, as POSIX does, through the
// base's links and the system's (at most 40), and classifies where it
// leads; sysNone when it does not lead into the system's folders.
func (s *fsSystem) viaLinks(clean string, follow bool) (string, sysKind) {
	real, kind := clean, sysNone
	cur, err := walk(s.base, clean, clean, func(next string, fi fs.FileInfo, err error, rest []string) (walkAction, error) {
		_, k := s.classify(next, false)
		switch {
		case k == sysUsr && err != nil: // /usr, not in the base: the system's
			return walkInto, nil
		case k != sysNone && k != sysUsr:
			real, kind = s.classify(path.Join(append([]string{next}, rest...)...), follow)
			return 0, errWalkEnd
		case err != nil:
			return 0, errWalkEnd
		}
		last := len(rest) == 0
		if IsSymlink(fi) && (!last || follow) {
			return walkLink, nil
		}
		if last || !fi.IsDir() {
			return 0, errWalkEnd
		}
		return walkInto, nil
	})
	if err != nil {
		return real, kind
	}
	return s.classify(cur, follow)
}

func (s *fsSystem) Name() string { return "system(" + s.base.Name() + ")" }

func (s *fsSystem) Create(name string) (afero.File, error) {
	return s.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (s *fsSystem) Mkdir(name string, perm os.FileMode) error {
	clean := fsClean(name)
	real, kind := s.classify(clean, false)
	if kind == sysNone {
		if err := s.ensureUsr(real); err != nil {
			return err
		}
		err := s.base.Mkdir(clean, perm)
		if _, kind = s.where(clean, false, err); kind == sysNone {
			return err
		}
	}
	switch {
	case kind.exists():
		return PathErr("mkdir", clean, syscall.EEXIST)
	case kind == sysMissing:
		return PathErr("mkdir", clean, syscall.EACCES)
	}
	return kindErr("mkdir", clean, kind)
}

func (s *fsSystem) MkdirAll(name string, perm os.FileMode) error {
	clean := fsClean(name)
	real, kind := s.classify(clean, true)
	if kind == sysNone {
		if err := s.ensureUsr(real); err != nil {
			return err
		}
		err := s.base.MkdirAll(clean, perm)
		if _, kind = s.where(clean, true, err); kind == sysNone {
			return err
		}
	}
	switch kind {
	case sysUsr, sysDir:
		return nil
	case sysMissing, sysAbsent:
		return PathErr("mkdir", clean, syscall.EACCES)
	}
	return PathErr("mkdir", clean, syscall.ENOTDIR)
}

func (s *fsSystem) Open(name string) (afero.File, error) {
	return s.OpenFile(name, os.O_RDONLY, 0)
}

func (s *fsSystem) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	clean := fsClean(name)
	write := flag&(os.O_WRONLY|os.O_RDWR) != 0 || flag&os.O_TRUNC != 0
	excl := flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL
	real, kind := s.classify(clean, !excl)
	if kind == sysNone {
		if clean == "/" && !write {
			return s.openMerged(clean, real)
		}
		if flag&os.O_CREATE != 0 {
			if err := s.ensureUsr(real); err != nil {
				return nil, err
			}
		}
		f, err := s.base.OpenFile(clean, flag, perm)
		if real, kind = s.where(clean, !excl, err); kind == sysNone {
			return f, err
		}
	}
	switch {
	case kind.exists() && excl:
		return nil, PathErr("open", clean, syscall.EEXIST)
	case kind == sysFile && write:
		return nil, PathErr("open", clean, syscall.EACCES)
	case kind == sysFile:
		return &sysFileHandle{Reader: bytes.NewReader(sysData(real)), name: clean, info: s.info(path.Base(clean), real, kind)}, nil
	case kind.exists() && write:
		return nil, PathErr("open", clean, syscall.EISDIR)
	case kind.exists():
		return s.openMerged(clean, real)
	case kind == sysMissing && flag&os.O_CREATE != 0:
		return nil, PathErr("open", clean, syscall.EACCES)
	}
	return nil, kindErr("open", clean, kind)
}

// openMerged opens one of the system's folders, or the root, for reading:
// the system's entries with, for / and /usr, the base's others.
func (s *fsSystem) openMerged(clean, real string) (afero.File, error) {
	d := &sysDirHandle{name: clean}
	var own []string
	switch real {
	case "/":
		own = []string{"bin", "etc", "sbin", "usr"}
	case "/usr":
		own = []string{"bin", "sbin"}
	case "/usr/bin":
		own = s.commandNames()
	case "/etc":
		own = slices.Sorted(maps.Keys(EtcFiles))
	}
	if real == "/" || real == "/usr" {
		f, err := s.base.Open(real)
		switch {
		case err == nil:
			d.base = f
		case real == "/" || !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
	}
	if real != "/" {
		d.info = s.info(path.Base(clean), real, sysUsr)
	}
	d.own = make([]fs.FileInfo, len(own))
	for i, n := range own {
		p := path.Join(real, n)
		kind := sysDir
		switch {
		case real == "/usr/bin", real == "/etc":
			kind = sysFile
		case sysLinks[p] != "":
			kind = sysLink
		case p == "/usr":
			kind = sysUsr
		}
		d.own[i] = s.info(n, p, kind)
	}
	return d, nil
}

func (s *fsSystem) Remove(name string) error {
	clean := fsClean(name)
	_, kind := s.classify(clean, false)
	if kind == sysNone {
		err := s.base.Remove(clean)
		if _, kind = s.where(clean, false, err); kind == sysNone {
			return err
		}
	}
	if kind.exists() {
		return PathErr("remove", clean, syscall.EACCES)
	}
	return kindErr("remove", clean, kind)
}

func (s *fsSystem) RemoveAll(name string) error {
	clean := fsClean(name)
	_, kind := s.classify(clean, false)
	switch {
	case kind == sysNone:
		return s.base.RemoveAll(clean)
	case kind.exists():
		return PathErr("remove", clean, syscall.EACCES)
	case kind == sysNotDir:
		return PathErr("remove", clean, syscall.ENOTDIR)
	}
	return nil
}

func (s *fsSystem) Rename(oldname, newname string) error {
	oldClean, newClean := fsClean(oldname), fsClean(newname)
	_, oldKind := s.classify(oldClean, false)
	newReal, newKind := s.classify(newClean, false)
	linkErr := func(errno syscall.Errno) error {
		return &os.LinkError{Op: "rename", Old: oldClean, New: newClean, Err: errno}
	}
	switch {
	case oldKind == sysNone && newKind == sysNone:
		if err := s.ensureUsr(newReal); err != nil {
			return err
		}
		return s.base.Rename(oldClean, newClean)
	case oldKind == sysNotDir || newKind == sysNotDir:
		return linkErr(syscall.ENOTDIR)
	case oldKind == sysMissing || oldKind == sysAbsent || newKind == sysAbsent:
		return linkErr(syscall.ENOENT)
	}
	return linkErr(syscall.EACCES)
}

func (s *fsSystem) Stat(name string) (os.FileInfo, error) { return s.stat("stat", name, true) }

func (s *fsSystem) LstatIfPossible(name string) (os.FileInfo, bool, error) {
	fi, err := s.stat("lstat", name, false)
	return fi, true, err
}

func (s *fsSystem) stat(op, name string, follow bool) (os.FileInfo, error) {
	clean := fsClean(name)
	real, kind := s.classify(clean, follow)
	if kind == sysNone {
		var fi os.FileInfo
		var err error
		if follow {
			fi, err = s.base.Stat(clean)
		} else {
			fi, err = Lstat(s.base, clean)
		}
		if real, kind = s.where(clean, follow, err); kind == sysNone {
			return fi, err
		}
	}
	if kind.exists() {
		return s.info(path.Base(clean), real, kind), nil
	}
	return nil, kindErr(op, clean, kind)
}

func (s *fsSystem) SymlinkIfPossible(oldname, newname string) error {
	clean := fsClean(newname)
	real, kind := s.classify(clean, false)
	linkErr := func(errno syscall.Errno) error {
		return &os.LinkError{Op: "symlink", Old: oldname, New: clean, Err: errno}
	}
	if kind == sysNone {
		if err := s.ensureUsr(real); err != nil {
			return err
		}
		err := Symlink(s.base, oldname, clean)
		if _, kind = s.where(clean, false, err); kind == sysNone {
			return err
		}
	}
	switch {
	case kind.exists():
		return linkErr(syscall.EEXIST)
	case kind == sysMissing:
		return linkErr(syscall.EACCES)
	case kind == sysNotDir:
		return linkErr(syscall.ENOTDIR)
	}
	return linkErr(syscall.ENOENT)
}

func (s *fsSystem) ReadlinkIfPossible(name string) (string, error) {
	clean := fsClean(name)
	real, kind := s.classify(clean, false)
	if kind == sysNone {
		target, err := Readlink(s.base, clean)
		if real, kind = s.where(clean, false, err); kind == sysNone {
			return target, err
		}
	}
	switch {
	case kind == sysLink:
		return sysLinks[real], nil
	case kind.exists():
		return "", PathErr("readlink", clean, syscall.EINVAL)
	}
	return "", kindErr("readlink", clean, kind)
}

// change runs do on the base, or refuses a system node with EPERM.
func (s *fsSystem) change(op, name string, do func(clean string) error) error {
	clean := fsClean(name)
	_, kind := s.classify(clean, true)
	if kind == sysNone {
		err := do(clean)
		if _, kind = s.where(clean, true, err); kind == sysNone {
			return err
		}
	}
	if kind.exists() {
		return PathErr(op, clean, syscall.EPERM)
	}
	return kindErr(op, clean, kind)
}

func (s *fsSystem) Chmod(name string, mode os.FileMode) error {
	return s.change("chmod", name, func(p string) error { return s.base.Chmod(p, mode) })
}

func (s *fsSystem) Chown(name string, uid, gid int) error {
	return s.change("chown", name, func(p string) error { return s.base.Chown(p, uid, gid) })
}

func (s *fsSystem) Chtimes(name string, atime, mtime time.Time) error {
	return s.change("chtimes", name, func(p string) error { return s.base.Chtimes(p, atime, mtime) })
}

// sysInfo describes a node of the system folders.
type sysInfo struct {
	name string
	mode fs.FileMode
	size int64
}

func (i sysInfo) Name() string       { return i.name }
func (i sysInfo) Size() int64        { return i.size }
func (i sysInfo) Mode() fs.FileMode  { return i.mode }
func (i sysInfo) ModTime() time.Time { return sysTime }
func (i sysInfo) IsDir() bool        { return i.mode.IsDir() }
func (i sysInfo) Sys() any           { return nil }

// RootOwned reports true: the node is root's (see RootOwned).
func (i sysInfo) RootOwned() bool { return true }

// sysFileHandle is an open command file of /usr/bin, read-only.
type sysFileHandle struct {
	*bytes.Reader
	name string
	info sysInfo
}

func (f *sysFileHandle) err(op string) error { return PathErr(op, f.name, syscall.EBADF) }

func (f *sysFileHandle) Close() error                       { return nil }
func (f *sysFileHandle) Name() string                       { return f.name }
func (f *sysFileHandle) Stat() (os.FileInfo, error)         { return f.info, nil }
func (f *sysFileHandle) Sync() error                        { return nil }
func (f *sysFileHandle) Write([]byte) (int, error)          { return 0, f.err("write") }
func (f *sysFileHandle) WriteAt([]byte, int64) (int, error) { return 0, f.err("write") }
func (f *sysFileHandle) WriteString(string) (int, error)    { return 0, f.err("write") }
func (f *sysFileHandle) Truncate(int64) error               { return PathErr("truncate", f.name, syscall.EINVAL) }
func (f *sysFileHandle) Readdir(int) ([]os.FileInfo, error) {
	return nil, PathErr("readdirent", f.name, syscall.ENOTDIR)
}
func (f *sysFileHandle) Readdirnames(int) ([]string, error) {
	return nil, PathErr("readdirent", f.name, syscall.ENOTDIR)
}

// sysDirHandle is an open system folder, or the root: its own entries and
// the base's others, sorted.
type sysDirHandle struct {
	name string
	info fs.FileInfo // nil for the root: the base's
	base afero.File  // the base's folder, if any
	own  []fs.FileInfo

	list   []fs.FileInfo
	listed bool
	pos    int
}

func (d *sysDirHandle) isDirErr(op string) error { return PathErr(op, d.name, syscall.EISDIR) }

func (d *sysDirHandle) Close() error {
	if d.base != nil {
		return d.base.Close()
	}
	return nil
}
func (d *sysDirHandle) Name() string                       { return d.name }
func (d *sysDirHandle) Read([]byte) (int, error)           { return 0, d.isDirErr("read") }
func (d *sysDirHandle) ReadAt([]byte, int64) (int, error)  { return 0, d.isDirErr("read") }
func (d *sysDirHandle) Write([]byte) (int, error)          { return 0, d.isDirErr("write") }
func (d *sysDirHandle) WriteAt([]byte, int64) (int, error) { return 0, d.isDirErr("write") }
func (d *sysDirHandle) WriteString(string) (int, error)    { return 0, d.isDirErr("write") }
func (d *sysDirHandle) Truncate(int64) error               { return d.isDirErr("truncate") }
func (d *sysDirHandle) Sync() error                        { return nil }

func (d *sysDirHandle) Stat() (os.FileInfo, error) {
	if d.info == nil {
		return d.base.Stat()
	}
	return d.info, nil
}

// Seek rewinds the listing (only Seek(0, io.SeekStart) is allowed).
func (d *sysDirHandle) Seek(offset int64, whence int) (int64, error) {
	if offset != 0 || whence != io.SeekStart {
		return 0, PathErr("seek", d.name, syscall.EINVAL)
	}
	d.list, d.listed, d.pos = nil, false, 0
	if d.base != nil {
		if _, err := d.base.Seek(0, io.SeekStart); err != nil {
			return 0, err
		}
	}
	return 0, nil
}

// Readdir lists the entries as os.File.Readdir: with count > 0 at most
// count of them and io.EOF when none are left, else all that are left.
func (d *sysDirHandle) Readdir(count int) ([]os.FileInfo, error) {
	if !d.listed {
		list := slices.Clone(d.own)
		if d.base != nil {
			theirs, err := d.base.Readdir(-1)
			if err != nil && err != io.EOF {
				return nil, err
			}
			for _, fi := range theirs {
				if !slices.ContainsFunc(d.own, func(o fs.FileInfo) bool { return o.Name() == fi.Name() }) {
					list = append(list, fi)
				}
			}
		}
		slices.SortFunc(list, func(a, b fs.FileInfo) int { return strings.Compare(a.Name(), b.Name()) })
		d.list, d.listed = list, true
	}
	rest := d.list[d.pos:]
	if count > 0 {
		if len(rest) == 0 {
			return nil, io.EOF
		}
		rest = rest[:min(count, len(rest))]
	}
	d.pos += len(rest)
	return rest, nil
}

func (d *sysDirHandle) Readdirnames(count int) ([]string, error) {
	infos, err := d.Readdir(count)
	names := make([]string, len(infos))
	for i, fi := range infos {
		names[i] = fi.Name()
	}
	return names, err
}

// ReadDir is Readdir as fs.ReadDirFile has it.
func (d *sysDirHandle) ReadDir(count int) ([]fs.DirEntry, error) {
	infos, err := d.Readdir(count)
	entries := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		entries[i] = fs.FileInfoToDirEntry(fi)
	}
	return entries, err
}
