package posixfs

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/vfs"
)

// linkTree is the tree the walk tests resolve in, under /r: folders,
// files and links (relative and absolute, to files, folders, nothing,
// each other and up), as "path", "path/" (a folder) or "path -> target".
var linkTree = []string{
	"r/", "r/a/", "r/a/b/", "r/a/f", "r/a/b/g",
	"r/l1 -> a/b", "r/abs -> /r/a", "r/chain -> l1", "r/up -> a/b/..", "r/a/b/top -> ../..",
	"r/dang -> nosuch", "r/loop1 -> loop2", "r/loop2 -> loop1", "r/fl -> a/f", "r/self -> .",
}

// buildTree makes linkTree under root with mk (mkdir, write, symlink).
func buildTree(t testing.TB, mkdir func(string) error, write func(string) error, symlink func(target, name string) error) {
	t.Helper()
	for _, e := range linkTree {
		var err error
		switch name, target, link := strings.Cut(e, " -> "); {
		case link:
			err = symlink(target, name)
		case strings.HasSuffix(e, "/"):
			err = mkdir(strings.TrimSuffix(e, "/"))
		default:
			err = write(e)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// newLinkFS is a POSIX vfs holding linkTree.
func newLinkFS(t testing.TB) afero.Fs {
	fsys := Strict(vfs.New(vfs.Options{}))
	buildTree(t, func(p string) error { return fsys.Mkdir("/"+p, 0o755) },
		func(p string) error { return afero.WriteFile(fsys, "/"+p, []byte("x"), 0o644) },
		func(target, p string) error { return Symlink(fsys, target, "/"+p) })
	return fsys
}

func TestResolve(t *testing.T) {
	fsys := newLinkFS(t)
	for _, tc := range []struct {
		dir, name string
		mode      ResolveMode
		want      string // or an errno's name
	}{
		{"/r", "a/b/g", 'e', "/r/a/b/g"},
		{"/r", "l1/g", 'e', "/r/a/b/g"},
		{"/r", "chain/../f", 'e', "/r/a/f"},
		{"/r", "abs/b", 'e', "/r/a/b"},
		{"/r", "up", 'e', "/r/a"},
		{"/r", "a/b/top/a", 'e', "/r/a"},
		{"/r", "self/self/a/", 'e', "/r/a"},
		{"/", "//r/./a//b/", 'e', "/r/a/b"},
		{"/r", "../../r/a", 'e', "/r/a"},
		{"/r", "x/../a", 'e', "ENOENT"},
		{"/r", "x/../a", 'm', "/r/a"},
		{"/r", "dang", 'e', "ENOENT"},
		{"/r", "dang", 'f', "/r/nosuch"},
		{"/r", "dang/x", 'f', "ENOENT"},
		{"/r", "dang/x", 'm', "/r/nosuch/x"},
		{"/r", "a/f/x", 'e', "ENOTDIR"},
		{"/r", "fl/", 'e', "ENOTDIR"},
		{"/r", "a/f/.", 'f', "ENOTDIR"},
		{"/r", "a/f/", 'm', "/r/a/f"},
		{"/r", "dang/", 'f', "/r/nosuch"},
		{"/r", "dang/.", 'f', "ENOENT"},
		{"/r", "fl/x", 'f', "ENOTDIR"},
		{"/r", "a/f/x", 'm', "/r/a/f/x"},
		{"/r", "loop1", 'e', "ELOOP"},
		{"/r", "loop1", 'm', "ELOOP"},
		{"/r", "", 'm', "ENOENT"},
	} {
		got, err := Resolve(fsys, tc.dir, tc.name, tc.mode)
		if err != nil {
			got = errnoName(err)
		}
		if got != tc.want {
			t.Errorf("Resolve(%q, %q, %c) = %q (%v), want %q", tc.dir, tc.name, tc.mode, got, err, tc.want)
		}
	}
}

// errnoName names err's errno ("ENOENT"), or is err's text.
func errnoName(err error) string {
	for _, e := range []syscall.Errno{syscall.ENOENT, syscall.ENOTDIR, syscall.ELOOP} {
		if errors.Is(err, e) {
			return map[syscall.Errno]string{syscall.ENOENT: "ENOENT", syscall.ENOTDIR: "ENOTDIR", syscall.ELOOP: "ELOOP"}[e]
		}
	}
	return err.Error()
}

// FuzzResolve compares Resolve (every component must exist) with the
// host's resolution of the same name in the same tree, built in a
// folder of its own (filepath.EvalSymlinks walks as POSIX does). A name
// that leaves the host's folder, or a link chain the host refuses, is
// not compared (the host gives up after 255 links, not 40).
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"a/b/g", "l1/../f", "up/b/top/l1", "chain/g", "abs/f/", "dang", "loop1", "a/f/x", "self/./a", "..", "fl/.."} {
		f.Add(s)
	}
	fsys := newLinkFS(f)
	host := f.TempDir()
	buildTree(f, func(p string) error { return os.Mkdir(filepath.Join(host, p), 0o755) },
		func(p string) error { return os.WriteFile(filepath.Join(host, p), []byte("x"), 0o644) },
		func(target, p string) error {
			if path.IsAbs(target) {
				target = host + target
			}
			return os.Symlink(target, filepath.Join(host, p))
		})
	f.Fuzz(func(t *testing.T, name string) {
		if name == "" || strings.ContainsRune(name, 0) || path.IsAbs(name) || len(name) > 200 {
			return
		}
		got, err := Resolve(fsys, "/r", name, 'e')
		want, herr := filepath.EvalSymlinks(filepath.Join(host, "r") + "/" + name)
		if herr != nil && strings.Contains(herr.Error(), "too many links") {
			if !errors.Is(err, syscall.ELOOP) {
				t.Fatalf("Resolve(%q) = %q, %v; the host loops", name, got, err)
			}
			return
		}
		if herr == nil {
			if want != host && !strings.HasPrefix(want, host+"/") {
				return // the name left the host's folder
			}
			want = "/" + strings.TrimPrefix(strings.TrimPrefix(want, host), "/")
		}
		if (err == nil) != (herr == nil) || (err == nil && got != want) {
			if herr != nil && strings.Contains(name, "..") {
				return // on the host a .. may leave the folder and miss
			}
			t.Fatalf("Resolve(%q) = %q, %v; the host: %q, %v", name, got, err, want, herr)
		}
		if err != nil && errnoName(err) != errnoName(herr) {
			t.Fatalf("Resolve(%q): %v; the host: %v", name, err, herr)
		}
	})
}

// TestSystemViaLinks: the system folders are found through the base's
// links (relative, absolute, chained, up), as Resolve finds them.
func TestSystemViaLinks(t *testing.T) {
	fsys := newSystemViaLinksFS(t)
	for _, tc := range []struct {
		name  string
		lstat bool
		want  string // "file", "dir", "link" or an errno's name
	}{
		{name: "/home/user/b/ls", want: "file"},
		{name: "/home/user/b", want: "dir"},
		{name: "/home/user/b", lstat: true, want: "link"},
		{name: "/home/user/u/bin/sh", want: "file"},
		{name: "/home/user/rel", want: "file"},
		{name: "/home/user/rel", lstat: true, want: "link"},
		{name: "/home/user/chain/python3", want: "file"},
		{name: "/home/user/b/nosuch", want: "ENOENT"},
		{name: "/home/user/b/ls/x", want: "ENOTDIR"},
		{name: "/home/user/loop/ls", want: "ELOOP"},
		{name: "/home/user/nosuch/ls", want: "ENOENT"},
	} {
		var fi os.FileInfo
		var err error
		if tc.lstat {
			fi, err = Lstat(fsys, tc.name)
		} else {
			fi, err = fsys.Stat(tc.name)
		}
		got := ""
		switch {
		case err != nil:
			got = errnoName(err)
		case IsSymlink(fi):
			got = "link"
		case fi.IsDir():
			got = "dir"
		default:
			got = "file"
		}
		if got != tc.want {
			t.Errorf("stat %q (lstat %v) = %s (%v), want %s", tc.name, tc.lstat, got, err, tc.want)
		}
		if real, rerr := Resolve(fsys, "/", tc.name, 'e'); !tc.lstat && (rerr == nil) != (err == nil) {
			t.Errorf("Resolve(%q) = %q, %v; stat %v", tc.name, real, rerr, err)
		}
	}
}

// newSystemViaLinksFS is newSystemFS's system folders over a base with
// links into them: b -> /bin, u -> ../../usr, rel -> b/ls, chain -> b,
// loop -> loop.
func newSystemViaLinksFS(t testing.TB) afero.Fs {
	base := Strict(vfs.New(vfs.Options{}))
	if err := base.MkdirAll("/home/user", 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"b": "/bin", "u": "../../usr", "rel": "b/ls", "chain": "b", "loop": "loop"} {
		if err := Symlink(base, target, "/home/user/"+name); err != nil {
			t.Fatal(err)
		}
	}
	return WithSystem(base, testCommands{"sh", "ls", "python3"})
}

// FuzzSystemViaLinks: a name is found through the base's links exactly
// when Resolve finds it, and one Resolve puts in /usr/bin is a command's
// file there.
func FuzzSystemViaLinks(f *testing.F) {
	for _, s := range []string{"b/ls", "u/bin/sh", "rel", "chain/python3", "loop/ls", "b/../b/ls", "u/sbin", "b/ls/x", "u/local"} {
		f.Add(s)
	}
	fsys := newSystemViaLinksFS(f)
	f.Fuzz(func(t *testing.T, name string) {
		parts := strings.Split(name, "/")
		if strings.ContainsRune(name, 0) || len(name) > 200 || slices.Contains(parts, "..") || len(parts) > 1 && (parts[len(parts)-1] == "" || parts[len(parts)-1] == ".") {
			// a name's own .. and a trailing / or /. are taken away by
			// text before stat (stat "file/" is not ENOTDIR there)
			return
		}
		abs := "/home/user/" + name
		fi, err := fsys.Stat(abs)
		real, rerr := Resolve(fsys, "/", abs, 'e')
		if (err == nil) != (rerr == nil) {
			t.Fatalf("stat %q: %v; Resolve: %q, %v", abs, err, real, rerr)
		}
		if rerr == nil && path.Dir(real) == "/usr/bin" {
			if cmd, ok := SystemCommand(fsys, abs); !ok || cmd != path.Base(real) || fi.IsDir() {
				t.Fatalf("%q resolves to %q, a command's file; SystemCommand: %q, %v", abs, real, cmd, ok)
			}
		}
	})
}
