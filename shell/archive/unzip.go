package archive

import (
	"archive/zip"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

func init() { command.Register(posixfs.Strictly(fsUnzip), "unzip") }

// Info-ZIP UnZip's exit statuses.
const (
	unzipWarn     = 1  // a warning: some files skipped (an unanswered prompt)
	unzipError    = 2  // a damaged archive or another error
	unzipNoZip    = 9  // the archive was not found
	unzipNoMember = 11 // a name given matched no member
)

type unzipOpts struct {
	overwrite, never, list, pipe, junk bool
	quiet                              int
	dir                                string
	zipName                            string
	members, excludes                  []string
}

// fsUnzip is Info-ZIP's unzip 6.0 for what agents use: unzip [-o|-n] [-q]
// [-j] [-d DIR] ZIP [MEMBER...] [-x MEMBER...], -l (list) and -p (members
// to stdout), with its messages byte for byte: "Archive:  NAME", then
// "  inflating: PATH" (deflated), " extracting: PATH" (stored) and
// "   creating: DIR/"; an existing file is asked about on stderr ("replace
// PATH? [y]es, [n]o, [A]ll, [N]one, [r]ename: ", the answer read from
// stdin; at its end none is replaced and the status is 1). Members are
// patterns (*, ?, [...]); one that matches nothing is "caution: filename
// not matched" and status 11. Modes are the archive's where it was made on
// Unix (no umask, as UnZip), else 0666 and 0777 under the umask; times are
// the archive's; links are made as links. A member's leading "/" and ".."
// components are dropped with UnZip's warning, so nothing is written
// outside DIR.
func fsUnzip(ctx context.Context, c *command.Call, args []string) error {
	o, err := unzipParse(args[1:])
	if err != nil {
		fmt.Fprintf(c.Stderr, "unzip:  %v\n", err)
		return command.Exit(10)
	}
	if o.zipName == "" {
		fmt.Fprintln(c.Stderr, "UnZip 6.00 of 20 April 2009, by Debian. Original by Info-ZIP.\n\nUsage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]")
		return nil
	}
	name, f, err := unzipOpen(c, o.zipName)
	if err != nil {
		fmt.Fprintf(c.Stderr, "unzip:  cannot find or open %s, %s.zip or %s.ZIP.\n", o.zipName, o.zipName, o.zipName)
		return command.Exit(unzipNoZip)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	ra, ok := f.(io.ReaderAt)
	if !ok {
		return fmt.Errorf("%s: cannot read at offsets", name)
	}
	zr, err := zip.NewReader(ra, fi.Size())
	if err != nil {
		if !o.pipe {
			fmt.Fprintf(c.Stdout, "Archive:  %s\n", name)
		}
		fmt.Fprintf(c.Stderr, "  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n  latter case the central directory and zipfile comment will be found on\n  the last disk(s) of this archive.\nunzip:  cannot find zipfile directory in one of %s or\n        %s.zip, and cannot find %s.ZIP, period.\n", name, name, name)
		return command.Exit(unzipNoZip)
	}
	u := &unzipRun{ctx: ctx, c: c, o: o, in: bufio.NewReader(c.Stdin),
		members: unzipMatchers(o.members), excludes: unzipMatchers(o.excludes)}
	if !o.pipe && o.quiet == 0 {
		fmt.Fprintf(c.Stdout, "Archive:  %s\n", name)
	}
	matched := make([]bool, len(o.members))
	var chosen []*zip.File
	for _, zf := range zr.File {
		if !u.wanted(zf.Name, matched) {
			continue
		}
		chosen = append(chosen, zf)
	}
	switch {
	case o.list:
		u.list(chosen)
	default:
		for _, zf := range chosen {
			if err := ctx.Err(); err != nil {
				return err
			}
			u.extract(zf)
		}
		u.finishLinks()
	}
	for i, m := range matched {
		if !m {
			fmt.Fprintf(c.Stderr, "caution: filename not matched:  %s\n", o.members[i])
			u.status = max(u.status, unzipNoMember)
		}
	}
	if u.status != 0 {
		return command.Exit(u.status)
	}
	return nil
}

// unzipParse reads UnZip's command line: options may follow the archive's
// name, -d takes the next argument (or the rest of its own), -x takes the
// arguments after it up to the next option.
func unzipParse(args []string) (*unzipOpts, error) {
	o := &unzipOpts{}
	excluding := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			switch {
			case excluding:
				o.excludes = append(o.excludes, a)
			case o.zipName == "":
				o.zipName = a
			default:
				o.members = append(o.members, a)
			}
			continue
		}
		excluding = false
		for j := 1; j < len(a); j++ {
			switch a[j] {
			case 'o':
				o.overwrite, o.never = true, false
			case 'n':
				o.never, o.overwrite = true, false
			case 'q':
				o.quiet++
			case 'l':
				o.list = true
			case 'p':
				o.pipe = true
			case 'j':
				o.junk = true
			case 'x':
				excluding = true
			case 'd':
				if j+1 < len(a) {
					o.dir = a[j+1:]
				} else if i+1 < len(args) {
					i++
					o.dir = args[i]
				} else {
					return nil, errors.New("must specify directory to which to extract with -d option")
				}
				j = len(a)
			case 'a', 'b', 'C', 'L', 'U', 'V', 'X', 'K', 'D', 'T', 'u', 'f':
				// accepted; their conversions do not apply here
			default:
				return nil, fmt.Errorf("unrecognized option -%c", a[j])
			}
		}
	}
	return o, nil
}

