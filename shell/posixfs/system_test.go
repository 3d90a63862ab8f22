package posixfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/vfs"
)

// testCommands are the commands of the tests' /usr/bin.
type testCommands []string

func (c testCommands) Has(name string) bool { return slices.Contains(c, name) }
func (c testCommands) Names() []string      { return c }

// newSystemFS is a POSIX MemMapFs with /home/user and the system folders
// listing ls, sh, python3 and a name that is no file name.
func newSystemFS(t *testing.T) afero.Fs {
	t.Helper()
	base := afero.NewMemMapFs()
	if err := base.MkdirAll("/home/user", 0o755); err != nil {
		t.Fatal(err)
	}
	return Strict(WithSystem(base, testCommands{"sh", "ls", "python3", "bad\nname", "sh"}))
}

func errnoOf(err error) syscall.Errno {
	var e syscall.Errno
	if errors.As(err, &e) {
		return e
	}
	return 0
}

func TestSystemLookup(t *testing.T) {
	fsys := newSystemFS(t)
	for _, tc := range []struct {
		name  string
		lstat bool
		mode  fs.FileMode // 0: an error
		errno syscall.Errno
	}{
		{name: "/usr/bin/ls", mode: 0o755},
		{name: "/bin/ls", mode: 0o755},
		{name: "/bin/../bin/./ls", mode: 0o755},
		{name: "//usr//bin/python3", mode: 0o755},
		{name: "/bin", lstat: true, mode: fs.ModeSymlink | 0o777},
		{name: "/bin", mode: fs.ModeDir | 0o755},
		{name: "/sbin", lstat: true, mode: fs.ModeSymlink | 0o777},
		{name: "/sbin", mode: fs.ModeDir | 0o755},
		{name: "/usr", mode: fs.ModeDir | 0o755},
		{name: "/usr/sbin", mode: fs.ModeDir | 0o755},
		{name: "/bin/ls", lstat: true, mode: 0o755},
		{name: "/usr/bin/nosuch", errno: syscall.ENOENT},
		{name: "/usr/sbin/ls", errno: syscall.ENOENT},
		{name: "/usr/bin/bad\nname", errno: syscall.ENOENT},
		{name: "/usr/bin/ls/x", errno: syscall.ENOTDIR},
		{name: "/bin/nosuch/x", errno: syscall.ENOENT},
		{name: "/usr/local", errno: syscall.ENOENT},
		{name: "/home/user", mode: fs.ModeDir | 0o755},
	} {
		var fi fs.FileInfo
		var err error
		if tc.lstat {
			fi, err = Lstat(fsys, tc.name)
		} else {
			fi, err = fsys.Stat(tc.name)
		}
		if tc.mode == 0 {
			if errnoOf(err) != tc.errno {
				t.Errorf("stat %q: %v, want errno %v", tc.name, err, tc.errno)
			}
			continue
		}
		if err != nil {
			t.Errorf("stat %q: %v", tc.name, err)
			continue
		}
		if fi.Mode() != tc.mode {
			t.Errorf("stat %q: mode %v, want %v", tc.name, fi.Mode(), tc.mode)
		}
		if want := tc.name != "/home/user"; RootOwned(fi) != want {
			t.Errorf("stat %q: RootOwned %v, want %v", tc.name, RootOwned(fi), want)
		}
	}
}

