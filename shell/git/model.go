package git

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/git/billyfs"
)

// entry is one file of a tree, the index or the worktree.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// snapshot maps repository paths (slash-separated, from the top) to files.
type snapshot map[string]entry

func (s snapshot) paths() []string {
	ps := make([]string, 0, len(s))
	for p := range s {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

// treeSnapshot lists the files of a commit's tree; a zero hash is empty.
func (r *repo) treeSnapshot(commit plumbing.Hash) (snapshot, error) {
	s := snapshot{}
	if commit.IsZero() {
		return s, nil
	}
	c, err := r.r.CommitObject(commit)
	if err != nil {
		return nil, err
	}
	t, err := c.Tree()
	if err != nil {
		return nil, err
	}
	return treeFiles(t)
}

func treeFiles(t *object.Tree) (snapshot, error) {
	s := snapshot{}
	w := object.NewTreeWalker(t, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, err
		}
		if e.Mode == filemode.Dir {
			continue
		}
		s[name] = entry{e.Hash, e.Mode}
	}
	return s, nil
}

// headCommit returns HEAD's commit hash, zero when the branch has none yet.
func (r *repo) headCommit() (plumbing.Hash, error) {
	ref, err := r.r.Reference(plumbing.HEAD, true)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return ref.Hash(), nil
}

// headName returns the branch HEAD names ("master") and whether HEAD is
// a branch (false: detached).
func (r *repo) headName() (string, bool) {
	ref, err := r.r.Reference(plumbing.HEAD, false)
	if err != nil || ref.Type() != plumbing.SymbolicReference {
		return "", false
	}
	return ref.Target().Short(), true
}

func (r *repo) index() (*index.Index, error) {
	return r.st.Index()
}

func indexSnapshot(idx *index.Index) snapshot {
	s := snapshot{}
	for _, e := range idx.Entries {
		s[e.Name] = entry{e.Hash, e.Mode}
	}
	return s
}

// ignorer answers whether an untracked path is ignored (.gitignore files,
// .git/info/exclude).
type ignorer struct{ m gitignore.Matcher }

func (r *repo) ignorer() ignorer {
	ps, _ := gitignore.ReadPatterns(billyfs.At(r.c.FS, r.top), nil)
	return ignorer{gitignore.NewMatcher(ps)}
}

func (i ignorer) ignored(p string, dir bool) bool {
	return i.m.Match(strings.Split(p, "/"), dir)
}

// worktreeFile hashes the file at repository path p; ok is false when it
// is missing (or a folder).
//
// With cached (the file's index entry) and indexTime (when the index was
// written), a file whose size and modification time are the entry's, and
// older than the index, is taken as the entry without being read: git's
// stat check, racy-git safe (a file changed in the second the index was
// written is read).
func (r *repo) worktreeFile(p string, cached *index.Entry, indexTime time.Time) (entry, bool, error) {
	abs := path.Join(r.top, p)
	fi, err := lstat(r.c.FS, abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return entry{}, false, nil
		}
		return entry{}, false, err
	}
	if fi.IsDir() {
		return entry{}, false, nil
	}
	if cached != nil && !indexTime.IsZero() && int64(cached.Size) == fi.Size() &&
		cached.ModifiedAt.Equal(fi.ModTime()) && fi.ModTime().Before(indexTime) &&
		cached.Mode == modeOf(fi) {
		return entry{cached.Hash, cached.Mode}, true, nil
	}
	data, mode, err := r.readWorktree(abs, fi)
	if err != nil {
		return entry{}, false, err
	}
	return entry{plumbing.ComputeHash(plumbing.BlobObject, data), mode}, true, nil
}

func isNotDir(err error) bool {
	return err != nil && strings.Contains(err.Error(), "not a directory")
}

func lstat(fsys afero.Fs, p string) (os.FileInfo, error) {
	if l, ok := fsys.(afero.Lstater); ok {
		fi, _, err := l.LstatIfPossible(p)
		return fi, err
	}
	return fsys.Stat(p)
}

// modeOf is the git mode a worktree file has.
func modeOf(fi os.FileInfo) filemode.FileMode {
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return filemode.Symlink
	case fi.Mode()&0o111 != 0:
		return filemode.Executable
	}
	return filemode.Regular
}

// readWorktree returns a worktree file's content as git stores it (a
// symlink's target) and its git mode.
func (r *repo) readWorktree(abs string, fi os.FileInfo) ([]byte, filemode.FileMode, error) {
	if fi.Mode()&os.ModeSymlink != 0 {
		if lr, ok := r.c.FS.(afero.LinkReader); ok {
			t, err := lr.ReadlinkIfPossible(abs)
			return []byte(t), filemode.Symlink, err
		}
	}
	data, err := afero.ReadFile(r.c.FS, abs)
	mode := filemode.Regular
	if fi.Mode()&0o111 != 0 {
		mode = filemode.Executable
	}
	return data, mode, err
}

