package posixfs

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/spf13/afero"
)

// ResolveMode says which components of a path must exist when
// resolving it: all of them ('e'), all but the last ('f'), none ('m').
type ResolveMode byte

// Resolve returns the absolute path of name (relative to dir) with every
// symbolic link resolved and no ".", ".." or repeated slash, as
// realpath(3) and GNU readlink -f/-e/-m do: a file followed by "/" or
// "/." is ENOTDIR (but with 'm'), and with 'f' a missing last component
// may end in slashes but not in "/.". A chain of more than 40 links is
// ELOOP.
func Resolve(fsys afero.Fs, dir, name string, mode ResolveMode) (string, error) {
	if name == "" {
		return "", PathErr("stat", name, syscall.ENOENT)
	}
	// Component by component, as written: "x/../a" needs x (a cleaned
	// path would not).
	raw := name
	if !path.IsAbs(raw) {
		raw = dir + "/" + raw
	}
	return walk(fsys, name, raw, func(next string, fi fs.FileInfo, err error, rest []string) (walkAction, error) {
		last := onlySlashes(rest) // GNU: nosuch/ may be missing, nosuch/. not
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				return 0, err
			}
			if mode == 'm' || (mode == 'f' && last) {
				return walkInto, nil
			}
			return 0, err
		}
		if IsSymlink(fi) {
			return walkLink, nil
		}
		if !fi.IsDir() && len(rest) > 0 && mode != 'm' { // file/ and file/. too
			return 0, PathErr("stat", name, syscall.ENOTDIR)
		}
		return walkInto, nil
	})
}

// walkAction is what a walk's visit makes of a component.
type walkAction int

const (
	walkInto walkAction = iota // the component is the path so far
	walkLink                   // the component is a symbolic link to follow
)

// maxLinks is how many symbolic links a path may go through (Linux's
// MAXSYMLINKS): one more is ELOOP.
const maxLinks = 40

// walk resolves raw, an absolute path, component by component as POSIX
// does: "" and "." are skipped and ".." is the parent of the path so far
// (as text: the path so far has no links). Each other component is
// Lstat'ed and given to visit with next (the path so far joined with
// it), the Lstat result and the components still after it. visit says
// walkInto (next is the path so far) or walkLink (next's target, read by
// Readlink, is walked in its place: from "/" when absolute), or returns
// an error, which ends the walk and is walk's. Past maxLinks links, or
// at a link with an empty target, the walk ends with ELOOP or ENOENT
// naming name. The result is the path so far when the components end.
func walk(fsys afero.Fs, name, raw string, visit func(next string, fi fs.FileInfo, err error, rest []string) (walkAction, error)) (string, error) {
	rest := strings.Split(raw, "/")
	cur := "/"
	links := 0
	for len(rest) > 0 {
		comp := rest[0]
		rest = rest[1:]
		switch comp {
		case "", ".":
			continue
		case "..":
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, comp)
		fi, err := Lstat(fsys, next)
		act, err := visit(next, fi, err, rest)
		if err != nil {
			return "", err
		}
		if act == walkInto {
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", PathErr("stat", name, syscall.ELOOP)
		}
		target, err := Readlink(fsys, next)
		if err != nil {
			return "", err
		}
		if target == "" {
			return "", PathErr("stat", name, syscall.ENOENT)
		}
		if path.IsAbs(target) {
			cur = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return cur, nil
}

// onlySlashes reports whether parts (of a path split at "/") are all
// empty: what is left of a name ending in slashes.
func onlySlashes(parts []string) bool {
	for _, p := range parts {
		if p != "" {
			return false
		}
	}
	return true
}

// Realpath resolves the folder or file abs; with all, every component
// must exist.
func Realpath(fsys afero.Fs, abs string, all bool) (string, error) {
	mode := ResolveMode('f')
	if all {
		mode = 'e'
	}
	return Resolve(fsys, "/", abs, mode)
}
