package fileutil

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

func init() { command.Register(posixfs.Strictly(fsTree), "tree") }

type treeOpts struct {
	all, dirsOnly, full, classify, noIndent, size, human, perm bool
	dirsFirst, noReport, reverse, unsorted, version, follow    bool
	ascii                                                      bool // lines of ASCII: |-- `-- |
	level                                                      int  // 0: no limit
	exclude, include                                           []func(string) bool
}

const treeUsage = "usage: tree [-acdfghilnpqrstuvxACDFJQNSUX] [-L level [-R]] [-H  baseHREF]\n" +
	"\t[-T title] [-o filename] [-P pattern] [-I pattern] [--gitignore]\n" +
	"\t[--gitfile[=]file] [--matchdirs] [--metafirst] [--ignore-case]\n" +
	"\t[--nolinks] [--hintro[=]file] [--houtro[=]file] [--inodes] [--device]\n" +
	"\t[--sort[=]<name>] [--dirsfirst] [--filesfirst] [--filelimit #] [--si]\n" +
	"\t[--du] [--prune] [--charset[=]X] [--timefmt[=]format] [--fromfile]\n" +
	"\t[--fflinks] [--info] [--infofile[=]file] [--noreport] [--version]\n" +
	"\t[--help] [--] [directory ...]\n"

// fsTree is tree 2.1's listing: each folder operand (. by default) and
// what is under it, drawn with ├── │ └──, sorted by name (bytes, as in the
// C locale), hidden names left out unless -a, and "N directories, M files"
// after (the operands counted, a link to a folder counted as one and not
// followed unless -l). Options: -a, -d, -f (paths), -F (/ * | = after
// names), -i (no lines), -l, -L LEVEL, -I PATTERN and -P PATTERN (shell
// patterns on names, alternatives split by |; -P keeps folders), -p, -s,
// -h ([mode size]), -r, -U, -v (version order), --dirsfirst, --noreport;
// -n, -C and --charset are accepted (no colours: the output is no
// terminal).
func fsTree(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "adfFilL:I:P:pshrUvnCNQq", Long: map[string]string{
		"dirsfirst": "dirsfirst", "noreport": "noreport", "charset": "charset:", "version": "V", "help": "help",
	}}, args[1:])
	if err != nil {
		arg := strings.TrimPrefix(err.Error(), "unrecognized option ")
		fmt.Fprintf(c.Stderr, "tree: Invalid argument `%s'.\n%s", strings.Trim(arg, "'`"), treeUsage)
		return command.Exit(1)
	}
	o := &treeOpts{}
	charset, _ := c.Env("TREE_CHARSET")
	for _, op := range opts {
		switch op.Key {
		case "a":
			o.all = true
		case "d":
			o.dirsOnly = true
		case "f":
			o.full = true
		case "F":
			o.classify = true
		case "i":
			o.noIndent = true
		case "l":
			o.follow = true
		case "L":
			n, err := strconv.Atoi(op.Val)
			if err != nil || n < 1 {
				fmt.Fprintln(c.Stderr, "tree: Invalid level, must be greater than 0.")
				return command.Exit(1)
			}
			o.level = n
		case "I", "P":
			rxs := treePatterns(op.Val)
			if op.Key == "I" {
				o.exclude = append(o.exclude, rxs...)
			} else {
				o.include = append(o.include, rxs...)
			}
		case "p":
			o.perm = true
		case "s":
			o.size = true
		case "h":
			o.human = true
		case "r":
			o.reverse = true
		case "U":
			o.unsorted = true
		case "v":
			o.version = true
		case "dirsfirst":
			o.dirsFirst = true
		case "noreport":
			o.noReport = true
		case "charset":
			charset = op.Val
		case "V":
			fmt.Fprintln(c.Stdout, "tree v2.1.0 © 1996 - 2022 by Steve Baker, Thomas Moore, Francesc Rocher, Florian Sesser, Kyosuke Tokoro")
			return nil
		case "help":
			fmt.Fprint(c.Stdout, treeUsage)
			return nil
		}
	}
	if charset == "" {
		charset = treeLocaleCharset(c)
	}
	o.ascii = !strings.EqualFold(strings.ReplaceAll(charset, "-", ""), "utf8")
	if len(ops) == 0 {
		ops = []string{"."}
	}
	t := &treeRun{ctx: ctx, c: c, o: o, w: c.Stdout, seen: map[string]bool{}}
	status := 0
	for _, root := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !t.root(root) {
			status = 2
		}
	}
	if !o.noReport {
		d, f := "directories", "files"
		if t.dirs == 1 {
			d = "directory"
		}
		if t.files == 1 {
			f = "file"
		}
		if o.dirsOnly {
			fmt.Fprintf(t.w, "\n%d %s\n", t.dirs, d)
		} else {
			fmt.Fprintf(t.w, "\n%d %s, %d %s\n", t.dirs, d, t.files, f)
		}
	}
	if status != 0 {
		return command.Exit(status)
	}
	return nil
}

