package archive

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/fileutil"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
	"mvdan.cc/sh/v3/pattern"
)

func init() { command.Register(posixfs.Strictly(fsTar), "tar") }

type fsTarOpts struct {
	mode      byte // c, x, t
	gzip      bool
	verbose   bool
	file      string
	dir       string
	toStdout  bool
	keepOld   bool
	strip     int
	excludes  []*regexp.Regexp
	preserve  bool
	members   []string
	stripNote bool
}

// fsTar is tar: -c (create), -x (extract), -t (list), with -f FILE ("-"
// or none: stdin/stdout), -z (gzip; detected when reading), -v, -C DIR,
// -O (extract to stdout), -k (keep existing files), -p,
// --strip-components=N, --exclude=PATTERN. The first argument may be the
// old bundled form ("czf out.tgz").
func fsTar(ctx context.Context, c *command.Call, args []string) error {
	args = fsTarBundle(args[1:])
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "cxtzvf:C:OkpPmohjJaU", Long: map[string]string{
		"create": "c", "extract": "x", "get": "x", "list": "t", "gzip": "z", "gunzip": "z",
		"ungzip": "z", "verbose": "v", "file": "f:", "directory": "C:", "to-stdout": "O",
		"keep-old-files": "k", "preserve-permissions": "p", "same-permissions": "p",
		"strip-components": "strip:", "exclude": "exclude:", "absolute-names": "P",
		"no-same-owner": "o", "no-same-permissions": "nsp", "overwrite": "overwrite",
		"touch": "m", "dereference": "h", "bzip2": "j", "xz": "J", "auto-compress": "a",
		"unlink-first": "U", "wildcards": "wildcards", "no-recursion": "norec",
	}}, args)

	if err != nil {
		return cmdutil.Usage(c, "tar", 2, err)
	}
	o := fsTarOpts{}
	for _, op := range opts {
		switch op.Key {
		case "c", "x", "t":
			if o.mode != 0 && o.mode != op.Key[0] {
				posixfs.Warn(c, "tar", "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option")
				return cmdutil.Usage(c, "tar", 2, cmdutil.Usagef("conflicting options"))
			}
			o.mode = op.Key[0]
		case "z":
			o.gzip = true
		case "v":
			o.verbose = true
		case "f":
			o.file = op.Val
		case "C":
			o.dir = op.Val
		case "O":
			o.toStdout = true
		case "k":
			o.keepOld = true
		case "p":
			o.preserve = true
		case "strip":
			n, err := strconv.Atoi(op.Val)
			if err != nil || n < 0 {
				posixfs.Warn(c, "tar", "Invalid number of elements: %s", quotearg.Quote(op.Val))
				return command.Exit(2)
			}
			o.strip = n
		case "exclude":
			expr, err := pattern.Regexp(op.Val, pattern.EntireString|pattern.NoGlobStar)
			if err == nil {
				if rx, err := regexp.Compile(expr); err == nil {
					o.excludes = append(o.excludes, rx)
				}
			}
		case "j", "J":
			posixfs.Warn(c, "tar", "only gzip compression (-z) is available in this sandbox")
			return command.Exit(2)
		}
	}
	o.members = ops
	base := c.Dir
	if o.dir != "" {
		base = c.Abs(o.dir)
		if fi, err := c.FS.Stat(base); err != nil || !fi.IsDir() {
			posixfs.Warn(c, "tar", "%s: Cannot open: %s", o.dir, posixfs.ErrTextOr(err, "Not a directory"))
			posixfs.Warn(c, "tar", "Error is not recoverable: exiting now")
			return command.Exit(2)
		}
	}
	t := &fsTarRun{ctx: ctx, c: c, o: &o, base: base}
	switch o.mode {
	case 'c':
		return t.create()
	case 'x', 't':
		return t.read()
	}
	posixfs.Warn(c, "tar", "You must specify one of the '-Acdtrux', '--delete' or '--test-label' options")
	fmt.Fprintln(c.Stderr, "Try 'tar --help' or 'tar --usage' for more information.")
	return command.Exit(2)
}

// fsTarBundle expands the old form "tar czf FILE ..." into options.
func fsTarBundle(args []string) []string {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return args
	}
	key, rest := args[0], args[1:]
	var out []string
	for _, ch := range key {
		switch ch {
		case 'f', 'C', 'b', 'T', 'X':
			if len(rest) > 0 {
				out = append(out, "-"+string(ch), rest[0])
				rest = rest[1:]
				continue
			}
		}
		out = append(out, "-"+string(ch))
	}
	return append(out, rest...)
}

