package images

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// The project's own python image: CPython 3.11.2 for WASI built from
// Debian's source packages with Debian's clang, lld and wasi-libc, -O2, by
// pybuild/build.sh (BuildPython). Its folder in the images folder is keyed
// by the script's sha256 (the script pins every source by sha256), so a
// changed script is a new image and an old folder is never taken for it.
// It is the default once built (`make python-image`, `agentenkit images
// pull --build-python`); the fetched npm image is the fallback where it is
// not, and can be chosen by name (PythonImageNPM).

//go:embed pybuild/build.sh
var pybuildScript []byte

// BuiltPythonVersion is the CPython version pybuild/build.sh builds.
const BuiltPythonVersion = "3.11.2"

// builtPythonFolder is the built image's folder in the images folder.
func builtPythonFolder() string {
	sum := sha256.Sum256(pybuildScript)
	return "python-" + BuiltPythonVersion + "-wasi-" + hex.EncodeToString(sum[:6])
}

// builtPythonFiles are what a whole built image holds; python.wasm is
// written last.
var builtPythonFiles = []string{"python311.zip", "LICENSE", "BUILDINFO", "python.wasm"}

// findBuiltPython returns the built image's python.wasm in dir, or "" when
// it is not there whole.
func findBuiltPython(dir string) string {
	folder := filepath.Join(dir, builtPythonFolder())
	for _, f := range builtPythonFiles {
		if fi, err := os.Stat(filepath.Join(folder, f)); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
			return ""
		}
	}
	return filepath.Join(folder, "python.wasm")
}

// The python images PythonFor chooses between.
const (
	PythonImageNPM   = "npm"   // the fetched CPython 3.12.0 build (the fallback)
	PythonImageBuilt = "built" // the project's own build (BuildPython; the default once built)
)

// EnvPythonImage names the python image to use when a caller does not
// (wasm.Options.PythonImage): PythonImageNPM or PythonImageBuilt.
const EnvPythonImage = "AGENTENKIT_PYTHON_IMAGE"

// PythonFor returns the python.wasm that choice names: Python for
// PythonImageNPM, BuiltPython for PythonImageBuilt when it was built and
// Python (the fallback) when not. Empty means $AGENTENKIT_PYTHON_IMAGE,
// and PythonImageBuilt when that is empty too: the built image where it is
// there, the npm one where not. Any other value is an error.
func (p Paths) PythonFor(choice string) (string, error) {
	wasm, _, err := p.pythonImage(choice)
	return wasm, err
}

// PythonVersionFor returns the CPython version ("3.12.0", "3.11.2") of the
// image PythonFor(choice) returns, the fallback's when the built image is
// not there: what its sys.version starts with, and what a sandbox's
// python3.X command, its pip's site folder and markers follow.
func (p Paths) PythonVersionFor(choice string) (string, error) {
	_, version, err := p.pythonImage(choice)
	return version, err
}

// pythonImage is PythonFor and PythonVersionFor in one.
func (p Paths) pythonImage(choice string) (wasm, version string, err error) {
	if choice == "" {
		choice = os.Getenv(EnvPythonImage)
	}
	switch choice {
	case PythonImageNPM:
		return p.Python, PythonVersion, nil
	case "", PythonImageBuilt:
		if p.BuiltPython != "" {
			return p.BuiltPython, BuiltPythonVersion, nil
		}
		return p.Python, PythonVersion, nil
	}
	return "", "", fmt.Errorf("images: python image %q: want %q or %q", choice, PythonImageNPM, PythonImageBuilt)
}

// ErrBuild: building the python image failed; the wrapping error has the
// script's last lines.
var ErrBuild = errors.New("python image build failed")

// BuildPython builds the project's own python image into opts.Dir
// (DefaultDir() when empty) unless it is there already, and returns its
// python.wasm (a python3XY.zip beside it holds the standard library). The
// build runs pybuild/build.sh with sh: it needs Debian (apt-get, as root
// when the toolchain or the deb-src lines are missing) and takes about 2
// minutes of 2 idle cores (up to 45 on a loaded machine, with the
// toolchain to install). opts.Progress gets the script's lines.
//
// # Errors
//
//   - ErrBuild when the script fails (the error carries its last output);
//   - ctx's error when it ends first (the partial build is removed).
func BuildPython(ctx context.Context, opts Options) (string, error) {
	if opts.Dir == "" {
		opts.Dir = DefaultDir()
	}
	if p := findBuiltPython(opts.Dir); p != "" {
		say(opts.Progress, "images: %s is up to date", p)
		return p, nil
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return "", fmt.Errorf("images: make the images folder: %w", err)
	}
	work, err := os.MkdirTemp(opts.Dir, "pybuild-")
	if err != nil {
		return "", fmt.Errorf("images: %w", err)
	}
	defer os.RemoveAll(work)
	script := filepath.Join(work, "build.sh")
	if err := os.WriteFile(script, pybuildScript, 0o755); err != nil {
		return "", fmt.Errorf("images: %w", err)
	}
	out := filepath.Join(work, "out")
	var tail tailWriter
	var w io.Writer = &tail
	if opts.Progress != nil {
		w = io.MultiWriter(&tail, opts.Progress)
	}
	cmd := exec.CommandContext(ctx, "sh", script, out)
	cmd.Env = append(os.Environ(), "PYBUILD_WORK="+filepath.Join(work, "w"))
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", fmt.Errorf("images: %w: %v\n%s", ErrBuild, err, tail.String())
	}
	final := filepath.Join(opts.Dir, builtPythonFolder())
	_ = os.RemoveAll(final)
	if err := os.Rename(out, final); err != nil {
		return "", fmt.Errorf("images: %w", err)
	}
	p := findBuiltPython(opts.Dir)
	if p == "" {
		return "", fmt.Errorf("images: %w: %s is not whole after the build", ErrBuild, final)
	}
	return p, nil
}

// tailWriter keeps the last 4 KiB written to it.
type tailWriter struct{ b []byte }

func (t *tailWriter) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (t *tailWriter) String() string { return string(t.b) }
