package vfs

import (
	"io"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/spf13/afero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
)

type rootInfo struct{ fs.FileInfo }

func (rootInfo) RootOwned() bool { return true }

// WASIStat reports a node of root's with WASIRootOwned, and anything else
// as the WASI view reports its own nodes.
func TestWASIStatRootOwned(t *testing.T) {
	f := New(Options{})
	if err := afero.WriteFile(f, "/a", []byte("xy"), 0o755); err != nil {
		t.Fatal(err)
	}
	fi, err := f.Stat("/a")
	if err != nil {
		t.Fatal(err)
	}
	own, _ := f.WASI().Stat("a")
	if st := WASIStat("/a", fi); st != own {
		t.Errorf("WASIStat = %+v, the WASI view's %+v", st, own)
	}
	st := WASIStat("/a", rootInfo{fi})
	if st.Dev != WASIDevTag|WASIRootOwned|0o755 || st.Ino != own.Ino || st.Size != 2 {
		t.Errorf("root's: %+v", st)
	}
}

// WASIFile reads, seeks, lists and refuses as the afero file under it
// does, with the WASI view's inodes and errors.
func TestWASIFile(t *testing.T) {
	mem := afero.NewMemMapFs()
	if err := afero.WriteFile(mem, "/d/f", []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := mem.Mkdir("/d/sub", 0o755); err != nil {
		t.Fatal(err)
	}
	ro, err := mem.OpenFile("/d/f", os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := WASIFile(ro, "/d/f")
	buf := make([]byte, 3)
	if n, e := f.Read(buf); n != 3 || e != 0 || string(buf) != "hel" {
		t.Errorf("read: %d %v %q", n, e, buf)
	}
	if n, e := f.Pread(buf, 2); n != 3 || e != 0 || string(buf) != "llo" {
		t.Errorf("pread: %d %v %q", n, e, buf)
	}
	if off, e := f.Seek(1, io.SeekStart); off != 1 || e != 0 {
		t.Errorf("seek: %d %v", off, e)
	}
	if ino, _ := f.Ino(); ino != inode("/d/f") {
		t.Errorf("ino %d", ino)
	}
	if dir, _ := f.IsDir(); dir {
		t.Error("a file is a folder")
	}
	if _, e := f.Write([]byte("x")); e == 0 {
		t.Error("a write to a read-only file")
	}
	if e := f.Utimens(0, time.Now().UnixNano()); e != experimentalsys.EPERM {
		t.Errorf("utimens: %v", e)
	}
	if e := f.Close(); e != 0 {
		t.Errorf("close: %v", e)
	}

	d, err := mem.Open("/d")
	if err != nil {
		t.Fatal(err)
	}
	wd := WASIFile(d, "/d")
	var names []string
	for {
		ents, e := wd.Readdir(1)
		if e != 0 {
			t.Fatalf("readdir: %v", e)
		}
		if len(ents) == 0 {
			break
		}
		for _, de := range ents {
			names = append(names, de.Name)
			if de.Ino != inode("/d/"+de.Name) {
				t.Errorf("%s: ino %d", de.Name, de.Ino)
			}
			if (de.Name == "sub") != de.Type.IsDir() {
				t.Errorf("%s: type %v", de.Name, de.Type)
			}
		}
	}
	if len(names) != 2 {
		t.Errorf("listed %q", names)
	}
	st, e := wd.Stat()
	if e != 0 || !st.Mode.IsDir() || st.Ino != inode("/d") {
		t.Errorf("stat: %+v %v", st, e)
	}
}

// Direct tells a path reached through no link from one that goes through
// one.
func TestDirect(t *testing.T) {
	f := New(Options{})
	if err := f.MkdirAll("/a/b", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := afero.WriteFile(f, "/a/b/f", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range [][2]string{{"/a", "/l"}, {"/nowhere", "/a/dangling"}} {
		if err := f.SymlinkIfPossible(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name   string
		follow bool
		want   bool
	}{
		{"/a/b/f", true, true},
		{"/a/b/missing", true, true},
		{"/a/b/../b/f", true, true},
		{"/l/b/f", true, false},
		{"/l/b/missing", true, false},
		{"/a/missing/x", true, false},
		{"/a/dangling", false, true},
		{"/a/dangling", true, false},
		{"/l", false, true},
		{"/", true, false},
	} {
		if got := f.Direct(c.name, c.follow); got != c.want {
			t.Errorf("Direct(%q, %v) = %v, want %v", c.name, c.follow, got, c.want)
		}
	}
}
