package diff

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

func init() { command.Register(textDiff, "diff") }

var diffFlags = cmdutil.Flags{
	Short: "abcdiNqrsuU:wC:",
	Long: map[string]string{
		"text": "a", "ignore-space-change": "b", "minimal": "d", "ignore-case": "i",
		"new-file": "N", "brief": "q", "recursive": "r", "report-identical-files": "s",
		"unified": "u::", "ignore-all-space": "w", "label": "label:", "normal": "normal",
		"strip-trailing-cr": "strip-cr", "color": "color::", "no-dereference": "noderef",
		"context": "c::",
	},
}

// diffOptions are one diff run's settings.
type diffOptions struct {
	unified, contextFmt                                    bool
	context                                                int
	brief, identical                                       bool
	newFile, recursive                                     bool
	ignoreCase, ignoreAllSpace, ignoreSpaceChange, stripCR bool
	text, minimal                                          bool
	labels                                                 []string
	switches                                               string // the options as given, for "diff -r" headers
	loc                                                    *time.Location
}

// textDiff is diff: compare files line by line.
//
// Supports the normal format (default), -u/-U N/--unified[=N], the
// context format -c/-C N/--context[=N], -q, -s,
// -r (with "Only in" lines), -N, -i, -w, -b, --strip-trailing-cr, -a,
// -d, --label, --normal and --color=never. The hunks are GNU diff's: its
// matching algorithm is ported (text_diff_algo.go). Exit status 0 when the
// inputs are the same, 1 when they differ, 2 on trouble. Unified headers
// carry the files' modification times.
func textDiff(ctx context.Context, c *command.Call, args []string) error {
	opts, operands, err := cmdutil.Parse(diffFlags, args[1:])
	if err != nil {
		fmt.Fprintf(c.Stderr, "diff: %s\ndiff: Try 'diff --help' for more information.\n", err.Error())
		return command.Exit(2)
	}
	o := &diffOptions{context: 3, loc: time.Local}
	if tz, ok := c.Env("TZ"); ok {
		if loc, err := time.LoadLocation(strings.TrimPrefix(tz, ":")); err == nil {
			o.loc = loc
		}
	}
	var switches []string
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && a != "-" {
			switches = append(switches, a)
		}
	}
	o.switches = strings.Join(switches, " ")
	for _, op := range opts {
		switch op.Key {
		case "a":
			o.text = true
		case "b":
			o.ignoreSpaceChange = true
		case "c", "C":
			o.contextFmt, o.unified = true, false
			if op.Val != "" {
				n, err := strconv.Atoi(op.Val)
				if err != nil || n < 0 {
					return c.Errorf(2, "diff", "invalid context length '%s'", op.Val)
				}
				o.context = n
			}
		case "d":
			o.minimal = true
		case "i":
			o.ignoreCase = true
		case "N":
			o.newFile = true
		case "q":
			o.brief = true
		case "r":
			o.recursive = true
		case "s":
			o.identical = true
		case "u":
			o.unified, o.contextFmt = true, false
			if op.Val != "" {
				n, err := strconv.Atoi(op.Val)
				if err != nil || n < 0 {
					return c.Errorf(2, "diff", "invalid context length '%s'", op.Val)
				}
				o.context = n
			}
		case "U":
			n, err := strconv.Atoi(op.Val)
			if err != nil || n < 0 {
				return c.Errorf(2, "diff", "invalid context length '%s'", op.Val)
			}
			o.unified, o.contextFmt, o.context = true, false, n
		case "w":
			o.ignoreAllSpace = true
		case "label":
			o.labels = append(o.labels, op.Val)
		case "normal":
			o.unified, o.contextFmt = false, false
		case "strip-cr":
			o.stripCR = true
		case "color":
			if op.Val != "" && op.Val != "never" && op.Val != "auto" {
				return c.Errorf(2, "diff", "colors are not supported")
			}
		}
	}
	switch {
	case len(operands) == 0:
		fmt.Fprintf(c.Stderr, "diff: missing operand after 'diff'\ndiff: Try 'diff --help' for more information.\n")
		return command.Exit(2)
	case len(operands) == 1:
		fmt.Fprintf(c.Stderr, "diff: missing operand after %s\ndiff: Try 'diff --help' for more information.\n", cmdutil.Quote(operands[0]))
		return command.Exit(2)
	case len(operands) > 2:
		fmt.Fprintf(c.Stderr, "diff: extra operand %s\ndiff: Try 'diff --help' for more information.\n", cmdutil.Quote(operands[2]))
		return command.Exit(2)
	}
	out := cmdutil.NewOut(c)
	status := diffPaths(ctx, c, out, o, operands[0], operands[1], true)
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "diff", err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return command.Exit(status)
}