// treeLocaleCharset is the character set of the locale the environment
// names (LC_ALL, else LC_CTYPE, else LANG): "UTF-8" where it says so, else
// "ASCII" (the C locale's).
func treeLocaleCharset(c *command.Call) string {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v, ok := c.Env(k); ok && v != "" {
			l := strings.ToLower(v)
			if strings.Contains(l, "utf-8") || strings.Contains(l, "utf8") {
				return "UTF-8"
			}
			return "ASCII"
		}
	}
	return "ASCII"
}

// treePatterns compiles a -I or -P pattern: shell patterns on a name,
// alternatives split by |.
func treePatterns(p string) []func(string) bool {
	var out []func(string) bool
	for _, alt := range strings.Split(p, "|") {
		out = append(out, cmdutil.Matcher(alt, 0))
	}
	return out
}

func treeMatch(matchers []func(string) bool, name string) bool {
	for _, m := range matchers {
		if m(name) {
			return true
		}
	}
	return false
}

type treeRun struct {
	seen        map[string]bool // the folders listed, by real path (with -l)
	ctx         context.Context
	c           *command.Call
	o           *treeOpts
	w           io.Writer
	dirs, files int
}

// treeEntry is one name in a folder's listing.
type treeEntry struct {
	name string
	abs  string
	fi   fs.FileInfo // lstat's
	dir  bool        // a folder, or a link to one
}

// root lists one operand; false when it could not be opened.
func (t *treeRun) root(name string) bool {
	abs := t.c.Abs(name)
	fi, err := t.c.FS.Stat(abs)
	if err != nil {
		fmt.Fprintf(t.w, "%s  [error opening dir]\n", name)
		return false
	}
	if !fi.IsDir() {
		fmt.Fprintf(t.w, "%s%s  [error opening dir]\n", t.info(fi), name)
		t.files++
		return true
	}
	shown := name
	if t.o.classify && !strings.HasSuffix(shown, "/") {
		shown += "/"
	}
	fmt.Fprintln(t.w, t.info(fi)+shown)
	t.markSeen(abs)
	if t.list(abs, name, "", 1) > 0 {
		t.dirs++ // an operand is counted when something is listed under it, as tree 2.1 does
	}
	return true
}

