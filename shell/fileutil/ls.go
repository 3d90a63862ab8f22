package fileutil

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"math"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
	"github.com/spf13/afero"
)

func init() { command.Register(posixfs.Strictly(fsLs), "ls") }

// Owner and UID are the sandbox's one user (and group), who owns every
// file but the system's (OwnerOf).
const (
	Owner = "user"
	UID   = 1000
)

// OwnerOf is the owner (and group) of the file fi describes, by name and
// id: root (0) for the system's read-only folders and files
// (posixfs.RootOwned: /usr/bin, /bin, ...), else the sandbox's user.
func OwnerOf(fi fs.FileInfo) (string, int) {
	if fi != nil && posixfs.RootOwned(fi) {
		return "root", 0
	}
	return Owner, UID
}

type fsLsOpts struct {
	long, all, almostAll, recursive, human, byTime, bySize, reverse bool
	dirOnly, classify, slash, numeric, noOwner, noGroup, unsorted   bool
	deref, dirsFirst, inode, comma                                  bool
	timeStyle                                                       string
}

// fsLsEntry is one name ls shows.
type fsLsEntry struct {
	name string // as shown
	abs  string
	fi   fs.FileInfo
}

// fsLs is ls, printing one name a line as GNU ls does when its output is
// not a terminal: -l (long: mode, links, owner, group, size, date, name),
// -a, -A, -1, -R, -h, -t, -S, -r, -U, -d, -F, -p, -n, -g, -o, -G, -L, -i,
// -m, --full-time, --time-style, --group-directories-first; -C, -x and
// --color are accepted.
func fsLs(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "laA1RhtSrUdFpngoGLCxfiBmsvc", Long: map[string]string{
		"all": "a", "almost-all": "A", "recursive": "R", "human-readable": "h", "reverse": "r",
		"directory": "d", "classify": "F", "numeric-uid-gid": "n", "dereference": "L",
		"color": "color::", "full-time": "full-time", "time-style": "time-style:",
		"group-directories-first": "dirs-first", "inode": "i", "no-group": "G",
		"indicator-style": "indicator-style:", "sort": "sort:", "format": "format:",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "ls", 2, err)
	}
	var o fsLsOpts
	for _, op := range opts {
		switch op.Key {
		case "l":
			o.long = true
		case "a":
			o.all, o.almostAll = true, false
		case "A":
			o.almostAll, o.all = true, false
		case "1", "C", "x":
			o.comma = false
		case "m":
			o.comma = true
		case "R":
			o.recursive = true
		case "h":
			o.human = true
		case "t":
			o.byTime, o.bySize = true, false
		case "S":
			o.bySize, o.byTime = true, false
		case "r":
			o.reverse = true
		case "U":
			o.unsorted = true
		case "f":
			o.unsorted, o.all = true, true
		case "d":
			o.dirOnly = true
		case "F":
			o.classify = true
		case "p":
			o.slash = true
		case "n":
			o.long, o.numeric = true, true
		case "g":
			o.long, o.noOwner = true, true
		case "o":
			o.long, o.noGroup = true, true
		case "G":
			o.noGroup = true
		case "L":
			o.deref = true
		case "i":
			o.inode = true
		case "full-time":
			o.long, o.timeStyle = true, "full-iso"
		case "time-style":
			o.timeStyle = strings.TrimPrefix(op.Val, "posix-")
		case "dirs-first":
			o.dirsFirst = true
		case "indicator-style":
			switch op.Val {
			case "classify":
				o.classify = true
			case "slash":
				o.slash = true
			}
		case "sort":
			switch op.Val {
			case "time":
				o.byTime = true
			case "size":
				o.bySize = true
			case "none":
				o.unsorted = true
			}
		case "format":
			o.long = op.Val == "long" || op.Val == "verbose"
			o.comma = op.Val == "commas"
		}
	}
	if len(ops) == 0 {
		ops = []string{"."}
	}
	w := bufio.NewWriterSize(c.Stdout, 32<<10)
	defer w.Flush()
	l := &lister{c: c, o: o, w: w, now: time.Now(), loc: Location(c)}
	var files []fsLsEntry
	var dirs []fsLsEntry
	for _, name := range ops {
		abs := c.Abs(name)
		fi, err := posixfs.Lstat(c.FS, abs)
		if name == "" {
			fi, err = nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrNotExist}
		}
		if err == nil && posixfs.IsSymlink(fi) && (o.deref || (!o.long && !o.dirOnly && !o.classify)) {
			if st, serr := c.FS.Stat(abs); serr == nil {
				fi = st
			}
		}
		if err != nil {
			w.Flush()
			posixfs.Warn(c, "ls", "cannot access %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
			l.status = 2
			continue
		}
		e := fsLsEntry{name: name, abs: abs, fi: fi}
		if fi.IsDir() && !o.dirOnly {
			dirs = append(dirs, e)
		} else {
			files = append(files, e)
		}
	}
	l.sort(files)
	l.sort(dirs)
	printed := false
	if len(files) > 0 {
		l.print(files, false)
		printed = true
	}
	header := len(ops) > 1 || o.recursive || l.status != 0
	for _, d := range dirs {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		l.listDir(ctx, d, header, &printed)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return command.Exit(l.status)
}

