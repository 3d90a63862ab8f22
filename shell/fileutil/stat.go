package fileutil

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() {
	command.Register(posixfs.Strictly(fsStat), "stat")
	command.Register(posixfs.Strictly(fsDu), "du")
}

// fsStatDefault is GNU stat's default format after its first line,
// "  File: NAME" (NAME -> TARGET for a link), whose names are as they are:
// unlike %N's, never quoted.
const fsStatDefault = "  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\nDevice: %Hd,%Ld\tInode: %-11i Links: %h\nAccess: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\nAccess: %x\nModify: %y\nChange: %z\n Birth: %w\n"

// fsStat is stat: the default report, -c/--format FORMAT (with a
// newline), --printf FORMAT (escapes, no newline), -L (follow links), -t
// (terse). Directives: %n %N %s %b %B %o %F %f %a %A %h %i %d %D %u %U %g
// %G %x %X %y %Y %z %Z %w %W %m %t %T %%.
func fsStat(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "Lc:tf", Long: map[string]string{
		"dereference": "L", "format": "c:", "printf": "printf:", "terse": "t", "file-system": "f",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "stat", 1, err)
	}
	deref := false
	format, terse := "", false
	for _, o := range opts {
		switch o.Key {
		case "L":
			deref = true
		case "c":
			format = o.Val + "\n"
		case "printf":
			format = Escapes(o.Val)
		case "t":
			terse = true
		}
	}
	if len(ops) == 0 {
		return cmdutil.Usage(c, "stat", 1, cmdutil.Usagef("missing operand"))
	}
	w := bufio.NewWriter(c.Stdout)
	defer w.Flush()
	loc := Location(c)
	status := 0
	for _, name := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		abs := c.Abs(name)
		var fi fs.FileInfo
		if deref {
			fi, err = c.FS.Stat(abs)
		} else {
			fi, err = posixfs.Lstat(c.FS, abs)
		}
		if err != nil {
			w.Flush()
			posixfs.Warn(c, "stat", "cannot statx %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
			status = 1
			continue
		}
		f := format
		switch {
		case f != "":
		case terse:
			f = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n"
		default:
			f = fsStatDefault
			line := "  File: " + name
			if posixfs.IsSymlink(fi) {
				line += " -> " + LinkTarget(c.FS, abs)
			}
			w.WriteString(line + "\n")
		}
		w.WriteString(fsStatFormat(c, f, name, abs, fi, loc))
	}
	return command.Exit(status)
}

// fsStatFormat expands stat's directives for one file.
func fsStatFormat(c *command.Call, format, name, abs string, fi fs.FileInfo, loc *time.Location) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch != '%' || i+1 >= len(format) {
			b.WriteByte(ch)
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0'", format[j]) >= 0 {
			j++
		}
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.') {
			j++
		}
		if j < len(format) && (format[j] == 'H' || format[j] == 'L') && j+1 < len(format) && strings.IndexByte("dr", format[j+1]) >= 0 {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		spec := format[i+1 : j]
		verb := format[j]
		val, numeric := fsStatValue(c, verb, spec, name, abs, fi, loc)
		if verb == '%' {
			b.WriteByte('%')
		} else if val == "\x00unknown" {
			b.WriteString(format[i : j+1])
		} else {
			spec = strings.TrimRight(spec, "HL")
			b.WriteString(FormatField(spec, val, numeric))
		}
		i = j
	}
	return b.String()
}

// fsFormatField pads val per a printf-style spec ("-10", "05", ".3"),
// as stat's and find's directives do: numbers take the flags 0 + space
// and -, strings only -.
func FormatField(spec, val string, numeric bool) string {
	i := 0
	for i < len(spec) && strings.IndexByte("-+ #0'", spec[i]) >= 0 {
		i++
	}
	flags, rest := spec[:i], spec[i:]
	if numeric && !strings.Contains(rest, ".") {
		if n, err := strconv.ParseInt(val, 10, 64); err == nil {
			return fmt.Sprintf("%"+strings.ReplaceAll(flags, "'", "")+rest+"d", n)
		}
	}
	f := ""
	if strings.Contains(flags, "-") {
		f = "-"
	}
	return fmt.Sprintf("%"+f+rest+"s", val)
}

