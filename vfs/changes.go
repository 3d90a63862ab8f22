package vfs

import (
	"path"
	"strings"

	"github.com/spf13/afero/mem"
)

// changes says which folders of an FS changed since a moment, so that a
// Snapshotter's Save reads only those (saver.folder). Every operation that
// changes the tree, or a file's content, mode or times, marks what it
// changed, with FS.mu held for writing; a mark only ever makes a Save read
// more. Paths are real: clean, absolute, through no symbolic link.
type changes struct {
	version uint64
	// floor: marks before it are forgotten; a moment before it sees
	// everything changed.
	floor uint64
	// inside: a folder's last change of an entry in it or below it.
	inside map[string]uint64
	// replaced: the last time what is at a path was made, removed or moved
	// (what is below it then is not what was).
	replaced map[string]uint64
	// paths: where each file open for writing is, for the marks of writes
	// through its handles (kept up to date by renames).
	paths map[*mem.FileData]string
}

// maxChangeMarks bounds the marks kept: past it they are forgotten (the
// next Save of each Snapshotter reads the whole tree).
const maxChangeMarks = 1 << 16

// ChangeVersion returns a moment for ChangedSince: every change made after
// this call counts as after it. The caller must not hold f.mu.
func (f *FS) ChangeVersion() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.changes.version++
	return f.changes.version
}

// changedSince tells, of the folder dir (a real path), whether nothing in
// it or below it changed after the moment v (unchanged), and whether what
// is at dir was made, removed or moved after it (replaced: then what is
// below dir is not what was there at v, whatever its own marks say).
func (f *FS) changedSince(dir string, v uint64) (unchanged, replaced bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	c := &f.changes
	if v < c.floor {
		return false, true
	}
	replaced = c.replaced[dir] > v
	return !replaced && c.inside[dir] <= v, replaced
}

// markAll forgets the marks: every Save reads the whole tree next.
func (f *FS) markAll() {
	c := &f.changes
	c.version++
	c.inside, c.replaced, c.floor = nil, nil, c.version
}

// markEntry notes a change to the entry at p: made, removed, or its
// content, mode or times changed.
func (f *FS) markEntry(p string) {
	c := &f.changes
	c.version++
	if len(c.inside) >= maxChangeMarks || len(c.replaced) >= maxChangeMarks {
		f.markAll()
	}
	if c.inside == nil {
		c.inside = map[string]uint64{}
	}
	for d := path.Dir(p); ; d = path.Dir(d) {
		c.inside[d] = c.version
		if d == "/" {
			break
		}
	}
}

// markTree notes that what is at p now is not what was there (made,
// removed, moved away or in).
func (f *FS) markTree(p string) {
	f.markEntry(p)
	c := &f.changes
	if c.replaced == nil {
		c.replaced = map[string]uint64{}
	}
	c.replaced[p] = c.version
	c.inside[p] = c.version
}

// markData notes a change to the content or times of the file data,
// through a handle.
func (f *FS) markData(data *mem.FileData) {
	if p, ok := f.changes.paths[data]; ok {
		f.markEntry(p)
	}
}

// moved notes that the file or folder at from is now at to (to empty:
// removed), for the paths of files open for writing.
func (f *FS) moved(from, to string) {
	for data, p := range f.changes.paths {
		if p != from && !strings.HasPrefix(p, from+"/") {
			continue
		}
		if to == "" {
			delete(f.changes.paths, data)
		} else {
			f.changes.paths[data] = to + p[len(from):]
		}
	}
}
