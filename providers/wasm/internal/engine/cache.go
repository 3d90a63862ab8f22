package engine

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	_ "unsafe" // go:linkname: wazeroVersion
)

// wazeroModule is the wazero version this package is built and tested with.
// TestWazeroVersion checks it against go.mod.
const wazeroModule = "v1.12.0"

// cacheDir is the folder under dir for this wazero version's compilation
// cache. wazero keys its cache by its own version, but reads that from the
// build info, which test binaries lack ("dev"): code compiled by another
// wazero would then be loaded after an upgrade. A folder per version, with
// the pinned version as the fallback, keeps them apart.
func cacheDir(dir string) string {
	v, _ := buildVersion()
	return filepath.Join(dir, "wazero-"+v)
}

// buildVersion is the wazero version this binary was built with, from its
// build info; found is false where the build info does not say (test
// binaries), and v is then the pinned wazeroModule.
func buildVersion() (v string, found bool) {
	v = wazeroModule
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/tetratelabs/wazero" && dep.Version != "" && dep.Version != "(devel)" {
				v, found = dep.Version, true
				if dep.Replace != nil {
					v += "-replaced"
				}
			}
		}
	}
	return v, found
}

// wazeroVersion is wazero's own record of its version, which names the
// folder of its compilation cache and heads every file in it: wazero sets
// it from the build info on first use, and takes a value already there.
//
//go:linkname wazeroVersion github.com/tetratelabs/wazero/internal/version.version
var wazeroVersion string

// In a binary whose build info does not name wazero's version (a test
// binary), wazero would key its cache by "dev", and the tests and the CLI
// would each keep a copy of every image's compiled code (150 MB for the
// busybox image): there it is told the pinned version the CLI reads from
// its build info (TestWazeroVersion keeps the two equal), so that both
// share one cache.
func init() {
	if v, found := buildVersion(); !found && wazeroVersion == "" {
		wazeroVersion = v
	}
}

// CacheLimit is how big the compilation cache may grow: compiled code is
// about four times its module (busybox: 118 MB), and every new build of an
// image adds its own, so New trims the cache to this size, oldest files
// first.
const CacheLimit = 1 << 30

// pruneCache trims the compilation cache under root for this process,
// whose folder is current (cacheDir): other folders of root (other wazero
// versions) go, and the files under current, oldest first (by modification
// time, as wazero writes each once), until what is left is under limit. It
// is best effort: what cannot be read or removed stays. A process still
// using a removed file keeps it open; one that asks for it again compiles
// anew.
func pruneCache(root, current string, limit int64) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if p := filepath.Join(root, e.Name()); e.IsDir() && p != current && strings.HasPrefix(e.Name(), "wazero-") {
			_ = os.RemoveAll(p)
		}
	}
	// wazero's cache of test binaries from before they shared the CLI's
	// (init above): nothing uses it any more.
	if stale, _ := filepath.Glob(filepath.Join(current, "wazero-dev-*")); wazeroVersion != "dev" {
		for _, p := range stale {
			_ = os.RemoveAll(p)
		}
	}
	type file struct {
		path  string
		size  int64
		mtime time.Time
	}
	var files []file
	_ = filepath.WalkDir(current, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			files = append(files, file{p, fi.Size(), fi.ModTime()})
		}
		return nil
	})
	slices.SortFunc(files, func(a, b file) int { return b.mtime.Compare(a.mtime) }) // newest first
	var total int64
	for _, f := range files {
		total += f.size
		if total > limit {
			_ = os.Remove(f.path)
		}
	}
}
