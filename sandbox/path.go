package sandbox

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// ResolvePath returns the clean absolute path inside the sandbox that p names:
// p itself when absolute, else p joined to workdir. ".." never climbs above
// "/". Adapters whose sandbox has its own root filesystem use it; adapters
// that confine a folder on the host check the result against their root.
func ResolvePath(workdir, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join("/", workdir, p)
}

// CheckRemove returns an error matching fs.ErrInvalid when removing abs (a
// clean absolute path) would remove the work folder workdir: abs is the
// work folder or a folder above it. FileSystem.Remove refuses those, so
// that a sandbox always has its work folder; adapters call it first.
func CheckRemove(workdir, abs string) error {
	workdir = ResolvePath("/", workdir)
	if abs == workdir || abs == "/" || strings.HasPrefix(workdir, abs+"/") {
		return &fs.PathError{Op: "remove", Path: abs, Err: fmt.Errorf("%w: it is or holds the work folder %s, which the sandbox keeps; remove what is in it instead", fs.ErrInvalid, workdir)}
	}
	return nil
}