// fsStatValue is one directive's value, and whether it is a number.
func fsStatValue(c *command.Call, verb byte, spec, name, abs string, fi fs.FileInfo, loc *time.Location) (string, bool) {
	m := fi.Mode()
	ts := func(t time.Time) string { return t.In(loc).Format("2006-01-02 15:04:05.000000000 -0700") }
	switch verb {
	case 'n':
		return name, false
	case 'N':
		if posixfs.IsSymlink(fi) {
			return fsStatQuote(c, name) + " -> " + fsStatQuote(c, LinkTarget(c.FS, abs)), false
		}
		return fsStatQuote(c, name), false
	case 's':
		return strconv.FormatInt(ShownSize(fi), 10), true
	case 'b':
		return strconv.FormatInt(Blocks(fi)*2, 10), true
	case 'B':
		return "512", true
	case 'o':
		return "4096", true
	case 'F':
		return fsFileType(fi), false
	case 'f':
		return strconv.FormatUint(uint64(fsRawMode(m)), 16), false
	case 'a':
		s := strconv.FormatUint(uint64(command.UnixMode(m)), 8)
		if strings.Contains(spec, "#") {
			s = "0" + s
		}
		return s, true
	case 'A':
		return ModeString(m), false
	case 'h':
		return strconv.Itoa(Links(c.FS, abs, fi)), true
	case 'i':
		return "0", true
	case 'd':
		return "0", true
	case 'D':
		return "0", false
	case 'u', 'g':
		_, uid := OwnerOf(fi)
		return strconv.Itoa(uid), true
	case 'U', 'G':
		owner, _ := OwnerOf(fi)
		return owner, false
	case 'x', 'y', 'z':
		return ts(fi.ModTime()), false
	case 'X', 'Y', 'Z':
		return strconv.FormatInt(fi.ModTime().Unix(), 10), true
	case 'w':
		return "-", false
	case 'W':
		return "0", true
	case 'm':
		return "/", false
	case 't', 'T':
		return "0", false
	case '%':
		return "%", false
	}
	return "\x00unknown", false
}

// fsStatQuote quotes a name as stat's %N does (coreutils 9.1): in
// $QUOTING_STYLE's style where that is literal, shell or shell-escape
// (only when needed), else shell-escape-always, its default: always
// quoted, 'plain' too.
func fsStatQuote(c *command.Call, s string) string {
	style, _ := c.Env("QUOTING_STYLE")
	switch style {
	case "literal":
		return s
	case "shell", "shell-escape":
		return quotearg.Name(s)
	}
	return quotearg.Quote(s)
}

// fsFileType is stat's %F: the name of find's -type letter.
func fsFileType(fi fs.FileInfo) string {
	if name, ok := fsTypeNames[TypeChar(fi)]; ok {
		return name
	}
	if fi.Size() == 0 {
		return "regular empty file"
	}
	return "regular file"
}

var fsTypeNames = map[byte]string{
	'd': "directory",
	'l': "symbolic link",
	'p': "fifo",
	's': "socket",
	'c': "character special file",
	'b': "block special file",
}

// fsRawMode is st_mode: the file type bits and the permissions.
func fsRawMode(m fs.FileMode) uint32 {
	t := uint32(0o100000)
	switch {
	case m.IsDir():
		t = 0o040000
	case m&fs.ModeSymlink != 0:
		t = 0o120000
	case m&fs.ModeNamedPipe != 0:
		t = 0o010000
	case m&fs.ModeSocket != 0:
		t = 0o140000
	case m&fs.ModeCharDevice != 0:
		t = 0o020000
	case m&fs.ModeDevice != 0:
		t = 0o060000
	}
	return t | command.UnixMode(m)
}

// fsEscapes interprets the backslash escapes of stat --printf and find
// -printf: \n \t \\ \" \a \b \f \r \v \0 and \NNN (octal).
func Escapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\':
			b.WriteByte('\\')
		case '"':
			b.WriteByte('"')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j, v := i, 0
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				v = v*8 + int(s[j]-'0')
				j++
			}
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

