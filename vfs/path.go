package vfs

import (
	"io"
	"path"
	"strings"
	"syscall"

	"github.com/spf13/afero/mem"
)

const (
	// maxPath is the longest path (and link target) accepted, as PATH_MAX.
	maxPath = 4096
	// maxName is the longest path element accepted, as NAME_MAX.
	maxName = 255
	// maxHops is how many symbolic links one lookup may follow, as Linux's
	// MAXSYMLINKS: the 41st gives ELOOP.
	maxHops = 40
)

// cleanPath is the root jail: it returns the clean absolute path name names
// inside the filesystem. A relative name is relative to "/", and ".." never
// climbs above "/", so no name can mean anything outside. dirOnly reports a
// trailing "/" (or "/."), which asks for a directory. An empty name is
// ENOENT, a NUL byte EINVAL and an overlong name or element ENAMETOOLONG.
func cleanPath(name string) (clean string, dirOnly bool, err error) {
	switch {
	case name == "":
		return "", false, syscall.ENOENT
	case strings.IndexByte(name, 0) >= 0:
		return "", false, syscall.EINVAL
	case len(name) > maxPath:
		return "", false, syscall.ENAMETOOLONG
	}
	clean = path.Clean("/" + name)
	for elem := range strings.SplitSeq(clean[1:], "/") {
		if len(elem) > maxName {
			return "", false, syscall.ENAMETOOLONG
		}
	}
	dirOnly = clean != "/" && (strings.HasSuffix(name, "/") || strings.HasSuffix(name, "/."))
	return clean, dirOnly, nil
}

// displayPath is name made clean and absolute for error messages, also when
// cleanPath refuses it.
func displayPath(name string) string {
	if len(name) > maxPath {
		name = name[:maxPath]
	}
	return path.Clean("/" + strings.ReplaceAll(name, "\x00", ""))
}

// node is the result of a lookup: the real path of what a name leads to,
// with every symbolic link on the way resolved, and what is there.
type node struct {
	// path is clean, absolute and free of links except, when the lookup did
	// not follow the last element, the last element itself.
	path string
	// info is nil when nothing is at path; its parent then is a directory.
	info *mem.FileInfo
}

func (n node) exists() bool { return n.info != nil }
func (n node) isDir() bool  { return n.info != nil && n.info.IsDir() }
func (n node) isLink() bool { return n.info != nil && isLink(n.info) }

// lookup resolves clean (a path from cleanPath) element by element, as
// POSIX path resolution does: every link met before the last element is
// followed, the last one only when follow is set. An absolute link target
// starts again at the root of the filesystem and a relative one at the
// link's directory; ".." in a target climbs the real directories and stops
// at "/". A missing or non-directory element before the last is ENOENT or
// ENOTDIR; more than maxHops links is ELOOP. A missing last element is no
// error: the node comes back with info nil, for callers that create it.
//
// The caller holds f.mu (read or write).
func (f *FS) lookup(clean string, follow bool) (node, error) {
	if n, ok := f.lookupDirect(clean, follow); ok {
		return n, nil
	}
	pending := splitPath(clean)
	cur := "/"
	hops := 0
	for len(pending) > 0 {
		elem := pending[0]
		pending = pending[1:]
		switch elem {
		case "", ".":
			continue
		case "..":
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, elem)
		info := f.memStat(next)
		last := len(pending) == 0
		if info == nil {
			if last {
				return node{path: next}, nil
			}
			return node{}, syscall.ENOENT
		}
		if isLink(info) && (!last || follow) {
			hops++
			if hops > maxHops {
				return node{}, syscall.ELOOP
			}
			target := readTarget(info)
			if path.IsAbs(target) {
				cur = "/"
			}
			pending = append(splitPath(target), pending...)
			continue
		}
		if last {
			return node{path: next, info: info}, nil
		}
		if !info.IsDir() {
			return node{}, syscall.ENOTDIR
		}
		cur = next
	}
	// Every element was "." or ".." or a followed link to a directory.
	return node{path: cur, info: f.memStat(cur)}, nil
}

// lookupDirect is lookup's fast path, one map access instead of one per
// element (which made deep trees cost O(depth²) a lookup): MemMapFs keeps
// a node under its real path only, and a path is there only while every
// element above it is a real directory (removing or renaming a directory
// takes what it holds along), so a node found at clean was reached through
// no link. It reports false when the walk must decide: nothing at clean,
// or a link at the end to follow.
func (f *FS) lookupDirect(clean string, follow bool) (node, bool) {
	if clean == "/" {
		return node{}, false
	}
	info := f.memStat(clean)
	if info == nil {
		// Missing, under a directory reached through no link: a node to
		// create.
		if dir := f.memStat(path.Dir(clean)); dir != nil && dir.IsDir() && !isLink(dir) {
			return node{path: clean}, true
		}
		return node{}, false
	}
	if follow && isLink(info) {
		return node{}, false
	}
	return node{path: clean, info: info}, true
}

// lookupName is cleanPath then lookup, with the trailing-slash rule: a name
// ending in "/" always follows its last link and must lead to a directory
// when something is there (ENOTDIR otherwise).
func (f *FS) lookupName(name string, follow bool) (node, bool, error) {
	clean, dirOnly, err := cleanPath(name)
	if err != nil {
		return node{}, false, err
	}
	n, err := f.lookup(clean, follow || dirOnly)
	if err != nil {
		return node{}, dirOnly, err
	}
	if dirOnly && n.exists() && !n.isDir() {
		return node{}, dirOnly, syscall.ENOTDIR
	}
	return n, dirOnly, nil
}

func splitPath(p string) []string {
	return strings.Split(strings.Trim(p, "/"), "/")
}

// memStat returns what MemMapFs holds at the clean absolute path p, or nil.
func (f *FS) memStat(p string) *mem.FileInfo {
	fi, err := f.mem.Stat(p)
	if err != nil {
		return nil
	}
	info, _ := fi.(*mem.FileInfo)
	return info
}

// readTarget returns a link's target, stored as the node's content.
func readTarget(info *mem.FileInfo) string {
	b, _ := io.ReadAll(mem.NewReadOnlyFileHandle(info.FileData))
	return string(b)
}

// Direct reports whether name (absolute) is reached through no symbolic
// link: every folder above it is a real folder, and the last element is
// there under name itself or missing (and, with follow, not a link). Its
// cost is one or two map lookups. A front end over f uses it to know at
// once that a path leads nowhere but to itself.
func (f *FS) Direct(name string, follow bool) bool {
	clean, _, err := cleanPath(name)
	if err != nil {
		return false
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	n, ok := f.lookupDirect(clean, follow)
	return ok && n.path == clean
}
