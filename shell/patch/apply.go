package patch

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
)

// applyFile applies fp to name (or the file its header names) and returns
// the exit status it earns: 0, or 1 when a hunk failed or the file was
// skipped.
func applyFile(ctx context.Context, c *command.Call, o options, fp *filePatch, name string) int {
	out := c.Stdout
	hunks := fp.hunks
	if o.reverse {
		hunks = make([]*hunk, len(fp.hunks))
		for i, h := range fp.hunks {
			hunks[i] = reversed(h)
		}
	}
	oldName, newName := fp.oldName, fp.newName
	if o.reverse {
		oldName, newName = newName, oldName
	}
	creating := oldName == "/dev/null"
	deleting := newName == "/dev/null"
	if name == "" {
		strip := max(o.strip, 0)
		for _, cand := range []string{oldName, newName} {
			if cand == "/dev/null" {
				continue
			}
			s := stripName(cand, strip)
			if s == "" {
				continue
			}
			if _, err := c.FS.Stat(c.Abs(s)); err == nil {
				name = s
				break
			}
		}
		if name == "" && creating {
			name = stripName(newName, strip)
		}
	}
	plural := func(n int, word string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, word)
		}
		return fmt.Sprintf("%d %ss", n, word)
	}
	abs := c.Abs(name)
	data, err := readFile(c, abs)
	if name == "" || (err != nil && !creating) {
		fmt.Fprintf(out, "can't find file to patch at input line %d\n", fp.line+2)
		fmt.Fprintln(out, "Perhaps you should have used the -p or --strip option?")
		fmt.Fprintln(out, "The text leading up to this was:\n--------------------------")
		for _, l := range strings.SplitAfter(strings.TrimSuffix(fp.header, "\n"), "\n") {
			fmt.Fprintf(out, "|%s", strings.TrimSuffix(l, "\n")+"\n")
		}
		fmt.Fprintln(out, "--------------------------\nFile to patch: \nSkip this patch? [y] \nSkipping patch.")
		fmt.Fprintf(out, "%d out of %s ignored\n", len(hunks), plural(len(hunks), "hunk"))
		return 1
	}
	lines, finalNL := splitLines(string(data))
	verb := "patching"
	if o.dry {
		verb = "checking"
	}
	if !o.silent {
		fmt.Fprintf(out, "%s file %s\n", verb, name)
	}
	// A first hunk that does not apply but applies reversed: the patch was
	// applied already (or is reversed).
	if len(hunks) > 0 && len(data) > 0 && !creating {
		if _, _, ok := find(lines, hunks[0], 0, 0, 0); !ok {
			if _, _, rok := find(lines, reversed(hunks[0]), 0, 0, 0); rok {
				word := "Reversed (or previously applied)"
				if o.reverse {
					word = "Unreversed"
				}
				switch {
				case o.forward:
					fmt.Fprintf(out, "%s patch detected!  Skipping patch.\n", word)
				case o.reverse:
					fmt.Fprintf(out, "%s patch detected!  Ignore -R? [n] \nApply anyway? [n] \nSkipping patch.\n", word)
				default:
					fmt.Fprintf(out, "%s patch detected!  Assume -R? [n] \nApply anyway? [n] \nSkipping patch.\n", word)
				}
				msg := fmt.Sprintf("%d out of %s ignored", len(hunks), plural(len(hunks), "hunk"))
				if !o.dry {
					msg += " -- saving rejects to file " + name + ".rej"
					_ = writeFile(c, abs+".rej", []byte(rejects(fp, o, hunks)))
				}
				fmt.Fprintln(out, msg)
				return 1
			}
		}
	}
	var result []string
	var failed []*hunk
	pos, mismatch, delta := 0, false, 0
	for k, h := range hunks {
		if ctx.Err() != nil {
			return 1
		}
		at, fuzz, ok := 0, 0, false
		for f := 0; f <= maxFuzz && !ok; f++ {
			at, fuzz, ok = find(lines, h, pos, f, k)
		}
		if !ok {
			failed = append(failed, h)
			mismatch = true
			if !o.silent {
				fmt.Fprintf(out, "Hunk #%d FAILED at %d.\n", k+1, max(h.oldStart, 1))
			}
			continue
		}
		old, _ := sides(h)
		// The context comes from the file (with fuzz, the lines the patch
		// did not match are kept as they are).
		var neu []string
		fi := at
		for _, l := range h.lines {
			switch l[0] {
			case ' ':
				if fi < len(lines) {
					neu = append(neu, lines[fi])
				} else {
					neu = append(neu, l[1:])
				}
				fi++
			case '-':
				fi++
			case '+':
				neu = append(neu, l[1:])
			}
		}
		offset := at - max(h.oldStart-1, 0)
		if (offset != 0 || fuzz != 0) && !o.silent {
			// GNU reports where the hunk lands in the new file.
			msg := fmt.Sprintf("Hunk #%d succeeded at %d", k+1, at+1+delta)
			if fuzz > 0 {
				msg += fmt.Sprintf(" with fuzz %d", fuzz)
			}
			if offset != 0 {
				msg += " (offset " + plural(abs1(offset), "line") + ")"
			}
			fmt.Fprintln(out, msg+".")
		}
		if offset != 0 || fuzz != 0 {
			mismatch = true
		}
		result = append(result, lines[pos:at]...)
		result = append(result, neu...)
		delta += len(neu) - len(old)
		pos = at + len(old)
		if pos >= len(lines) {
			if h.noNLNew {
				finalNL = false
			} else if len(neu) > 0 {
				finalNL = true
			}
		}
	}
	result = append(result, lines[pos:]...)
	if len(failed) > 0 {
		msg := fmt.Sprintf("%s out of %s FAILED", strings.Fields(plural(len(failed), "x"))[0], plural(len(hunks), "hunk"))
		if !o.dry {
			msg += " -- saving rejects to file " + name + ".rej"
		}
		fmt.Fprintln(out, msg)
	}
	if o.dry {
		if len(failed) > 0 {
			return 1
		}
		return 0
	}
	if (mismatch || o.backup) && len(data) > 0 {
		_ = writeFile(c, abs+".orig", data)
	}
	if len(failed) > 0 {
		_ = writeFile(c, abs+".rej", []byte(rejects(fp, o, failed)))
	}
	text := strings.Join(result, "\n")
	if len(result) > 0 && finalNL {
		text += "\n"
	}
	if deleting && text == "" {
		if err := c.FS.Remove(abs); err != nil {
			fmt.Fprintf(c.Stderr, "patch: **** Can't remove file %s : %s\n", name, errText(err))
			return 2
		}
	} else {
		if creating {
			_ = c.FS.MkdirAll(path.Dir(abs), 0o755)
		}
		if err := writeFile(c, abs, []byte(text)); err != nil {
			fmt.Fprintf(c.Stderr, "patch: **** Can't create file %s : %s\n", name, errText(err))
			return 2
		}
	}
	if len(failed) > 0 {
		return 1
	}
	return 0
}

