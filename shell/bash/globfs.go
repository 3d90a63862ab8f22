package bash

import (
	"io/fs"

	"github.com/agentenkit/agentenkit/shell/bash/glob"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

// globber expands patterns over the runner's file system with its
// current shell options.
func (r *Runner) globber() *glob.Globber {
	gi, _ := r.getVar("GLOBIGNORE")
	return &glob.Globber{
		FS:           globFS{r},
		ExtGlob:      r.shopt["extglob"],
		GlobStar:     r.shopt["globstar"],
		DotGlob:      r.shopt["dotglob"],
		NoCaseGlob:   r.shopt["nocaseglob"],
		GlobSkipDots: r.shopt["globskipdots"],
		Ignore:       gi != "",
	}
}

// matchPath matches a whole path against a GLOBIGNORE pattern.
func (r *Runner) matchPath(pat, path string) bool {
	return glob.MatchPath(pat, path, r.shopt["extglob"])
}

// globFS is the runner's file system as pathname expansion reads it
// (glob.FS): paths relative to the working directory.
type globFS struct{ r *Runner }

func (g globFS) Stat(path string) (fs.FileInfo, error)  { return g.r.fs.Stat(g.r.abs(path)) }
func (g globFS) Lstat(path string) (fs.FileInfo, error) { return posixfs.Lstat(g.r.fs, g.r.abs(path)) }

// ReadDir lists a folder sorted by name.
func (g globFS) ReadDir(path string) ([]fs.DirEntry, error) {
	infos, err := posixfs.ReadDir(g.r.fs, g.r.abs(path))
	out := make([]fs.DirEntry, len(infos))
	for i, fi := range infos {
		out[i] = fs.FileInfoToDirEntry(fi)
	}
	return out, err
}
