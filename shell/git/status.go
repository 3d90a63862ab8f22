package git

import (
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// state is the three snapshots status, commit and diff compare.
type state struct {
	head      plumbing.Hash
	headTree  snapshot
	index     snapshot
	work      snapshot // tracked paths as they are in the worktree
	untracked []string // not collapsed
	staged    []change // head → index
	unstaged  []change // index → worktree (no renames)
}

func (r *repo) state() (*state, error) {
	if err := r.needWorktree("status"); err != nil {
		return nil, err
	}
	head, err := r.headCommit()
	if err != nil {
		return nil, err
	}
	ht, err := r.treeSnapshot(head)
	if err != nil {
		return nil, err
	}
	idx, err := r.index()
	if err != nil {
		return nil, err
	}
	is := indexSnapshot(idx)
	wt, untracked, err := r.worktree(is, idx)
	if err != nil {
		return nil, err
	}
	return &state{
		head: head, headTree: ht, index: is, work: wt, untracked: untracked,
		staged:   compare(ht, is, true),
		unstaged: compare(is, wt, false),
	}, nil
}

func cmdStatus(e *env, args []string) error {
	short, porcelain, branch := false, false, false
	untrackedMode := "normal"
	var specs []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-s" || a == "--short":
			short = true
		case a == "--porcelain" || a == "--porcelain=v1":
			porcelain = true
		case a == "-b" || a == "--branch":
			branch = true
		case a == "--long":
			short, porcelain = false, false
		case a == "-u" || a == "-uall" || a == "--untracked-files=all" || a == "--untracked-files":
			untrackedMode = "all"
		case a == "-uno" || a == "--untracked-files=no":
			untrackedMode = "no"
		case a == "-unormal" || a == "--untracked-files=normal":
			untrackedMode = "normal"
		case a == "-sb" || a == "-bs":
			short, branch = true, true
		case a == "--":
			specs = append(specs, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-"):
			return notImpl("status option " + a)
		default:
			specs = append(specs, a)
		}
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	s, err := r.state()
	if err != nil {
		return err
	}
	var filter func(string) bool
	if len(specs) > 0 {
		if filter, err = r.under(specs); err != nil {
			return err
		}
	}
	untracked := s.untracked
	if untrackedMode == "normal" {
		untracked = collapse(untracked, s.index)
	} else if untrackedMode == "no" {
		untracked = nil
	}
	if filter != nil {
		s.staged = filterChanges(s.staged, filter)
		s.unstaged = filterChanges(s.unstaged, filter)
		var u []string
		for _, p := range untracked {
			if filter(p) {
				u = append(u, p)
			}
		}
		untracked = u
	}
	if short || porcelain {
		rel := r.rel
		if porcelain {
			rel = func(p string) string { return p }
		}
		if branch {
			r.branchLine(e.out)
		}
		writeShort(e.out, s, untracked, rel)
		return nil
	}
	r.writeLong(e.out, s, untracked)
	return nil
}

func filterChanges(chs []change, keep func(string) bool) []change {
	var out []change
	for _, ch := range chs {
		if keep(ch.path()) || (ch.from != "" && keep(ch.from)) {
			out = append(out, ch)
		}
	}
	return out
}

// branchLine prints "## master" (with its upstream) for status -sb.
func (r *repo) branchLine(w io.Writer) {
	name, ok := r.headName()
	head, _ := r.headCommit()
	switch {
	case !ok:
		fmt.Fprintln(w, "## HEAD (no branch)")
	case head.IsZero():
		fmt.Fprintf(w, "## No commits yet on %s\n", name)
	default:
		line := "## " + name
		if up, ahead, behind, ok := r.upstream(name); ok {
			line += "..." + up
			switch {
			case ahead > 0 && behind > 0:
				line += fmt.Sprintf(" [ahead %d, behind %d]", ahead, behind)
			case ahead > 0:
				line += fmt.Sprintf(" [ahead %d]", ahead)
			case behind > 0:
				line += fmt.Sprintf(" [behind %d]", behind)
			}
		}
		fmt.Fprintln(w, line)
	}
}

// writeShort prints status --short: XY PATH.
func writeShort(w io.Writer, s *state, untracked []string, rel func(string) string) {
	type row struct{ x, y byte }
	rows := map[string]*row{}
	from := map[string]string{}
	var order []string
	get := func(p string) *row {
		if rows[p] == nil {
			rows[p] = &row{' ', ' '}
			order = append(order, p)
		}
		return rows[p]
	}
	for _, ch := range s.staged {
		get(ch.path()).x = ch.status
		if ch.status == 'R' {
			from[ch.path()] = ch.from
		}
	}
	for _, ch := range s.unstaged {
		get(ch.path()).y = ch.status
	}
	sortStrings(order)
	for _, p := range order {
		rw := rows[p]
		name := quoteSP(rel(p))
		if f, ok := from[p]; ok {
			name = quoteSP(rel(f)) + " -> " + name
		}
		fmt.Fprintf(w, "%c%c %s\n", rw.x, rw.y, name)
	}
	for _, p := range untracked {
		fmt.Fprintf(w, "?? %s\n", quoteSP(rel(p)))
	}
}

// writeLong prints git status's long format.
func (r *repo) writeLong(w io.Writer, s *state, untracked []string) {
	name, onBranch := r.headName()
	if onBranch {
		fmt.Fprintf(w, "On branch %s\n", name)
	} else {
		fmt.Fprintf(w, "HEAD detached at %s\n", r.detachedName(s.head))
	}
	if onBranch && !s.head.IsZero() {
		if up, ahead, behind, ok := r.upstream(name); ok {
			switch {
			case ahead == 0 && behind == 0:
				fmt.Fprintf(w, "Your branch is up to date with '%s'.\n\n", up)
			case behind == 0:
				fmt.Fprintf(w, "Your branch is ahead of '%s' by %d commit%s.\n  (use \"git push\" to publish your local commits)\n\n", up, ahead, plural(ahead))
			case ahead == 0:
				fmt.Fprintf(w, "Your branch is behind '%s' by %d commit%s, and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)\n\n", up, behind, plural(behind))
			default:
				fmt.Fprintf(w, "Your branch and '%s' have diverged,\nand have %d and %d different commits each, respectively.\n  (use \"git pull\" to merge the remote branch into yours)\n\n", up, ahead, behind)
			}
		}
	}
	if s.head.IsZero() {
		if r.commitStatus {
			fmt.Fprint(w, "\nInitial commit\n\n")
		} else {
			fmt.Fprint(w, "\nNo commits yet\n\n")
		}
	}
	if len(s.staged) > 0 {
		fmt.Fprintln(w, "Changes to be committed:")
		if s.head.IsZero() {
			fmt.Fprintln(w, "  (use \"git rm --cached <file>...\" to unstage)")
		} else {
			fmt.Fprintln(w, "  (use \"git restore --staged <file>...\" to unstage)")
		}
		for _, ch := range s.staged {
			label := map[byte]string{'A': "new file:", 'M': "modified:", 'D': "deleted:", 'R': "renamed:", 'T': "typechange:"}[ch.status]
			p := quote(r.rel(ch.path()))
			if ch.status == 'R' {
				p = quote(r.rel(ch.from)) + " -> " + p
			}
			fmt.Fprintf(w, "\t%-12s%s\n", label, p)
		}
		fmt.Fprintln(w)
	}
	if len(s.unstaged) > 0 {
		fmt.Fprintln(w, "Changes not staged for commit:")
		del := false
		for _, ch := range s.unstaged {
			if ch.status == 'D' {
				del = true
			}
		}
		if del {
			fmt.Fprintln(w, "  (use \"git add/rm <file>...\" to update what will be committed)")
		} else {
			fmt.Fprintln(w, "  (use \"git add <file>...\" to update what will be committed)")
		}
		fmt.Fprintln(w, "  (use \"git restore <file>...\" to discard changes in working directory)")
		for _, ch := range s.unstaged {
			label := map[byte]string{'M': "modified:", 'D': "deleted:", 'T': "typechange:"}[ch.status]
			fmt.Fprintf(w, "\t%-12s%s\n", label, quote(r.rel(ch.path())))
		}
		fmt.Fprintln(w)
	}
	if len(untracked) > 0 {
		fmt.Fprintln(w, "Untracked files:")
		fmt.Fprintln(w, "  (use \"git add <file>...\" to include in what will be committed)")
		for _, p := range untracked {
			fmt.Fprintf(w, "\t%s\n", quote(r.rel(p)))
		}
		fmt.Fprintln(w)
	}
	switch {
	case len(s.staged) > 0:
	case len(s.unstaged) > 0:
		fmt.Fprintln(w, "no changes added to commit (use \"git add\" and/or \"git commit -a\")")
	case len(untracked) > 0:
		fmt.Fprintln(w, "nothing added to commit but untracked files present (use \"git add\" to track)")
	case s.head.IsZero():
		fmt.Fprintln(w, "nothing to commit (create/copy files and use \"git add\" to track)")
	default:
		fmt.Fprintln(w, "nothing to commit, working tree clean")
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// quoteSP is quote that also quotes a name with a space, as status
// --short does.
func quoteSP(p string) string {
	if q := quote(p); q != p || !strings.Contains(p, " ") {
		return q
	}
	return `"` + p + `"`
}

// quote quotes a path as git's core.quotePath does: "…" with C escapes
// when it has a control character, a quote, a backslash or a byte ≥ 0x80.
func quote(p string) string {
	need := false
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			need = true
			break
		}
	}
	if !need {
		return p
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\v':
			b.WriteString(`\v`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if c < 0x20 || c >= 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
