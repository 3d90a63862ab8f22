package git

import (
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// logOpts are log's and show's options.
type logOpts struct {
	diff      diffOpts
	showDiff  bool
	format    string // "medium", "oneline", "short", "full", "raw" or a user format
	userFmt   bool
	separator bool // format: (separator) rather than tformat: (terminator)
	max       int
	date      string
	abbrev    bool // --abbrev-commit
	decorate  bool
	reverse   bool
	all       bool
	revs      []string
	paths     []string
}

// parseLogArg takes one of log's options; ok is false when it is not one.
func (o *logOpts) parse(args []string, i *int) (bool, error) {
	a := args[*i]
	next := func() (string, bool) {
		if *i+1 < len(args) {
			*i++
			return args[*i], true
		}
		return "", false
	}
	switch {
	case a == "--oneline":
		o.format, o.userFmt, o.abbrev = "oneline", false, true
	case strings.HasPrefix(a, "--pretty=") || strings.HasPrefix(a, "--format="):
		v := a[strings.Index(a, "=")+1:]
		o.setFormat(v, strings.HasPrefix(a, "--format="))
	case a == "--pretty":
		o.format, o.userFmt = "medium", false
	case a == "-n" || a == "--max-count":
		v, ok := next()
		n, err := strconv.Atoi(v)
		if !ok || err != nil {
			return true, &usageErr{"switch `n' expects a numerical value"}
		}
		o.max = n
	case strings.HasPrefix(a, "--max-count="):
		n, err := strconv.Atoi(strings.TrimPrefix(a, "--max-count="))
		if err != nil {
			return true, &usageErr{"--max-count expects a numerical value"}
		}
		o.max = n
	case strings.HasPrefix(a, "-n") && len(a) > 2:
		n, err := strconv.Atoi(a[2:])
		if err != nil {
			return false, nil
		}
		o.max = n
	case len(a) > 1 && a[0] == '-' && isDigits(a[1:]):
		o.max, _ = strconv.Atoi(a[1:])
	case strings.HasPrefix(a, "--date="):
		o.date = strings.TrimPrefix(a, "--date=")
	case a == "--reverse":
		o.reverse = true
	case a == "--all":
		o.all = true
	case a == "--decorate" || a == "--decorate=short":
		o.decorate = true
	case a == "--abbrev-commit":
		o.abbrev = true
	case a == "--no-decorate" || a == "--decorate=no" || a == "--decorate=auto" || a == "--no-color" || a == "--color=never" || a == "--no-abbrev-commit" && false:
	case a == "-p" || a == "-u" || a == "--patch":
		o.showDiff, o.diff.patch = true, true
	case a == "-s" || a == "--no-patch":
		o.showDiff = false
	case o.diff.parse(a):
		o.showDiff = true
	default:
		return false, nil
	}
	return true, nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (o *logOpts) setFormat(v string, tformat bool) {
	switch {
	case v == "oneline":
		o.format, o.userFmt = "oneline", false
	case v == "short" || v == "medium" || v == "full" || v == "fuller" || v == "raw":
		o.format, o.userFmt = v, false
	case strings.HasPrefix(v, "format:"):
		o.format, o.userFmt, o.separator = strings.TrimPrefix(v, "format:"), true, true
	case strings.HasPrefix(v, "tformat:"):
		o.format, o.userFmt, o.separator = strings.TrimPrefix(v, "tformat:"), true, false
	default:
		o.format, o.userFmt, o.separator = v, true, !tformat && !strings.Contains(v, "%") && false
	}
}

func cmdLog(e *env, args []string) error {
	o := logOpts{format: "medium", max: -1, diff: diffOpts{context: 3}}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.paths = append(o.paths, args[i+1:]...)
			break
		}
		ok, err := o.parse(args, &i)
		if err != nil {
			return err
		}
		if ok {
			continue
		}
		if strings.HasPrefix(a, "-") {
			return notImpl("log option " + a)
		}
		o.revs = append(o.revs, a)
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	return r.log(o)
}

func (r *repo) log(o logOpts) error {
	var starts []plumbing.Hash
	var stops []plumbing.Hash
	for _, rev := range o.revs {
		if ha, hb, ok, err := r.resolveRange(rev); ok {
			if err != nil {
				return err
			}
			stops = append(stops, ha)
			starts = append(starts, hb)
			continue
		}
		h, err := r.resolve(rev)
		if err != nil {
			if r.top != "" && fileExists(r.c.FS, r.abs(rev)) {
				o.paths = append(o.paths, rev)
				continue
			}
			return badRevision(rev)
		}
		starts = append(starts, h)
	}
	if o.all {
		refs, err := r.r.References()
		if err != nil {
			return err
		}
		_ = refs.ForEach(func(ref *plumbing.Reference) error {
			if ref.Type() == plumbing.HashReference && !strings.HasPrefix(ref.Name().String(), "refs/stash") {
				if c, err := r.resolve(ref.Name().String()); err == nil {
					starts = append(starts, c)
				}
			}
			return nil
		})
	}
	if len(starts) == 0 {
		head, err := r.headCommit()
		if err != nil {
			return err
		}
		if head.IsZero() {
			name, _ := r.headName()
			return fatalf("your current branch '%s' does not have any commits yet", name)
		}
		starts = append(starts, head)
	}
	commits, err := r.walk(starts, stops)
	if err != nil {
		return err
	}
	if len(o.paths) > 0 {
		var keep []*object.Commit
		for _, c := range commits {
			touched, err := r.touches(c, o.paths)
			if err != nil {
				return err
			}
			if touched {
				keep = append(keep, c)
			}
		}
		commits = keep
	}
	if o.max >= 0 && len(commits) > o.max {
		commits = commits[:o.max]
	}
	if o.reverse {
		for i, j := 0, len(commits)-1; i < j; i, j = i+1, j-1 {
			commits[i], commits[j] = commits[j], commits[i]
		}
	}
	for i, c := range commits {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		if err := r.writeCommit(r.out, c, o, i == 0, i == len(commits)-1); err != nil {
			return err
		}
	}
	return nil
}

// walk lists the commits reachable from starts and not from stops, newest
// (by commit date) first, as git log orders them by default.
func (r *repo) walk(starts, stops []plumbing.Hash) ([]*object.Commit, error) {
	hidden := map[plumbing.Hash]bool{}
	mark := func(h plumbing.Hash) error {
		for stack := []plumbing.Hash{h}; len(stack) > 0; {
			h := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if hidden[h] {
				continue
			}
			hidden[h] = true
			c, err := r.r.CommitObject(h)
			if err != nil {
				return err
			}
			stack = append(stack, c.ParentHashes...)
		}
		return nil
	}
	for _, s := range stops {
		if err := mark(s); err != nil {
			return nil, err
		}
	}
	seen := map[plumbing.Hash]bool{}
	var queue []*object.Commit
	push := func(h plumbing.Hash) error {
		if seen[h] || hidden[h] {
			return nil
		}
		seen[h] = true
		c, err := r.r.CommitObject(h)
		if err != nil {
			return err
		}
		queue = append(queue, c)
		return nil
	}
	for _, s := range starts {
		if err := push(s); err != nil {
			return nil, err
		}
	}
	var out []*object.Commit
	for len(queue) > 0 {
		// the newest first; ties keep the order found
		best := 0
		for i, c := range queue {
			if c.Committer.When.After(queue[best].Committer.When) {
				best = i
			}
		}
		c := queue[best]
		queue = append(queue[:best], queue[best+1:]...)
		out = append(out, c)
		for _, p := range c.ParentHashes {
			if err := push(p); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// touches reports whether c changes a path under one of paths against
// its first parent.
func (r *repo) touches(c *object.Commit, paths []string) (bool, error) {
	chs, err := r.commitChanges(c)
	if err != nil {
		return false, err
	}
	for _, sp := range paths {
		p, ok := r.pathspec(sp)
		if !ok {
			return false, r.outside(sp)
		}
		for _, ch := range chs {
			for _, q := range []string{ch.from, ch.to} {
				if q != "" && (p == "" || q == p || strings.HasPrefix(q, p+"/")) {
					return true, nil
				}
			}
		}
	}
	return false, nil
}

// commitChanges compares a commit with its first parent.
func (r *repo) commitChanges(c *object.Commit) ([]change, error) {
	parent := plumbing.ZeroHash
	if len(c.ParentHashes) > 0 {
		parent = c.ParentHashes[0]
	}
	from, err := r.treeSnapshot(parent)
	if err != nil {
		return nil, err
	}
	to, err := r.treeSnapshot(c.Hash)
	if err != nil {
		return nil, err
	}
	return compare(from, to, true), nil
}

// gitDate formats t as git's default date format.
func gitDate(t time.Time) string { return t.Format("Mon Jan 2 15:04:05 2006 -0700") }

func formatDate(t time.Time, mode string) string {
	switch mode {
	case "short":
		return t.Format("2006-01-02")
	case "iso", "iso8601":
		return t.Format("2006-01-02 15:04:05 -0700")
	case "iso-strict", "iso8601-strict":
		return t.Format("2006-01-02T15:04:05-07:00")
	case "unix":
		return strconv.FormatInt(t.Unix(), 10)
	case "raw":
		return fmt.Sprintf("%d %s", t.Unix(), t.Format("-0700"))
	case "rfc", "rfc2822":
		return t.Format("Mon, 2 Jan 2006 15:04:05 -0700")
	case "relative":
		return relative(t)
	}
	return gitDate(t)
}

func relative(t time.Time) string {
	d := time.Since(t)
	secs := int(d.Seconds())
	switch {
	case secs < 0:
		return "in the future"
	case secs < 90:
		return fmt.Sprintf("%d second%s ago", secs, plural(secs))
	case secs < 90*60:
		m := (secs + 30) / 60
		return fmt.Sprintf("%d minute%s ago", m, plural(m))
	case secs < 36*3600:
		h := (secs + 1800) / 3600
		return fmt.Sprintf("%d hour%s ago", h, plural(h))
	case secs < 14*86400:
		n := (secs + 43200) / 86400
		return fmt.Sprintf("%d day%s ago", n, plural(n))
	case secs < 10*7*86400:
		n := (secs + 3*86400) / (7 * 86400)
		return fmt.Sprintf("%d week%s ago", n, plural(n))
	case secs < 365*86400:
		n := (secs + 15*86400) / (30 * 86400)
		return fmt.Sprintf("%d month%s ago", n, plural(n))
	}
	n := (secs + 183*86400) / (365 * 86400)
	return fmt.Sprintf("%d year%s ago", n, plural(n))
}

// subject is the first paragraph of a message on one line; body the rest.
func subjectBody(msg string) (string, string) {
	msg = strings.TrimLeft(msg, "\n")
	para, rest, _ := strings.Cut(msg, "\n\n")
	subject := strings.ReplaceAll(strings.TrimRight(para, "\n"), "\n", " ")
	return subject, strings.TrimLeft(rest, "\n")
}

// decorations lists the refs pointing at h, as %d and %D show them.
func (r *repo) decorations(h plumbing.Hash) []string {
	var out []string
	headName, onBranch := r.headName()
	head, _ := r.headCommit()
	refs, err := r.r.References()
	if err != nil {
		return nil
	}
	var names []string
	_ = refs.ForEach(func(ref *plumbing.Reference) error {
		if ref.Type() != plumbing.HashReference || ref.Name() == plumbing.HEAD {
			return nil
		}
		target := ref.Hash()
		if ref.Name().IsTag() {
			if t, err := r.r.TagObject(target); err == nil {
				target = t.Target
			}
		}
		if target != h || ref.Name().String() == "refs/stash" {
			return nil
		}
		n := ref.Name().Short()
		if ref.Name().IsTag() {
			n = "tag: " + n
		}
		if onBranch && ref.Name().IsBranch() && n == headName {
			return nil
		}
		names = append(names, n)
		return nil
	})
	sort.Strings(names)
	if head == h {
		if onBranch {
			out = append(out, "HEAD -> "+headName)
		} else {
			out = append(out, "HEAD")
		}
	}
	// branches, then remote branches, then tags, as git sorts them
	var branches, remotes, tags []string
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, "tag: "):
			tags = append(tags, n)
		case strings.Contains(n, "/"):
			remotes = append(remotes, n)
		default:
			branches = append(branches, n)
		}
	}
	out = append(out, tags...)
	out = append(out, branches...)
	out = append(out, remotes...)
	return out
}

// decoration is " (HEAD -> master, tag: v1)" when on and there are refs.
func (r *repo) decoration(h plumbing.Hash, on bool) string {
	if !on {
		return ""
	}
	if d := r.decorations(h); len(d) > 0 {
		return " (" + strings.Join(d, ", ") + ")"
	}
	return ""
}

// writeCommit prints one commit in o's format, with its diff when asked.
func (r *repo) writeCommit(w io.Writer, c *object.Commit, o logOpts, first, last bool) error {
	if o.userFmt && o.format == "" {
		// an empty format prints nothing, not even the line before a diff
		if o.showDiff {
			return r.writeCommitDiff(w, c, o, true)
		}
		return nil
	}
	if o.userFmt {
		s := r.expand(o.format, c, o.date)
		if o.separator {
			if !first {
				fmt.Fprint(w, "\n")
			}
			fmt.Fprint(w, s)
		} else {
			fmt.Fprint(w, s+"\n")
		}
		if o.showDiff {
			return r.writeCommitDiff(w, c, o, false)
		}
		return nil
	}
	if !first && o.format != "oneline" {
		fmt.Fprintln(w)
	}
	if o.format == "oneline" {
		subject, _ := subjectBody(c.Message)
		id := c.Hash.String()
		if o.abbrev {
			id = abbrev(c.Hash)
		}
		fmt.Fprintf(w, "%s%s %s\n", id, r.decoration(c.Hash, o.decorate), subject)
	} else {
		fmt.Fprintf(w, "commit %s%s\n", c.Hash, r.decoration(c.Hash, o.decorate))
		if len(c.ParentHashes) > 1 {
			var ps []string
			for _, p := range c.ParentHashes {
				ps = append(ps, abbrev(p))
			}
			fmt.Fprintf(w, "Merge: %s\n", strings.Join(ps, " "))
		}
		fmt.Fprintf(w, "Author: %s <%s>\n", c.Author.Name, c.Author.Email)
		switch o.format {
		case "medium":
			fmt.Fprintf(w, "Date:   %s\n", formatDate(c.Author.When, o.date))
		case "full":
			fmt.Fprintf(w, "Commit: %s <%s>\n", c.Committer.Name, c.Committer.Email)
		case "fuller":
			fmt.Fprintf(w, "AuthorDate: %s\nCommit:     %s <%s>\nCommitDate: %s\n", formatDate(c.Author.When, o.date), c.Committer.Name, c.Committer.Email, formatDate(c.Committer.When, o.date))
		}
		fmt.Fprintln(w)
		msg := strings.TrimRight(c.Message, "\n")
		if o.format == "short" {
			msg, _ = subjectBody(c.Message)
		}
		for _, l := range strings.Split(msg, "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
	if o.showDiff {
		return r.writeCommitDiff(w, c, o, o.format == "oneline")
	}
	return nil
}

func (r *repo) writeCommitDiff(w io.Writer, c *object.Commit, o logOpts, compact bool) error {
	chs, err := r.commitChanges(c)
	if err != nil {
		return err
	}
	if len(c.ParentHashes) > 1 {
		return nil // git shows no diff for a merge by default
	}
	if !compact && len(chs) > 0 {
		fmt.Fprintln(w)
	}
	d := o.diff
	if !d.stat && !d.shortstat && !d.numstat && !d.nameOnly && !d.nameStatus {
		d.patch = true
	}
	return r.writeDiff(w, d, chs, r.blob, r.blob)
}

// expand fills a --format string for c.
func (r *repo) expand(f string, c *object.Commit, dateMode string) string {
	var b strings.Builder
	subject, body := subjectBody(c.Message)
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		two := ""
		if i+1 < len(f) {
			two = f[i : i+2]
		}
		switch {
		case f[i] == 'H':
			b.WriteString(c.Hash.String())
		case f[i] == 'h':
			b.WriteString(abbrev(c.Hash))
		case f[i] == 'T':
			b.WriteString(c.TreeHash.String())
		case f[i] == 't':
			b.WriteString(abbrev(c.TreeHash))
		case f[i] == 'P':
			var ps []string
			for _, p := range c.ParentHashes {
				ps = append(ps, p.String())
			}
			b.WriteString(strings.Join(ps, " "))
		case f[i] == 'p':
			var ps []string
			for _, p := range c.ParentHashes {
				ps = append(ps, abbrev(p))
			}
			b.WriteString(strings.Join(ps, " "))
		case f[i] == 's':
			b.WriteString(subject)
		case f[i] == 'b':
			if body != "" {
				b.WriteString(strings.TrimRight(body, "\n") + "\n")
			}
		case f[i] == 'B':
			b.WriteString(c.Message)
		case f[i] == 'n':
			b.WriteByte('\n')
		case f[i] == '%':
			b.WriteByte('%')
		case f[i] == 'd':
			if d := r.decorations(c.Hash); len(d) > 0 {
				b.WriteString(" (" + strings.Join(d, ", ") + ")")
			}
		case f[i] == 'D':
			b.WriteString(strings.Join(r.decorations(c.Hash), ", "))
		case (f[i] == 'a' || f[i] == 'c') && two != "":
			sig := c.Author
			if f[i] == 'c' {
				sig = c.Committer
			}
			i++
			switch f[i] {
			case 'n':
				b.WriteString(sig.Name)
			case 'e':
				b.WriteString(sig.Email)
			case 'd':
				b.WriteString(formatDate(sig.When, dateMode))
			case 'D':
				b.WriteString(formatDate(sig.When, "rfc"))
			case 't':
				b.WriteString(strconv.FormatInt(sig.When.Unix(), 10))
			case 'i':
				b.WriteString(formatDate(sig.When, "iso"))
			case 'I':
				b.WriteString(formatDate(sig.When, "iso-strict"))
			case 'r':
				b.WriteString(relative(sig.When))
			case 's':
				b.WriteString(formatDate(sig.When, "short"))
			default:
				b.WriteByte('%')
				b.WriteByte(f[i-1])
				b.WriteByte(f[i])
			}
		case f[i] == 'x' && i+2 < len(f):
			if v, err := strconv.ParseUint(f[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
			} else {
				b.WriteString("%x")
			}
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

func cmdShow(e *env, args []string) error {
	o := logOpts{format: "medium", max: -1, diff: diffOpts{context: 3}, showDiff: true}
	o.diff.patch = true
	var revs []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		before := o.diff
		ok, err := o.parse(args, &i)
		if err != nil {
			return err
		}
		if ok {
			if o.diff.stat != before.stat || o.diff.nameOnly != before.nameOnly || o.diff.nameStatus != before.nameStatus || o.diff.numstat != before.numstat || o.diff.shortstat != before.shortstat {
				if a != "-p" {
					o.diff.patch = false
				}
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			return notImpl("show option " + a)
		}
		revs = append(revs, a)
	}
	r, err := e.open()
	if err != nil {
		return err
	}
	if len(revs) == 0 {
		revs = []string{"HEAD"}
	}
	for i, rev := range revs {
		if name, file, ok := strings.Cut(rev, ":"); ok {
			if err := r.showBlob(rev, name, file); err != nil {
				return err
			}
			continue
		}
		h, err := r.r.ResolveRevision(plumbing.Revision(rev))
		if err != nil {
			return badRevision(rev)
		}
		if ref, err := r.r.Reference(plumbing.NewTagReferenceName(rev), false); err == nil {
			th := ref.Hash()
			h = &th
		}
		if t, err := r.r.TagObject(*h); err == nil {
			fmt.Fprintf(e.out, "tag %s\nTagger: %s <%s>\nDate:   %s\n\n%s\n\n", t.Name, t.Tagger.Name, t.Tagger.Email, gitDate(t.Tagger.When), strings.TrimRight(t.Message, "\n"))
			c, err := t.Commit()
			if err != nil {
				return err
			}
			*h = c.Hash
		}
		c, err := r.r.CommitObject(*h)
		if err != nil {
			return badRevision(rev)
		}
		if err := r.writeCommit(e.out, c, o, i == 0, i == len(revs)-1); err != nil {
			return err
		}
	}
	return nil
}

// showBlob prints REV:PATH's content.
func (r *repo) showBlob(arg, rev, file string) error {
	if rev == "" {
		idx, err := r.index()
		if err != nil {
			return err
		}
		e, err := idx.Entry(strings.TrimPrefix(file, "./"))
		if err != nil {
			return fatalf("path '%s' does not exist (neither on disk nor in the index)", file)
		}
		b, err := r.blob(e.Hash)
		if err != nil {
			return err
		}
		_, err = r.out.Write(b)
		return err
	}
	h, err := r.resolve(rev)
	if err != nil {
		return badRevision(arg)
	}
	t, err := r.treeSnapshot(h)
	if err != nil {
		return err
	}
	p := file
	if strings.HasPrefix(file, "./") || strings.HasPrefix(file, "../") {
		q, ok := r.pathspec(file)
		if !ok {
			return r.outside(file)
		}
		p = q
	}
	en, ok := t[path.Clean(p)]
	if !ok {
		return fatalf("path '%s' does not exist in '%s'", p, rev)
	}
	b, err := r.blob(en.hash)
	if err != nil {
		return err
	}
	_, err = r.out.Write(b)
	return err
}
