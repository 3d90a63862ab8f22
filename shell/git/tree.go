package git

import (
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/spf13/afero"
)

func sortStrings(s []string) { sort.Strings(s) }

func readAll(r io.Reader) ([]byte, error) {
	if r == nil {
		return nil, nil
	}
	return io.ReadAll(r)
}

// writeFile puts blob h at repository path p of the worktree with mode.
func (r *repo) writeFile(p string, e entry) error {
	abs := path.Join(r.top, p)
	data, err := r.blob(e.hash)
	if err != nil {
		return err
	}
	// a folder or file in the way of the path's parents goes
	for d := path.Dir(abs); d != r.top && d != "/"; d = path.Dir(d) {
		if fi, err := lstat(r.c.FS, d); err == nil && !fi.IsDir() {
			_ = r.c.FS.Remove(d)
		}
	}
	if err := r.c.FS.MkdirAll(path.Dir(abs), 0o755); err != nil {
		return err
	}
	if fi, err := lstat(r.c.FS, abs); err == nil {
		if fi.IsDir() {
			if err := r.c.FS.RemoveAll(abs); err != nil {
				return err
			}
		} else if fi.Mode()&os.ModeSymlink != 0 || e.mode == filemode.Symlink {
			_ = r.c.FS.Remove(abs)
		}
	}
	if e.mode == filemode.Symlink {
		if l, ok := r.c.FS.(afero.Linker); ok {
			return l.SymlinkIfPossible(string(data), abs)
		}
	}
	perm := os.FileMode(0o644)
	if e.mode == filemode.Executable {
		perm = 0o755
	}
	if err := afero.WriteFile(r.c.FS, abs, data, perm); err != nil {
		return err
	}
	return r.c.FS.Chmod(abs, perm)
}

// removeFile deletes a worktree file and the folders it leaves empty.
func (r *repo) removeFile(p string) error {
	abs := path.Join(r.top, p)
	if err := r.c.FS.Remove(abs); err != nil && !isNotExist(err) {
		return err
	}
	for d := path.Dir(abs); d != r.top && strings.HasPrefix(d, r.top); d = path.Dir(d) {
		if infos, err := afero.ReadDir(r.c.FS, d); err != nil || len(infos) > 0 {
			break
		}
		_ = r.c.FS.Remove(d)
	}
	return nil
}

// setIndexEntry records e at p in idx. inSync says the worktree file now
// holds e: its size and time are recorded for the stat check; otherwise
// they are cleared, so the file is read next time.
func (r *repo) setIndexEntry(idx *index.Index, p string, e entry, inSync bool) {
	ie, err := idx.Entry(p)
	if err != nil {
		ie = idx.Add(p)
	}
	ie.Hash, ie.Mode, ie.ModifiedAt, ie.Size = e.hash, e.mode, time.Time{}, 0
	if !inSync {
		return
	}
	if fi, err := lstat(r.c.FS, path.Join(r.top, p)); err == nil {
		ie.Size = uint32(fi.Size())
		ie.ModifiedAt = fi.ModTime()
	}
}