// fsLister prints the listings of one ls.
type lister struct {
	c      *command.Call
	o      fsLsOpts
	w      *bufio.Writer
	now    time.Time
	loc    *time.Location
	status int
}

func (l *lister) listDir(ctx context.Context, d fsLsEntry, header bool, printed *bool) {
	if *printed {
		l.w.WriteString("\n")
	}
	*printed = true
	if header {
		fmt.Fprintf(l.w, "%s:\n", d.name)
	}
	list, err := posixfs.ReadDir(l.c.FS, d.abs)
	if err != nil {
		l.w.Flush()
		posixfs.Warn(l.c, "ls", "cannot open directory %s: %s", quotearg.Quote(d.name), posixfs.ErrText(err))
		l.status = max(l.status, 1)
		return
	}
	var entries []fsLsEntry
	if l.o.all {
		for _, n := range []string{".", ".."} {
			abs := path.Join(d.abs, n)
			if fi, err := l.c.FS.Stat(abs); err == nil {
				entries = append(entries, fsLsEntry{name: n, abs: abs, fi: namedInfo{fi, n}})
			}
		}
	}
	for _, fi := range list {
		if strings.HasPrefix(fi.Name(), ".") && !l.o.all && !l.o.almostAll {
			continue
		}
		abs := path.Join(d.abs, fi.Name())
		if l.o.deref && posixfs.IsSymlink(fi) {
			if st, err := l.c.FS.Stat(abs); err == nil {
				fi = namedInfo{st, fi.Name()}
			}
		}
		entries = append(entries, fsLsEntry{name: fi.Name(), abs: abs, fi: fi})
	}
	l.sort(entries)
	l.print(entries, true)
	if !l.o.recursive {
		return
	}
	for _, e := range entries {
		if ctx.Err() != nil {
			return
		}
		if e.name == "." || e.name == ".." || !e.fi.IsDir() || posixfs.IsSymlink(e.fi) {
			continue
		}
		l.listDir(ctx, fsLsEntry{name: posixfs.Join(d.name, e.name), abs: e.abs, fi: e.fi}, true, printed)
	}
}

func (l *lister) sort(list []fsLsEntry) {
	if l.o.unsorted {
		return
	}
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if l.o.dirsFirst && a.fi.IsDir() != b.fi.IsDir() {
			return a.fi.IsDir()
		}
		var less, more bool
		switch {
		case l.o.byTime:
			less, more = a.fi.ModTime().After(b.fi.ModTime()), b.fi.ModTime().After(a.fi.ModTime())
		case l.o.bySize:
			less, more = a.fi.Size() > b.fi.Size(), b.fi.Size() > a.fi.Size()
		}
		if !less && !more {
			less = a.name < b.name
		}
		if l.o.reverse {
			return !less && (more || a.name != b.name)
		}
		return less
	})
}

