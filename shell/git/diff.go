package git

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// loader returns a file's content by its entry's hash.
type loader func(plumbing.Hash) ([]byte, error)

// stat is one file's line counts.
type stat struct {
	name          string // as --stat shows it (a rename: "a => b")
	adds, dels    int
	binary        bool
	oldSize, size int
}

func isBinary(b []byte) bool {
	if len(b) > 8000 {
		b = b[:8000]
	}
	return bytes.IndexByte(b, 0) >= 0
}

// lines splits text into lines, each keeping its newline.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	out := strings.SplitAfter(s, "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// op is one line of an edit script: ' ', '-' or '+'.
type op struct {
	kind byte
	text string
}

// editScript diffs two texts by lines.
func editScript(a, b string) []op {
	var ops []op
	for _, d := range diff.Do(a, b) {
		k := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			k = '-'
		case diffmatchpatch.DiffInsert:
			k = '+'
		}
		for _, l := range lines(d.Text) {
			ops = append(ops, op{k, l})
		}
	}
	return ops
}

// diffStats counts each change's added and deleted lines; from loads the
// old side's contents and to the new side's.
func (r *repo) diffStats(chs []change, from, to loader) ([]stat, error) {
	var out []stat
	for _, ch := range chs {
		a, err := from(ch.fromE.hash)
		if err != nil {
			return nil, err
		}
		b, err := to(ch.toE.hash)
		if err != nil {
			return nil, err
		}
		s := stat{name: statName(ch), oldSize: len(a), size: len(b)}
		if isBinary(a) || isBinary(b) {
			s.binary = true
		} else if ch.fromE.hash != ch.toE.hash {
			for _, o := range editScript(string(a), string(b)) {
				switch o.kind {
				case '+':
					s.adds++
				case '-':
					s.dels++
				}
			}
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

// shortStat is " N files changed, X insertions(+), Y deletions(-)".
func shortStat(st []stat) string {
	if len(st) == 0 {
		return ""
	}
	adds, dels := 0, 0
	for _, s := range st {
		adds += s.adds
		dels += s.dels
	}
	out := fmt.Sprintf(" %d file%s changed", len(st), plural(len(st)))
	if adds > 0 || dels == 0 {
		out += fmt.Sprintf(", %d insertion%s(+)", adds, plural(adds))
	}
	if dels > 0 || adds == 0 {
		out += fmt.Sprintf(", %d deletion%s(-)", dels, plural(dels))
	}
	return out + "\n"
}

// writeStat prints --stat: the per-file lines and the summary.
func writeStat(w io.Writer, st []stat) {
	if len(st) == 0 {
		return
	}
	nameW, maxChange, numW := 0, 0, 0
	for _, s := range st {
		nameW = max(nameW, len(s.name))
		maxChange = max(maxChange, s.adds+s.dels)
		if s.binary {
			numW = max(numW, 3)
		}
	}
	numW = max(numW, len(strconv.Itoa(maxChange)))
	// git's default width is 80 columns; the graph takes what is left
	width := 80
	graphW := width - nameW - numW - 6
	if graphW > 40 && maxChange <= 40 {
		graphW = 40
	}
	if nameW > width*5/8 && graphW < 6 {
		graphW = 6
	}
	for _, s := range st {
		if s.binary {
			fmt.Fprintf(w, " %-*s | %*s", nameW, s.name, numW, "Bin")
			if s.oldSize != s.size || true {
				fmt.Fprintf(w, " %d -> %d bytes", s.oldSize, s.size)
			}
			fmt.Fprintln(w)
			continue
		}
		adds, dels := s.adds, s.dels
		if maxChange > graphW && graphW > 0 {
			adds, dels = scale(adds, maxChange, graphW), scale(dels, maxChange, graphW)
		}
		graph := strings.Repeat("+", adds) + strings.Repeat("-", dels)
		line := fmt.Sprintf(" %-*s | %*d", nameW, s.name, numW, s.adds+s.dels)
		if graph != "" {
			line += " " + graph
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprint(w, shortStat(st))
}

// scale is git's scale_linear: at least one column for a non-zero count.
func scale(it, total, width int) int {
	if it == 0 {
		return 0
	}
	return 1 + (it*(width-1))/total
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
	if isBinary(a) || isBinary(b) {
		fmt.Fprintf(w, "Binary files %s and %s differ\n", fromName, toName)
		return
	}
	if len(a) == 0 && len(b) == 0 {
		return
	}
	fmt.Fprintf(w, "--- %s\n+++ %s\n", fromName, toName)
	writeHunks(w, string(a), string(b), context)
}

func short(h plumbing.Hash) string {
	if h.IsZero() {
		return "0000000"
	}
	return abbrev(h)
}

// writeHunks prints the unified hunks between a and b with context lines
// around each change, headed by git's default function line (the nearest
// line above the hunk starting with a letter, '_' or '$').
func writeHunks(w io.Writer, a, b string, context int) {
	ops := editScript(a, b)
	oldLines := lines(a)
	var changes []int
	for i, o := range ops {
		if o.kind != ' ' {
			changes = append(changes, i)
		}
	}
	for k := 0; k < len(changes); {
		start := max(changes[k]-context, 0)
		end := changes[k]
		for k < len(changes) && changes[k]-end <= 2*context+1 {
			end = changes[k]
			k++
		}
		end = min(end+context, len(ops)-1)
		oldStart, newStart := 0, 0
		for _, o := range ops[:start] {
			if o.kind != '+' {
				oldStart++
			}
			if o.kind != '-' {
				newStart++
			}
		}
		oldN, newN := 0, 0
		for _, o := range ops[start : end+1] {
			if o.kind != '+' {
				oldN++
			}
			if o.kind != '-' {
				newN++
			}
		}
		fmt.Fprintf(w, "@@ -%s +%s @@", rangeStr(oldStart, oldN), rangeStr(newStart, newN))
		if fn := funcLine(oldLines, oldStart-1); fn != "" {
			fmt.Fprint(w, " "+fn)
		}
		fmt.Fprintln(w)
		for _, o := range ops[start : end+1] {
			fmt.Fprintf(w, "%c%s", o.kind, o.text)
			if !strings.HasSuffix(o.text, "\n") {
				fmt.Fprint(w, "\n\\ No newline at end of file\n")
			}
		}
	}
}

func rangeStr(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return strconv.Itoa(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// funcLine finds the function line at or above old line i (0-based).
func funcLine(old []string, i int) string {
	for ; i >= 0; i-- {
		l := old[i]
		if l == "" {
			continue
		}
		c := l[0]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' {
			l = strings.TrimRight(l, " \t\r\n")
			if len(l) > 80 {
				l = l[:80]
			}
			return l
		}
	}
	return ""
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
				if s.binary {
					fmt.Fprintf(w, "-\t-\t%s\n", name)
				} else {
					fmt.Fprintf(w, "%d\t%d\t%s\n", s.adds, s.dels, name)
				}
			}
		case o.stat:
			writeStat(w, st)
		default:
			fmt.Fprint(w, shortStat(st))
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
