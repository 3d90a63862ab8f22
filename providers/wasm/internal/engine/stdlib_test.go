package engine

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestStdlibBeside: a built image's standard library is the python3XY.zip
// beside its wasm, mounted where that CPython's prefix puts it; anything
// else beside the wasm is no library, or an error that names it.
func TestStdlibBeside(t *testing.T) {
	var good bytes.Buffer
	zw := zip.NewWriter(&good)
	w, _ := zw.Create("os.py")
	w.Write([]byte("# os\n"))
	zw.Close()
	tests := []struct {
		name    string
		files   map[string][]byte
		wantDir string // "" with ok false
		wantErr bool
	}{
		{name: "none", files: map[string][]byte{"LICENSE": []byte("x")}},
		{name: "3.11", files: map[string][]byte{"python311.zip": good.Bytes()}, wantDir: "/usr/local/lib/python3.11"},
		{name: "3.13", files: map[string][]byte{"python313.zip": good.Bytes()}, wantDir: "/usr/local/lib/python3.13"},
		{name: "two", files: map[string][]byte{"python311.zip": good.Bytes(), "python312.zip": good.Bytes()}, wantErr: true},
		{name: "not a version", files: map[string][]byte{"python3x.zip": good.Bytes()}, wantErr: true},
		{name: "not a zip", files: map[string][]byte{"python311.zip": []byte("not a zip")}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, b := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			z, mount, ok, err := stdlibBeside(filepath.Join(dir, "python.wasm"))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if ok != (tt.wantDir != "") || mount != tt.wantDir {
				t.Fatalf("ok %v, mount %q; want %q", ok, mount, tt.wantDir)
			}
			if ok {
				b, err := fs.ReadFile(z, "os.py")
				if err != nil || string(b) != "# os\n" {
					t.Errorf("os.py = %q, %v", b, err)
				}
			}
		})
	}
}