// switchTree moves the index and the worktree from the tree of commit
// `from` to the tree of `to`, as git checkout does: a path that differs
// between the two trees must have no local change (unless force), and an
// untracked file is not overwritten (unless force). Local changes to other
// paths are kept. what names the operation in errors ("checkout").
func (r *repo) switchTree(s *state, to snapshot, force bool, what string) error {
	idx, err := r.index()
	if err != nil {
		return err
	}
	var conflicts, untrackedInWay []string
	var paths []string
	seen := map[string]bool{}
	for _, m := range []snapshot{s.headTree, to} {
		for p := range m {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	if force {
		for p := range s.index {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	sort.Strings(paths)
	untracked := map[string]bool{}
	for _, p := range s.untracked {
		untracked[p] = true
	}
	for _, p := range paths {
		h, inH := s.headTree[p]
		t, inT := to[p]
		i, inI := s.index[p]
		w, inW := s.work[p]
		if !force {
			if inH == inT && h == t {
				continue
			}
			local := inI != inH || i != h || inW != inI || w != i
			// a local change that already equals the target is fine
			if local && !(inI == inT && i == t && inW == inI && w == i) {
				conflicts = append(conflicts, p)
				continue
			}
			if !inH && !inI && untracked[p] && inT {
				untrackedInWay = append(untrackedInWay, p)
			}
		}
	}
	if len(conflicts) > 0 {
		verb := "checkout"
		if what == "merge" {
			verb = "merge"
		}
		fmt.Fprintf(r.errw, "error: Your local changes to the following files would be overwritten by %s:\n", verb)
		for _, p := range conflicts {
			fmt.Fprintf(r.errw, "\t%s\n", r.rel(p))
		}
		if what == "checkout" {
			fmt.Fprintln(r.errw, "Please commit your changes or stash them before you switch branches.")
		} else {
			fmt.Fprintf(r.errw, "Please commit your changes or stash them before you %s.\n", what)
		}
		fmt.Fprintln(r.errw, "Aborting")
		return errExit1
	}
	if len(untrackedInWay) > 0 {
		fmt.Fprintf(r.errw, "error: The following untracked working tree files would be overwritten by checkout:\n")
		for _, p := range untrackedInWay {
			fmt.Fprintf(r.errw, "\t%s\n", r.rel(p))
		}
		fmt.Fprintln(r.errw, "Please move or remove them before you switch branches.\nAborting")
		return errExit1
	}
	for _, p := range paths {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		h, inH := s.headTree[p]
		t, inT := to[p]
		if !force && inH == inT && h == t {
			continue
		}
		if inT {
			if w, ok := s.work[p]; !ok || w != t || force {
				if err := r.writeFile(p, t); err != nil {
					return err
				}
			}
			r.setIndexEntry(idx, p, t, true)
		} else {
			if err := r.removeFile(p); err != nil {
				return err
			}
			_, _ = idx.Remove(p)
		}
	}
	return r.saveIndex(idx)
}

// setHead points HEAD at a branch (symbolic) or, with branch "", at a
// commit (detached).
func (r *repo) setHead(branch string, h plumbing.Hash) error {
	if branch != "" {
		return r.st.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.NewBranchReferenceName(branch)))
	}
	return r.st.SetReference(plumbing.NewHashReference(plumbing.HEAD, h))
}

// moveHead points what HEAD names (its branch, or HEAD when detached) at h.
func (r *repo) moveHead(h plumbing.Hash) error {
	if name, ok := r.headName(); ok {
		return r.st.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), h))
	}
	return r.st.SetReference(plumbing.NewHashReference(plumbing.HEAD, h))
}

func (r *repo) branchExists(name string) (plumbing.Hash, bool) {
	ref, err := r.r.Reference(plumbing.NewBranchReferenceName(name), true)
	if err != nil {
		return plumbing.ZeroHash, false
	}
	return ref.Hash(), true
}

// detachedName is how status and branch name a detached HEAD.
func (r *repo) detachedName(h plumbing.Hash) string {
	return abbrev(h)
}

// upstream returns the branch's upstream ("origin/master") and how many
// commits the branch is ahead and behind it.
func (r *repo) upstream(branch string) (string, int, int, bool) {
	remote, ok1 := r.get(r.gitDir, "branch."+branch+".remote")
	merge, ok2 := r.get(r.gitDir, "branch."+branch+".merge")
	if !ok1 || !ok2 {
		return "", 0, 0, false
	}
	short := strings.TrimPrefix(merge, "refs/heads/")
	up := remote + "/" + short
	var upRef plumbing.ReferenceName = plumbing.NewRemoteReferenceName(remote, short)
	if remote == "." {
		up = short
		upRef = plumbing.NewBranchReferenceName(short)
	}
	ref, err := r.r.Reference(upRef, true)
	if err != nil {
		return "", 0, 0, false
	}
	local, ok := r.branchExists(branch)
	if !ok {
		return "", 0, 0, false
	}
	ahead, err1 := r.walk([]plumbing.Hash{local}, []plumbing.Hash{ref.Hash()})
	behind, err2 := r.walk([]plumbing.Hash{ref.Hash()}, []plumbing.Hash{local})
	if err1 != nil || err2 != nil {
		return "", 0, 0, false
	}
	return up, len(ahead), len(behind), true
}
