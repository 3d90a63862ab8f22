package images

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakePackage is a pin over a tarball made here, so no test needs the
// network.
func fakePackage(t *testing.T, files map[string]string) (npmPackage, string) {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, body := range files {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	zw.Close()
	tgz := filepath.Join(t.TempDir(), "fake-1.0.0.tgz")
	if err := os.WriteFile(tgz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha512.Sum512(buf.Bytes())
	return npmPackage{
		Name: "fake", Version: "1.0.0", Folder: "fake-1.0.0",
		Integrity: "sha512-" + base64.StdEncoding.EncodeToString(sum[:]),
		Size:      int64(buf.Len()),
		Files:     map[string]string{"package/dist/x.wasm": "x.wasm", "package/LICENSE": "LICENSE"},
	}, tgz
}

func TestInstall(t *testing.T) {
	pkg, tgz := fakePackage(t, map[string]string{
		"package/dist/x.wasm": "\x00asm", "package/LICENSE": "MIT", "package/README.md": "not wanted",
	})
	dir := t.TempDir()
	var progress bytes.Buffer
	if err := pkg.install(tgz, dir, &progress); err != nil {
		t.Fatal(err)
	}
	if err := pkg.check(dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "fake-1.0.0", "x.wasm")); string(b) != "\x00asm" {
		t.Errorf("x.wasm = %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "fake-1.0.0", "README.md")); err == nil {
		t.Error("extracted a file not asked for")
	}
	if !strings.Contains(progress.String(), "(100%)") {
		t.Errorf("progress: %q", progress.String())
	}
	// A damaged image is missing again.
	os.WriteFile(filepath.Join(dir, "fake-1.0.0", "x.wasm"), []byte("x"), 0o644)
	if err := pkg.check(dir); !errors.Is(err, ErrMissing) {
		t.Errorf("damaged: %v", err)
	}
	// A new pin does not take the old files.
	pkg.Integrity = "sha512-other"
	if err := pkg.check(dir); !errors.Is(err, ErrMissing) {
		t.Errorf("repinned: %v", err)
	}
}

func TestIntegrityMismatch(t *testing.T) {
	pkg, tgz := fakePackage(t, map[string]string{"package/dist/x.wasm": "a", "package/LICENSE": "b"})
	good := pkg.Integrity
	pkg.Integrity = "sha512-" + base64.StdEncoding.EncodeToString(make([]byte, 64))
	dir := t.TempDir()
	err := pkg.install(tgz, dir, nil)
	if !errors.Is(err, ErrIntegrity) {
		t.Fatalf("install with a wrong pin: %v", err)
	}
	for _, want := range []string{good, pkg.Integrity, "npm cache", FetchCommand} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not say %q: %v", want, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left %d entries in the images folder", len(entries))
	}
	// The real pin is refused for a file that is not the real tarball.
	if err := verifyIntegrity(tgz, PythonIntegrity, nil); !errors.Is(err, ErrIntegrity) {
		t.Errorf("python pin on a fake tarball: %v", err)
	}
}

func TestFindMissing(t *testing.T) {
	_, err := Find(t.TempDir())
	if !errors.Is(err, ErrMissing) || !strings.Contains(err.Error(), "`"+FetchCommand+"`") {
		t.Fatalf("Find on an empty folder: %v", err)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "/somewhere/images")
	if got := DefaultDir(); got != "/somewhere/images" {
		t.Errorf("with $%s: %s", EnvDir, got)
	}
	t.Setenv(EnvDir, "")
	wd, _ := os.Getwd()
	if got, want := DefaultDir(), filepath.Join(filepath.Dir(wd), "images", "cache"); got != want {
		t.Errorf("in the source tree: %s, want %s", got, want)
	}
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CACHE_HOME", "/xdg")
	if got := DefaultDir(); got != "/xdg/agentenkit/images" {
		t.Errorf("outside the tree: %s", got)
	}
}

func TestGoModPath(t *testing.T) {
	for in, want := range map[string]string{
		"module github.com/agentenkit/agentenkit\n\ngo 1.26\n": modulePath,
		"// x\nmodule \"example.com/m\"\n":                     "example.com/m",
		"go 1.26\n":                                            "",
	} {
		if got := goModPath(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestFetched checks the real python image when it has been fetched.
func TestFetched(t *testing.T) {
	p, err := Find("")
	if err != nil {
		t.Skipf("python image not fetched (run `%s`): %v", FetchCommand, err)
	}
	b, err := os.ReadFile(p.Python)
	if err != nil || !bytes.HasPrefix(b, []byte("\x00asm\x01\x00\x00\x00")) {
		t.Fatalf("%s is not a wasm module: %v", p.Python, err)
	}
}
