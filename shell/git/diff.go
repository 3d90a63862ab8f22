package git

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/agentenkit/agentenkit/shell/git/gitdiff"
)

// loader returns a file's content by its entry's hash.
type loader func(plumbing.Hash) ([]byte, error)

// diffStats counts each change's added and deleted lines; from loads the
// old side's contents and to the new side's.
func (r *repo) diffStats(chs []change, from, to loader) ([]gitdiff.Stat, error) {
	var out []gitdiff.Stat
	for _, ch := range chs {
		a, err := from(ch.fromE.hash)
		if err != nil {
			return nil, err
		}
		b, err := to(ch.toE.hash)
		if err != nil {
			return nil, err
		}
		s := gitdiff.Stat{Name: statName(ch), OldSize: len(a), Size: len(b)}
		if gitdiff.IsBinary(a) || gitdiff.IsBinary(b) {
			s.Binary = true
		} else if ch.fromE.hash != ch.toE.hash {
			s.Adds, s.Dels = gitdiff.Count(string(a), string(b))
		}
		out = append(out, s)
	}
	return out, nil
}

// statName is a change's name in --stat: "a => b", "dir/{a => b}".
func statName(ch change) string {
	if ch.status != 'R' || ch.from == ch.to {
		return quote(ch.path())
	}
	a, b := ch.from, ch.to
	pre := 0
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '/' {
			pre = i + 1
		}
	}
	suf := 0
	for i := 1; i <= len(a)-pre && i <= len(b)-pre && a[len(a)-i] == b[len(b)-i]; i++ {
		if a[len(a)-i] == '/' {
			suf = i
		}
	}
	if pre == 0 && suf == 0 {
		return a + " => " + b
	}
	return a[:pre] + "{" + a[pre:len(a)-suf] + " => " + b[pre:len(b)-suf] + "}" + a[len(a)-suf:]
}

// writeSummary prints commit's "create mode 100644 a" lines.
func writeSummary(w io.Writer, chs []change) {
	for _, ch := range chs {
		switch ch.status {
		case 'A':
			fmt.Fprintf(w, " create mode %s %s\n", modeString(ch.toE.mode), quote(ch.to))
		case 'D':
			fmt.Fprintf(w, " delete mode %s %s\n", modeString(ch.fromE.mode), quote(ch.from))
		case 'R':
			fmt.Fprintf(w, " rename %s (100%%)\n", statName(ch))
		case 'M':
			if ch.fromE.mode != ch.toE.mode {
				fmt.Fprintf(w, " mode change %s => %s %s\n", modeString(ch.fromE.mode), modeString(ch.toE.mode), quote(ch.to))
			}
		}
	}
}

