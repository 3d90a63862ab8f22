package vfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/spf13/afero"
)

// FuzzPaths runs random programs of operations on random path strings and
// checks that nothing panics, every error is typed, every path this package
// yields (error paths, handle names, lookups, the tree itself) is clean and
// absolute, and the usage matches the tree within the quotas.
func FuzzPaths(f *testing.F) {
	for i, c := range posixCases {
		f.Add([]byte{byte(i), byte(i * 17), byte(i * 31)}, c.p, c.q)
	}
	for _, p := range []string{
		"../../../../etc/passwd", "/a/../../..", "l/../f", "loop/x", "esc", "a//b/./c/", ".", "..",
		"a\x00b", "\\a\\b", "a/b/../../../../l", "/abs/..", strings.Repeat("../", 100) + "a",
	} {
		f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, p, "a/"+p)
	}
	f.Fuzz(func(t *testing.T, program []byte, p, q string) {
		const maxBytes, maxFiles = 512, 24
		fsys := New(Options{MaxBytes: maxBytes, MaxFiles: maxFiles})
		build(t, fsys, "a/", "a/b/", "a/f=hello", "l->a", "loop->loop",
			"esc->../../../../etc/passwd", "abs->/a/f", "up->..")
		names := []string{p, q, path.Join(p, q), p + "/", "a/" + p, "l/" + q, q + "/../" + p, "/up/" + p}
		var handles []afero.File
		check := func(err error) {
			t.Helper()
			fuzzCheckErr(t, err)
		}
		if len(program) > 64 {
			program = program[:64]
		}
		for i, b := range program {
			x := names[int(b>>4)%len(names)]
			y := names[(int(b>>4)+1+i)%len(names)]
			switch b % 16 {
			case 0:
				h, err := fsys.Create(x)
				check(err)
				if err == nil {
					fuzzCheckPath(t, h.Name())
					_, err = h.Write([]byte(y))
					check(err)
					handles = append(handles, h)
				}
			case 1:
				check(fsys.Mkdir(x, 0o755))
			case 2:
				check(fsys.MkdirAll(x, 0o755))
			case 3:
				check(fsys.Remove(x))
			case 4:
				check(fsys.RemoveAll(x))
			case 5:
				check(fsys.Rename(x, y))
			case 6:
				check(fsys.SymlinkIfPossible(y, x))
			case 7:
				_, err := fsys.ReadlinkIfPossible(x)
				check(err)
			case 8:
				_, err := fsys.Stat(x)
				check(err)
			case 9:
				_, _, err := fsys.LstatIfPossible(x)
				check(err)
			case 10:
				h, err := fsys.Open(x)
				check(err)
				if err == nil {
					fuzzCheckPath(t, h.Name())
					_, err = h.Readdir(int(b>>6) - 1)
					check(err)
					_, err = h.Read(make([]byte, 8))
					check(err)
					check(h.Close())
				}
			case 11:
				check(fsys.WriteFile(x, []byte(y), 0o644))
			case 12:
				flags := []int{os.O_RDONLY, os.O_WRONLY | os.O_APPEND, os.O_RDWR | os.O_CREATE, os.O_RDWR | os.O_CREATE | os.O_EXCL | os.O_TRUNC}
				h, err := fsys.OpenFile(x, flags[int(b>>6)], 0o600)
				check(err)
				if err == nil {
					handles = append(handles, h)
				}
			case 13, 14:
				if len(handles) == 0 {
					continue
				}
				h := handles[i%len(handles)]
				if b%16 == 13 {
					check(h.Truncate(int64(len(y)) * int64(b>>4)))
					continue
				}
				_, err := h.Seek(int64(len(x))*int64(b>>4), io.SeekStart)
				check(err)
				_, err = h.Write([]byte(y))
				check(err)
				_, err = h.WriteAt([]byte(x), int64(len(y)))
				check(err)
			case 15:
				if len(handles) > 0 {
					h := handles[0]
					handles = handles[1:]
					check(h.Close())
				}
			}
			for _, name := range []string{x, y} {
				if clean, _, err := cleanPath(name); err == nil {
					fsys.mu.RLock()
					n, err := fsys.lookup(clean, true)
					fsys.mu.RUnlock()
					if err == nil {
						fuzzCheckPath(t, n.path)
					}
				}
			}
		}
		for _, h := range handles {
			check(h.Close())
		}
		fuzzCheckTree(t, fsys, maxBytes, maxFiles)
	})
}

func fuzzCheckErr(t *testing.T, err error) {
	t.Helper()
	if err == nil || err == io.EOF {
		return
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		fuzzCheckPath(t, pe.Path)
	case errors.As(err, &le):
		fuzzCheckPath(t, le.New)
	default:
		t.Fatalf("untyped error %v (%T)", err, err)
	}
}

func fuzzCheckPath(t *testing.T, p string) {
	t.Helper()
	if !strings.HasPrefix(p, "/") || path.Clean(p) != p {
		t.Fatalf("path %q is not clean and absolute", p)
	}
}

// fuzzCheckTree walks the tree: every node is where MemMapFs thinks it is,
// and the usage is the tree's and within the quotas.
func fuzzCheckTree(t *testing.T, fsys *FS, maxBytes int64, maxFiles int) {
	t.Helper()
	var bytes int64
	files := -1
	err := afero.Walk(fsys, "/", func(p string, info fs.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fuzzCheckPath(t, p)
		if n := fsys.memStat(p); n == nil || n.FileData.Name() != p {
			t.Fatalf("node %q is not stored under its name", p)
		}
		files++
		if info.Mode().IsRegular() {
			bytes += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	gotBytes, gotFiles := fsys.Usage()
	if gotBytes != bytes || gotFiles != files {
		t.Fatalf("usage %d bytes %d files, tree has %d bytes %d files", gotBytes, gotFiles, bytes, files)
	}
	if bytes > maxBytes || files > maxFiles {
		t.Fatalf("usage %d bytes %d files is over the quotas", bytes, files)
	}
	if len(fsys.writers) != 0 || len(fsys.orphans) != 0 {
		t.Fatalf("writers or orphans left after closing every handle: %d, %d", len(fsys.writers), len(fsys.orphans))
	}
}