// fsTarRun is one run of tar.
type fsTarRun struct {
	ctx    context.Context
	c      *command.Call
	o      *fsTarOpts
	base   string
	status int
	self   string // the archive's own path, not to be archived
}

func (t *fsTarRun) fail(format string, a ...any) {
	posixfs.Warn(t.c, "tar", format, a...)
	t.status = 2
}

func (t *fsTarRun) finish() error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	if t.status != 0 {
		posixfs.Warn(t.c, "tar", "Exiting with failure status due to previous errors")
	}
	return command.Exit(t.status)
}

// verboseOut is where -v writes: stdout, or stderr when the archive or
// the extracted data goes to stdout.
func (t *fsTarRun) verboseOut() io.Writer {
	if (t.o.mode == 'c' && (t.o.file == "" || t.o.file == "-")) || t.o.toStdout {
		return t.c.Stderr
	}
	return t.c.Stdout
}

func (t *fsTarRun) excluded(name string) bool {
	for _, rx := range t.o.excludes {
		if rx.MatchString(name) || rx.MatchString(path.Base(strings.TrimSuffix(name, "/"))) {
			return true
		}
	}
	return false
}

func (t *fsTarRun) create() error {
	c := t.c
	if len(t.o.members) == 0 {
		posixfs.Warn(c, "tar", "Cowardly refusing to create an empty archive")
		fmt.Fprintln(c.Stderr, "Try 'tar --help' or 'tar --usage' for more information.")
		return command.Exit(2)
	}
	var out io.Writer = c.Stdout
	var file io.WriteCloser
	if t.o.file != "" && t.o.file != "-" {
		t.self = c.Abs(t.o.file)
		f, err := c.FS.OpenFile(t.self, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			posixfs.Warn(c, "tar", "%s: Cannot open: %s", t.o.file, posixfs.ErrText(err))
			posixfs.Warn(c, "tar", "Error is not recoverable: exiting now")
			return command.Exit(2)
		}
		file, out = f, f
	}
	bw := bufio.NewWriterSize(out, 64<<10)
	var zw *gzip.Writer
	var w io.Writer = bw
	if t.o.gzip {
		zw = gzip.NewWriter(bw)
		w = zw
	}
	tw := tar.NewWriter(w)
	for _, m := range t.o.members {
		if t.ctx.Err() != nil {
			break
		}
		name := m
		if strings.HasPrefix(name, "/") {
			if !t.o.stripNote {
				posixfs.Warn(c, "tar", "Removing leading `/' from member names")
				t.o.stripNote = true
			}
			name = strings.TrimLeft(name, "/")
			if name == "" {
				name = "."
			}
		}
		t.add(tw, name, path.Join(t.base, m))
	}
	err := tw.Close()
	if zw != nil && err == nil {
		err = zw.Close()
	}
	if err == nil {
		err = bw.Flush()
	}
	if file != nil {
		if cerr := file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil && t.ctx.Err() == nil {
		t.fail("%s", posixfs.ErrText(err))
	}
	return t.finish()
}

// add writes the member name (at abs) and, for a folder, its content.
func (t *fsTarRun) add(tw *tar.Writer, name, abs string) {
	if t.ctx.Err() != nil || t.excluded(name) {
		return
	}
	c := t.c
	if abs == t.self {
		posixfs.Warn(c, "tar", "%s: file is the archive; not dumped", name)
		return
	}
	fi, err := posixfs.Lstat(c.FS, abs)
	if err != nil {
		t.fail("%s: Cannot stat: %s", name, posixfs.ErrText(err))
		return
	}
	owner, uid := fileutil.OwnerOf(fi)
	hdr := &tar.Header{
		Name:    name,
		Mode:    int64(command.UnixMode(fi.Mode())),
		Uid:     uid,
		Gid:     uid,
		Uname:   owner,
		Gname:   owner,
		ModTime: fi.ModTime().Truncate(time.Second),
		Format:  tar.FormatGNU,
	}
	switch {
	case fi.IsDir():
		hdr.Typeflag = tar.TypeDir
		if !strings.HasSuffix(hdr.Name, "/") {
			hdr.Name += "/"
		}
	case posixfs.IsSymlink(fi):
		hdr.Typeflag = tar.TypeSymlink
		hdr.Linkname = fileutil.LinkTarget(c.FS, abs)
	case fi.Mode().IsRegular():
		hdr.Typeflag = tar.TypeReg
		hdr.Size = fi.Size()
	default:
		posixfs.Warn(c, "tar", "%s: socket ignored", name)
		return
	}
	if t.o.verbose {
		fmt.Fprintln(t.verboseOut(), hdr.Name)
	}
	if err := tw.WriteHeader(hdr); err != nil {
		t.fail("%s: %s", name, err)
		return
	}
	if hdr.Typeflag == tar.TypeReg {
		f, err := c.FS.Open(abs)
		if err != nil {
			t.fail("%s: Cannot open: %s", name, posixfs.ErrText(err))
			return
		}
		n, err := posixfs.CopyCtx(t.ctx, tw, io.LimitReader(f, hdr.Size))
		f.Close()
		if err == nil && n < hdr.Size {
			// The file shrank: pad, as GNU tar does.
			_, err = tw.Write(make([]byte, hdr.Size-n))
			t.fail("%s: File shrank by %d bytes; padding with zeros", name, hdr.Size-n)
		}
		if err != nil && t.ctx.Err() == nil {
			t.fail("%s: Read error: %s", name, posixfs.ErrText(err))
		}
		return
	}
	if hdr.Typeflag == tar.TypeDir {
		list, err := posixfs.ReadDir(c.FS, abs)
		if err != nil {
			t.fail("%s: Cannot open: %s", name, posixfs.ErrText(err))
			return
		}
		for _, e := range list {
			t.add(tw, strings.TrimSuffix(hdr.Name, "/")+"/"+e.Name(), path.Join(abs, e.Name()))
		}
	}
}

// read lists (t) or extracts (x) an archive.
func (t *fsTarRun) read() error {
	c := t.c
	var in io.Reader = c.Stdin
	if t.o.file != "" && t.o.file != "-" {
		f, err := c.FS.Open(c.Abs(t.o.file))
		if err != nil {
			posixfs.Warn(c, "tar", "%s: Cannot open: %s", t.o.file, posixfs.ErrText(err))
			posixfs.Warn(c, "tar", "Error is not recoverable: exiting now")
			return command.Exit(2)
		}
		defer f.Close()
		in = f
	}
	br := bufio.NewReaderSize(posixfs.ContextReader(t.ctx, in), 64<<10)
	var r io.Reader = br
	if magic, err := br.Peek(2); err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			t.fail("Child returned status 1")
			return t.finish()
		}
		defer zr.Close()
		r = zr
	} else if t.o.gzip {
		posixfs.Warn(c, "tar", "gzip: stdin: not in gzip format")
		t.fail("Child returned status 1")
		return t.finish()
	}
	cr := &fsCountReader{r: r}
	tr := tar.NewReader(cr)
	matched := make([]bool, len(t.o.members))
	first := true
	for {
		if err := t.ctx.Err(); err != nil {
			return err
		}
		hdr, err := tr.Next()
		if err == io.EOF && (!first || cr.n > 0) {
			break // the end, or an archive of only its end blocks
		}
		if err != nil {
			if first {
				t.fail("This does not look like a tar archive")
			} else {
				t.fail("Unexpected EOF in archive")
			}
			break
		}
		first = false
		if !t.wanted(hdr.Name, matched) || t.excluded(hdr.Name) {
			continue
		}
		if t.o.mode == 't' {
			t.list(hdr)
			continue
		}
		t.extract(tr, hdr)
	}
	for i, ok := range matched {
		if !ok {
			t.fail("%s: Not found in archive", t.o.members[i])
		}
	}
	return t.finish()
}

