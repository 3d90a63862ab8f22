package engine

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A write of the data image that fails (here: a file opened read-only)
// is an error, never an image mapped over a short file (a SIGBUS when the
// guest touches the missing pages).
func TestDataImageWriteFails(t *testing.T) {
	dir := t.TempDir()
	old := dataImageTemp
	t.Cleanup(func() { dataImageTemp = old })
	dataImageTemp = func() (*os.File, error) {
		name := filepath.Join(dir, "ro")
		if err := os.WriteFile(name, nil, 0o600); err != nil {
			return nil, err
		}
		return os.Open(name)
	}
	d, err := newDataImage(bytes.Repeat([]byte{7}, 3*os.Getpagesize()+5))
	if err == nil {
		t.Fatalf("newDataImage on a file that cannot be written made an image of %d bytes", d.file.size)
	}
	if !errors.Is(err, syscall.EBADF) {
		t.Errorf("err = %v, want EBADF wrapped", err)
	}
}

// The image keeps no reference to the bytes it was made from (a
// template's memory, copied from the instance): its bytes are the file's,
// as written, whatever the caller does with its slice after.
func TestDataImageKeepsNoCopy(t *testing.T) {
	image := bytes.Repeat([]byte("xyz"), 2*os.Getpagesize()+1)
	want := bytes.Clone(image)
	d, err := newDataImage(image)
	if err != nil {
		t.Fatal(err)
	}
	clear(image)
	if d.size != len(want) || !bytes.Equal(d.bytes, want) {
		t.Fatalf("the image's bytes changed with the caller's slice (%d bytes, want %d)", len(d.bytes), len(want))
	}
}

// The image is every page of the file, padding included, and maps back
// as written.
func TestDataImageWhole(t *testing.T) {
	image := bytes.Repeat([]byte("abc"), os.Getpagesize())
	d, err := newDataImage(image)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := d.file.f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != int64(d.file.size) || d.file.size%os.Getpagesize() != 0 || d.file.size < len(image) {
		t.Fatalf("file of %d bytes for an image of %d (size %d)", fi.Size(), len(image), d.file.size)
	}
	mem, err := syscall.Mmap(-1, 0, d.file.size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(mem)
	if !d.mapInto(mem) {
		t.Fatal("mapInto failed")
	}
	if !bytes.Equal(mem[:len(image)], image) || bytes.ContainsFunc(mem[len(image):], func(r rune) bool { return r != 0 }) {
		t.Fatal("the mapped image differs from the image")
	}
}

// With the temporary folder on a full tmpfs (a 64 KiB one, in a mount
// namespace of its own), making a 1 MiB image fails with an error instead
// of mapping a file the tmpfs cannot hold. Needs root and unshare(1).
func TestDataImageFullTmpfs(t *testing.T) {
	if dir := os.Getenv("AGENTENKIT_TEST_TINY_TMPFS"); dir != "" {
		if os.TempDir() != dir {
			t.Fatalf("TMPDIR is %s, want %s", os.TempDir(), dir)
		}
		d, err := newDataImage(bytes.Repeat([]byte{1}, 1<<20))
		if err == nil {
			t.Fatalf("a 1 MiB image was made in a 64 KiB tmpfs (file of %d bytes)", d.file.size)
		}
		if !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("err = %v, want ENOSPC", err)
		}
		return
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil || os.Geteuid() != 0 {
		t.Skip("needs root and unshare(1) to mount a tiny tmpfs")
	}
	dir := t.TempDir()
	script := `mount -t tmpfs -o size=64k tmpfs "$1" && exec "$2" -test.run '^TestDataImageFullTmpfs$' -test.v`
	cmd := exec.Command(unshare, "-m", "--propagation", "private", "sh", "-c", script, "sh", dir, os.Args[0])
	cmd.Env = append(os.Environ(), "AGENTENKIT_TEST_TINY_TMPFS="+dir, "TMPDIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if strings.Contains(string(out), "mount:") || strings.Contains(string(out), "unshare:") {
			t.Skipf("cannot mount a tmpfs here: %s", out)
		}
		t.Fatalf("in a 64 KiB tmpfs: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestDataImageFullTmpfs") {
		t.Fatalf("the child did not run the test:\n%s", out)
	}
}
