// Package patch is GNU patch for unified, context (diff -c) and normal
// diffs: -p N, -R, --dry-run, -i FILE, -N, -s, -b, hunks found at an
// offset or with fuzz (up to 2 lines of context), reported as GNU patch
// 2.7 reports them, rejects saved to FILE.rej, a backup FILE.orig when a
// hunk did not apply exactly. Ed scripts are refused with a clear error. It
// answers GNU's questions as GNU does when there is no terminal: no file to
// patch is skipped, a reversed (or already applied) patch is not applied.
// Importing the package registers it (shell/command).
package patch

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(patch, "patch") }

// maxFuzz is GNU's default fuzz factor.
const maxFuzz = 2

type hunk struct {
	oldStart, oldLines, newStart, newLines int
	lines                                  []string // with their ' ', '-', '+' marks
	noNLOld, noNLNew                       bool     // "\ No newline at end of file"
	text                                   string   // as written, for a .rej
}

type filePatch struct {
	oldName, newName string
	header           string // the --- and +++ lines
	hunks            []*hunk
	line             int  // where its header starts in the input
	context          bool // a context diff (diff -c)
	normal           bool // a normal diff (no header, no context)
}

type options struct {
	strip                         int
	reverse, dry, forward, silent bool
	backup                        bool
}

func patch(ctx context.Context, c *command.Call, args []string) error {
	o := options{strip: -1}
	input := ""
	var ops []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-p") && len(a) > 2:
			n, err := strconv.Atoi(a[2:])
			if err != nil || n < 0 {
				return c.Errorf(2, "patch", "**** strip count %s is not a number", a[2:])
			}
			o.strip = n
		case a == "-p" || a == "--strip":
			if i+1 < len(args) {
				i++
				n, err := strconv.Atoi(args[i])
				if err != nil || n < 0 {
					return c.Errorf(2, "patch", "**** strip count %s is not a number", args[i])
				}
				o.strip = n
			}
		case strings.HasPrefix(a, "--strip="):
			n, err := strconv.Atoi(strings.TrimPrefix(a, "--strip="))
			if err != nil || n < 0 {
				return c.Errorf(2, "patch", "**** strip count %s is not a number", a)
			}
			o.strip = n
		case a == "-R" || a == "--reverse":
			o.reverse = true
		case a == "--dry-run":
			o.dry = true
		case a == "-N" || a == "--forward":
			o.forward = true
		case a == "-s" || a == "--silent" || a == "--quiet":
			o.silent = true
		case a == "-b" || a == "--backup":
			o.backup = true
		case a == "-f" || a == "--force" || a == "-t" || a == "--batch" || a == "-u" || a == "--unified":
		case a == "-i" || a == "--input":
			if i+1 >= len(args) {
				return c.Errorf(2, "patch", "option requires an argument -- 'i'")
			}
			i++
			input = args[i]
		case strings.HasPrefix(a, "--input="):
			input = strings.TrimPrefix(a, "--input=")
		case strings.HasPrefix(a, "-i") && len(a) > 2:
			input = a[2:]
		case a == "-c" || a == "--context" || a == "-n" || a == "--normal":
			// The format is read from the diff itself.
		case a == "-e" || a == "--ed":
			return c.Errorf(2, "patch", "%s: ed scripts are not supported in this sandbox", a)
		case len(a) > 1 && a[0] == '-':
			return c.Errorf(2, "patch", "unsupported option %s (supported: -p N, -R, --dry-run, -i FILE, -N, -s, -b, -f, -t, -u)", a)
		default:
			ops = append(ops, a)
		}
	}
	if input == "" && len(ops) == 2 {
		input = ops[1]
	}
	var data []byte
	var err error
	if input != "" {
		data, err = readFile(c, c.Abs(input))
		if err != nil {
			return c.Errorf(2, "patch", "**** Can't open patch file %s : %s", input, errText(err))
		}
	} else {
		data, err = command.ReadAll(ctx, c.Stdin)
		if err != nil {
			return c.Errorf(2, "patch", "**** read error: %v", err)
		}
	}
	if len(ops) > 0 && len(ops) > 2 {
		return c.Errorf(2, "patch", "**** extra operand %s", ops[2])
	}
	files, err := parse(string(data))
	if err != nil {
		return c.Errorf(2, "patch", "**** %v", err)
	}
	if len(files) == 0 {
		fmt.Fprintln(c.Stderr, "patch: **** Only garbage was found in the patch input.")
		return command.Exit(2)
	}
	status := 0
	for _, fp := range files {
		name := ""
		if len(ops) > 0 {
			name = ops[0]
		}
		if s := applyFile(ctx, c, o, fp, name); s > status {
			status = s
		}
	}
	return command.Exit(status)
}