// wanted tells whether a member was asked for (all when none were named).
func (t *fsTarRun) wanted(name string, matched []bool) bool {
	if len(t.o.members) == 0 {
		return true
	}
	clean := strings.TrimSuffix(name, "/")
	for i, m := range t.o.members {
		m = strings.TrimSuffix(m, "/")
		if clean == m || strings.HasPrefix(clean, m+"/") {
			matched[i] = true
			return true
		}
	}
	return false
}

func (t *fsTarRun) list(hdr *tar.Header) {
	w := t.c.Stdout
	if !t.o.verbose {
		fmt.Fprintln(w, hdr.Name)
		return
	}
	mode := fs.FileMode(hdr.Mode & 0o777)
	mode |= command.FileMode(uint32(hdr.Mode))
	switch hdr.Typeflag {
	case tar.TypeDir:
		mode |= fs.ModeDir
	case tar.TypeSymlink:
		mode |= fs.ModeSymlink
	}
	owner := hdr.Uname
	if owner == "" {
		owner = strconv.Itoa(hdr.Uid)
	}
	group := hdr.Gname
	if group == "" {
		group = strconv.Itoa(hdr.Gid)
	}
	ug := owner + "/" + group
	name := hdr.Name
	switch hdr.Typeflag {
	case tar.TypeSymlink:
		name += " -> " + hdr.Linkname
	case tar.TypeLink:
		name += " link to " + hdr.Linkname
	}
	mt := hdr.ModTime.In(fileutil.Location(t.c)).Format("2006-01-02 15:04")
	fmt.Fprintf(w, "%s %s %*d %s %s\n", fileutil.ModeString(mode), ug, max(19-len(ug)-1, 1), hdr.Size, mt, name)
}

