package engine

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"
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
	v := wazeroModule
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == "github.com/tetratelabs/wazero" && dep.Version != "" && dep.Version != "(devel)" {
				v = dep.Version
				if dep.Replace != nil {
					v += "-replaced"
				}
			}
		}
	}
	return filepath.Join(dir, "wazero-"+v)
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
