package git

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/git/gitdiff"
)

const initHint = `hint: Using 'master' as the name for the initial branch. This default branch name
hint: is subject to change. To configure the initial branch name to use in all
hint: of your new repositories, which will suppress this warning, call:
hint: 
hint: 	git config --global init.defaultBranch <name>
hint: 
hint: Names commonly chosen instead of 'master' are 'main', 'trunk' and
hint: 'development'. The just-created branch can be renamed via this command:
hint: 
hint: 	git branch -m <name>
`

func cmdInit(e *env, args []string) error {
	quiet, bare := false, false
	branch := ""
	var dir string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--bare":
			bare = true
		case (a == "-b" || a == "--initial-branch") && i+1 < len(args):
			i++
			branch = args[i]
		case strings.HasPrefix(a, "--initial-branch="):
			branch = strings.TrimPrefix(a, "--initial-branch=")
		case strings.HasPrefix(a, "-b") && len(a) > 2:
			branch = a[2:]
		case strings.HasPrefix(a, "-"):
			return notImpl("init option " + a)
		default:
			if dir != "" {
				return &usageErr{"too many arguments to git init"}
			}
			dir = a
		}
	}
	top := e.dir
	if dir != "" {
		top = e.abs(dir)
	}
	if err := e.c.FS.MkdirAll(top, 0o755); err != nil {
		return fatalf("cannot mkdir %s: %v", dir, err)
	}
	gitDir := path.Join(top, ".git")
	if bare {
		gitDir = top
	}
	hint := false
	if branch == "" {
		if b, ok := e.get("", "init.defaultBranch"); ok && b != "" {
			branch = b
		} else {
			branch, hint = "master", true
		}
	}
	if e.isGitDir(gitDir) {
		if !quiet {
			fmt.Fprintf(e.out, "Reinitialized existing Git repository in %s/\n", gitDir)
		}
		return nil
	}
	if hint && !quiet {
		fmt.Fprint(e.errw, initHint)
	}
	if err := initRepo(e.c.FS, gitDir, branch, bare); err != nil {
		return fatalf("cannot init %s: %v", top, err)
	}
	if !quiet {
		fmt.Fprintf(e.out, "Initialized empty Git repository in %s/\n", gitDir)
	}
	return nil
}

// writeBlob stores data as a blob and returns its hash.
func (r *repo) writeBlob(data []byte) (plumbing.Hash, error) {
	obj := r.st.NewEncodedObject()
	obj.SetType(plumbing.BlobObject)
	obj.SetSize(int64(len(data)))
	w, err := obj.Writer()
	if err != nil {
		return plumbing.ZeroHash, err
	}
	if _, err := w.Write(data); err != nil {
		return plumbing.ZeroHash, err
	}
	if err := w.Close(); err != nil {
		return plumbing.ZeroHash, err
	}
	return r.st.SetEncodedObject(obj)
}

// stage records the worktree file at repository path p in idx (or its
// removal when it is missing).
func (r *repo) stage(idx *index.Index, p string) error {
	abs := path.Join(r.top, p)
	fi, err := lstat(r.c.FS, abs)
	if err != nil || fi.IsDir() {
		_, _ = idx.Remove(p)
		return nil
	}
	data, mode, err := r.readWorktree(abs, fi)
	if err != nil {
		return err
	}
	h, err := r.writeBlob(data)
	if err != nil {
		return err
	}
	e, err := idx.Entry(p)
	if err != nil {
		e = idx.Add(p)
	}
	e.Hash, e.Mode, e.Size, e.ModifiedAt = h, mode, uint32(len(data)), fi.ModTime()
	return nil
}

func (r *repo) saveIndex(idx *index.Index) error {
	sort.Slice(idx.Entries, func(i, j int) bool { return idx.Entries[i].Name < idx.Entries[j].Name })
	return r.st.SetIndex(idx)
}