func abs1(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// splitLines splits text into lines and says whether it ended in a
// newline.
func splitLines(text string) ([]string, bool) {
	if text == "" {
		return nil, true
	}
	final := strings.HasSuffix(text, "\n")
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n"), final
}

// sides are a hunk's old and new lines.
func sides(h *hunk) (old, neu []string) {
	for _, l := range h.lines {
		switch l[0] {
		case ' ':
			old = append(old, l[1:])
			neu = append(neu, l[1:])
		case '-':
			old = append(old, l[1:])
		case '+':
			neu = append(neu, l[1:])
		}
	}
	return old, neu
}

// find looks for h's old lines in lines at or after from, nearest to
// where its header says first, with fuzz lines of leading and trailing
// context ignored. It returns where the old lines (the ignored context
// included) start.
func find(lines []string, h *hunk, from, fuzz, _ int) (int, int, bool) {
	old, _ := sides(h)
	lead, trail := 0, 0
	for lead < len(h.lines) && h.lines[lead][0] == ' ' {
		lead++
	}
	for trail < len(h.lines) && h.lines[len(h.lines)-1-trail][0] == ' ' {
		trail++
	}
	cutLead, cutTrail := min(fuzz, lead), min(fuzz, trail)
	if fuzz > 0 && (cutLead == 0 && cutTrail == 0 || cutLead+cutTrail >= len(old)) {
		return 0, 0, false
	}
	want := old[cutLead : len(old)-cutTrail]
	expect := max(h.oldStart-1, 0) + cutLead
	matches := func(at int) bool {
		if at < 0 || at+len(want) > len(lines) {
			return false
		}
		for i, w := range want {
			if lines[at+i] != w {
				return false
			}
		}
		return true
	}
	if len(want) == 0 {
		return max(expect-cutLead, from), fuzz, expect <= len(lines)
	}
	for d := 0; d <= len(lines); d++ {
		for _, at := range []int{expect + d, expect - d} {
			if at-cutLead >= from && matches(at) {
				return at - cutLead, fuzz, true
			}
			if d == 0 {
				break
			}
		}
	}
	return 0, 0, false
}

// reversed is h undone: its + and - lines and ranges swapped.
func reversed(h *hunk) *hunk {
	r := &hunk{oldStart: h.newStart, oldLines: h.newLines, newStart: h.oldStart, newLines: h.oldLines,
		noNLOld: h.noNLNew, noNLNew: h.noNLOld, text: h.text}
	for _, l := range h.lines {
		switch l[0] {
		case '-':
			l = "+" + l[1:]
		case '+':
			l = "-" + l[1:]
		}
		r.lines = append(r.lines, l)
	}
	return r
}

// rejects is a .rej file of hunks of fp: the header names stripped as -p
// says, then the hunks as the patch wrote them.
func rejects(fp *filePatch, o options, hunks []*hunk) string {
	var b strings.Builder
	switch {
	case fp.context:
		fmt.Fprintf(&b, "*** %s\n--- %s\n", stripName(fp.oldName, max(o.strip, 0)), stripName(fp.newName, max(o.strip, 0)))
	case fp.normal:
	default:
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", stripName(fp.oldName, max(o.strip, 0)), stripName(fp.newName, max(o.strip, 0)))
	}
	for _, h := range hunks {
		b.WriteString(h.text)
	}
	return b.String()
}