func TestSystemRefusesChanges(t *testing.T) {
	fsys := newSystemFS(t)
	for _, tc := range []struct {
		what  string
		do    func() error
		errno syscall.Errno
	}{
		{"create in /usr/bin", func() error { _, err := fsys.Create("/usr/bin/x"); return err }, syscall.EACCES},
		{"create through /bin", func() error { _, err := fsys.Create("/bin/x"); return err }, syscall.EACCES},
		{"write a command", func() error { _, err := fsys.OpenFile("/usr/bin/ls", os.O_WRONLY, 0); return err }, syscall.EACCES},
		{"truncate a command", func() error { _, err := fsys.OpenFile("/bin/ls", os.O_RDONLY|os.O_TRUNC, 0); return err }, syscall.EACCES},
		{"create over a command", func() error {
			_, err := fsys.OpenFile("/usr/bin/ls", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			return err
		}, syscall.EEXIST},
		{"open /usr/bin for writing", func() error { _, err := fsys.OpenFile("/usr/bin", os.O_WRONLY, 0); return err }, syscall.EISDIR},
		{"mkdir in /usr/sbin", func() error { return fsys.Mkdir("/usr/sbin/d", 0o755) }, syscall.EACCES},
		{"mkdir /bin", func() error { return fsys.Mkdir("/bin", 0o755) }, syscall.EEXIST},
		{"mkdir -p under /usr/bin", func() error { return fsys.MkdirAll("/usr/bin/a/b", 0o755) }, syscall.EACCES},
		{"mkdir -p through a command", func() error { return fsys.MkdirAll("/usr/bin/ls/a", 0o755) }, syscall.ENOTDIR},
		{"remove a command", func() error { return fsys.Remove("/usr/bin/ls") }, syscall.EACCES},
		{"remove /bin", func() error { return fsys.Remove("/bin") }, syscall.EACCES},
		{"remove a missing command", func() error { return fsys.Remove("/usr/bin/nosuch") }, syscall.ENOENT},
		{"remove all of /usr/bin", func() error { return fsys.RemoveAll("/usr/bin") }, syscall.EACCES},
		{"rename a command", func() error { return fsys.Rename("/usr/bin/ls", "/home/user/ls") }, syscall.EACCES},
		{"rename into /usr/bin", func() error { return fsys.Rename("/home/user", "/usr/bin/u") }, syscall.EACCES},
		{"chmod a command", func() error { return fsys.Chmod("/bin/ls", 0o700) }, syscall.EPERM},
		{"chown /usr", func() error { return fsys.Chown("/usr", 1000, 1000) }, syscall.EPERM},
		{"touch a command", func() error { return fsys.Chtimes("/usr/bin/sh", sysTime, sysTime) }, syscall.EPERM},
		{"symlink in /usr/bin", func() error { return Symlink(fsys, "ls", "/usr/bin/l") }, syscall.EACCES},
		{"symlink over /sbin", func() error { return Symlink(fsys, "x", "/sbin") }, syscall.EEXIST},
	} {
		if got := errnoOf(tc.do()); got != tc.errno {
			t.Errorf("%s: errno %v, want %v", tc.what, got, tc.errno)
		}
	}
	// Nothing of it reached the base.
	if fi, err := Lstat(fsys, "/usr/bin/ls"); err != nil || fi.Mode() != 0o755 {
		t.Errorf("/usr/bin/ls after the changes: %v, %v", fi, err)
	}
}

func TestSystemReadAndList(t *testing.T) {
	fsys := newSystemFS(t)
	b, err := afero.ReadFile(fsys, "/bin/ls")
	if err != nil || string(b) != string(StubScript("ls")) {
		t.Fatalf("read /bin/ls: %q, %v", b, err)
	}
	if !strings.HasPrefix(string(b), "#!/bin/sh\n") || !strings.Contains(string(b), "exec /usr/bin/'ls' \"$@\"\n") {
		t.Errorf("the stub does not run the command: %q", b)
	}
	if fi, _ := fsys.Stat("/usr/bin/ls"); fi.Size() != int64(len(b)) {
		t.Errorf("size %d, read %d bytes", fi.Size(), len(b))
	}
	if target, err := Readlink(fsys, "/sbin"); err != nil || target != "usr/sbin" {
		t.Errorf("readlink /sbin: %q, %v", target, err)
	}
	if _, err := Readlink(fsys, "/usr/bin/ls"); errnoOf(err) != syscall.EINVAL {
		t.Errorf("readlink of a command: %v, want EINVAL", err)
	}
	if p, err := Realpath(fsys, "/bin/sh", true); err != nil || p != "/usr/bin/sh" {
		t.Errorf("realpath /bin/sh: %q, %v", p, err)
	}
	for dir, want := range map[string][]string{
		"/":         {"bin", "etc", "home", "sbin", "usr"},
		"/usr":      {"bin", "sbin"},
		"/etc":      {"debian_version", "group", "hostname", "hosts", "os-release", "passwd", "shells"},
		"/bin":      {"ls", "python3", "sh"},
		"/usr/bin/": {"ls", "python3", "sh"},
		"/usr/sbin": {},
	} {
		list, err := ReadDir(fsys, dir)
		if err != nil {
			t.Errorf("list %s: %v", dir, err)
			continue
		}
		got := []string{}
		for _, fi := range list {
			got = append(got, fi.Name())
		}
		if !slices.Equal(got, want) {
			t.Errorf("list %s: %q, want %q", dir, got, want)
		}
	}
	// Listed in pieces, then again after a rewind (fsPOSIX's folders do
	// not rewind: the system's own do).
	f, err := WithSystem(afero.NewMemMapFs(), testCommands{"sh", "ls", "python3"}).Open("/usr/bin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var names []string
	for {
		part, err := f.Readdirnames(2)
		names = append(names, part...)
		if err == io.EOF {
			break
		}
		if err != nil || len(part) == 0 {
			t.Fatalf("readdirnames: %q, %v", part, err)
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	again, _ := f.Readdirnames(-1)
	if !slices.Equal(names, []string{"ls", "python3", "sh"}) || !slices.Equal(again, names) {
		t.Errorf("pieces %q, after a rewind %q", names, again)
	}
}

func TestSystemUsrLocal(t *testing.T) {
	fsys := newSystemFS(t)
	if err := fsys.MkdirAll("/usr/local/bin", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(fsys, "/usr/local/bin/tool", []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	list, err := ReadDir(fsys, "/usr")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, fi := range list {
		got = append(got, fi.Name())
	}
	if !slices.Equal(got, []string{"bin", "local", "sbin"}) {
		t.Errorf("list /usr: %q", got)
	}
	if fi, err := fsys.Stat("/usr/local/bin/tool"); err != nil || RootOwned(fi) {
		t.Errorf("stat the user's tool: %v, %v", fi, err)
	}
	if err := fsys.RemoveAll("/usr/local"); err != nil {
		t.Errorf("rm -r /usr/local: %v", err)
	}
	if err := fsys.RemoveAll("/"); err != nil {
		t.Errorf("rm -r /: %v", err)
	}
	if _, err := fsys.Stat("/usr/bin/ls"); err != nil {
		t.Errorf("/usr/bin/ls after rm -r /: %v", err)
	}
	if _, err := fsys.Stat("/home"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("/home after rm -r /: %v", err)
	}
}

func TestSystemCommand(t *testing.T) {
	fsys := WithDev(newSystemFS(t), nil, nil, nil)
	for p, want := range map[string]string{
		"/usr/bin/ls": "ls", "/bin/sh": "sh", "/bin/../usr/bin/python3": "python3",
		"/usr/bin/nosuch": "", "/usr/sbin/ls": "", "/bin": "", "/home/user/ls": "", "/usr/bin/ls/x": "",
	} {
		got, ok := SystemCommand(fsys, p)
		if got != want || ok != (want != "") {
			t.Errorf("SystemCommand(%q) = %q, %v; want %q", p, got, ok, want)
		}
	}
	if _, ok := SystemCommand(afero.NewMemMapFs(), "/bin/ls"); ok {
		t.Error("SystemCommand without the system folders")
	}
	if !HasSystem(fsys) || HasSystem(afero.NewMemMapFs()) {
		t.Error("HasSystem")
	}
	if WithSystem(fsys, testCommands{"x"}) != fsys {
		t.Error("WithSystem over a filesystem that has them wraps it again")
	}
}

// FuzzSystemPaths: no name makes the system folders panic, lets a change
// reach /usr/bin, or gives one path two kinds.
func FuzzSystemPaths(f *testing.F) {
	for _, s := range []string{"/bin/ls", "/usr/bin/", "/sbin/../bin", "bin/ls/x", "/usr/bin/bad\nname", "", "/", "//usr", "/usr/local/x", "/bin/\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		fsys := newSystemFS(t)
		fi, err := fsys.Stat(name)
		_, _ = Lstat(fsys, name)
		_, _ = Readlink(fsys, name)
		_, _ = SystemCommand(fsys, name)
		if h, err := fsys.Open(name); err == nil {
			_, _ = h.Readdir(-1)
			_, _ = io.ReadAll(h)
			_ = h.Close()
		}
		_ = fsys.Remove(name)
		_ = fsys.Chmod(name, 0o777)
		if h, err := fsys.Create(name); err == nil {
			_ = h.Close()
		}
		_ = fsys.MkdirAll(name, 0o755)
		list, err2 := ReadDir(fsys, "/usr/bin")
		if err2 != nil || len(list) != 3 {
			t.Fatalf("/usr/bin changed: %d entries, %v", len(list), err2)
		}
		if err == nil && RootOwned(fi) {
			if fi2, err := fsys.Stat(name); err != nil || fi2.Mode() != fi.Mode() {
				t.Fatalf("%q changed: %v, %v", name, fi2, err)
			}
		}
	})
}

// SystemPath and SystemPathVia say which paths the system folders answer
// for, and the real path there, as fsSystem itself decides.
func TestSystemPath(t *testing.T) {
	base := vfs.New(vfs.Options{}) // with links
	if err := base.MkdirAll("/home/user", 0o755); err != nil {
		t.Fatal(err)
	}
	fsys := Strict(WithSystem(base, testCommands{"sh", "ls"}))
	if err := Symlink(fsys, "/bin", "/home/user/b"); err != nil {
		t.Fatal(err)
	}
	if err := Symlink(fsys, "/home/user/b/ls", "/home/user/myls"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		follow bool
		real   string // "": not the system's
		via    string // after the base failed with ENOENT: "": not the system's
	}{
		{name: "/usr/bin/ls", real: "/usr/bin/ls"},
		{name: "/bin/ls", real: "/usr/bin/ls"},
		{name: "//bin/../bin/./sh", real: "/usr/bin/sh"},
		{name: "/bin", real: "/bin"},
		{name: "/bin", follow: true, real: "/usr/bin"},
		{name: "/sbin/x", real: "/usr/sbin/x"},
		{name: "/usr", real: "/usr"},
		{name: "/usr/bin/nosuch", real: "/usr/bin/nosuch"},
		{name: "/usr/local", real: ""},
		{name: "/usr/local/bin/x", real: ""},
		{name: "/", real: ""},
		{name: "/home/user", real: ""},
		{name: "/home/user/b/ls", real: "", via: "/usr/bin/ls"},
		{name: "/home/user/b/nosuch", real: "", via: "/usr/bin/nosuch"},
		{name: "/home/user/b", real: ""},
		{name: "/home/user/myls", follow: true, real: "", via: "/usr/bin/ls"},
		{name: "/home/user/nosuch", real: ""},
	} {
		real, ok := SystemPath(fsys, tc.name, tc.follow)
		if ok != (tc.real != "") || real != tc.real && ok {
			t.Errorf("SystemPath(%q, %v) = %q, %v; want %q", tc.name, tc.follow, real, ok, tc.real)
		}
		if ok {
			continue
		}
		real, ok = SystemPathVia(fsys, tc.name, tc.follow, PathErr("stat", tc.name, syscall.ENOENT))
		if ok != (tc.via != "") || real != tc.via && ok {
			t.Errorf("SystemPathVia(%q, %v, ENOENT) = %q, %v; want %q", tc.name, tc.follow, real, ok, tc.via)
		}
		if _, ok := SystemPathVia(fsys, tc.name, tc.follow, PathErr("stat", tc.name, syscall.EACCES)); ok {
			t.Errorf("SystemPathVia(%q, EACCES): the base's error does not stand", tc.name)
		}
	}
	if _, ok := SystemPath(afero.NewMemMapFs(), "/bin/ls", true); ok {
		t.Error("SystemPath without the system folders")
	}
}

// PrepareSystemBase makes the base's /usr for a path under it, and
// nothing else.
func TestPrepareSystemBase(t *testing.T) {
	base := afero.NewMemMapFs()
	fsys := WithSystem(base, testCommands{"ls"})
	if err := PrepareSystemBase(fsys, "/home/x"); err != nil {
		t.Fatal(err)
	}
	if _, err := base.Stat("/usr"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("/usr made for /home/x: %v", err)
	}
	if err := PrepareSystemBase(fsys, "/usr/local"); err != nil {
		t.Fatal(err)
	}
	if fi, err := base.Stat("/usr"); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o755 {
		t.Errorf("the base's /usr: %v, %v", fi, err)
	}
	if err := PrepareSystemBase(afero.NewMemMapFs(), "/usr/local"); err != nil {
		t.Errorf("without the system folders: %v", err)
	}
}

func TestCommandNames(t *testing.T) {
	got := CommandNames(testCommands{"sh", "ls", "", ".", "..", "a/b", "bad\nname", "x\x7f", "[", "sh", strings.Repeat("n", 256)})
	if want := []string{"[", "ls", "sh"}; !slices.Equal(got, want) {
		t.Errorf("CommandNames = %q, want %q", got, want)
	}
}

// TestSystemEtc: /etc holds EtcFiles, root's, 0644, read-only to the
// user like the rest of the system's folders; they are no commands, and
// the base's /etc is hidden.
func TestSystemEtc(t *testing.T) {
	fsys := newSystemFS(t)
	for name, want := range EtcFiles {
		p := "/etc/" + name
		b, err := afero.ReadFile(fsys, p)
		if err != nil || string(b) != want {
			t.Errorf("read %s: %q, %v", p, b, err)
		}
		fi, err := fsys.Stat(p)
		if err != nil || fi.Mode() != 0o644 || fi.Size() != int64(len(want)) || !RootOwned(fi) {
			t.Errorf("stat %s: %v, %v", p, fi, err)
		}
		if _, ok := SystemCommand(fsys, p); ok {
			t.Errorf("%s is taken for a command", p)
		}
	}
	if b, _ := afero.ReadFile(fsys, "/etc/os-release"); !strings.Contains(string(b), "ID=debian\n") {
		t.Errorf("os-release: %q", b)
	}
	for _, tc := range []struct {
		what  string
		do    func() error
		errno syscall.Errno
	}{
		{"write /etc/passwd", func() error { return afero.WriteFile(fsys, "/etc/passwd", []byte("x"), 0o644) }, syscall.EACCES},
		{"create /etc/new", func() error { return afero.WriteFile(fsys, "/etc/new", []byte("x"), 0o644) }, syscall.EACCES},
		{"mkdir /etc/d", func() error { return fsys.Mkdir("/etc/d", 0o755) }, syscall.EACCES},
		{"remove /etc/hosts", func() error { return fsys.Remove("/etc/hosts") }, syscall.EACCES},
		{"rename /etc/hosts", func() error { return fsys.Rename("/etc/hosts", "/home/h") }, syscall.EACCES},
		{"open /etc/nosuch", func() error { _, err := fsys.Open("/etc/nosuch"); return err }, syscall.ENOENT},
		{"open /etc/passwd/x", func() error { _, err := fsys.Open("/etc/passwd/x"); return err }, syscall.ENOTDIR},
	} {
		if got := errnoOf(tc.do()); got != tc.errno {
			t.Errorf("%s: errno %v, want %v", tc.what, got, tc.errno)
		}
	}
}
