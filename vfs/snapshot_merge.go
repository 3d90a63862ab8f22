package vfs

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"
)

// sameEntry reports whether a and b are the same version of a path: the
// same kind, mode and content (for a folder: mode and mtime; what it holds
// is merged path by path).
func sameEntry(a, b entry) bool {
	if a.Type != b.Type || a.Mode != b.Mode || a.MTime != b.MTime {
		return false
	}
	switch a.Type {
	case "f":
		return a.Size == b.Size && a.Hash == b.Hash && slices.Equal(a.Chunks, b.Chunks)
	case "l":
		return a.Link == b.Link
	}
	return true
}

// mergeTrees merges two flat trees made from base: a path ours changed
// (made, changed or removed) takes our version, any other path theirs. A
// path kept under a parent that the merge removed brings the parent back
// (their version of it, else ours); one under a parent that became a file
// or link is dropped.
func mergeTrees(base, ours, theirs map[string]entry) map[string]entry {
	merged := make(map[string]entry, len(theirs)+len(ours))
	seen := make(map[string]struct{}, len(theirs)+len(ours))
	for _, m := range []map[string]entry{base, ours, theirs} {
		for p := range m {
			if _, ok := seen[p]; ok {
				continue
			}
			seen[p] = struct{}{}
			b, inB := base[p]
			o, inO := ours[p]
			t, inT := theirs[p]
			oursChanged := inO != inB || (inO && !sameEntry(o, b))
			switch {
			case oursChanged && inO:
				merged[p] = o
			case !oursChanged && inT:
				merged[p] = t
			}
		}
	}
	// ensure makes dir a folder of merged if it can, bringing it back from
	// theirs, else ours, when the merge removed it; false when a file or
	// link is there.
	var ensure func(dir string) bool
	ensure = func(dir string) bool {
		if dir == "/" {
			return true
		}
		if e, ok := merged[dir]; ok {
			return e.Type == "d"
		}
		if !ensure(path.Dir(dir)) {
			return false
		}
		parent := entry{Name: path.Base(dir), Type: "d", Mode: fs.ModeDir | 0o755, MTime: time.Now().UnixNano()}
		if t, ok := theirs[dir]; ok && t.Type == "d" {
			parent = t
		} else if o, ok := ours[dir]; ok && o.Type == "d" {
			parent = o
		}
		merged[dir] = parent
		return true
	}
	paths := make([]string, 0, len(merged))
	for p := range merged {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool { return strings.Count(paths[i], "/") < strings.Count(paths[j], "/") })
	for _, p := range paths {
		if _, ok := merged[p]; ok && !ensure(path.Dir(p)) {
			delete(merged, p)
		}
	}
	return merged
}

// apply makes the FS, which holds the tree ours, hold merged: what merged
// lacks goes, what differs is written from the store. Files get their new
// state recorded, so the next Save does not read them again.
func (w *saver) apply(ours, merged map[string]entry) error {
	var gone, changed []string
	for p, o := range ours {
		if m, ok := merged[p]; !ok || m.Type != o.Type {
			gone = append(gone, p)
		}
	}
	for p, m := range merged {
		if o, ok := ours[p]; !ok || !sameEntry(o, m) {
			changed = append(changed, p)
		}
	}
	sort.Strings(gone)
	for _, p := range gone {
		if err := w.fsys.RemoveAll(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		delete(w.files, p)
	}
	// Parents before children; folders' times last (making what they
	// hold touches them).
	sort.Strings(changed)
	r := &reader{s: w.s, ctx: w.ctx, used: map[string]struct{}{}}
	var dirs []string
	for _, p := range changed {
		m := merged[p]
		switch m.Type {
		case "d":
			if fi, _, err := w.fsys.LstatIfPossible(p); err == nil && !fi.IsDir() {
				if err := w.fsys.Remove(p); err != nil {
					return err
				}
			}
			if err := w.fsys.Mkdir(p, m.Mode.Perm()); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			if err := w.fsys.Chmod(p, m.Mode.Perm()); err != nil {
				return err
			}
			dirs = append(dirs, p)
		case "l":
			if err := w.fsys.RemoveAll(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			if err := w.fsys.SymlinkIfPossible(m.Link, p); err != nil {
				return err
			}
		default:
			if err := r.writeFile(w.fsys, p, m); err != nil {
				return err
			}
			w.files[p] = fileState{size: m.Size, mtime: time.Unix(0, m.MTime), hash: m.Hash, chunks: m.Chunks}
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		mtime := time.Unix(0, merged[dirs[i]].MTime)
		if err := w.fsys.Chtimes(dirs[i], mtime, mtime); err != nil {
			return err
		}
	}
	return nil
}