func cmdAdd(e *env, args []string) error {
	all, update, force, dryRun, verbose := false, false, false, false, false
	var specs []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-A" || a == "--all":
			all = true
		case a == "-u" || a == "--update":
			update = true
		case a == "-f" || a == "--force":
			force = true
		case a == "-n" || a == "--dry-run":
			dryRun = true
		case a == "-v" || a == "--verbose":
			verbose = true
		case a == "--":
			specs = append(specs, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			return notImpl("add option " + a)
		default:
			specs = append(specs, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if err := r.needWorktree("add"); err != nil {
		return err
	}
	if len(specs) == 0 && !all && !update {
		fmt.Fprint(e.errw, "Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\nhint: Turn this message off by running\nhint: \"git config advice.addEmptyPathspec false\"\n")
		return nil
	}
	s, err := r.state()
	if err != nil {
		return err
	}
	prefixes := []string{""}
	if len(specs) > 0 {
		prefixes = nil
		ig := r.ignorer()
		var ignored []string
		for _, sp := range specs {
			p, ok := r.pathspec(sp)
			if !ok {
				return r.outside(sp)
			}
			matched := p == ""
			if _, ok := s.index[p]; ok {
				matched = true
			}
			if fi, err := lstat(e.c.FS, path.Join(r.top, p)); err == nil {
				matched = true
				if !force && !fi.IsDir() && ig.ignored(p, false) {
					if _, tracked := s.index[p]; !tracked {
						ignored = append(ignored, sp)
						continue
					}
				}
			} else {
				for q := range s.index {
					if strings.HasPrefix(q, p+"/") {
						matched = true
					}
				}
			}
			if !matched {
				return fatalf("pathspec '%s' did not match any files", sp)
			}
			prefixes = append(prefixes, p)
		}
		if len(ignored) > 0 {
			fmt.Fprintf(e.errw, "The following paths are ignored by one of your .gitignore files:\n%s\nhint: Use -f if you really want to add them.\nhint: Turn this message off by running\nhint: \"git config advice.addIgnoredFile false\"\n", strings.Join(ignored, "\n"))
			if len(prefixes) == 0 {
				return errExit1
			}
			defer func() {}()
			err = errExit1
		}
	}
	in := func(p string) bool {
		for _, pre := range prefixes {
			if pre == "" || p == pre || strings.HasPrefix(p, pre+"/") {
				return true
			}
		}
		return false
	}
	idx, ierr := r.index()
	if ierr != nil {
		return ierr
	}
	var todo []string
	for _, ch := range s.unstaged {
		if in(ch.path()) {
			todo = append(todo, ch.path())
		}
	}
	if !update {
		for _, p := range s.untracked {
			if in(p) {
				todo = append(todo, p)
			}
		}
		if force {
			for _, sp := range specs {
				if p, _ := r.pathspec(sp); p != "" {
					if fi, err := e.c.FS.Stat(path.Join(r.top, p)); err == nil && !fi.IsDir() {
						if _, ok := s.index[p]; !ok && !contains(todo, p) {
							todo = append(todo, p)
						}
					}
				}
			}
		}
	}
	sort.Strings(todo)
	for _, p := range todo {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		if dryRun || verbose {
			if _, ok := s.work[p]; !ok && s.index[p] != (entry{}) {
				fmt.Fprintf(e.out, "remove '%s'\n", r.rel(p))
			} else {
				fmt.Fprintf(e.out, "add '%s'\n", r.rel(p))
			}
		}
		if dryRun {
			continue
		}
		if err := r.stage(idx, p); err != nil {
			return err
		}
	}
	if dryRun {
		return err
	}
	if serr := r.saveIndex(idx); serr != nil {
		return serr
	}
	return err
}

var errExit1 = command.Exit(1)

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// cleanMessage does what git's default cleanup (strip) does to a message:
// trailing spaces and blank lines at both ends go, runs of blank lines
// become one, # comment lines go; the result ends in a newline.
func cleanMessage(msg string, stripComments bool) string {
	var out []string
	blank := false
	for _, l := range strings.Split(msg, "\n") {
		l = strings.TrimRight(l, " \t\r")
		if stripComments && strings.HasPrefix(l, "#") {
			continue
		}
		if l == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

func cmdCommit(e *env, args []string) error {
	var msgs []string
	quiet, all, allowEmpty, amend, allowEmptyMsg := false, false, false, false, false
	msgFile := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-m" || a == "--message") && i+1 < len(args):
			i++
			msgs = append(msgs, args[i])
		case strings.HasPrefix(a, "--message="):
			msgs = append(msgs, strings.TrimPrefix(a, "--message="))
		case (a == "-F" || a == "--file") && i+1 < len(args):
			i++
			msgFile = args[i]
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-a" || a == "--all":
			all = true
		case a == "--allow-empty":
			allowEmpty = true
		case a == "--allow-empty-message":
			allowEmptyMsg = true
		case a == "--amend":
			amend = true
		case a == "--no-verify" || a == "-n" || a == "--no-edit" || a == "--no-gpg-sign":
		case strings.HasPrefix(a, "-m") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			msgs = append(msgs, a[2:])
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "aqm") == "":
			// combined short flags: -am, -qm, -qam ...; m takes the next argument
			for _, f := range a[1:] {
				switch f {
				case 'a':
					all = true
				case 'q':
					quiet = true
				case 'm':
					if i+1 >= len(args) {
						return &usageErr{"switch `m' requires a value"}
					}
					i++
					msgs = append(msgs, args[i])
				}
			}
		case strings.HasPrefix(a, "-"):
			return notImpl("commit option " + a)
		default:
			return notImpl("commit with paths (" + a + ")")
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if err := r.needWorktree("commit"); err != nil {
		return err
	}
	msg := ""
	switch {
	case msgFile != "":
		var b []byte
		if msgFile == "-" {
			b, err = readAll(e.c.Stdin)
		} else {
			b, err = afero.ReadFile(e.c.FS, e.abs(msgFile))
		}
		if err != nil {
			return fatalf("could not read log file '%s': No such file or directory", msgFile)
		}
		msg = cleanMessage(string(b), true)
	case len(msgs) > 0:
		msg = cleanMessage(strings.Join(msgs, "\n\n"), true)
	}
	needMsg := msgFile == "" && len(msgs) == 0 && !amend
	if all {
		s, err := r.state()
		if err != nil {
			return err
		}
		idx, err := r.index()
		if err != nil {
			return err
		}
		for _, ch := range s.unstaged {
			if err := r.stage(idx, ch.path()); err != nil {
				return err
			}
		}
		if err := r.saveIndex(idx); err != nil {
			return err
		}
	}
	s, err := r.state()
	if err != nil {
		return err
	}
	var parents []plumbing.Hash
	if !s.head.IsZero() {
		parents = []plumbing.Hash{s.head}
	}
	if amend {
		if s.head.IsZero() {
			return fatalf("You have nothing to amend.")
		}
		old, err := r.r.CommitObject(s.head)
		if err != nil {
			return err
		}
		parents = old.ParentHashes
		if msg == "" {
			msg = old.Message
		}
	}
	if len(s.staged) == 0 && !allowEmpty && !amend {
		r.commitStatus = true
		untracked := collapse(s.untracked, s.index)
		if len(s.unstaged) == 0 && len(untracked) == 0 && !s.head.IsZero() {
			name, _ := r.headName()
			fmt.Fprintf(e.out, "On branch %s\n", name)
			if up, ahead, behind, ok := r.upstream(name); ok {
				_ = up
				_, _ = ahead, behind
				var b strings.Builder
				r.writeLong(&b, s, untracked)
				fmt.Fprint(e.out, strings.TrimPrefix(b.String(), "On branch "+name+"\n"))
				return errExit1
			}
			fmt.Fprintln(e.out, "nothing to commit, working tree clean")
			return errExit1
		}
		r.writeLong(e.out, s, untracked)
		return errExit1
	}
	if needMsg {
		return notImpl("commit without -m or -F (no editor in the sandbox)")
	}
	if strings.TrimSpace(msg) == "" && !allowEmptyMsg {
		fmt.Fprintln(e.errw, "Aborting commit due to empty commit message.")
		return errExit1
	}
	author, implicitA, err := r.ident("AUTHOR")
	if err != nil {
		return err
	}
	committer, implicitC, err := r.ident("COMMITTER")
	if err != nil {
		return err
	}
	if amend && !hasEnv(e, "GIT_AUTHOR_NAME") {
		old, _ := r.r.CommitObject(s.head)
		a := old.Author
		author = &a
	}
	tree, err := r.writeTree(s.index)
	if err != nil {
		return err
	}
	c := &object.Commit{Author: *author, Committer: *committer, Message: msg, TreeHash: tree, ParentHashes: parents}
	obj := r.st.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		return err
	}
	h, err := r.st.SetEncodedObject(obj)
	if err != nil {
		return err
	}
	if err := r.moveHead(h); err != nil {
		return err
	}
	if quiet {
		return nil
	}
	branch, onBranch := r.headName()
	label := branch
	if !onBranch {
		label = "detached HEAD"
	}
	if len(parents) == 0 {
		label += " (root-commit)"
	}
	subject := strings.SplitN(strings.TrimSpace(msg), "\n", 2)[0]
	fmt.Fprintf(e.out, "[%s %s] %s\n", label, abbrev(h), subject)
	if author.Name != committer.Name || author.Email != committer.Email {
		fmt.Fprintf(e.out, " Author: %s <%s>\n", author.Name, author.Email)
	}
	if implicitA || implicitC {
		fmt.Fprintf(e.out, " Committer: %s <%s>\n%s\n", committer.Name, committer.Email, implicitIdentAdvice)
	}
	var from snapshot
	if len(parents) > 0 {
		from, err = r.treeSnapshot(parents[0])
	} else {
		from = snapshot{}
	}
	if err != nil {
		return err
	}
	to, err := r.treeSnapshot(h)
	if err != nil {
		return err
	}
	chs := compare(from, to, true)
	st, err := r.diffStats(chs, r.blob, r.blob)
	if err != nil {
		return err
	}
	fmt.Fprint(e.out, gitdiff.ShortStat(st))
	writeSummary(e.out, chs)
	return nil
}

func hasEnv(e *env, name string) bool {
	_, ok := e.c.Env(name)
	return ok
}

func abbrev(h plumbing.Hash) string { return h.String()[:7] }

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

func modeString(m filemode.FileMode) string { return fmt.Sprintf("%06o", uint32(m)) }
