package shell

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/agentenkit/agentenkit/shell/fileutil"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/spf13/afero"
)

// TestFsPOSIX checks the rules fsPOSIX adds over afero.MemMapFs.
func TestFsPOSIX(t *testing.T) {
	newFS := func(t *testing.T) afero.Fs {
		return posixfs.Strict(newShTestFS(t, shTestFiles))
	}
	const d = shTestDir
	for _, tc := range []struct {
		name string
		op   func(afero.Fs) error
		want error
	}{
		{"mkdir missing parent", func(f afero.Fs) error { return f.Mkdir(d+"/x/y", 0o755) }, syscall.ENOENT},
		{"mkdir under file", func(f afero.Fs) error { return f.Mkdir(d+"/a.txt/y", 0o755) }, syscall.ENOTDIR},
		{"mkdir existing", func(f afero.Fs) error { return f.Mkdir(d+"/src", 0o755) }, syscall.EEXIST},
		{"mkdir over file", func(f afero.Fs) error { return f.Mkdir(d+"/a.txt", 0o755) }, syscall.EEXIST},
		{"mkdirall through file", func(f afero.Fs) error { return f.MkdirAll(d+"/a.txt/y/z", 0o755) }, syscall.ENOTDIR},
		{"create missing parent", func(f afero.Fs) error { _, err := f.Create(d + "/x/y"); return err }, syscall.ENOENT},
		{"open through file", func(f afero.Fs) error { _, err := f.Open(d + "/a.txt/y"); return err }, syscall.ENOTDIR},
		{"open missing", func(f afero.Fs) error { _, err := f.Open(d + "/nosuch"); return err }, syscall.ENOENT},
		{"write folder", func(f afero.Fs) error { _, err := f.OpenFile(d+"/src", os.O_WRONLY, 0); return err }, syscall.EISDIR},
		{"exclusive existing", func(f afero.Fs) error {
			_, err := f.OpenFile(d+"/a.txt", os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			return err
		}, syscall.EEXIST},
		{"read folder", func(f afero.Fs) error {
			h, err := f.Open(d + "/src")
			if err != nil {
				return err
			}
			defer h.Close()
			_, err = h.Read(make([]byte, 4))
			return err
		}, syscall.EISDIR},
		{"remove full folder", func(f afero.Fs) error { return f.Remove(d + "/src") }, syscall.ENOTEMPTY},
		{"remove missing", func(f afero.Fs) error { return f.Remove(d + "/nosuch") }, syscall.ENOENT},
		{"remove root", func(f afero.Fs) error { return f.Remove("/") }, syscall.EBUSY},
		{"rename into itself", func(f afero.Fs) error { return f.Rename(d+"/src", d+"/src/util/x") }, syscall.EINVAL},
		{"rename file over folder", func(f afero.Fs) error { return f.Rename(d+"/a.txt", d+"/empty") }, syscall.EISDIR},
		{"rename folder over file", func(f afero.Fs) error { return f.Rename(d+"/empty", d+"/a.txt") }, syscall.ENOTDIR},
		{"rename over full folder", func(f afero.Fs) error { return f.Rename(d+"/empty", d+"/src") }, syscall.ENOTEMPTY},
		{"rename missing parent", func(f afero.Fs) error { return f.Rename(d+"/a.txt", d+"/x/a.txt") }, syscall.ENOENT},
		{"symlink unsupported", func(f afero.Fs) error { return posixfs.Symlink(f, "a.txt", d+"/l") }, afero.ErrNoSymlink},
		{"readlink of file", func(f afero.Fs) error { _, err := posixfs.Readlink(f, d+"/a.txt"); return err }, syscall.EINVAL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.op(newFS(t))
			if !errors.Is(err, tc.want) {
				t.Errorf("got %v, want %v", err, tc.want)
			}
		})
	}

	t.Run("rename folder over empty folder", func(t *testing.T) {
		f := newFS(t)
		if err := f.Rename(d+"/src", d+"/empty"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Stat(d + "/empty/util/u.go"); err != nil {
			t.Error(err)
		}
		if _, err := f.Stat(d + "/src"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("src is still there: %v", err)
		}
	})
	t.Run("append at every write", func(t *testing.T) {
		f := newFS(t)
		a, _ := f.OpenFile(d+"/b.txt", os.O_WRONLY|os.O_APPEND, 0)
		b, _ := f.OpenFile(d+"/b.txt", os.O_WRONLY|os.O_APPEND, 0)
		a.Write([]byte("1\n"))
		b.Write([]byte("2\n"))
		a.Write([]byte("3\n"))
		a.Close()
		b.Close()
		data, _ := afero.ReadFile(f, d+"/b.txt")
		if string(data) != "one\ntwo\n1\n2\n3\n" {
			t.Errorf("content %q", data)
		}
	})
	t.Run("umask", func(t *testing.T) {
		f := newFS(t)
		h, err := f.OpenFile(d+"/new", os.O_WRONLY|os.O_CREATE, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		h.Close()
		_ = f.Mkdir(d+"/newdir", 0o777)
		fi, _ := f.Stat(d + "/new")
		di, _ := f.Stat(d + "/newdir")
		if fi.Mode().Perm() != 0o644 || di.Mode().Perm() != 0o755 {
			t.Errorf("modes %v %v", fi.Mode(), di.Mode())
		}
	})
	t.Run("remove all of root", func(t *testing.T) {
		f := newFS(t)
		if err := f.RemoveAll("/"); err != nil {
			t.Fatal(err)
		}
		list, err := posixfs.ReadDir(f, "/")
		if err != nil || len(list) != 0 {
			t.Errorf("root holds %d entries (%v)", len(list), err)
		}
	})
	t.Run("idempotent", func(t *testing.T) {
		f := posixfs.Strict(afero.NewMemMapFs())
		if posixfs.Strict(f) != f || posixfs.Strict(posixfs.WithDev(f, nil, nil, nil)) == f {
			t.Error("fsStrict wraps twice or unwraps the devices")
		}
	})
}

// TestFsDev checks the device files over a filesystem without /dev.
func TestFsDev(t *testing.T) {
	var out, errOut strings.Builder
	f := posixfs.WithDev(afero.NewMemMapFs(), strings.NewReader("input"), &out, &errOut)
	read := func(name string, n int) string {
		h, err := f.Open(name)
		if err != nil {
			t.Fatalf("open %s: %v", name, err)
		}
		defer h.Close()
		b, _ := io.ReadAll(io.LimitReader(h, int64(n)))
		return string(b)
	}
	if s := read("/dev/null", 10); s != "" {
		t.Errorf("/dev/null read %q", s)
	}
	if s := read("/dev/zero", 3); s != "\x00\x00\x00" {
		t.Errorf("/dev/zero read %q", s)
	}
	if s := read("/dev/urandom", 32); len(s) != 32 {
		t.Errorf("/dev/urandom read %d bytes", len(s))
	}
	if s := read("/dev/stdin", 10); s != "input" {
		t.Errorf("/dev/stdin read %q", s)
	}
	for name, w := range map[string]*strings.Builder{"/dev/stdout": &out, "/dev/fd/2": &errOut} {
		h, err := f.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		h.Write([]byte("to " + name))
		h.Close()
		if w.String() != "to "+name {
			t.Errorf("%s got %q", name, w.String())
		}
	}
	if _, err := f.Open("/dev/tty"); !errors.Is(err, syscall.ENXIO) {
		t.Errorf("/dev/tty: %v", err)
	}
	if err := f.Remove("/dev/null"); !errors.Is(err, syscall.EPERM) {
		t.Errorf("remove /dev/null: %v", err)
	}
	fi, err := f.Stat("/dev/null")
	if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("stat /dev/null: %v %v", fi, err)
	}
	list, err := posixfs.ReadDir(f, "/dev")
	if err != nil || len(list) != len(posixfs.DevNames) {
		t.Errorf("/dev lists %d (%v)", len(list), err)
	}
}

// TestFsApplyMode checks chmod's mode arithmetic.
func TestFsApplyMode(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		old   uint32
		dir   bool
		want  uint32
		valid bool
	}{
		{"755", 0o644, false, 0o755, true},
		{"0600", 0o644, false, 0o600, true},
		{"u+x", 0o644, false, 0o744, true},
		{"+x", 0o644, false, 0o755, true},
		{"+w", 0o444, false, 0o644, true},
		{"a+w", 0o444, false, 0o666, true},
		{"go-rwx", 0o777, false, 0o700, true},
		{"a=rX", 0o744, false, 0o555, true},
		{"a=rX", 0o644, false, 0o444, true},
		{"a=rX", 0o600, true, 0o555, true},
		{"u=rw,g=r,o=", 0o777, false, 0o640, true},
		{"g=u", 0o640, false, 0o660, true},
		{"u+s", 0o755, false, 0o4755, true},
		{"+t", 0o777, true, 0o1777, true},
		{"xyz", 0o644, false, 0o644, false},
		{"u+", 0o644, false, 0o644, true},
		{"u", 0o644, false, 0o644, false},
		{"99", 0o644, false, 0o644, false},
		{"", 0o644, false, 0o644, false},
	} {
		got, ok := posixfs.ApplyMode(tc.spec, tc.old, tc.dir)
		if ok != tc.valid || (ok && got != tc.want) {
			t.Errorf("fsApplyMode(%q, %o, %v) = %o, %v; want %o, %v", tc.spec, tc.old, tc.dir, got, ok, tc.want, tc.valid)
		}
	}
}

// TestFsHuman checks the sizes of ls -h and du -h.
func TestFsHuman(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0", 1023: "1023", 1024: "1.0K", 1025: "1.1K", 1536: "1.5K", 10239: "10K",
		10240: "10K", 1048575: "1.0M", 1 << 20: "1.0M", 5 << 30: "5.0G", 123456789: "118M",
	} {
		if got := fileutil.Human(n); got != want {
			t.Errorf("fsHuman(%d) = %q, want %q", n, got, want)
		}
	}
}