// print writes entries; inDir adds the "total" line of a long listing.
func (l *lister) print(entries []fsLsEntry, inDir bool) {
	if !l.o.long {
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = l.decorate(e)
			if l.o.inode {
				names[i] = "0 " + names[i]
			}
		}
		if l.o.comma {
			if len(names) > 0 {
				l.w.WriteString(strings.Join(names, ", ") + "\n")
			}
			return
		}
		for _, n := range names {
			l.w.WriteString(n + "\n")
		}
		return
	}
	type row struct{ mode, links, owner, group, size, date, name string }
	rows := make([]row, len(entries))
	var total int64
	wLinks, wOwner, wGroup, wSize := 0, 0, 0, 0
	for i, e := range entries {
		fi := e.fi
		total += Blocks(fi)
		r := row{mode: ModeString(fi.Mode())}
		r.links = fsItoa(Links(l.c.FS, e.abs, fi))
		owner, uid := OwnerOf(fi)
		r.owner, r.group = owner, owner
		if l.o.numeric {
			r.owner, r.group = fsItoa(uid), fsItoa(uid)
		}
		size := ShownSize(fi)
		if l.o.human {
			r.size = Human(size)
		} else {
			r.size = fsItoa(int(size))
		}
		r.date = l.date(fi.ModTime())
		r.name = l.decorate(e)
		if posixfs.IsSymlink(fi) {
			if t := LinkTarget(l.c.FS, e.abs); t != "" {
				r.name += " -> " + t
			}
		}
		rows[i] = r
		wLinks, wOwner, wGroup, wSize = max(wLinks, len(r.links)), max(wOwner, len(r.owner)), max(wGroup, len(r.group)), max(wSize, len(r.size))
	}
	if inDir {
		if l.o.human {
			fmt.Fprintf(l.w, "total %s\n", Human(total*1024))
		} else {
			fmt.Fprintf(l.w, "total %d\n", total)
		}
	}
	for _, r := range rows {
		var b strings.Builder
		if l.o.inode {
			b.WriteString("0 ")
		}
		fmt.Fprintf(&b, "%s %*s ", r.mode, wLinks, r.links)
		if !l.o.noOwner {
			fmt.Fprintf(&b, "%-*s ", wOwner, r.owner)
		}
		if !l.o.noGroup {
			fmt.Fprintf(&b, "%-*s ", wGroup, r.group)
		}
		fmt.Fprintf(&b, "%*s %s %s\n", wSize, r.size, r.date, r.name)
		l.w.WriteString(b.String())
	}
}

// decorate adds -F's or -p's indicator to a name.
func (l *lister) decorate(e fsLsEntry) string {
	m := e.fi.Mode()
	switch {
	case !l.o.classify && !l.o.slash:
		return e.name
	case m.IsDir():
		if strings.HasSuffix(e.name, "/") {
			return e.name
		}
		return e.name + "/"
	case !l.o.classify:
		return e.name
	case m&fs.ModeSymlink != 0:
		if l.o.long {
			return e.name
		}
		return e.name + "@"
	case m&fs.ModeNamedPipe != 0:
		return e.name + "|"
	case m&fs.ModeSocket != 0:
		return e.name + "="
	case m.IsRegular() && m.Perm()&0o111 != 0:
		return e.name + "*"
	}
	return e.name
}

// date formats a modification time as ls -l does: the time of day within
// six months of now, else the year.
func (l *lister) date(t time.Time) string {
	t = t.In(l.loc)
	switch {
	case l.o.timeStyle == "full-iso":
		return t.Format("2006-01-02 15:04:05.000000000 -0700")
	case l.o.timeStyle == "long-iso":
		return t.Format("2006-01-02 15:04")
	case l.o.timeStyle == "iso":
		if fsRecent(t, l.now) {
			return t.Format("01-02 15:04")
		}
		return t.Format("2006-01-02 ")
	case strings.HasPrefix(l.o.timeStyle, "+"):
		f := strings.TrimPrefix(l.o.timeStyle, "+")
		if old, recent, ok := strings.Cut(f, "\n"); ok {
			if fsRecent(t, l.now) {
				f = recent
			} else {
				f = old
			}
		}
		return Strftime(f, t)
	}
	if fsRecent(t, l.now) {
		return t.Format("Jan _2 15:04")
	}
	return t.Format("Jan _2  2006")
}