// diffStat looks a path up; "-" is standard input (never a folder).
func diffStat(c *command.Call, name string) (fs.FileInfo, error) {
	if name == "-" {
		return nil, nil
	}
	return c.FS.Stat(c.Abs(name))
}

// diffPaths compares two operands (files or folders) and returns the
// status: 0 same, 1 different, 2 trouble.
func diffPaths(ctx context.Context, c *command.Call, out cmdutil.Out, o *diffOptions, a, b string, top bool) int {
	if ctx.Err() != nil {
		return 2
	}
	sa, erra := diffStat(c, a)
	sb, errb := diffStat(c, b)
	if top {
		// A file against a folder is the file against the folder's entry.
		if erra == nil && errb == nil {
			if sa != nil && sa.IsDir() && (sb == nil || !sb.IsDir()) && b != "-" {
				a = path.Join(a, path.Base(b))
				sa, erra = diffStat(c, a)
			} else if sb != nil && sb.IsDir() && (sa == nil || !sa.IsDir()) && a != "-" {
				b = path.Join(b, path.Base(a))
				sb, errb = diffStat(c, b)
			}
		}
	}
	missingA, missingB := erra != nil, errb != nil
	if missingA && (!o.newFile || missingB) || missingB && !o.newFile {
		if missingA {
			fmt.Fprintf(c.Stderr, "diff: %s: %s\n", a, cmdutil.ErrText(erra))
		}
		if missingB {
			fmt.Fprintf(c.Stderr, "diff: %s: %s\n", b, cmdutil.ErrText(errb))
		}
		return 2
	}
	dirA := sa != nil && sa.IsDir()
	dirB := sb != nil && sb.IsDir()
	if dirA && dirB || dirA && missingB || dirB && missingA {
		return diffDirs(ctx, c, out, o, a, b, missingA, missingB)
	}
	if dirA != dirB && !missingA && !missingB {
		if !top {
			kind := func(d bool) string {
				if d {
					return "directory"
				}
				return "regular file"
			}
			fmt.Fprintf(out, "File %s is a %s while file %s is a %s\n", a, kind(dirA), b, kind(dirB))
			return 1
		}
		return 2
	}
	return diffFiles(ctx, c, out, o, a, b, sa, sb, missingA, missingB, top)
}

