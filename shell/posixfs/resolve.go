package posixfs

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/spf13/afero"
)

// fsResolveMode says which components of a path must exist when
// resolving it: all of them ('e'), all but the last ('f'), none ('m').
type ResolveMode byte

// fsResolve returns the absolute path of name (relative to dir) with every
// symbolic link resolved and no ".", ".." or repeated slash, as
// realpath(3) and readlink -f/-e/-m do. A chain of more than 40 links is
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
		last := len(rest) == 0 || fsOnlyEmpty(rest)
		fi, err := Lstat(fsys, next)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				return "", err
			}
			if mode == 'm' || (mode == 'f' && last) {
				cur = next
				continue
			}
			return "", err
		}
		if IsSymlink(fi) {
			links++
			if links > 40 {
				return "", PathErr("stat", name, syscall.ELOOP)
			}
			target, err := Readlink(fsys, next)
			if err != nil {
				return "", err
			}
			if path.IsAbs(target) {
				cur = "/"
			}
			rest = append(strings.Split(target, "/"), rest...)
			continue
		}
		if !fi.IsDir() && !last && mode != 'm' {
			return "", PathErr("stat", name, syscall.ENOTDIR)
		}
		cur = next
	}
	return cur, nil
}

func fsOnlyEmpty(parts []string) bool {
	for _, p := range parts {
		if p != "" && p != "." {
			return false
		}
	}
	return true
}

// fsRealpath resolves the folder or file abs; with all, every component
// must exist.
func Realpath(fsys afero.Fs, abs string, all bool) (string, error) {
	mode := ResolveMode('f')
	if all {
		mode = 'e'
	}
	return Resolve(fsys, "/", abs, mode)
}