// parse reads the unified diffs of text.
func parse(text string) ([]*filePatch, error) {
	lines := strings.SplitAfter(text, "\n")
	var files []*filePatch
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if isContextStart(lines, i) {
			fp, next, err := parseContext(lines, i)
			if err != nil {
				return nil, err
			}
			files = append(files, fp)
			i = next - 1
			continue
		}
		if len(files) == 0 {
			fp, next, err := parseNormal(lines, i)
			if err != nil {
				return nil, err
			}
			if fp != nil {
				files = append(files, fp)
				i = next - 1
				continue
			}
		}
		if !strings.HasPrefix(l, "--- ") || i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "+++ ") {
			continue
		}
		fp := &filePatch{oldName: headerName(l[4:]), newName: headerName(lines[i+1][4:]), header: l + lines[i+1], line: i + 1}
		i += 2
		for i < len(lines) && strings.HasPrefix(lines[i], "@@ ") {
			h, next, err := parseHunk(lines, i)
			if err != nil {
				return nil, err
			}
			fp.hunks = append(fp.hunks, h)
			i = next
		}
		i--
		files = append(files, fp)
	}
	return files, nil
}

// headerName is the file name of a ---/+++ line (before a tab and date).
func headerName(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if t := strings.IndexByte(s, '\t'); t >= 0 {
		s = s[:t]
	}
	return strings.TrimSpace(s)
}

// parseHunk reads the hunk whose @@ line is lines[i].
func parseHunk(lines []string, i int) (*hunk, int, error) {
	h := &hunk{}
	head := strings.TrimRight(lines[i], "\r\n")
	var err error
	rng := strings.Fields(strings.TrimPrefix(head, "@@ "))
	if len(rng) < 2 {
		return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i+1, head)
	}
	if h.oldStart, h.oldLines, err = parseRange(rng[0], "-"); err == nil {
		h.newStart, h.newLines, err = parseRange(rng[1], "+")
	}
	if err != nil {
		return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i+1, head)
	}
	start := i
	i++
	oldN, newN := 0, 0
	for i < len(lines) && (oldN < h.oldLines || newN < h.newLines || strings.HasPrefix(lines[i], "\\")) {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "\\"):
			if len(h.lines) > 0 {
				switch h.lines[len(h.lines)-1][0] {
				case '-':
					h.noNLOld = true
				case '+':
					h.noNLNew = true
				default:
					h.noNLOld, h.noNLNew = true, true
				}
			}
		case l == "":
			return nil, 0, fmt.Errorf("unexpected end of file in patch")
		case l == "\n" || l == "\r\n":
			h.lines = append(h.lines, " ")
			oldN++
			newN++
		case l[0] == ' ':
			h.lines = append(h.lines, strings.TrimSuffix(l, "\n"))
			oldN++
			newN++
		case l[0] == '-':
			h.lines = append(h.lines, strings.TrimSuffix(l, "\n"))
			oldN++
		case l[0] == '+':
			h.lines = append(h.lines, strings.TrimSuffix(l, "\n"))
			newN++
		default:
			return nil, 0, fmt.Errorf("malformed patch at line %d: %s", i+1, strings.TrimRight(l, "\n"))
		}
		i++
	}
	if i < len(lines) && strings.HasPrefix(lines[i], "\\") {
		i++
	}
	if oldN != h.oldLines || newN != h.newLines {
		return nil, 0, fmt.Errorf("unexpected end of file in patch")
	}
	h.text = strings.Join(lines[start:i], "")
	return h, i, nil
}

func parseRange(s, sign string) (start, n int, err error) {
	s, ok := strings.CutPrefix(s, sign)
	if !ok {
		return 0, 0, fmt.Errorf("bad range")
	}
	a, b, has := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	n = 1
	if has {
		n, err = strconv.Atoi(b)
	}
	return start, n, err
}

// stripName drops n leading components of name.
func stripName(name string, n int) string {
	if n < 0 {
		return name
	}
	for ; n > 0; n-- {
		i := strings.IndexByte(name, '/')
		if i < 0 {
			return ""
		}
		name = strings.TrimLeft(name[i+1:], "/")
	}
	return name
}

func readFile(c *command.Call, abs string) ([]byte, error) {
	f, err := c.FS.Open(abs)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

func writeFile(c *command.Call, abs string, data []byte) error {
	f, err := c.FS.OpenFile(abs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func errText(err error) string {
	if pe, ok := err.(interface{ Unwrap() error }); ok && pe.Unwrap() != nil {
		err = pe.Unwrap()
	}
	s := err.Error()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
