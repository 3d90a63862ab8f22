package git

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"
)

const detachedAdvice = `Note: switching to '%s'.

You are in 'detached HEAD' state. You can look around, make experimental
changes and commit them, and you can discard any commits you make in this
state without impacting any branches by switching back to a branch.

If you want to create a new branch to retain commits you create, you may
do so (now or later) by using -c with the switch command. Example:

  git switch -c <new-branch-name>

Or undo this operation with:

  git switch -

Turn off this advice by setting config variable advice.detachedHead to false

`

func validBranchName(n string) bool {
	if n == "" || strings.HasPrefix(n, "-") || strings.HasSuffix(n, "/") || strings.HasSuffix(n, ".lock") || strings.HasSuffix(n, ".") || n == "HEAD" || n == "@" {
		return false
	}
	return !strings.ContainsAny(n, " ~^:?*[\\\x7f") && !strings.Contains(n, "..") && !strings.Contains(n, "@{") && !strings.Contains(n, "//")
}

func (r *repo) branches() ([]string, error) {
	iter, err := r.r.Branches()
	if err != nil {
		return nil, err
	}
	var names []string
	_ = iter.ForEach(func(ref *plumbing.Reference) error {
		names = append(names, ref.Name().Short())
		return nil
	})
	sort.Strings(names)
	return names, nil
}

