// Package gitdiff renders differences between two texts as git does:
// unified hunks with git's default function lines (WriteHunks), and the
// --stat and --shortstat summaries of per-file counts.
package gitdiff

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/utils/diff"
	"github.com/sergi/go-diff/diffmatchpatch"
)

// Stat is one file's line counts.
type Stat struct {
	Name          string // as --stat shows it (a rename: "a => b")
	Adds, Dels    int
	Binary        bool
	OldSize, Size int
}

// IsBinary reports whether b looks binary to git: a NUL byte in its
// first 8000 bytes.
func IsBinary(b []byte) bool {
	if len(b) > 8000 {
		b = b[:8000]
	}
	return bytes.IndexByte(b, 0) >= 0
}

// Lines splits text into lines, each keeping its newline.
func Lines(s string) []string {
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
		for _, l := range Lines(d.Text) {
			ops = append(ops, op{k, l})
		}
	}
	return ops
}

// ShortStat is " N files changed, X insertions(+), Y deletions(-)".
func ShortStat(st []Stat) string {
	if len(st) == 0 {
		return ""
	}
	adds, dels := 0, 0
	for _, s := range st {
		adds += s.Adds
		dels += s.Dels
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

// WriteStat prints --stat: the per-file lines and the summary.
func WriteStat(w io.Writer, st []Stat) {
	if len(st) == 0 {
		return
	}
	nameW, maxChange, numW := 0, 0, 0
	for _, s := range st {
		nameW = max(nameW, len(s.Name))
		maxChange = max(maxChange, s.Adds+s.Dels)
		if s.Binary {
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
		if s.Binary {
			fmt.Fprintf(w, " %-*s | %*s", nameW, s.Name, numW, "Bin")
			if s.OldSize != s.Size || true {
				fmt.Fprintf(w, " %d -> %d bytes", s.OldSize, s.Size)
			}
			fmt.Fprintln(w)
			continue
		}
		adds, dels := s.Adds, s.Dels
		if maxChange > graphW && graphW > 0 {
			adds, dels = scale(adds, maxChange, graphW), scale(dels, maxChange, graphW)
		}
		graph := strings.Repeat("+", adds) + strings.Repeat("-", dels)
		line := fmt.Sprintf(" %-*s | %*d", nameW, s.Name, numW, s.Adds+s.Dels)
		if graph != "" {
			line += " " + graph
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprint(w, ShortStat(st))
}

// scale is git's scale_linear: at least one column for a non-zero count.
func scale(it, total, width int) int {
	if it == 0 {
		return 0
	}
	return 1 + (it*(width-1))/total
}

// WriteHunks prints the unified hunks between a and b with context lines
// around each change, headed by git's default function line (the nearest
// line above the hunk starting with a letter, '_' or '$').
func WriteHunks(w io.Writer, a, b string, context int) {
	ops := editScript(a, b)
	oldLines := Lines(a)
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

// Count is the lines added to and deleted from a to make b.
func Count(a, b string) (adds, dels int) {
	for _, o := range editScript(a, b) {
		switch o.kind {
		case '+':
			adds++
		case '-':
			dels++
		}
	}
	return adds, dels
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
