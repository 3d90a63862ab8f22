package git

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/spf13/afero"
)

func cmdRevParse(e *env, args []string) error {
	short := -1
	verify, quiet, abbrevRef := false, false, false
	var revs []string
	r, rerr := e.open()
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--is-inside-work-tree":
			if rerr != nil {
				return rerr
			}
			fmt.Fprintln(e.out, r.top != "" && !strings.HasPrefix(e.dir+"/", r.gitDir+"/"))
		case a == "--is-bare-repository":
			if rerr != nil {
				return rerr
			}
			fmt.Fprintln(e.out, r.top == "")
		case a == "--is-inside-git-dir":
			if rerr != nil {
				return rerr
			}
			fmt.Fprintln(e.out, strings.HasPrefix(e.dir+"/", r.gitDir+"/"))
		case a == "--show-toplevel":
			if rerr != nil {
				return rerr
			}
			if r.top == "" {
				return fatalf("this operation must be run in a work tree")
			}
			fmt.Fprintln(e.out, r.top)
		case a == "--git-dir":
			if rerr != nil {
				return rerr
			}
			if e.dir == r.top {
				fmt.Fprintln(e.out, ".git")
			} else {
				fmt.Fprintln(e.out, r.gitDir)
			}
		case a == "--absolute-git-dir":
			if rerr != nil {
				return rerr
			}
			fmt.Fprintln(e.out, r.gitDir)
		case a == "--show-prefix":
			if rerr != nil {
				return rerr
			}
			if p := strings.TrimPrefix(e.dir, r.top); p != "" && r.top != "" {
				fmt.Fprintln(e.out, strings.TrimPrefix(p, "/")+"/")
			} else {
				fmt.Fprintln(e.out)
			}
		case a == "--show-cdup":
			if rerr != nil {
				return rerr
			}
			fmt.Fprintln(e.out, relPath(e.dir, e.dir, strings.Repeat("../", strings.Count(strings.TrimPrefix(e.dir, r.top), "/"))))
		case a == "--short":
			short = 7
		case strings.HasPrefix(a, "--short="):
			n, err := strconv.Atoi(strings.TrimPrefix(a, "--short="))
			if err != nil {
				return fatalf("bad --short value")
			}
			short = max(min(n, 40), 4)
		case a == "--verify":
			verify = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--abbrev-ref":
			abbrevRef = true
		case a == "--":
		case strings.HasPrefix(a, "-"):
			return notImpl("rev-parse option " + a)
		default:
			revs = append(revs, a)
		}
	}
	if len(revs) == 0 && short > 0 && !verify {
		revs = []string{"HEAD"}
	}
	if len(revs) == 0 {
		return nil
	}
	if rerr != nil {
		return rerr
	}
	if verify && len(revs) != 1 {
		return fatalf("Needed a single revision")
	}
	for _, rev := range revs {
		if abbrevRef {
			if rev == "HEAD" || rev == "@" {
				if n, ok := r.headName(); ok {
					fmt.Fprintln(e.out, n)
				} else {
					fmt.Fprintln(e.out, "HEAD")
				}
				continue
			}
			if _, ok := r.branchExists(rev); ok {
				fmt.Fprintln(e.out, rev)
				continue
			}
		}
		h, err := r.r.ResolveRevision(plumbing.Revision(rev))
		if err != nil {
			if rev == "HEAD" {
				if head, _ := r.headCommit(); head.IsZero() && !verify {
					fmt.Fprintln(e.out, "HEAD")
					return fatalf("ambiguous argument 'HEAD': unknown revision or path not in the working tree.\nUse '--' to separate paths from revisions, like this:\n'git <command> [<revision>...] -- [<file>...]'")
				}
			}
			if verify {
				if quiet {
					return errExit1
				}
				return fatalf("Needed a single revision")
			}
			fmt.Fprintln(e.out, rev)
			return badRevision(rev)
		}
		s := h.String()
		if short > 0 {
			s = s[:short]
		}
		fmt.Fprintln(e.out, s)
	}
	return nil
}