// unzipOpen opens the archive as UnZip looks for it: NAME, NAME.zip,
// NAME.ZIP; it returns the name it found.
func unzipOpen(c *command.Call, name string) (string, afero.File, error) {
	var firstErr error
	for _, n := range []string{name, name + ".zip", name + ".ZIP"} {
		f, err := c.FS.Open(c.Abs(n))
		if err == nil {
			if fi, serr := f.Stat(); serr == nil && !fi.IsDir() {
				return n, f, nil
			}
			f.Close()
			err = fs.ErrInvalid
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return "", nil, firstErr
}

// unzipLink is a link member, made once the other members are written.
type unzipLink struct{ shown, abs, target string }

type unzipRun struct {
	members, excludes []func(string) bool // o's, compiled
	links             []unzipLink
	ctx               context.Context
	c                 *command.Call
	o                 *unzipOpts
	in                *bufio.Reader
	all               bool // [A]ll was answered
	none              bool // [N]one was answered, or stdin ended
	status            int
}

// wanted reports whether member name is asked for (and marks what it
// matched).
func (u *unzipRun) wanted(name string, matched []bool) bool {
	for _, x := range u.excludes {
		if x(name) {
			return false
		}
	}
	if len(u.members) == 0 {
		return true
	}
	ok := false
	for i, m := range u.members {
		if m(name) {
			matched[i], ok = true, true
		}
	}
	return ok
}

// unzipMatchers compile member patterns as UnZip matches them: the
// wildcards match across slashes; a name without one is itself.
func unzipMatchers(pats []string) []func(string) bool {
	out := make([]func(string) bool, len(pats))
	for i, pat := range pats {
		if !strings.ContainsAny(pat, "*?[") {
			out[i] = func(name string) bool { return name == pat }
			continue
		}
		out[i] = cmdutil.Matcher(pat, 0)
	}
	return out
}

// list is -l.
func (u *unzipRun) list(files []*zip.File) {
	w := u.c.Stdout
	if u.o.quiet == 0 {
		fmt.Fprintln(w, "  Length      Date    Time    Name")
		fmt.Fprintln(w, "---------  ---------- -----   ----")
	}
	var total uint64
	for _, zf := range files {
		t := unzipTime(zf)
		fmt.Fprintf(w, "%9d  %s   %s\n", zf.UncompressedSize64, t.Format("2006-01-02 15:04"), zf.Name)
		total += zf.UncompressedSize64
	}
	if u.o.quiet == 0 {
		fmt.Fprintln(w, "---------                     -------")
		plural := "s"
		if len(files) == 1 {
			plural = ""
		}
		fmt.Fprintf(w, "%9d                     %d file%s\n", total, len(files), plural)
	}
}

// unzipTime is a member's time as UnZip shows and sets it: the extended
// timestamp's instant in the local zone, else the MS-DOS fields as they
// are.
func unzipTime(zf *zip.File) time.Time {
	t := zf.Modified
	if t.IsZero() {
		t = zf.ModTime()
	}
	if t.Location() != time.UTC {
		return t.In(time.Local)
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), 0, time.Local)
}

// target is where member name goes: under -d's folder, without a leading
// "/" or ".." components (warned about, as UnZip does), and without its
// folders with -j; "" for nothing to write.
func (u *unzipRun) target(name string) string {
	clean := strings.TrimLeft(name, "/")
	var parts []string
	dotdot := false
	for _, p := range strings.Split(clean, "/") {
		switch p {
		case "..":
			dotdot = true
		case ".", "":
		default:
			parts = append(parts, p)
		}
	}
	if dotdot {
		fmt.Fprintf(u.c.Stderr, "warning:  skipped \"../\" path component(s) in %s\n", name)
	}
	if len(parts) == 0 {
		return ""
	}
	rel := strings.Join(parts, "/")
	if u.o.junk {
		rel = parts[len(parts)-1]
	}
	if u.o.dir != "" {
		return path.Join(u.o.dir, rel)
	}
	return rel
}

// extract writes one member (or copies it to stdout with -p).
func (u *unzipRun) extract(zf *zip.File) {
	c := u.c
	isDir := strings.HasSuffix(zf.Name, "/") || zf.Mode().IsDir()
	if u.o.pipe {
		if !isDir {
			u.copyTo(c.Stdout, zf)
		}
		return
	}
	if isDir && u.o.junk {
		return
	}
	shown := u.target(zf.Name)
	if shown == "" {
		return
	}
	abs := c.Abs(shown)
	if isDir {
		shown += "/"
		if fi, err := c.FS.Stat(abs); err == nil && fi.IsDir() {
			return
		}
		if err := c.FS.MkdirAll(abs, 0o777); err != nil {
			u.fail("checkdir error:  cannot create %s\n                 %s\n", shown, posixfs.ErrText(err))
			return
		}
		u.say("   creating: %s\n", shown)
		_ = c.FS.Chmod(abs, u.mode(zf, true))
		return
	}
	link := zf.Mode()&fs.ModeSymlink != 0
	if fi, err := posixfs.Lstat(c.FS, abs); err == nil {
		switch {
		case u.o.never || u.none:
			if link && posixfs.IsSymlink(fi) && u.o.never {
				u.say("%s exists and is a symbolic link.\n", shown)
			}
			return
		case u.o.overwrite || u.all:
		default:
			if !u.ask(&shown, &abs) {
				return
			}
		}
	}
	if err := c.FS.MkdirAll(path.Dir(abs), 0o777); err != nil {
		u.fail("checkdir error:  cannot create %s\n                 %s\n", path.Dir(shown), posixfs.ErrText(err))
		return
	}
	if link {
		// made after the other members, as UnZip defers links
		var b strings.Builder
		if u.copyTo(&b, zf) {
			u.say("    linking: %-22s  -> %s \n", shown, b.String())
			u.links = append(u.links, unzipLink{shown: shown, abs: abs, target: b.String()})
		}
		return
	}
	verb := "inflating"
	if zf.Method == zip.Store {
		verb = "extracting"
	}
	u.say("%11s: %-22s  \n", verb, shown)
	f, err := createMember(c.FS, abs)
	if err != nil {
		u.fail("error:  cannot create %s\n        %s\n", shown, posixfs.ErrText(err))
		return
	}
	ok := u.copyTo(f, zf)
	if err := f.Close(); err != nil && ok {
		u.fail("error:  cannot write %s\n        %s\n", shown, posixfs.ErrText(err))
		return
	}
	_ = c.FS.Chmod(abs, u.mode(zf, false))
	t := unzipTime(zf)
	_ = c.FS.Chtimes(abs, t, t)
}

// finishLinks makes the link members, as UnZip's "finishing deferred
// symbolic links".
func (u *unzipRun) finishLinks() {
	if len(u.links) == 0 {
		return
	}
	u.say("finishing deferred symbolic links:\n")
	for _, l := range u.links {
		u.say("  %-22s -> %s\n", l.shown, l.target)
		if fi, err := posixfs.Lstat(u.c.FS, l.abs); err == nil && !fi.IsDir() {
			_ = u.c.FS.Remove(l.abs)
		}
		if err := posixfs.Symlink(u.c.FS, l.target, l.abs); err != nil {
			u.fail("error:  cannot create symlink %s\n        %s\n", l.shown, posixfs.ErrText(err))
		}
	}
}

// ask is UnZip's question about an existing file, on stderr, answered on
// stdin; it reports whether to write the member (to *shown, which
// [r]ename changes).
func (u *unzipRun) ask(shown, abs *string) bool {
	for {
		fmt.Fprintf(u.c.Stderr, "replace %s? [y]es, [n]o, [A]ll, [N]one, [r]ename: ", *shown)
		line, err := u.in.ReadString('\n')
		if err != nil && line == "" {
			fmt.Fprint(u.c.Stderr, " NULL\n(EOF or read error, treating as \"[N]one\" ...)\n")
			u.none = true
			u.status = max(u.status, unzipWarn)
			return false
		}
		switch strings.TrimSpace(line)[:min(1, len(strings.TrimSpace(line)))] {
		case "y", "Y":
			return true
		case "n":
			return false
		case "A":
			u.all = true
			return true
		case "N":
			u.none = true
			return false
		case "r":
			fmt.Fprint(u.c.Stderr, "new name: ")
			name, _ := u.in.ReadString('\n')
			name = strings.TrimRight(name, "\r\n")
			if name == "" {
				continue
			}
			*shown, *abs = name, u.c.Abs(name)
			return true
		}
		fmt.Fprintf(u.c.Stderr, "error:  invalid response [%s]\n", strings.TrimRight(line, "\n"))
	}
}

// mode is the mode UnZip gives a member: the archive's Unix permissions
// where it has them, else 0666 or 0777 under the umask.
func (u *unzipRun) mode(zf *zip.File, dir bool) fs.FileMode {
	creator := zf.CreatorVersion >> 8
	if perm := zf.Mode().Perm(); (creator == 3 || creator == 19) && perm != 0 {
		if dir {
			return perm | fs.ModeDir
		}
		return perm
	}
	umask := posixfs.UmaskOf(u.c.FS)
	if dir {
		return (0o777 &^ umask) | fs.ModeDir
	}
	return 0o666 &^ umask
}

// copyTo copies a member's bytes to w; false after an error it reported.
func (u *unzipRun) copyTo(w io.Writer, zf *zip.File) bool {
	r, err := zf.Open()
	if err != nil {
		u.fail("  error:  %s:  %v\n", zf.Name, err)
		return false
	}
	defer r.Close()
	if _, err := posixfs.CopyCtx(u.ctx, w, r); err != nil {
		if u.ctx.Err() == nil {
			u.fail("  error:  invalid compressed data to inflate %s\n", zf.Name)
		}
		return false
	}
	return true
}

// say prints a line of progress unless -q.
func (u *unzipRun) say(format string, a ...any) {
	if u.o.quiet == 0 {
		fmt.Fprintf(u.c.Stdout, format, a...)
	}
}

// fail reports an error on stderr and sets status 2.
func (u *unzipRun) fail(format string, a ...any) {
	fmt.Fprintf(u.c.Stderr, format, a...)
	u.status = max(u.status, unzipError)
}