type fsDuOpts struct {
	all, summarize, human, total, apparent bool
	unit                                   int64 // bytes per unit shown
	maxDepth                               int   // -1: no limit
}

// fsDu is du: disk use in KiB blocks of 4 KiB-block files, folders after
// their content; -s, -a, -h, -b (bytes, apparent), -k, -m, -c, -d N /
// --max-depth=N, --apparent-size, -x (accepted).
func fsDu(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "sahbkmcd:xLlS", Long: map[string]string{
		"summarize": "s", "all": "a", "human-readable": "h", "bytes": "b", "total": "c",
		"max-depth": "d:", "apparent-size": "apparent", "one-file-system": "x", "dereference": "L",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "du", 1, err)
	}
	o := fsDuOpts{unit: 1024, maxDepth: -1}
	for _, op := range opts {
		switch op.Key {
		case "s":
			o.summarize = true
		case "a":
			o.all = true
		case "h":
			o.human = true
		case "b":
			o.apparent, o.unit = true, 1
		case "k":
			o.unit = 1024
		case "m":
			o.unit = 1 << 20
		case "c":
			o.total = true
		case "apparent":
			o.apparent = true
		case "d":
			n, err := strconv.Atoi(op.Val)
			if err != nil || n < 0 {
				posixfs.Warn(c, "du", "invalid maximum depth %s", quotearg.Quote(op.Val))
				return command.Exit(1)
			}
			o.maxDepth = n
		}
	}
	if o.summarize {
		o.maxDepth = 0
	}
	if len(ops) == 0 {
		ops = []string{"."}
	}
	w := bufio.NewWriter(c.Stdout)
	defer w.Flush()
	status := 0
	var grand int64
	for _, name := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, ok := fsDuWalk(ctx, c, w, &o, name, c.Abs(name), 0)
		if !ok {
			status = 1
		}
		grand += n
	}
	if o.total {
		fmt.Fprintf(w, "%s\ttotal\n", o.format(grand))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return command.Exit(status)
}

func (o *fsDuOpts) size(fi fs.FileInfo) int64 {
	if o.apparent {
		return ShownSize(fi)
	}
	return Blocks(fi) * 1024
}

func (o *fsDuOpts) format(n int64) string {
	if o.human {
		return Human(n)
	}
	return strconv.FormatInt((n+o.unit-1)/o.unit, 10)
}

// fsDuWalk sums name (at abs), printing per o, and returns its bytes.
func fsDuWalk(ctx context.Context, c *command.Call, w *bufio.Writer, o *fsDuOpts, name, abs string, depth int) (int64, bool) {
	fi, err := posixfs.Lstat(c.FS, abs)
	if err != nil {
		w.Flush()
		posixfs.Warn(c, "du", "cannot access %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
		return 0, false
	}
	show := o.maxDepth < 0 || depth <= o.maxDepth
	n := o.size(fi)
	if !fi.IsDir() {
		if depth == 0 || (o.all && show) {
			fmt.Fprintf(w, "%s\t%s\n", o.format(n), name)
		}
		return n, true
	}
	ok := true
	list, err := posixfs.ReadDir(c.FS, abs)
	if err != nil {
		w.Flush()
		posixfs.Warn(c, "du", "cannot read directory %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
		ok = false
	}
	for _, e := range list {
		if ctx.Err() != nil {
			return n, false
		}
		k, kok := fsDuWalk(ctx, c, w, o, posixfs.Join(name, e.Name()), abs+"/"+e.Name(), depth+1)
		n += k
		ok = ok && kok
	}
	if show {
		fmt.Fprintf(w, "%s\t%s\n", o.format(n), name)
	}
	return n, ok
}

// fsTypeChar is find's -type letter for a file.
func TypeChar(fi fs.FileInfo) byte {
	m := fi.Mode()
	switch {
	case m.IsDir():
		return 'd'
	case m&fs.ModeSymlink != 0:
		return 'l'
	case m&fs.ModeNamedPipe != 0:
		return 'p'
	case m&fs.ModeSocket != 0:
		return 's'
	case m&fs.ModeCharDevice != 0:
		return 'c'
	case m&fs.ModeDevice != 0:
		return 'b'
	}
	return 'f'
}