// worktree returns the worktree's state of the tracked paths (missing
// ones absent) and the untracked, not ignored files (sorted).
func (r *repo) worktree(tracked snapshot, idx *index.Index) (snapshot, []string, error) {
	wt := snapshot{}
	cached := map[string]*index.Entry{}
	var indexTime time.Time
	if idx != nil {
		for _, e := range idx.Entries {
			cached[e.Name] = e
		}
		if fi, err := r.c.FS.Stat(path.Join(r.gitDir, "index")); err == nil {
			indexTime = fi.ModTime()
		}
	}
	for p := range tracked {
		if err := r.ctx.Err(); err != nil {
			return nil, nil, err
		}
		e, ok, err := r.worktreeFile(p, cached[p], indexTime)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			wt[p] = e
		}
	}
	ig := r.ignorer()
	var untracked []string
	var walk func(dir string) error
	walk = func(dir string) error {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		infos, err := afero.ReadDir(r.c.FS, path.Join(r.top, dir))
		if err != nil {
			return nil // unreadable folders are skipped, as git does
		}
		for _, fi := range infos {
			name := fi.Name()
			p := path.Join(dir, name)
			if name == ".git" {
				continue
			}
			if fi.IsDir() {
				if ig.ignored(p, true) {
					continue
				}
				if err := walk(p); err != nil {
					return err
				}
				continue
			}
			if _, ok := tracked[p]; ok {
				continue
			}
			if ig.ignored(p, false) {
				continue
			}
			untracked = append(untracked, p)
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, nil, err
	}
	sort.Strings(untracked)
	return wt, untracked, nil
}

// collapse shows untracked files as git's default -unormal does: a folder
// holding no tracked file is one entry "dir/".
func collapse(untracked []string, tracked snapshot) []string {
	trackedDirs := map[string]bool{}
	for p := range tracked {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			trackedDirs[d] = true
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range untracked {
		show := p
		// the topmost ancestor with no tracked file in it
		parts := strings.Split(p, "/")
		for i := 1; i < len(parts); i++ {
			d := strings.Join(parts[:i], "/")
			if !trackedDirs[d] {
				show = d + "/"
				break
			}
		}
		if !seen[show] {
			seen[show] = true
			out = append(out, show)
		}
	}
	return out
}

// change is one path that differs between two snapshots.
type change struct {
	from, to   string // paths; from == "" for an addition, to == "" for a deletion
	fromE, toE entry
	status     byte // 'A', 'M', 'D', 'R', 'T'
}

func (ch change) path() string {
	if ch.to != "" {
		return ch.to
	}
	return ch.from
}

// compare lists the differences between a and b, sorted by path, with
// renames (same content, one path gone and one new) when renames is set.
func compare(a, b snapshot, renames bool) []change {
	var out []change
	for p, ea := range a {
		eb, ok := b[p]
		switch {
		case !ok:
			out = append(out, change{from: p, fromE: ea, status: 'D'})
		case ea != eb:
			st := byte('M')
			if (ea.mode == filemode.Symlink) != (eb.mode == filemode.Symlink) {
				st = 'T'
			}
			out = append(out, change{from: p, to: p, fromE: ea, toE: eb, status: st})
		}
	}
	for p, eb := range b {
		if _, ok := a[p]; !ok {
			out = append(out, change{to: p, toE: eb, status: 'A'})
		}
	}
	if renames {
		out = findRenames(out)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path() < out[j].path() })
	return out
}

// findRenames pairs deletions with additions of the same content (git's
// exact renames; similar-content renames are shown as delete + add).
func findRenames(chs []change) []change {
	deleted := map[plumbing.Hash][]int{}
	for i, ch := range chs {
		if ch.status == 'D' {
			deleted[ch.fromE.hash] = append(deleted[ch.fromE.hash], i)
		}
	}
	drop := map[int]bool{}
	sort.Slice(chs, func(i, j int) bool { return chs[i].path() < chs[j].path() })
	deleted = map[plumbing.Hash][]int{}
	for i, ch := range chs {
		if ch.status == 'D' {
			deleted[ch.fromE.hash] = append(deleted[ch.fromE.hash], i)
		}
	}
	for i, ch := range chs {
		if ch.status != 'A' {
			continue
		}
		ds := deleted[ch.toE.hash]
		if len(ds) == 0 {
			continue
		}
		d := ds[0]
		deleted[ch.toE.hash] = ds[1:]
		chs[i] = change{from: chs[d].from, to: ch.to, fromE: chs[d].fromE, toE: ch.toE, status: 'R'}
		drop[d] = true
	}
	var out []change
	for i, ch := range chs {
		if !drop[i] {
			out = append(out, ch)
		}
	}
	return out
}

// blob returns an object's content; a zero hash is empty.
func (r *repo) blob(h plumbing.Hash) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	b, err := r.r.BlobObject(h)
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(rd)
	return buf.Bytes(), err
}