// memberPath is where a member goes: leading "/" and the first
// --strip-components elements removed; "" to skip it.
func (t *fsTarRun) memberPath(name string) string {
	name = strings.TrimLeft(name, "/")
	parts := strings.Split(name, "/")
	for _, p := range parts {
		if p == ".." {
			t.fail("%s: Member name contains '..'", name)
			return ""
		}
	}
	if t.o.strip > 0 {
		if len(parts) <= t.o.strip {
			return ""
		}
		parts = parts[t.o.strip:]
	}
	p := strings.Join(parts, "/")
	if strings.Trim(p, "/") == "" {
		return ""
	}
	return p
}

func (t *fsTarRun) extract(tr *tar.Reader, hdr *tar.Header) {
	c := t.c
	rel := t.memberPath(hdr.Name)
	if rel == "" {
		return
	}
	if t.o.verbose {
		fmt.Fprintln(t.verboseOut(), hdr.Name)
	}
	if t.o.toStdout {
		if hdr.Typeflag == tar.TypeReg { // the reader reports old archives' '\x00' as TypeReg
			if _, err := posixfs.CopyCtx(t.ctx, c.Stdout, tr); err != nil && t.ctx.Err() == nil {
				t.fail("%s: %s", hdr.Name, err)
			}
		}
		return
	}
	abs := path.Join(t.base, rel)
	if err := c.FS.MkdirAll(path.Dir(abs), 0o777); err != nil {
		t.fail("%s: Cannot mkdir: %s", rel, posixfs.ErrText(err))
		return
	}
	perm := command.FileMode(uint32(hdr.Mode))
	if !t.o.preserve {
		perm &^= posixfs.UmaskOf(c.FS)
	}
	exists := posixfs.Exists(c.FS, abs)
	if exists && t.o.keepOld && hdr.Typeflag != tar.TypeDir {
		posixfs.Warn(c, "tar", "%s: Cannot open: File exists", rel)
		t.status = 2
		return
	}
	switch hdr.Typeflag {
	case tar.TypeDir:
		if fi, err := c.FS.Stat(abs); err == nil && fi.IsDir() {
			_ = c.FS.Chmod(abs, perm|fs.ModeDir)
			break
		}
		if err := c.FS.Mkdir(abs, 0o777); err != nil {
			t.fail("%s: Cannot mkdir: %s", rel, posixfs.ErrText(err))
			return
		}
		_ = c.FS.Chmod(abs, perm|fs.ModeDir)
	case tar.TypeSymlink:
		if exists {
			_ = c.FS.Remove(abs)
		}
		if err := posixfs.Symlink(c.FS, hdr.Linkname, abs); err != nil {
			t.fail("%s: Cannot create symlink to %s: %s", rel, quotearg.Quote(hdr.Linkname), posixfs.ErrText(err))
		}
		return
	case tar.TypeLink:
		src := t.memberPath(hdr.Linkname)
		if src == "" {
			return
		}
		if exists {
			_ = c.FS.Remove(abs)
		}
		srcAbs := path.Join(t.base, src)
		fi, err := c.FS.Stat(srcAbs)
		if err == nil {
			err = fileutil.CopyFile(t.ctx, c.FS, srcAbs, abs, fi, true)
		}
		if err != nil {
			t.fail("%s: Cannot hard link to %s: %s", rel, quotearg.Quote(hdr.Linkname), posixfs.ErrText(err))
		}
		return
	case tar.TypeReg, tar.TypeGNUSparse:
		f, err := createMember(c.FS, abs)
		if err != nil {
			t.fail("%s: Cannot open: %s", rel, posixfs.ErrText(err))
			return
		}
		_, err = posixfs.CopyCtx(t.ctx, f, tr)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			if t.ctx.Err() == nil {
				t.fail("%s: %s", rel, posixfs.ErrText(err))
			}
			return
		}
		_ = c.FS.Chmod(abs, perm)
	default:
		posixfs.Warn(c, "tar", "%s: Unknown file type; file ignored", rel)
		return
	}
	_ = c.FS.Chtimes(abs, hdr.ModTime, hdr.ModTime)
}

// fsCountReader counts the bytes read through it.
type fsCountReader struct {
	r io.Reader
	n int64
}

func (c *fsCountReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}