func cmdBranch(e *env, args []string) error {
	var del, force, move, all, remotes, showCurrent, verbose bool
	var rest []string
	for i := 1; i < len(args); i++ {
		switch a := args[i]; a {
		case "-d", "--delete":
			del = true
		case "-D":
			del, force = true, true
		case "-f", "--force":
			force = true
		case "-m", "--move":
			move = true
		case "-M":
			move, force = true, true
		case "-a", "--all":
			all = true
		case "-r", "--remotes":
			remotes = true
		case "--show-current":
			showCurrent = true
		case "-v", "-vv", "--verbose":
			verbose = true
		case "--list", "-l", "--no-color", "--color=never":
		default:
			if strings.HasPrefix(a, "-") {
				return notImpl("branch option " + a)
			}
			rest = append(rest, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	cur, onBranch := r.headName()
	head, err := r.headCommit()
	if err != nil {
		return err
	}
	switch {
	case showCurrent:
		if onBranch {
			fmt.Fprintln(e.out, cur)
		}
		return nil
	case del:
		if len(rest) == 0 {
			return fatalf("branch name required")
		}
		failed := false
		for _, n := range rest {
			h, ok := r.branchExists(n)
			if !ok {
				fmt.Fprintf(e.errw, "error: branch '%s' not found.\n", n)
				failed = true
				continue
			}
			if onBranch && n == cur {
				fmt.Fprintf(e.errw, "error: Cannot delete branch '%s' checked out at '%s'\n", n, r.top)
				failed = true
				continue
			}
			if !force && !head.IsZero() {
				merged, err := r.isAncestor(h, head)
				if err != nil {
					return err
				}
				if !merged {
					fmt.Fprintf(e.errw, "error: The branch '%s' is not fully merged.\nIf you are sure you want to delete it, run 'git branch -D %s'.\n", n, n)
					failed = true
					continue
				}
			}
			if err := r.st.RemoveReference(plumbing.NewBranchReferenceName(n)); err != nil {
				return err
			}
			_ = r.removeBranchConfig(n)
			fmt.Fprintf(e.out, "Deleted branch %s (was %s).\n", n, abbrev(h))
		}
		if failed {
			return errExit1
		}
		return nil
	case move:
		var from, to string
		switch len(rest) {
		case 1:
			if !onBranch {
				return fatalf("cannot rename the current branch while not on any.")
			}
			from, to = cur, rest[0]
		case 2:
			from, to = rest[0], rest[1]
		default:
			return fatalf("branch name required")
		}
		if !validBranchName(to) {
			return fatalf("'%s' is not a valid branch name", to)
		}
		h, ok := r.branchExists(from)
		if !ok && !(from == cur && head.IsZero()) {
			return fatalf("no branch named '%s'", from)
		}
		if _, exists := r.branchExists(to); exists && !force && to != from {
			return fatalf("a branch named '%s' already exists", to)
		}
		if ok {
			if err := r.st.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(to), h)); err != nil {
				return err
			}
			if to != from {
				_ = r.st.RemoveReference(plumbing.NewBranchReferenceName(from))
			}
		}
		if onBranch && from == cur {
			return r.setHead(to, plumbing.ZeroHash)
		}
		return nil
	case len(rest) > 0 && !all && !remotes:
		name := rest[0]
		if len(rest) > 2 {
			return fatalf("too many arguments")
		}
		if !validBranchName(name) {
			return fatalf("'%s' is not a valid branch name", name)
		}
		start := "HEAD"
		if len(rest) == 2 {
			start = rest[1]
		}
		h, err := r.resolve(start)
		if err != nil {
			if start == "HEAD" {
				return fatalf("not a valid object name: '%s'", cur)
			}
			return fatalf("not a valid object name: '%s'", start)
		}
		if _, exists := r.branchExists(name); exists && !force {
			return fatalf("a branch named '%s' already exists", name)
		}
		return r.st.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), h))
	}
	// list
	type line struct {
		name, mark string
		h          plumbing.Hash
		sym        string
	}
	var lines []line
	if !onBranch && !remotes {
		lines = append(lines, line{name: fmt.Sprintf("(HEAD detached at %s)", r.detachedName(head)), mark: "*", h: head})
	}
	if !remotes {
		names, err := r.branches()
		if err != nil {
			return err
		}
		for _, n := range names {
			h, _ := r.branchExists(n)
			m := " "
			if onBranch && n == cur {
				m = "*"
			}
			lines = append(lines, line{name: n, mark: m, h: h})
		}
	}
	if all || remotes {
		refs, err := r.r.References()
		if err != nil {
			return err
		}
		var rl []line
		_ = refs.ForEach(func(ref *plumbing.Reference) error {
			if !ref.Name().IsRemote() {
				return nil
			}
			n := ref.Name().Short()
			if all {
				n = "remotes/" + n
			}
			l := line{name: n, mark: " ", h: ref.Hash()}
			if ref.Type() == plumbing.SymbolicReference {
				l.sym = ref.Target().Short()
			}
			rl = append(rl, l)
			return nil
		})
		sort.Slice(rl, func(i, j int) bool { return rl[i].name < rl[j].name })
		lines = append(lines, rl...)
	}
	width := 0
	for _, l := range lines {
		width = max(width, len(l.name))
	}
	for _, l := range lines {
		if l.sym != "" {
			fmt.Fprintf(e.out, "%s %s -> %s\n", l.mark, l.name, l.sym)
			continue
		}
		if verbose {
			c, err := r.r.CommitObject(l.h)
			subject := ""
			if err == nil {
				subject, _ = subjectBody(c.Message)
			}
			fmt.Fprintf(e.out, "%s %-*s %s %s\n", l.mark, width, l.name, abbrev(l.h), subject)
			continue
		}
		fmt.Fprintf(e.out, "%s %s\n", l.mark, l.name)
	}
	return nil
}

func (r *repo) isAncestor(a, b plumbing.Hash) (bool, error) {
	cs, err := r.walk([]plumbing.Hash{a}, []plumbing.Hash{b})
	if err != nil {
		return false, err
	}
	return len(cs) == 0, nil
}