// list prints the entries of the folder abs (shown as rel for -f) at
// depth, each line after prefix, and returns how many it printed there.
func (t *treeRun) list(abs, rel, prefix string, depth int) int {
	if t.o.level > 0 && depth > t.o.level || t.ctx.Err() != nil {
		return 0
	}
	entries, err := t.read(abs)
	if err != nil {
		return 0
	}
	for i, e := range entries {
		last := i == len(entries)-1
		branch, next := "├── ", "│   "
		if last {
			branch, next = "└── ", "    "
		}
		if t.o.ascii {
			branch, next = "|-- ", "|   "
			if last {
				branch, next = "`-- ", "    "
			}
		}
		if t.o.noIndent {
			branch, next = "", ""
		}
		shown := e.name
		if t.o.full {
			shown = path.Join(rel, e.name)
			if rel == "." {
				shown = "./" + e.name
			}
		}
		line := prefix + branch + t.info(e.fi) + shown
		isLink := posixfs.IsSymlink(e.fi)
		if isLink {
			target := LinkTarget(t.c.FS, e.abs)
			line += " -> " + target
			if t.o.classify {
				if fi, err := t.c.FS.Stat(e.abs); err == nil {
					line += treeClass(fi)
				}
			}
		} else if t.o.classify {
			line += treeClass(e.fi)
		}
		if e.dir {
			t.dirs++
		} else {
			t.files++
		}
		descend := e.dir && (!isLink || t.o.follow)
		if descend && isLink {
			// -l: a link to a folder listed already is not followed
			if real, err := posixfs.Realpath(t.c.FS, e.abs, true); err != nil || t.seen[real] {
				line += "  [recursive, not followed]"
				descend = false
			}
		}
		if descend {
			t.markSeen(e.abs)
		}
		fmt.Fprintln(t.w, line)
		if descend {
			t.list(e.abs, path.Join(rel, e.name), prefix+next, depth+1)
		}
	}
	return len(entries)
}

// markSeen records the folder abs as listed, for -l (and only with it:
// resolving every folder's path costs a walk of it).
func (t *treeRun) markSeen(abs string) {
	if !t.o.follow {
		return
	}
	if real, err := posixfs.Realpath(t.c.FS, abs, true); err == nil {
		t.seen[real] = true
	}
}

// read lists the folder abs as tree shows it: filtered and sorted.
func (t *treeRun) read(abs string) ([]treeEntry, error) {
	infos, err := posixfs.ReadDir(t.c.FS, abs) // lstat's, by name
	if err != nil {
		return nil, err
	}
	var out []treeEntry
	for _, fi := range infos {
		name := fi.Name()
		if name == "." || name == ".." || !t.o.all && strings.HasPrefix(name, ".") {
			continue
		}
		e := treeEntry{name: name, abs: path.Join(abs, name), fi: fi, dir: fi.IsDir()}
		if posixfs.IsSymlink(fi) {
			if st, err := t.c.FS.Stat(e.abs); err == nil && st.IsDir() {
				e.dir = true
			}
		}
		switch {
		case t.o.dirsOnly && !e.dir:
			continue
		case treeMatch(t.o.exclude, name):
			continue
		case len(t.o.include) > 0 && !(fi.IsDir() && !posixfs.IsSymlink(fi)) && !treeMatch(t.o.include, name):
			continue
		}
		out = append(out, e)
	}
	if !t.o.unsorted {
		slices.SortStableFunc(out, func(a, b treeEntry) int {
			if t.o.dirsFirst && a.dir != b.dir {
				if a.dir {
					return -1
				}
				return 1
			}
			n := strings.Compare(a.name, b.name)
			if t.o.version {
				n = cmdutil.VersionCompare([]byte(a.name), []byte(b.name))
			}
			if t.o.reverse {
				n = -n
			}
			return n
		})
	}
	return out, nil
}

// info is the "[mode size]  " before a name with -p, -s and -h.
func (t *treeRun) info(fi fs.FileInfo) string {
	var parts []string
	if t.o.perm {
		parts = append(parts, ModeString(fi.Mode()))
	}
	switch {
	case t.o.human:
		parts = append(parts, fmt.Sprintf("%4s", Human(ShownSize(fi))))
	case t.o.size:
		parts = append(parts, fmt.Sprintf("%11d", ShownSize(fi)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "[" + strings.Join(parts, " ") + "]  "
}

// treeClass is -F's mark after a name: / for a folder, * for an
// executable file, | for a FIFO, = for a socket.
func treeClass(fi fs.FileInfo) string {
	m := fi.Mode()
	switch {
	case m.IsDir():
		return "/"
	case m&fs.ModeNamedPipe != 0:
		return "|"
	case m&fs.ModeSocket != 0:
		return "="
	case m.IsRegular() && m&0o111 != 0:
		return "*"
	}
	return ""
}
