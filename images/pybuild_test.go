package images

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuiltPythonFolderKey: the built image's folder is keyed by the
// build script, so an edited script never finds an old build.
func TestBuiltPythonFolderKey(t *testing.T) {
	orig := pybuildScript
	defer func() { pybuildScript = orig }()
	a := builtPythonFolder()
	if !strings.HasPrefix(a, "python-"+BuiltPythonVersion+"-wasi-") {
		t.Fatalf("folder %q", a)
	}
	pybuildScript = append([]byte(nil), orig...)
	pybuildScript = append(pybuildScript, '\n')
	if b := builtPythonFolder(); b == a {
		t.Errorf("an edited script has the same folder %q", b)
	}
}

// TestPythonFor: the choice between the npm image and the built one (the
// default), with the npm image as the fallback while the built one is not
// whole.
func TestPythonFor(t *testing.T) {
	dir := t.TempDir()
	folder := filepath.Join(dir, builtPythonFolder())
	write := func(names ...string) {
		t.Helper()
		if err := os.MkdirAll(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(folder, n), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	npm := filepath.Join(dir, "python-npm", "python.wasm")
	built := filepath.Join(folder, "python.wasm")
	tests := []struct {
		name    string
		files   []string // of the built image, written before the case
		choice  string
		env     string
		want    string
		wantErr bool
	}{
		{name: "default, not built: npm", want: npm},
		{name: "npm", choice: PythonImageNPM, want: npm},
		{name: "built, not built: npm", choice: PythonImageBuilt, want: npm},
		{name: "built, not whole: npm", files: []string{"python.wasm", "LICENSE"}, choice: PythonImageBuilt, want: npm},
		{name: "built, whole", files: builtPythonFiles, choice: PythonImageBuilt, want: built},
		{name: "default, built: built", want: built},
		{name: "env chooses npm", env: PythonImageNPM, want: npm},
		{name: "env chooses built", env: PythonImageBuilt, want: built},
		{name: "option over env", choice: PythonImageNPM, env: PythonImageBuilt, want: npm},
		{name: "unknown", choice: "pyodide", wantErr: true},
		{name: "unknown in env", env: "fast", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			write(tt.files...)
			t.Setenv(EnvPythonImage, tt.env)
			p := Paths{Dir: dir, Python: npm, BuiltPython: findBuiltPython(dir)}
			got, err := p.PythonFor(tt.choice)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("PythonFor(%q) = %q, want %q", tt.choice, got, tt.want)
			}
			version, err := p.PythonVersionFor(tt.choice)
			if (err != nil) != tt.wantErr {
				t.Fatalf("PythonVersionFor: err = %v, want error %v", err, tt.wantErr)
			}
			wantVersion := map[string]string{npm: PythonVersion, built: BuiltPythonVersion}[tt.want]
			if version != wantVersion {
				t.Errorf("PythonVersionFor(%q) = %q, want %q", tt.choice, version, wantVersion)
			}
		})
	}
}