// writePatch prints a change as git diff does.
func writePatch(w io.Writer, ch change, a, b []byte, context int) {
	from, to := ch.from, ch.to
	if from == "" {
		from = to
	}
	if to == "" {
		to = from
	}
	fmt.Fprintf(w, "diff --git %s %s\n", quote("a/"+from), quote("b/"+to))
	oldMode, newMode := ch.fromE.mode, ch.toE.mode
	idx := fmt.Sprintf("index %s..%s", short(ch.fromE.hash), short(ch.toE.hash))
	switch ch.status {
	case 'A':
		fmt.Fprintf(w, "new file mode %s\n%s\n", modeString(newMode), idx)
	case 'D':
		fmt.Fprintf(w, "deleted file mode %s\n%s\n", modeString(oldMode), idx)
	case 'R':
		fmt.Fprintf(w, "similarity index 100%%\nrename from %s\nrename to %s\n", quote(ch.from), quote(ch.to))
		return
	default:
		if oldMode != newMode {
			fmt.Fprintf(w, "old mode %s\nnew mode %s\n", modeString(oldMode), modeString(newMode))
			if ch.fromE.hash == ch.toE.hash {
				return
			}
			fmt.Fprintln(w, idx)
		} else {
			fmt.Fprintf(w, "%s %s\n", idx, modeString(newMode))
		}
	}
	fromName, toName := quote("a/"+from), quote("b/"+to)
	if ch.status == 'A' {
		fromName = "/dev/null"
	}
	if ch.status == 'D' {
		toName = "/dev/null"
	}
	if gitdiff.IsBinary(a) || gitdiff.IsBinary(b) {
		fmt.Fprintf(w, "Binary files %s and %s differ\n", fromName, toName)
		return
	}
	if len(a) == 0 && len(b) == 0 {
		return
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", fromName, toName)
	gitdiff.WriteHunks(w, string(a), string(b), context)
}

func short(h plumbing.Hash) string {
	if h.IsZero() {
		return "0000000"
	}
	return abbrev(h)
}

// nameStatus is --name-status's letter for a change.
func nameStatus(ch change) string {
	if ch.status == 'R' {
		return fmt.Sprintf("R100\t%s\t%s", quote(ch.from), quote(ch.to))
	}
	return fmt.Sprintf("%c\t%s", ch.status, quote(ch.path()))
}

// diffOpts are the output options diff, show and log -p share.
type diffOpts struct {
	stat, shortstat, numstat, nameOnly, nameStatus, patch, quiet, exitCode bool
	context                                                                int
	summary                                                                bool
}

// parseDiffOpt takes one output option; ok is false when a is not one.
func (o *diffOpts) parse(a string) bool {
	switch {
	case a == "--stat":
		o.stat = true
	case a == "--shortstat":
		o.shortstat = true
	case a == "--numstat":
		o.numstat = true
	case a == "--name-only":
		o.nameOnly = true
	case a == "--name-status":
		o.nameStatus = true
	case a == "-p" || a == "-u" || a == "--patch":
		o.patch = true
	case a == "--quiet":
		o.quiet, o.exitCode = true, true
	case a == "--exit-code":
		o.exitCode = true
	case a == "--summary":
		o.summary = true
	case strings.HasPrefix(a, "-U") && len(a) > 2:
		n, err := strconv.Atoi(a[2:])
		if err != nil {
			return false
		}
		o.context = n
	case strings.HasPrefix(a, "--unified="):
		n, err := strconv.Atoi(strings.TrimPrefix(a, "--unified="))
		if err != nil {
			return false
		}
		o.context = n
	case a == "--no-color" || a == "--color=never" || a == "--no-ext-diff" || a == "--no-renames" && false:
	default:
		return false
	}
	return true
}

// write prints changes in the chosen format; it returns whether there
// were any.
func (r *repo) writeDiff(w io.Writer, o diffOpts, chs []change, from, to loader) error {
	if o.quiet {
		return nil
	}
	switch {
	case o.nameOnly:
		for _, ch := range chs {
			fmt.Fprintln(w, quote(ch.path()))
		}
		return nil
	case o.nameStatus:
		for _, ch := range chs {
			fmt.Fprintln(w, nameStatus(ch))
		}
		return nil
	}
	if o.stat || o.shortstat || o.numstat {
		st, err := r.diffStats(chs, from, to)
		if err != nil {
			return err
		}
		switch {
		case o.numstat:
			for i, s := range st {
				name := quote(chs[i].path())
				if chs[i].status == 'R' {
					name = statName(chs[i])
				}
				if s.Binary {
					fmt.Fprintf(w, "-\t-\t%s\n", name)
				} else {
					fmt.Fprintf(w, "%d\t%d\t%s\n", s.Adds, s.Dels, name)
				}
			}
		case o.stat:
			gitdiff.WriteStat(w, st)
		default:
			fmt.Fprint(w, gitdiff.ShortStat(st))
		}
		if o.summary {
			writeSummary(w, chs)
		}
		if !o.patch {
			return nil
		}
		if len(chs) > 0 {
			fmt.Fprintln(w)
		}
	}
	for _, ch := range chs {
		a, err := from(ch.fromE.hash)
		if err != nil {
			return err
		}
		b, err := to(ch.toE.hash)
		if err != nil {
			return err
		}
		writePatch(w, ch, a, b, o.context)
	}
	return nil
}