func cmdSwitch(e *env, args []string) error {
	var create, force, detach bool
	var rest []string
	for i := 1; i < len(args); i++ {
		switch a := args[i]; a {
		case "-c", "--create":
			create = true
		case "-C", "--force-create":
			create, force = true, true
		case "-f", "--force", "--discard-changes":
			force = true
		case "-d", "--detach":
			detach = true
		case "-q", "--quiet":
			e.quiet = true
		default:
			if strings.HasPrefix(a, "-") && a != "-" {
				return notImpl("switch option " + a)
			}
			rest = append(rest, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if len(rest) == 0 {
		return fatalf("missing branch or commit argument")
	}
	if create {
		start := "HEAD"
		if len(rest) > 1 {
			start = rest[1]
		}
		return r.checkoutNew(rest[0], start, force)
	}
	target := rest[0]
	if _, ok := r.branchExists(target); ok && !detach {
		return r.checkoutBranch(target, force)
	}
	if detach {
		return r.checkoutDetached(target, force)
	}
	if _, err := r.resolve(target); err == nil {
		return fatalf("a branch is expected, got '%s'", target)
	}
	if remote, ok := r.remoteBranch(target); ok {
		return r.checkoutTracking(target, remote)
	}
	return fatalf("invalid reference: %s", target)
}

func cmdCheckout(e *env, args []string) error {
	var newBranch string
	var force, forceCreate bool
	var rest, paths []string
	dashdash := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash:
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case (a == "-b" || a == "-B") && i+1 < len(args):
			forceCreate = a == "-B"
			i++
			newBranch = args[i]
		case a == "-f" || a == "--force":
			force = true
		case a == "-q" || a == "--quiet":
			e.quiet = true
		case strings.HasPrefix(a, "-") && a != "-":
			return notImpl("checkout option " + a)
		default:
			rest = append(rest, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if newBranch != "" {
		start := "HEAD"
		if len(rest) > 0 {
			start = rest[0]
		}
		return r.checkoutNew(newBranch, start, forceCreate || force)
	}
	if dashdash || len(rest) > 1 {
		source := ""
		if len(rest) > 0 {
			source = rest[0]
		}
		if !dashdash {
			paths = rest[1:]
			if _, err := r.resolve(source); err != nil {
				source, paths = "", rest
			}
		}
		e.countPaths = !dashdash
		return r.restorePaths(paths, source, source != "", true, "checkout")
	}
	if len(rest) == 0 {
		return nil
	}
	target := rest[0]
	if _, ok := r.branchExists(target); ok {
		return r.checkoutBranch(target, force)
	}
	if _, err := r.resolve(target); err == nil {
		return r.checkoutDetached(target, force)
	}
	if remote, ok := r.remoteBranch(target); ok {
		return r.checkoutTracking(target, remote)
	}
	// a path
	if r.top != "" {
		if p, ok := r.pathspec(target); ok {
			idx, err := r.index()
			if err == nil {
				for _, en := range idx.Entries {
					if en.Name == p || strings.HasPrefix(en.Name, p+"/") || p == "" {
						e.countPaths = true
						return r.restorePaths(rest, "", false, true, "checkout")
					}
				}
			}
		}
	}
	fmt.Fprintf(e.errw, "error: pathspec '%s' did not match any file(s) known to git\n", target)
	return errExit1
}

// remoteBranch finds origin/NAME for git's checkout NAME guess.
func (r *repo) remoteBranch(name string) (plumbing.ReferenceName, bool) {
	refs, err := r.r.References()
	if err != nil {
		return "", false
	}
	var found []plumbing.ReferenceName
	_ = refs.ForEach(func(ref *plumbing.Reference) error {
		if ref.Name().IsRemote() && ref.Type() == plumbing.HashReference {
			_, short, ok := strings.Cut(ref.Name().Short(), "/")
			if ok && short == name {
				found = append(found, ref.Name())
			}
		}
		return nil
	})
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}

func (r *repo) checkoutTracking(name string, remote plumbing.ReferenceName) error {
	if err := r.checkoutNewQuiet(name, remote.String(), false); err != nil {
		return err
	}
	remoteName, _, _ := strings.Cut(remote.Short(), "/")
	if err := r.setConfig("branch."+name+".remote", remoteName); err != nil {
		return err
	}
	if err := r.setConfig("branch."+name+".merge", "refs/heads/"+name); err != nil {
		return err
	}
	r.info("branch '%s' set up to track '%s'.\n", name, remote.Short())
	r.info("Switched to a new branch '%s'\n", name)
	return nil
}

func (r *repo) listLocalChanges() {
	s, err := r.state()
	if err != nil {
		return
	}
	rows := map[string]byte{}
	for _, ch := range s.staged {
		rows[ch.path()] = ch.status
	}
	for _, ch := range s.unstaged {
		if _, ok := rows[ch.path()]; !ok {
			rows[ch.path()] = ch.status
		}
	}
	var ps []string
	for p := range rows {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	for _, p := range ps {
		st := rows[p]
		if st == 'R' {
			st = 'A'
		}
		fmt.Fprintf(r.out, "%c\t%s\n", st, r.rel(p))
	}
}

func (r *repo) checkoutTo(target plumbing.Hash, force bool) error {
	s, err := r.state()
	if err != nil {
		return err
	}
	to, err := r.treeSnapshot(target)
	if err != nil {
		return err
	}
	return r.switchTree(s, to, force, "checkout")
}

func (r *repo) checkoutNew(name, start string, force bool) error {
	if err := r.checkoutNewQuiet(name, start, force); err != nil {
		return err
	}
	r.listLocalChanges()
	r.info("Switched to a new branch '%s'\n", name)
	return nil
}

func (r *repo) checkoutNewQuiet(name, start string, force bool) error {
	if !validBranchName(name) {
		return fatalf("'%s' is not a valid branch name", name)
	}
	if _, exists := r.branchExists(name); exists && !force {
		return fatalf("a branch named '%s' already exists", name)
	}
	head, err := r.headCommit()
	if err != nil {
		return err
	}
	if head.IsZero() && start == "HEAD" {
		// an unborn branch: only HEAD moves
		return r.setHead(name, plumbing.ZeroHash)
	}
	h, err := r.resolve(start)
	if err != nil {
		return fatalf("'%s' is not a commit and a branch '%s' cannot be created from it", start, name)
	}
	if h != head {
		if err := r.checkoutTo(h, false); err != nil {
			return err
		}
	}
	if err := r.st.SetReference(plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), h)); err != nil {
		return err
	}
	return r.setHead(name, plumbing.ZeroHash)
}

func (r *repo) checkoutBranch(name string, force bool) error {
	cur, onBranch := r.headName()
	h, _ := r.branchExists(name)
	if onBranch && cur == name {
		r.listLocalChanges()
		r.info("Already on '%s'\n", name)
		return nil
	}
	head, _ := r.headCommit()
	if err := r.checkoutTo(h, force); err != nil {
		return err
	}
	if err := r.setHead(name, plumbing.ZeroHash); err != nil {
		return err
	}
	r.listLocalChanges()
	if !onBranch && head != h {
		r.info("Previous HEAD position was %s\n", r.headLine(head))
	}
	r.info("Switched to branch '%s'\n", name)
	if up, ahead, behind, ok := r.upstream(name); ok && ahead == 0 && behind == 0 {
		fmt.Fprintf(r.out, "Your branch is up to date with '%s'.\n", up)
	}
	return nil
}

func (r *repo) checkoutDetached(rev string, force bool) error {
	h, err := r.resolve(rev)
	if err != nil {
		return badRevision(rev)
	}
	_, wasBranch := r.headName()
	head, _ := r.headCommit()
	if err := r.checkoutTo(h, force); err != nil {
		return err
	}
	if err := r.setHead("", h); err != nil {
		return err
	}
	r.listLocalChanges()
	c, err := r.r.CommitObject(h)
	if err != nil {
		return err
	}
	subject, _ := subjectBody(c.Message)
	if wasBranch {
		adv, ok := r.get(r.gitDir, "advice.detachedHead")
		if !ok || adv != "false" {
			r.info(detachedAdvice, rev)
		}
		r.info("HEAD is now at %s %s\n", abbrev(h), subject)
	} else if head != h {
		r.info("Previous HEAD position was %s\nHEAD is now at %s %s\n", r.headLine(head), abbrev(h), subject)
	} else {
		r.info("HEAD is now at %s %s\n", abbrev(h), subject)
	}
	return nil
}

func (r *repo) headLine(h plumbing.Hash) string {
	c, err := r.r.CommitObject(h)
	if err != nil {
		return abbrev(h)
	}
	s, _ := subjectBody(c.Message)
	return abbrev(h) + " " + s
}

// restorePaths puts paths back: into the worktree (from the index, or
// from source when set) and, with staged, into the index (from source or
// HEAD).
func (r *repo) restorePaths(specs []string, source string, staged, worktree bool, what string) error {
	if err := r.needWorktree(what); err != nil {
		return err
	}
	s, err := r.state()
	if err != nil {
		return err
	}
	src := s.index
	if source != "" || (staged && what == "restore") {
		rev := source
		if rev == "" {
			rev = "HEAD"
		}
		h, err := r.resolve(rev)
		if err != nil {
			if what == "checkout" {
				fmt.Fprintf(r.errw, "error: pathspec '%s' did not match any file(s) known to git\n", rev)
				return errExit1
			}
			return fatalf("could not resolve %s", rev)
		}
		if src, err = r.treeSnapshot(h); err != nil {
			return err
		}
	}
	idx, err := r.index()
	if err != nil {
		return err
	}
	failed := false
	written := 0
	for _, sp := range specs {
		pre, ok := r.pathspec(sp)
		if !ok {
			return r.outside(sp)
		}
		match := func(p string) bool { return pre == "" || p == pre || strings.HasPrefix(p, pre+"/") }
		matched := false
		// paths in the source, and (for the index, or an overlay-less
		// restore) paths to drop
		var ps []string
		seen := map[string]bool{}
		for _, m := range []snapshot{src, s.index} {
			for p := range m {
				if match(p) && !seen[p] {
					seen[p] = true
					ps = append(ps, p)
				}
			}
		}
		sort.Strings(ps)
		for _, p := range ps {
			e, inSrc := src[p]
			if inSrc {
				matched = true
			}
			if _, inIdx := s.index[p]; inIdx {
				matched = true
			}
			if staged {
				if inSrc {
					w, ok := s.work[p]
					r.setIndexEntry(idx, p, e, worktree || ok && w == e)
				} else {
					_, _ = idx.Remove(p)
				}
			}
			if worktree {
				if inSrc {
					if w, ok := s.work[p]; !ok || w != e {
						if err := r.writeFile(p, e); err != nil {
							return err
						}
						written++
					}
					if what == "checkout" && source != "" {
						r.setIndexEntry(idx, p, e, true)
					}
				} else if what == "restore" && (staged || source != "") {
					if err := r.removeFile(p); err != nil {
						return err
					}
				}
			}
		}
		if !matched {
			fmt.Fprintf(r.errw, "error: pathspec '%s' did not match any file(s) known to git\n", sp)
			failed = true
		}
	}
	if failed {
		return errExit1
	}
	if r.countPaths {
		from := "the index"
		if source != "" {
			h, _ := r.resolve(source)
			if c, err := r.r.CommitObject(h); err == nil {
				from = abbrev(c.TreeHash)
			}
		}
		r.info("Updated %d path%s from %s\n", written, plural(written), from)
	}
	return r.saveIndex(idx)
}

func cmdRestore(e *env, args []string) error {
	staged, worktree := false, false
	source := ""
	var specs []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--staged" || a == "-S":
			staged = true
		case a == "--worktree" || a == "-W":
			worktree = true
		case a == "-SW" || a == "-WS":
			staged, worktree = true, true
		case (a == "--source" || a == "-s") && i+1 < len(args):
			i++
			source = args[i]
		case strings.HasPrefix(a, "--source="):
			source = strings.TrimPrefix(a, "--source=")
		case a == "-q" || a == "--quiet":
		case a == "--":
			specs = append(specs, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-"):
			return notImpl("restore option " + a)
		default:
			specs = append(specs, a)
		}
	}
	if !staged {
		worktree = true
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if len(specs) == 0 {
		return fatalf("you must specify path(s) to restore")
	}
	return r.restorePaths(specs, source, staged, worktree, "restore")
}

func cmdReset(e *env, args []string) error {
	mode := "mixed"
	quiet := false
	var rest, paths []string
	dashdash := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case dashdash:
			paths = append(paths, a)
		case a == "--":
			dashdash = true
		case a == "--hard" || a == "--soft" || a == "--mixed":
			mode = a[2:]
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--merge" || a == "--keep":
			return notImpl("reset " + a)
		case strings.HasPrefix(a, "-"):
			return notImpl("reset option " + a)
		default:
			rest = append(rest, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	rev := "HEAD"
	if len(rest) > 0 {
		if _, err := r.resolve(rest[0]); err == nil {
			rev, rest = rest[0], rest[1:]
		} else if !dashdash && len(rest) == 1 && !fileExists(e.c.FS, e.abs(rest[0])) {
			return badRevision(rest[0])
		}
	}
	paths = append(rest, paths...)
	head, err := r.headCommit()
	if err != nil {
		return err
	}
	if len(paths) > 0 {
		if mode != "mixed" {
			return fatalf("Cannot do %s reset with paths.", mode)
		}
		if err := r.needWorktree("reset"); err != nil {
			return err
		}
		if head.IsZero() && rev == "HEAD" {
			// unstage everything named: the index loses them
			idx, err := r.index()
			if err != nil {
				return err
			}
			for _, sp := range paths {
				p, _ := r.pathspec(sp)
				for _, en := range append([]*index.Entry(nil), idx.Entries...) {
					if p == "" || en.Name == p || strings.HasPrefix(en.Name, p+"/") {
						_, _ = idx.Remove(en.Name)
					}
				}
			}
			return r.saveIndex(idx)
		}
		if err := r.restorePaths(paths, rev, true, false, "reset"); err != nil {
			return err
		}
		if !quiet {
			r.unstagedAfterReset()
		}
		return nil
	}
	h := head
	if rev != "HEAD" || head.IsZero() {
		if h, err = r.resolve(rev); err != nil {
			return badRevision(rev)
		}
	}
	switch mode {
	case "soft":
		return r.moveHead(h)
	case "mixed":
		if err := r.moveHead(h); err != nil {
			return err
		}
		t, err := r.treeSnapshot(h)
		if err != nil {
			return err
		}
		idx, err := r.index()
		if err != nil {
			return err
		}
		for _, en := range append([]*index.Entry(nil), idx.Entries...) {
			if _, ok := t[en.Name]; !ok {
				_, _ = idx.Remove(en.Name)
			}
		}
		for p, en := range t {
			if old, err := idx.Entry(p); err == nil && old.Hash == en.hash && old.Mode == en.mode {
				continue
			}
			r.setIndexEntry(idx, p, en, false)
		}
		if err := r.saveIndex(idx); err != nil {
			return err
		}
		if !quiet && r.top != "" {
			r.unstagedAfterReset()
		}
		return nil
	default: // hard
		if err := r.needWorktree("reset --hard"); err != nil {
			return err
		}
		s, err := r.state()
		if err != nil {
			return err
		}
		t, err := r.treeSnapshot(h)
		if err != nil {
			return err
		}
		if err := r.switchTree(s, t, true, "reset"); err != nil {
			return err
		}
		if err := r.moveHead(h); err != nil {
			return err
		}
		if !quiet {
			fmt.Fprintf(e.out, "HEAD is now at %s\n", r.headLine(h))
		}
		return nil
	}
}

func (r *repo) unstagedAfterReset() {
	s, err := r.state()
	if err != nil || len(s.unstaged) == 0 {
		return
	}
	fmt.Fprintln(r.out, "Unstaged changes after reset:")
	for _, ch := range s.unstaged {
		fmt.Fprintf(r.out, "%c\t%s\n", ch.status, ch.path())
	}
}

func cmdRm(e *env, args []string) error {
	var cached, recursive, force, quiet, dryRun bool
	var specs []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--cached":
			cached = true
		case a == "-r":
			recursive = true
		case a == "-f" || a == "--force":
			force = true
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "-n" || a == "--dry-run":
			dryRun = true
		case a == "-rf" || a == "-fr":
			recursive, force = true, true
		case a == "--":
			specs = append(specs, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-"):
			return notImpl("rm option " + a)
		default:
			specs = append(specs, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if len(specs) == 0 {
		return &usageErr{"No pathspec was given. Which files should I remove?"}
	}
	s, err := r.state()
	if err != nil {
		return err
	}
	var targets []string
	for _, sp := range specs {
		pre, ok := r.pathspec(sp)
		if !ok {
			return r.outside(sp)
		}
		var matched []string
		for _, p := range s.index.paths() {
			if p == pre || pre == "" || strings.HasPrefix(p, pre+"/") {
				matched = append(matched, p)
			}
		}
		if len(matched) == 0 {
			return fatalf("pathspec '%s' did not match any files", sp)
		}
		if !recursive && (len(matched) > 1 || matched[0] != pre) {
			return fatalf("not removing '%s' recursively without -r", sp)
		}
		targets = append(targets, matched...)
	}
	if !force {
		var staged, local, both []string
		for _, p := range targets {
			h, inH := s.headTree[p]
			i := s.index[p]
			w, inW := s.work[p]
			stagedCh := !inH || h != i
			localCh := inW && w != i
			switch {
			case stagedCh && localCh && (!inH || w != h):
				both = append(both, p)
			case localCh && !cached:
				local = append(local, p)
			case stagedCh && !cached:
				staged = append(staged, p)
			}
		}
		report := func(list []string, what, hint string) {
			if len(list) == 0 {
				return
			}
			fmt.Fprintf(e.errw, "error: the following file%s %s:\n", pluralHas(len(list)), what)
			for _, p := range list {
				fmt.Fprintf(e.errw, "    %s\n", r.rel(p))
			}
			fmt.Fprintln(e.errw, hint)
		}
		report(both, "staged content different from both the\nfile and the HEAD", "(use -f to force removal)")
		report(staged, "changes staged in the index", "(use --cached to keep the file, or -f to force removal)")
		report(local, "local modifications", "(use --cached to keep the file, or -f to force removal)")
		if len(both)+len(staged)+len(local) > 0 {
			return errExit1
		}
	}
	idx, err := r.index()
	if err != nil {
		return err
	}
	for _, p := range targets {
		if !quiet {
			fmt.Fprintf(e.out, "rm '%s'\n", p)
		}
		if dryRun {
			continue
		}
		_, _ = idx.Remove(p)
		if !cached {
			if err := r.removeFile(p); err != nil {
				return err
			}
		}
	}
	if dryRun {
		return nil
	}
	return r.saveIndex(idx)
}

// pluralHas is " has" or "s have" for git rm's messages.
func pluralHas(n int) string {
	if n == 1 {
		return " has"
	}
	return "s have"
}

func cmdMv(e *env, args []string) error {
	var force, dryRun, verbose bool
	var rest []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || a == "--force":
			force = true
		case a == "-n" || a == "--dry-run":
			dryRun = true
		case a == "-v" || a == "--verbose":
			verbose = true
		case a == "-k":
			return notImpl("mv -k")
		case strings.HasPrefix(a, "-"):
			return notImpl("mv option " + a)
		default:
			rest = append(rest, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if len(rest) < 2 {
		return &usageErr{"usage: git mv [<options>] <source>... <destination>"}
	}
	if err := r.needWorktree("mv"); err != nil {
		return err
	}
	idx, err := r.index()
	if err != nil {
		return err
	}
	dstArg := rest[len(rest)-1]
	dst, ok := r.pathspec(dstArg)
	if !ok {
		return r.outside(dstArg)
	}
	dstAbs := path.Join(r.top, dst)
	fi, statErr := r.c.FS.Stat(dstAbs)
	intoDir := statErr == nil && fi.IsDir()
	if len(rest) > 2 && !intoDir {
		return fatalf("destination '%s' is not a directory", dstArg)
	}
	for _, srcArg := range rest[:len(rest)-1] {
		src, ok := r.pathspec(srcArg)
		if !ok {
			return r.outside(srcArg)
		}
		target := dst
		if intoDir {
			target = path.Join(dst, path.Base(src))
		}
		bad := func(why string) error {
			return fatalf("%s, source=%s, destination=%s", why, src, target)
		}
		srcAbs := path.Join(r.top, src)
		sfi, err := lstat(r.c.FS, srcAbs)
		if err != nil {
			return bad("bad source")
		}
		var moved []string
		for _, en := range idx.Entries {
			if en.Name == src || strings.HasPrefix(en.Name, src+"/") {
				moved = append(moved, en.Name)
			}
		}
		if len(moved) == 0 {
			if sfi.IsDir() {
				return bad("source directory is empty")
			}
			return bad("not under version control")
		}
		if _, err := lstat(r.c.FS, path.Join(r.top, target)); err == nil && !force {
			return bad("destination exists")
		}
		if verbose || dryRun {
			fmt.Fprintf(e.out, "Renaming %s to %s\n", src, target)
		}
		if dryRun {
			continue
		}
		if err := r.c.FS.MkdirAll(path.Dir(path.Join(r.top, target)), 0o755); err != nil {
			return err
		}
		if force {
			_ = r.c.FS.RemoveAll(path.Join(r.top, target))
		}
		if err := r.c.FS.Rename(srcAbs, path.Join(r.top, target)); err != nil {
			return fatalf("renaming '%s' failed: %v", src, err)
		}
		for _, name := range moved {
			en, _ := idx.Entry(name)
			newName := target + strings.TrimPrefix(name, src)
			cp := *en
			cp.Name = newName
			_, _ = idx.Remove(name)
			if old, err := idx.Entry(newName); err == nil {
				*old = cp
			} else {
				idx.Entries = append(idx.Entries, &cp)
			}
		}
	}
	if dryRun {
		return nil
	}
	return r.saveIndex(idx)
}

func cmdTag(e *env, args []string) error {
	var del, annotate, force, list bool
	var msgs []string
	var rest []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-d" || a == "--delete":
			del = true
		case a == "-a" || a == "--annotate":
			annotate = true
		case a == "-f" || a == "--force":
			force = true
		case a == "-l" || a == "--list":
			list = true
		case (a == "-m" || a == "--message") && i+1 < len(args):
			i++
			msgs = append(msgs, args[i])
			annotate = true
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			msgs = append(msgs, a[2:])
			annotate = true
		case strings.HasPrefix(a, "-"):
			return notImpl("tag option " + a)
		default:
			rest = append(rest, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if del {
		failed := false
		for _, n := range rest {
			ref, err := r.r.Reference(plumbing.NewTagReferenceName(n), false)
			if err != nil {
				fmt.Fprintf(e.errw, "error: tag '%s' not found.\n", n)
				failed = true
				continue
			}
			if err := r.st.RemoveReference(ref.Name()); err != nil {
				return err
			}
			fmt.Fprintf(e.out, "Deleted tag '%s' (was %s)\n", n, abbrev(ref.Hash()))
		}
		if failed {
			return errExit1
		}
		return nil
	}
	if list || len(rest) == 0 {
		iter, err := r.r.Tags()
		if err != nil {
			return err
		}
		var names []string
		_ = iter.ForEach(func(ref *plumbing.Reference) error {
			names = append(names, ref.Name().Short())
			return nil
		})
		sort.Strings(names)
		for _, n := range names {
			if len(rest) > 0 {
				okAny := false
				for _, pat := range rest {
					if m, _ := path.Match(pat, n); m {
						okAny = true
					}
				}
				if !okAny {
					continue
				}
			}
			fmt.Fprintln(e.out, n)
		}
		return nil
	}
	name := rest[0]
	if !validBranchName(name) {
		return fatalf("'%s' is not a valid tag name.", name)
	}
	rev := "HEAD"
	if len(rest) > 1 {
		rev = rest[1]
	}
	h, err := r.resolve(rev)
	if err != nil {
		if rev == "HEAD" {
			return fatalf("Failed to resolve 'HEAD' as a valid ref.")
		}
		return fatalf("Failed to resolve '%s' as a valid ref.", rev)
	}
	if old, err := r.r.Reference(plumbing.NewTagReferenceName(name), false); err == nil {
		if !force {
			return fatalf("tag '%s' already exists", name)
		}
		defer fmt.Fprintf(e.out, "Updated tag '%s' (was %s)\n", name, abbrev(old.Hash()))
	}
	if !annotate {
		return r.st.SetReference(plumbing.NewHashReference(plumbing.NewTagReferenceName(name), h))
	}
	if len(msgs) == 0 {
		return notImpl("tag -a without -m (no editor in the sandbox)")
	}
	tagger, _, err := r.ident("COMMITTER")
	if err != nil {
		return err
	}
	tag := &object.Tag{
		Name: name, Tagger: *tagger, Message: cleanMessage(strings.Join(msgs, "\n\n"), true),
		TargetType: plumbing.CommitObject, Target: h,
	}
	obj := r.st.NewEncodedObject()
	if err := tag.Encode(obj); err != nil {
		return err
	}
	th, err := r.st.SetEncodedObject(obj)
	if err != nil {
		return err
	}
	return r.st.SetReference(plumbing.NewHashReference(plumbing.NewTagReferenceName(name), th))
}