// diffDirs compares two folders' entries, in name order.
func diffDirs(ctx context.Context, c *command.Call, out cmdutil.Out, o *diffOptions, a, b string, missingA, missingB bool) int {
	names := map[string]int{} // bit 1: in a, bit 2: in b
	list := func(dir string, bit int, missing bool) error {
		if missing {
			return nil
		}
		entries, err := diffReadDirNames(c, dir)
		if err != nil {
			return err
		}
		for _, n := range entries {
			names[n] |= bit
		}
		return nil
	}
	if err := list(a, 1, missingA); err != nil {
		fmt.Fprintf(c.Stderr, "diff: %s: %s\n", a, cmdutil.ErrText(err))
		return 2
	}
	if err := list(b, 2, missingB); err != nil {
		fmt.Fprintf(c.Stderr, "diff: %s: %s\n", b, cmdutil.ErrText(err))
		return 2
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	status := 0
	for _, n := range sorted {
		if ctx.Err() != nil {
			return 2
		}
		pa, pb := path.Join(a, n), path.Join(b, n)
		st := 0
		switch names[n] {
		case 3:
			sa, _ := c.FS.Stat(c.Abs(pa))
			sb, _ := c.FS.Stat(c.Abs(pb))
			if sa != nil && sb != nil && sa.IsDir() && sb.IsDir() && !o.recursive {
				fmt.Fprintf(out, "Common subdirectories: %s and %s\n", pa, pb)
				continue
			}
			st = diffPaths(ctx, c, out, o, pa, pb, false)
		case 1, 2:
			if o.newFile {
				st = diffPaths(ctx, c, out, o, pa, pb, false)
				break
			}
			dir := a
			if names[n] == 2 {
				dir = b
			}
			fmt.Fprintf(out, "Only in %s: %s\n", dir, n)
			st = 1
		}
		status = max(status, st)
	}
	return status
}

// diffReadDirNames lists a folder's entry names.
func diffReadDirNames(c *command.Call, dir string) ([]string, error) {
	f, err := c.FS.Open(c.Abs(dir))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// diffRead reads a whole operand; a missing one (with -N) is empty.
func diffRead(ctx context.Context, c *command.Call, name string, missing bool) ([]byte, error) {
	if missing {
		return nil, nil
	}
	r, err := cmdutil.Open(c, name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(posixfs.ContextReader(ctx, r))
}

func diffFiles(ctx context.Context, c *command.Call, out cmdutil.Out, o *diffOptions, a, b string, sa, sb fs.FileInfo, missingA, missingB, top bool) int {
	da, err := diffRead(ctx, c, a, missingA)
	if err != nil {
		fmt.Fprintf(c.Stderr, "diff: %s: %s\n", a, cmdutil.ErrText(err))
		return 2
	}
	db, err := diffRead(ctx, c, b, missingB)
	if err != nil {
		fmt.Fprintf(c.Stderr, "diff: %s: %s\n", b, cmdutil.ErrText(err))
		return 2
	}
	header := func() {
		if !top {
			if o.switches == "" {
				fmt.Fprintf(out, "diff %s %s\n", a, b)
			} else {
				fmt.Fprintf(out, "diff %s %s %s\n", o.switches, a, b)
			}
		}
	}
	if bytes.Equal(da, db) {
		if o.identical {
			fmt.Fprintf(out, "Files %s and %s are identical\n", a, b)
		}
		return 0
	}
	if !o.text && (bytes.IndexByte(diffHead(da), 0) >= 0 || bytes.IndexByte(diffHead(db), 0) >= 0) {
		fmt.Fprintf(out, "Binary files %s and %s differ\n", a, b)
		return 1
	}
	la, lb := diffSplit(da), diffSplit(db)
	ea, eb := o.classes(la, lb)
	horizon := 0
	if o.unified || o.contextFmt {
		horizon = o.context
	}
	script := diffLines(ctx, ea, eb, horizon, o.minimal)
	if ctx.Err() != nil {
		return 2
	}
	if len(script) == 0 {
		if o.identical {
			fmt.Fprintf(out, "Files %s and %s are identical\n", a, b)
		}
		return 0
	}
	if o.brief {
		fmt.Fprintf(out, "Files %s and %s differ\n", a, b)
		return 1
	}
	header()
	switch {
	case o.unified:
		o.writeUnified(out, c, a, b, sa, sb, la, lb, script)
	case o.contextFmt:
		o.writeContext(out, c, a, b, sa, sb, la, lb, script)
	default:
		diffWriteNormal(out, la, lb, script)
	}
	return 1
}

// diffHead is the part of a file looked at for NUL bytes.
func diffHead(b []byte) []byte {
	if len(b) > 32*1024 {
		return b[:32*1024]
	}
	return b
}

// diffSplit splits data into lines, each with its "\n" when it has one.
func diffSplit(data []byte) []string {
	var lines []string
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			lines = append(lines, string(data))
			break
		}
		lines = append(lines, string(data[:i+1]))
		data = data[i+1:]
	}
	return lines
}

// classes gives each line of both files its equivalence class (from 1),
// equal for lines equal under the options.
func (o *diffOptions) classes(la, lb []string) ([]int, []int) {
	ids := map[string]int{}
	conv := func(lines []string) []int {
		out := make([]int, len(lines))
		for i, l := range lines {
			k := o.key(l)
			id, ok := ids[k]
			if !ok {
				id = len(ids) + 1
				ids[k] = id
			}
			out[i] = id
		}
		return out
	}
	return conv(la), conv(lb)
}

// key is a line as compared under -i, -w, -b and --strip-trailing-cr.
func (o *diffOptions) key(l string) string {
	nl := strings.HasSuffix(l, "\n")
	body := strings.TrimSuffix(l, "\n")
	if o.stripCR {
		body = strings.TrimSuffix(body, "\r")
	}
	if o.ignoreCase {
		body = strings.ToLower(body)
	}
	isSpace := func(r rune) bool { return r == ' ' || r == '\t' || r == '\v' || r == '\f' || r == '\r' }
	switch {
	case o.ignoreAllSpace:
		body = strings.Map(func(r rune) rune {
			if isSpace(r) {
				return -1
			}
			return r
		}, body)
	case o.ignoreSpaceChange:
		body = strings.TrimRightFunc(body, isSpace)
		var b strings.Builder
		space := false
		for _, r := range body {
			if isSpace(r) {
				space = true
				continue
			}
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
		body = b.String()
	}
	if nl {
		return body + "\n"
	}
	return body
}

// diffWriteLine writes a line after its prefix, with GNU's note when it
// has no newline.
func diffWriteLine(w io.Writer, prefix, line string) {
	io.WriteString(w, prefix)
	io.WriteString(w, line)
	if !strings.HasSuffix(line, "\n") {
		io.WriteString(w, "\n\\ No newline at end of file\n")
	}
}

// diffRange formats a normal-format range of the 0-based lines
// first..last, or the line before an empty range.
func diffRange(first, last int) string {
	a, b := first+1, last+1
	if b > a {
		return fmt.Sprintf("%d,%d", a, b)
	}
	return strconv.Itoa(b)
}

func diffWriteNormal(w io.Writer, la, lb []string, script []diffChange) {
	for _, ch := range script {
		letter := "c"
		switch {
		case ch.inserted == 0:
			letter = "d"
		case ch.deleted == 0:
			letter = "a"
		}
		fmt.Fprintf(w, "%s%s%s\n", diffRange(ch.line0, ch.line0+ch.deleted-1), letter, diffRange(ch.line1, ch.line1+ch.inserted-1))
		for _, l := range la[ch.line0 : ch.line0+ch.deleted] {
			diffWriteLine(w, "< ", l)
		}
		if ch.deleted > 0 && ch.inserted > 0 {
			io.WriteString(w, "---\n")
		}
		for _, l := range lb[ch.line1 : ch.line1+ch.inserted] {
			diffWriteLine(w, "> ", l)
		}
	}
}

// label is the name and time a unified header shows for a file.
func (o *diffOptions) label(c *command.Call, i int, name string, st fs.FileInfo) string {
	if i < len(o.labels) {
		return o.labels[i]
	}
	t := time.Now()
	switch {
	case st != nil:
		t = st.ModTime()
	case name != "-":
		t = time.Unix(0, 0) // a missing file under -N
	}
	if o.contextFmt {
		// The context format keeps ctime's date, as GNU diff does.
		return name + "\t" + t.In(o.loc).Format("Mon Jan _2 15:04:05 2006")
	}
	return name + "\t" + t.In(o.loc).Format("2006-01-02 15:04:05.000000000 -0700")
}

// diffUnifiedRange formats a unified hunk range of 0-based first..last.
func diffUnifiedRange(first, last int) string {
	a, b := first+1, last+1
	switch {
	case b < a:
		return fmt.Sprintf("%d,0", b)
	case b == a:
		return strconv.Itoa(b)
	}
	return fmt.Sprintf("%d,%d", a, b-a+1)
}

func (o *diffOptions) writeUnified(w io.Writer, c *command.Call, a, b string, sa, sb fs.FileInfo, la, lb []string, script []diffChange) {
	fmt.Fprintf(w, "--- %s\n+++ %s\n", o.label(c, 0, a, sa), o.label(c, 1, b, sb))
	ctxN := o.context
	for start := 0; start < len(script); {
		// A hunk: changes separated by at most 2*context unchanged lines.
		end := start
		for end+1 < len(script) {
			top0 := script[end].line0 + script[end].deleted
			if script[end+1].line0-top0 >= 2*ctxN+1 {
				break
			}
			end++
		}
		first0 := max(script[start].line0-ctxN, 0)
		first1 := max(script[start].line1-ctxN, 0)
		last0 := min(script[end].line0+script[end].deleted-1+ctxN, len(la)-1)
		last1 := min(script[end].line1+script[end].inserted-1+ctxN, len(lb)-1)
		fmt.Fprintf(w, "@@ -%s +%s @@\n", diffUnifiedRange(first0, last0), diffUnifiedRange(first1, last1))
		i, j := first0, first1
		k := start
		for i <= last0 || j <= last1 {
			if k > end || i < script[k].line0 {
				if i >= len(la) {
					break
				}
				diffWriteLine(w, " ", la[i])
				i++
				j++
				continue
			}
			ch := script[k]
			for n := 0; n < ch.deleted; n++ {
				diffWriteLine(w, "-", la[i])
				i++
			}
			for n := 0; n < ch.inserted; n++ {
				diffWriteLine(w, "+", lb[j])
				j++
			}
			k++
		}
		start = end + 1
	}
}

// hunks groups script into hunks as GNU does: changes separated by at
// most 2*context unchanged lines. Each is [start, end] of script.
func (o *diffOptions) hunks(script []diffChange) [][2]int {
	var out [][2]int
	for start := 0; start < len(script); {
		end := start
		for end+1 < len(script) {
			top0 := script[end].line0 + script[end].deleted
			if script[end+1].line0-top0 >= 2*o.context+1 {
				break
			}
			end++
		}
		out = append(out, [2]int{start, end})
		start = end + 1
	}
	return out
}

// writeContext writes script in the context format (diff -c).
func (o *diffOptions) writeContext(w io.Writer, c *command.Call, a, b string, sa, sb fs.FileInfo, la, lb []string, script []diffChange) {
	fmt.Fprintf(w, "*** %s\n--- %s\n", o.label(c, 0, a, sa), o.label(c, 1, b, sb))
	ctxN := o.context
	for _, hk := range o.hunks(script) {
		start, end := hk[0], hk[1]
		first0 := max(script[start].line0-ctxN, 0)
		first1 := max(script[start].line1-ctxN, 0)
		last0 := min(script[end].line0+script[end].deleted-1+ctxN, len(la)-1)
		last1 := min(script[end].line1+script[end].inserted-1+ctxN, len(lb)-1)
		deletes, inserts := false, false
		for _, ch := range script[start : end+1] {
			deletes = deletes || ch.deleted > 0
			inserts = inserts || ch.inserted > 0
		}
		io.WriteString(w, "***************\n")
		fmt.Fprintf(w, "*** %s ****\n", diffRange(first0, last0))
		if deletes {
			k := start
			for i := first0; i <= last0; {
				if k > end || i < script[k].line0 {
					diffWriteLine(w, "  ", la[i])
					i++
					continue
				}
				mark := "- "
				if script[k].inserted > 0 {
					mark = "! "
				}
				for n := 0; n < script[k].deleted; n++ {
					diffWriteLine(w, mark, la[i])
					i++
				}
				k++
			}
		}
		fmt.Fprintf(w, "--- %s ----\n", diffRange(first1, last1))
		if inserts {
			k := start
			for j := first1; j <= last1; {
				if k > end || j < script[k].line1 {
					diffWriteLine(w, "  ", lb[j])
					j++
					continue
				}
				mark := "+ "
				if script[k].deleted > 0 {
					mark = "! "
				}
				for n := 0; n < script[k].inserted; n++ {
					diffWriteLine(w, mark, lb[j])
					j++
				}
				k++
			}
		}
	}
}