// The stash: refs/stash names the newest entry and logs/refs/stash lists
// them all, newest last, as git keeps them. An entry is a commit whose tree
// is the worktree (tracked files), whose first parent is HEAD and whose
// second parent is a commit of the index, so real git reads it too.

type stashEntry struct {
	old, new plumbing.Hash
	line     string // the whole reflog line
	msg      string
}

func (r *repo) stashLog() ([]stashEntry, error) {
	b, err := afero.ReadFile(r.c.FS, path.Join(r.gitDir, "logs/refs/stash"))
	if err != nil {
		return nil, nil
	}
	var out []stashEntry
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		if len(l) < 82 {
			continue
		}
		_, msg, _ := strings.Cut(l, "\t")
		out = append(out, stashEntry{
			old: plumbing.NewHash(l[:40]), new: plumbing.NewHash(l[41:81]), line: l, msg: msg,
		})
	}
	// newest first
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

func (r *repo) writeStashLog(entries []stashEntry) error {
	p := path.Join(r.gitDir, "logs/refs/stash")
	if len(entries) == 0 {
		_ = r.c.FS.Remove(p)
		return r.st.RemoveReference("refs/stash")
	}
	var b strings.Builder
	for i := len(entries) - 1; i >= 0; i-- {
		b.WriteString(entries[i].line + "\n")
	}
	if err := r.c.FS.MkdirAll(path.Dir(p), 0o755); err != nil {
		return err
	}
	if err := afero.WriteFile(r.c.FS, p, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return r.st.SetReference(plumbing.NewHashReference("refs/stash", entries[0].new))
}

// writeTree stores a snapshot as a tree object and returns its hash.
func (r *repo) writeTree(s snapshot) (plumbing.Hash, error) {
	type dir struct {
		entries map[string]object.TreeEntry
		subdirs map[string]*dir
	}
	newDir := func() *dir { return &dir{map[string]object.TreeEntry{}, map[string]*dir{}} }
	root := newDir()
	for p, e := range s {
		parts := strings.Split(p, "/")
		d := root
		for _, part := range parts[:len(parts)-1] {
			if d.subdirs[part] == nil {
				d.subdirs[part] = newDir()
			}
			d = d.subdirs[part]
		}
		name := parts[len(parts)-1]
		d.entries[name] = object.TreeEntry{Name: name, Mode: e.mode, Hash: e.hash}
	}
	var store func(d *dir) (plumbing.Hash, error)
	store = func(d *dir) (plumbing.Hash, error) {
		t := &object.Tree{}
		for name, sub := range d.subdirs {
			h, err := store(sub)
			if err != nil {
				return plumbing.ZeroHash, err
			}
			t.Entries = append(t.Entries, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
		for _, e := range d.entries {
			t.Entries = append(t.Entries, e)
		}
		sortTreeEntries(t.Entries)
		obj := r.st.NewEncodedObject()
		if err := t.Encode(obj); err != nil {
			return plumbing.ZeroHash, err
		}
		return r.st.SetEncodedObject(obj)
	}
	return store(root)
}

// sortTreeEntries sorts as git does: a folder's name compares as name+"/".
func sortTreeEntries(es []object.TreeEntry) {
	key := func(e object.TreeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && key(es[j]) < key(es[j-1]); j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

func (r *repo) writeCommitObject(tree plumbing.Hash, parents []plumbing.Hash, msg string) (plumbing.Hash, error) {
	author, _, err := r.ident("AUTHOR")
	if err != nil {
		return plumbing.ZeroHash, err
	}
	committer, _, err := r.ident("COMMITTER")
	if err != nil {
		return plumbing.ZeroHash, err
	}
	c := &object.Commit{Author: *author, Committer: *committer, Message: msg, TreeHash: tree, ParentHashes: parents}
	obj := r.st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.st.SetEncodedObject(obj)
}

func cmdStash(e *env, args []string) error {
	sub := "push"
	rest := args[1:]
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		sub, rest = rest[0], rest[1:]
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if err := r.needWorktree("stash"); err != nil {
		return err
	}
	switch sub {
	case "push", "save":
		return r.stashPush(rest, sub == "save")
	case "list":
		entries, err := r.stashLog()
		if err != nil {
			return err
		}
		for i, en := range entries {
			fmt.Fprintf(e.out, "stash@{%d}: %s\n", i, en.msg)
		}
		return nil
	case "pop", "apply", "drop":
		n := 0
		for _, a := range rest {
			switch {
			case a == "-q" || a == "--quiet":
			case a == "--index":
				return notImpl("stash " + sub + " --index")
			case strings.HasPrefix(a, "stash@{") && strings.HasSuffix(a, "}"):
				v, err := strconv.Atoi(a[7 : len(a)-1])
				if err != nil {
					return fatalf("%s is not a valid reference", a)
				}
				n = v
			case isDigits(a):
				n, _ = strconv.Atoi(a)
			default:
				return notImpl("stash " + sub + " " + a)
			}
		}
		entries, err := r.stashLog()
		if err != nil {
			return err
		}
		if len(entries) == 0 {
			if sub == "drop" || sub == "pop" || sub == "apply" {
				fmt.Fprintln(e.errw, "No stash entries found.")
			}
			return errExit1
		}
		if n >= len(entries) {
			fmt.Fprintf(e.errw, "error: stash@{%d} is not a valid reference\n", n)
			return errExit1
		}
		if sub != "drop" {
			if err := r.stashApply(entries[n].new); err != nil {
				return err
			}
			s, err := r.state()
			if err != nil {
				return err
			}
			r.writeLong(e.out, s, collapse(s.untracked, s.index))
		}
		if sub == "apply" {
			return nil
		}
		dropped := entries[n]
		entries = append(entries[:n], entries[n+1:]...)
		if err := r.writeStashLog(entries); err != nil {
			return err
		}
		fmt.Fprintf(e.out, "Dropped refs/stash@{%d} (%s)\n", n, dropped.new)
		return nil
	case "clear":
		return r.writeStashLog(nil)
	case "show":
		entries, err := r.stashLog()
		if err != nil || len(entries) == 0 {
			fmt.Fprintln(e.errw, "No stash entries found.")
			return errExit1
		}
		c, err := r.r.CommitObject(entries[0].new)
		if err != nil {
			return err
		}
		chs, err := r.commitChanges(c)
		if err != nil {
			return err
		}
		o := diffOpts{stat: true, context: 3}
		for _, a := range rest {
			if a == "-p" || a == "--patch" {
				o = diffOpts{patch: true, context: 3}
			}
		}
		return r.writeDiff(e.out, o, chs, r.blob, r.blob)
	}
	return notImpl("stash " + sub)
}

func (r *repo) stashPush(args []string, save bool) error {
	msg := ""
	quiet := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-m" || a == "--message") && i+1 < len(args):
			i++
			msg = args[i]
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-u" || a == "--include-untracked" || a == "-a" || a == "--all" || a == "-k" || a == "--keep-index" || a == "-p":
			return notImpl("stash push " + a)
		case save && !strings.HasPrefix(a, "-"):
			msg = strings.Join(args[i:], " ")
			i = len(args)
		default:
			return notImpl("stash push " + a)
		}
	}
	s, err := r.state()
	if err != nil {
		return err
	}
	if s.head.IsZero() {
		return fatalf("You do not have the initial commit yet")
	}
	if len(s.staged) == 0 && len(s.unstaged) == 0 {
		if !quiet {
			fmt.Fprintln(r.out, "No local changes to save")
		}
		return nil
	}
	branch, ok := r.headName()
	if !ok {
		branch = "(no branch)"
	}
	head, err := r.r.CommitObject(s.head)
	if err != nil {
		return err
	}
	subject, _ := subjectBody(head.Message)
	// the index commit, then the worktree commit
	itree, err := r.writeTree(s.index)
	if err != nil {
		return err
	}
	ic, err := r.writeCommitObject(itree, []plumbing.Hash{s.head}, fmt.Sprintf("index on %s: %s %s\n", branch, abbrev(s.head), subject))
	if err != nil {
		return err
	}
	work := snapshot{}
	for p, e := range s.index {
		if w, ok := s.work[p]; ok {
			if w != e {
				abs := path.Join(r.top, p)
				fi, err := lstat(r.c.FS, abs)
				if err != nil {
					return err
				}
				data, _, err := r.readWorktree(abs, fi)
				if err != nil {
					return err
				}
				if w.hash, err = r.writeBlob(data); err != nil {
					return err
				}
			}
			work[p] = w
		}
	}
	wtree, err := r.writeTree(work)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("WIP on %s: %s %s", branch, abbrev(s.head), subject)
	if msg != "" {
		title = fmt.Sprintf("On %s: %s", branch, msg)
	}
	wc, err := r.writeCommitObject(wtree, []plumbing.Hash{s.head, ic}, title+"\n")
	if err != nil {
		return err
	}
	entries, err := r.stashLog()
	if err != nil {
		return err
	}
	old := plumbing.ZeroHash
	if len(entries) > 0 {
		old = entries[0].new
	}
	committer, _, err := r.ident("COMMITTER")
	if err != nil {
		return err
	}
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s", old, wc, committer.Name, committer.Email, committer.When.Unix(), committer.When.Format("-0700"), title)
	entries = append([]stashEntry{{old: old, new: wc, line: line, msg: title}}, entries...)
	if err := r.writeStashLog(entries); err != nil {
		return err
	}
	if err := r.switchTree(s, s.headTree, true, "stash"); err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(r.out, "Saved working directory and index state %s\n", title)
	}
	return nil
}

// stashApply puts a stash entry's changes back: files that differ between
// its base and its worktree commit are written (a file changed since in
// the worktree is a conflict), files that were new in its index are added
// to the index again.
func (r *repo) stashApply(h plumbing.Hash) error {
	c, err := r.r.CommitObject(h)
	if err != nil {
		return err
	}
	if len(c.ParentHashes) < 2 {
		return fatalf("%s is not a stash-like commit", h)
	}
	base, err := r.treeSnapshot(c.ParentHashes[0])
	if err != nil {
		return err
	}
	work, err := r.treeSnapshot(h)
	if err != nil {
		return err
	}
	itree, err := r.treeSnapshot(c.ParentHashes[1])
	if err != nil {
		return err
	}
	s, err := r.state()
	if err != nil {
		return err
	}
	chs := compare(base, work, false)
	var conflicts []string
	for _, ch := range chs {
		p := ch.path()
		cur, inCur := s.work[p]
		b, inBase := base[p]
		if inCur != inBase || (inCur && cur != b) {
			if !(inCur && cur == ch.toE) {
				conflicts = append(conflicts, p)
			}
		}
	}
	if len(conflicts) > 0 {
		fmt.Fprintln(r.errw, "error: Your local changes to the following files would be overwritten by merge:")
		for _, p := range conflicts {
			fmt.Fprintf(r.errw, "\t%s\n", p)
		}
		fmt.Fprintln(r.errw, "Please commit your changes or stash them before you merge.\nAborting")
		return errExit1
	}
	idx, err := r.index()
	if err != nil {
		return err
	}
	for _, ch := range chs {
		if ch.to == "" {
			if err := r.removeFile(ch.from); err != nil {
				return err
			}
			_, _ = idx.Remove(ch.from)
			continue
		}
		if err := r.writeFile(ch.to, ch.toE); err != nil {
			return err
		}
		if _, inBase := base[ch.to]; !inBase {
			if ie, ok := itree[ch.to]; ok {
				r.setIndexEntry(idx, ch.to, ie, ie == ch.toE)
			}
		}
	}
	return r.saveIndex(idx)
}
