package git

import (
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// workLoader loads worktree files by the hashes a worktree snapshot has.
func (r *repo) workLoader(work snapshot) loader {
	byHash := map[plumbing.Hash]string{}
	for p, e := range work {
		byHash[e.hash] = p
	}
	return func(h plumbing.Hash) ([]byte, error) {
		if h.IsZero() {
			return nil, nil
		}
		p, ok := byHash[h]
		if !ok {
			return r.blob(h)
		}
		abs := path.Join(r.top, p)
		fi, err := lstat(r.c.FS, abs)
		if err != nil {
			return nil, err
		}
		data, _, err := r.readWorktree(abs, fi)
		return data, err
	}
}

// resolve turns a revision (HEAD~1, a branch, a tag, a hash prefix) into a
// commit hash.
func (r *repo) resolve(rev string) (plumbing.Hash, error) {
	if rev == "@" {
		rev = "HEAD"
	}
	h, err := r.r.ResolveRevision(plumbing.Revision(rev))
	if err != nil || h == nil {
		return plumbing.ZeroHash, err
	}
	// a tag object peels to its commit
	if t, err := r.r.TagObject(*h); err == nil {
		if c, err := t.Commit(); err == nil {
			return c.Hash, nil
		}
	}
	return *h, nil
}

// resolveRange resolves "A..B" (either side defaults to HEAD); ok is
// false when rev is no range.
func (r *repo) resolveRange(rev string) (from, to plumbing.Hash, ok bool, err error) {
	a, b, ok := strings.Cut(rev, "..")
	if !ok || strings.HasPrefix(b, ".") {
		return plumbing.ZeroHash, plumbing.ZeroHash, false, nil
	}
	if a == "" {
		a = "HEAD"
	}
	if b == "" {
		b = "HEAD"
	}
	from, err1 := r.resolve(a)
	to, err2 := r.resolve(b)
	if err1 != nil || err2 != nil {
		return from, to, true, badRevision(rev)
	}
	return from, to, true, nil
}

func badRevision(rev string) error {
	return fatalf("ambiguous argument '%s': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'", rev)
}

func cmdDiff(e *env, args []string) error {
	o := diffOpts{context: 3, patch: true}
	cached := false
	var revs, specs []string
	dashdash := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash:
			specs = append(specs, a)
		case a == "--":
			dashdash = true
		case a == "--cached" || a == "--staged":
			cached = true
		case o.parse(a):
			if a == "--stat" || a == "--shortstat" || a == "--numstat" || a == "--name-only" || a == "--name-status" {
				o.patch = false
			}
			if a == "-p" || a == "--patch" {
				o.patch = true
			}
		case strings.HasPrefix(a, "-"):
			return notImpl("diff option " + a)
		default:
			revs = append(revs, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	// arguments that are no revision are paths (git's guess without --)
	var commits []plumbing.Hash
	for i, rev := range revs {
		if ha, hb, ok, err := r.resolveRange(rev); ok {
			if err != nil {
				return err
			}
			commits = append(commits, ha, hb)
			continue
		}
		h, err := r.resolve(rev)
		if err != nil {
			if _, serr := e.c.FS.Stat(e.abs(rev)); serr == nil && r.top != "" {
				specs = append(specs, revs[i:]...)
				break
			}
			return badRevision(rev)
		}
		commits = append(commits, h)
	}
	var from, to snapshot
	var load1, load2 loader = r.blob, r.blob
	renames := true
	switch {
	case len(commits) >= 2:
		if from, err = r.treeSnapshot(commits[0]); err != nil {
			return err
		}
		if to, err = r.treeSnapshot(commits[1]); err != nil {
			return err
		}
	case cached:
		base, err := r.headCommit()
		if err != nil {
			return err
		}
		if len(commits) == 1 {
			base = commits[0]
		}
		if from, err = r.treeSnapshot(base); err != nil {
			return err
		}
		idx, err := r.index()
		if err != nil {
			return err
		}
		to = indexSnapshot(idx)
	default:
		s, err := r.state()
		if err != nil {
			return err
		}
		from = s.index
		if len(commits) == 1 {
			if from, err = r.treeSnapshot(commits[0]); err != nil {
				return err
			}
			// the worktree of the commit's and the index's paths
			all := snapshot{}
			for p, e := range s.index {
				all[p] = e
			}
			for p, e := range from {
				all[p] = e
			}
			work, _, err := r.worktree(all, nil)
			if err != nil {
				return err
			}
			to = work
		} else {
			to = s.work
			renames = false
		}
		load2 = r.workLoader(to)
	}
	chs := compare(from, to, renames)
	if len(specs) > 0 {
		in, err := r.under(specs)
		if err != nil {
			return err
		}
		chs = filterChanges(chs, in)
	}
	if err := r.writeDiff(e.out, o, chs, load1, load2); err != nil {
		return err
	}
	if o.exitCode && len(chs) > 0 {
		return errExit1
	}
	return nil
}