// fsRecent tells whether t is within the six months before now (and not
// in the future), GNU ls's test for showing the time of day.
func fsRecent(t, now time.Time) bool {
	const half = 31556952 / 2 * time.Second
	return !t.After(now.Add(time.Second)) && now.Sub(t) < half
}

// WithName returns fi under the name name.
func WithName(fi fs.FileInfo, name string) fs.FileInfo { return namedInfo{fi, name} }

// LsDate is the date ls -l shows for t in its default time style, in loc,
// at the time now.
func LsDate(t, now time.Time, loc *time.Location) string {
	return (&lister{now: now, loc: loc}).date(t)
}

// namedInfo is a FileInfo under another name ("." and "..").
type namedInfo struct {
	fs.FileInfo
	name string
}

func (n namedInfo) Name() string { return n.name }

// RootOwned passes posixfs.RootOwned through.
func (n namedInfo) RootOwned() bool { return posixfs.RootOwned(n.FileInfo) }

// fsShownSize is the size ls and stat show: 4096 for a folder, as ext4.
func ShownSize(fi fs.FileInfo) int64 {
	if fi.IsDir() {
		return 4096
	}
	return fi.Size()
}

// fsBlocks is the space a file takes in KiB on a 4 KiB-block filesystem.
func Blocks(fi fs.FileInfo) int64 {
	switch {
	case fi.IsDir():
		return 4
	case posixfs.IsSymlink(fi), !fi.Mode().IsRegular():
		return 0
	}
	return (fi.Size() + 4095) / 4096 * 4
}

// fsLinks is a file's link count: 1, or 2 plus the subfolders for a
// folder.
func Links(fsys afero.Fs, abs string, fi fs.FileInfo) int {
	if !fi.IsDir() {
		return 1
	}
	n := 2
	if list, err := posixfs.ReadDir(fsys, abs); err == nil {
		for _, e := range list {
			if e.IsDir() {
				n++
			}
		}
	}
	return n
}

// fsModeString is ls -l's mode column: "drwxr-xr-x", with s, S, t, T.
func ModeString(m fs.FileMode) string {
	b := []byte("----------")
	switch {
	case m&fs.ModeDir != 0:
		b[0] = 'd'
	case m&fs.ModeSymlink != 0:
		b[0] = 'l'
	case m&fs.ModeNamedPipe != 0:
		b[0] = 'p'
	case m&fs.ModeSocket != 0:
		b[0] = 's'
	case m&fs.ModeCharDevice != 0:
		b[0] = 'c'
	case m&fs.ModeDevice != 0:
		b[0] = 'b'
	}
	const rwx = "rwxrwxrwx"
	for i := 0; i < 9; i++ {
		if m&(1<<uint(8-i)) != 0 {
			b[i+1] = rwx[i]
		}
	}
	special := func(i int, set bool, ch byte) {
		if !set {
			return
		}
		if b[i] == 'x' {
			b[i] = ch
		} else {
			b[i] = ch - 'a' + 'A'
		}
	}
	special(3, m&fs.ModeSetuid != 0, 's')
	special(6, m&fs.ModeSetgid != 0, 's')
	special(9, m&fs.ModeSticky != 0, 't')
	return string(b)
}

// fsHuman is a size as ls -h and du -h print it: powers of 1024, rounded
// up, one decimal below 10 ("4.0K", "12K", "1.5M").
func Human(n int64) string {
	if n < 1024 {
		return fsItoa(int(n))
	}
	const units = "KMGTPE"
	v := float64(n)
	for i := 0; i < len(units); i++ {
		v /= 1024
		if v < 10 {
			r := math.Ceil(v*10) / 10
			if r < 10 {
				return fmt.Sprintf("%.1f%c", r, units[i])
			}
			v = r
		}
		r := math.Ceil(v)
		if r < 1024 || i == len(units)-1 {
			return fmt.Sprintf("%.0f%c", r, units[i])
		}
	}
	return fsItoa(int(n))
}
