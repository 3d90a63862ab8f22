package sandbox

import "path"

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
