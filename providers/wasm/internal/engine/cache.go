package engine

import (
	"path/filepath"
	"runtime/debug"
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
