package grep

// grep's search: operands, recursion over c.FS, and output with context.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/spf13/afero"
)

// readerPool keeps the buffered readers of searches for the next ones.
var readerPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// grepBinaryPeek is how much of a file is examined for a NUL byte.
const grepBinaryPeek = 32 << 10

// grepState is one grep invocation in progress.
type grepState struct {
	ctx      context.Context
	c        *command.Call
	o        *grepOpts
	m        *grepMatcher
	out      *bufio.Writer
	w        *Writer // under out
	matched  bool    // a line was selected somewhere
	troubled bool    // an error occurred
	used     bool    // something was output (for "--")
	multi    bool    // more than one operand
	stop     bool    // -q matched: stop everything
	numWidth int     // -T: width of numbers in the current file
}

func grepRun(ctx context.Context, c *command.Call, o *grepOpts, files []string) error {
	if err := grepLoadPatterns(c, o); err != nil {
		return c.Errorf(2, "grep", "%s", err)
	}
	m, err := grepCompile(o, func(msg string) {
		fmt.Fprintf(c.Stderr, "grep: warning: %s\n", msg)
	})
	if err != nil {
		return c.Errorf(2, "grep", "%s", err)
	}
	w := &Writer{W: c.Stdout}
	g := &grepState{ctx: ctx, c: c, o: o, m: m, w: w, out: cmdutil.GetWriter(w)}
	defer cmdutil.PutWriter(g.out)
	g.multi = len(files) > 1
	if o.maxCount == 0 {
		return command.Exit(1)
	}
	implicit := false
	if len(files) == 0 {
		if o.recursive {
			implicit = true
			files = []string{"."}
		} else {
			files = []string{"-"}
		}
	}
	for _, f := range files {
		if g.stop || w.Err != nil {
			break
		}
		if err := ctx.Err(); err != nil {
			g.out.Flush()
			return err
		}
		if err := g.operand(f, implicit); err != nil {
			g.out.Flush()
			if w.Err != nil {
				break
			}
			return err
		}
	}
	if err := g.out.Flush(); err != nil || w.Err != nil {
		return WriteFailed(c, "grep", 2, w.Err)
	}
	switch {
	case g.stop || (g.matched && o.quiet):
		return nil
	case g.troubled:
		return command.Exit(2)
	case g.matched:
		return nil
	}
	return command.Exit(1)
}

// warn reports a file error (unless -s) and remembers the trouble.
func (g *grepState) warn(name string, err error) {
	g.troubled = true
	if !g.o.noMessages {
		g.out.Flush()
		g.c.Errorf(2, "grep", "%s: %s", name, ErrText(err))
	}
}

// ErrText words an error like the C library's strerror.
func ErrText(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, errGrepIsDir):
		return "Is a directory"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

var errGrepIsDir = errors.New("Is a directory")

// ReadFile reads a whole file of c.FS.
func ReadFile(c *command.Call, name string) ([]byte, error) {
	abs := c.Abs(name)
	if fi, err := c.FS.Stat(abs); err == nil && fi.IsDir() {
		return nil, errGrepIsDir
	}
	return afero.ReadFile(c.FS, abs)
}

// operand searches one command-line operand.
func (g *grepState) operand(name string, implicit bool) error {
	if name == "-" {
		label := g.o.label
		if label == "" {
			label = "(standard input)"
		}
		return g.search(g.c.Stdin, label, g.multi)
	}
	abs := g.c.Abs(name)
	fi, err := g.c.FS.Stat(abs)
	if err != nil {
		g.warn(name, err)
		return nil
	}
	if fi.IsDir() {
		switch {
		case g.o.recursive:
			if !implicit && grepSuffixMatch(g.o.excludeDirs, name) {
				return nil
			}
			display := name
			if implicit {
				display = ""
			}
			return g.walk(abs, display)
		case g.o.dirSkip:
			return nil
		}
		g.warn(name, errGrepIsDir)
		return nil
	}
	if !g.included(name, true) {
		return nil
	}
	return g.file(abs, name, g.multi)
}

// included applies --include/--exclude: the last matching glob wins; with
// none matching, a file is included unless the first option is --include.
func (g *grepState) included(name string, cmdline bool) bool {
	if len(g.o.filters) == 0 {
		return true
	}
	for i := len(g.o.filters) - 1; i >= 0; i-- {
		f := g.o.filters[i]
		var hit bool
		if cmdline {
			hit = grepSuffixMatch([]string{f.glob}, name)
		} else {
			hit = grepGlob(f.glob, name)
		}
		if hit {
			return f.include
		}
	}
	return !g.o.filters[0].include
}

// grepGlob matches a glob against a name (a bad glob matches literally).
func grepGlob(glob, name string) bool {
	ok, err := path.Match(glob, name)
	if err != nil {
		return glob == name
	}
	return ok
}

// grepSuffixMatch reports whether a glob matches name or a trailing part of
// it that follows a slash, as GNU grep matches command-line names.
func grepSuffixMatch(globs []string, name string) bool {
	for _, glob := range globs {
		s := name
		for {
			if grepGlob(glob, s) {
				return true
			}
			i := strings.IndexByte(s, '/')
			if i < 0 {
				break
			}
			s = s[i+1:]
		}
	}
	return false
}

// walk searches a directory recursively, in sorted order.
func (g *grepState) walk(abs, display string) error {
	entries, err := afero.ReadDir(g.c.FS, abs)
	if err != nil {
		name := display
		if name == "" {
			name = "."
		}
		g.warn(name, err)
		return nil
	}
	lst, canLstat := g.c.FS.(afero.Lstater)
	for _, fi := range entries {
		if g.stop {
			return nil
		}
		if err := g.ctx.Err(); err != nil {
			return err
		}
		childAbs := path.Join(abs, fi.Name())
		child := fi.Name()
		switch {
		case display == "":
		case strings.HasSuffix(display, "/"):
			child = display + fi.Name()
		default:
			child = display + "/" + fi.Name()
		}
		if canLstat {
			if li, _, err := lst.LstatIfPossible(childAbs); err == nil && li.Mode()&os.ModeSymlink != 0 {
				if !g.o.deref {
					continue
				}
				if st, err := g.c.FS.Stat(childAbs); err == nil {
					fi = st
				} else {
					g.warn(child, err)
					continue
				}
			}
		}
		if fi.IsDir() {
			if grepMatchAny(g.o.excludeDirs, fi.Name()) {
				continue
			}
			if err := g.walk(childAbs, child); err != nil {
				return err
			}
			continue
		}
		if !fi.Mode().IsRegular() || !g.included(fi.Name(), false) {
			continue
		}
		if err := g.file(childAbs, child, true); err != nil {
			return err
		}
	}
	return nil
}

func grepMatchAny(globs []string, name string) bool {
	for _, glob := range globs {
		if grepGlob(glob, name) {
			return true
		}
	}
	return false
}

// file searches one file of c.FS.
func (g *grepState) file(abs, display string, showName bool) error {
	f, err := g.c.FS.Open(abs)
	if err != nil {
		g.warn(display, err)
		return nil
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil {
		g.numWidth = len(strconv.FormatInt(fi.Size(), 10))
	}
	defer func() { g.numWidth = 0 }()
	return g.search(f, display, showName)
}

// grepLine is a line kept for leading context.
type grepLine struct {
	text   []byte
	num    int64
	offset int64
}

// search reads r line by line and prints what the options ask for.
func (g *grepState) search(r io.Reader, name string, showName bool) error {
	o := g.o
	switch o.withName {
	case 0:
		showName = false
	case 1:
		showName = true
	}
	br := readerPool.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		readerPool.Put(br)
	}()
	sep := byte('\n')
	if o.nullData {
		sep = 0
	}
	binary := false
	if o.binary != "text" && !o.nullData {
		peek, _ := br.Peek(grepBinaryPeek)
		binary = bytes.IndexByte(peek, 0) >= 0
		if binary && o.binary == "without-match" {
			return nil
		}
	}
	listing := o.quiet || o.listMatch || o.listNonMatch || o.count
	contextual := o.before >= 0 || o.after >= 0
	var (
		count       int64
		lineNo      int64
		offset      int64
		lastOut     int64 // number of the last line printed in this file, 0 none
		afterLeft   int
		before      []grepLine
		pendingOnly bool // max count reached: only trailing context remains
		buf         []byte
	)
	emit := func(text []byte, num, off int64, sepc byte) {
		if contextual && g.used && (lastOut == 0 || lastOut != num-1) {
			g.separator()
		}
		g.used = true
		lastOut = num
		if o.only {
			if sepc == ':' {
				g.m.each(text, func(s, e int) {
					g.prefix(name, showName, num, off+int64(s), sepc)
					g.out.Write(text[s:e])
					g.out.WriteByte(sep)
				})
			}
			return
		}
		g.prefix(name, showName, num, off, sepc)
		g.out.Write(text)
		g.out.WriteByte(sep)
	}
	if lit, ok := g.oneLiteral(sep); ok && !binary && !listing && !contextual && !o.invert && !o.only &&
		o.maxCount < 0 && !o.lineNum && !o.byteOffset {
		return g.searchLiteral(br, lit, sep, name, showName, o.binary != "text" && !o.nullData)
	}
	for {
		if err := g.ctx.Err(); err != nil {
			return err
		}
		if g.w.Err != nil {
			return g.w.Err
		}
		line, err := ReadLine(br, sep, &buf)
		if err != nil && len(line) == 0 {
			if err != io.EOF {
				g.warn(name, err)
			}
			break
		}
		lineNo++
		lineOff := offset
		offset += int64(len(line))
		text := line
		if len(text) > 0 && text[len(text)-1] == sep {
			text = text[:len(text)-1]
		} else {
			offset++
		}
		selected := g.m.match(text) != o.invert
		if pendingOnly {
			// -m reached: GNU prints the trailing context, matching or not.
			if afterLeft == 0 {
				break
			}
			emit(text, lineNo, lineOff, '-')
			afterLeft--
			continue
		}
		if !selected {
			if listing || binary {
				continue
			}
			if afterLeft > 0 {
				emit(text, lineNo, lineOff, '-')
				afterLeft--
			} else if o.before > 0 {
				if len(before) == o.before {
					copy(before, before[1:])
					before = before[:len(before)-1]
				}
				before = append(before, grepLine{append([]byte(nil), text...), lineNo, lineOff})
			}
			continue
		}
		count++
		g.matched = true
		if o.quiet {
			g.stop = true
			return nil
		}
		if o.listMatch || o.listNonMatch {
			break
		}
		if !o.count {
			if !binary && o.binary != "text" && !o.nullData && bytes.IndexByte(text, 0) >= 0 {
				binary = true // a NUL past the first 32 KiB
			}
			if binary {
				// As GNU grep 3.5 and later: on stderr, after the lines so far.
				g.out.Flush()
				fmt.Fprintf(g.c.Stderr, "grep: %s: binary file matches\n", name)
				break
			}
			for _, b := range before {
				emit(b.text, b.num, b.offset, '-')
			}
			before = before[:0]
			emit(text, lineNo, lineOff, ':')
			if o.after > 0 {
				afterLeft = o.after
			}
		}
		if o.maxCount > 0 && count >= o.maxCount {
			if listing || afterLeft == 0 {
				break
			}
			pendingOnly = true
		}
	}
	if o.count && !o.listMatch && !o.listNonMatch {
		if showName {
			g.writeName(name, ':')
		}
		g.out.WriteString(strconv.FormatInt(count, 10))
		g.out.WriteByte('\n')
	}
	if (o.listMatch && count > 0) || (o.listNonMatch && count == 0) {
		g.out.WriteString(name)
		if o.nullName {
			g.out.WriteByte(0)
		} else {
			g.out.WriteByte('\n')
		}
	}
	return nil
}

// oneLiteral is the pattern when the matcher is one plain literal that a
// line contains to match (not -x, -w, nor holding sep, nor empty).
func (g *grepState) oneLiteral(sep byte) ([]byte, bool) {
	m := g.m
	if m.lits == nil || len(m.lits) != 1 || m.exact || m.words {
		return nil, false
	}
	lit := m.lits[0]
	if len(lit) == 0 || bytes.IndexByte(lit, sep) >= 0 {
		return nil, false
	}
	return lit, true
}

// searchLiteral is search for one literal when only the selected lines
// are printed, each as it is (with the file name when showName): it looks
// for lit in the buffered input and cuts out only the lines that hold it,
// as GNU grep does, instead of testing every line. nulCheck: a selected
// line with a NUL byte makes the input binary (search's rule past the
// first bytes): the lines before it are printed, then "binary file
// matches". It looks at the context before each read and every 64
// selected lines, and stops at the first failed write.
func (g *grepState) searchLiteral(r io.Reader, lit []byte, sep byte, name string, showName, nulCheck bool) error {
	pooled := cmdutil.GetBuf()
	defer cmdutil.PutBuf(pooled)
	buf := *pooled
	start, end := 0, 0 // unread data: buf[start:end]
	var rerr error
	selected, empty := 0, 0
	// Selected lines next to each other in buf are written in one go
	// when nothing comes before each: buf[runStart:runEnd], separators
	// included.
	runs := !showName
	runStart, runEnd := 0, 0
	flush := func() {
		if runEnd > runStart {
			g.out.Write(buf[runStart:runEnd])
		}
		runStart, runEnd = 0, 0
	}
	// sel prints one selected line; false when the search ends there.
	sel := func(text []byte) bool {
		g.matched = true
		if nulCheck && bytes.IndexByte(text, 0) >= 0 {
			flush()
			g.out.Flush()
			fmt.Fprintf(g.c.Stderr, "grep: %s: binary file matches\n", name)
			return false
		}
		g.used = true
		g.prefix(name, showName, 0, 0, ':')
		g.out.Write(text)
		g.out.WriteByte(sep)
		return true
	}
	for {
		// The whole lines of the data: buf[start:limit].
		if last := bytes.LastIndexByte(buf[start:end], sep); last >= 0 {
			limit := start + last + 1
			for start < limit {
				i := bytes.Index(buf[start:limit], lit)
				if i < 0 {
					start = limit
					break
				}
				at := start + i
				ls := start + bytes.LastIndexByte(buf[start:at], sep) + 1
				le := at + bytes.IndexByte(buf[at:limit], sep)
				if selected++; selected%64 == 0 {
					if err := g.ctx.Err(); err != nil {
						return err
					}
				}
				if runs && !(nulCheck && bytes.IndexByte(buf[ls:le], 0) >= 0) {
					g.matched, g.used = true, true
					if ls != runEnd || runEnd == runStart {
						flush()
						runStart = ls
					}
					runEnd = le + 1
				} else if !sel(buf[ls:le]) {
					return nil
				}
				if g.w.Err != nil {
					return g.w.Err
				}
				start = le + 1
			}
		}
		flush()
		if rerr != nil {
			// A last line without sep.
			if start < end && bytes.Contains(buf[start:end], lit) && !sel(buf[start:end]) {
				return nil
			}
			if rerr != io.EOF {
				g.warn(name, rerr)
			}
			return nil
		}
		if err := g.ctx.Err(); err != nil {
			return err
		}
		if g.w.Err != nil {
			return g.w.Err
		}
		buf, end, rerr = cmdutil.Refill(r, buf, start, end, &empty)
		start = 0
	}
}

// separator prints the group separator between context groups.
func (g *grepState) separator() {
	s := "--"
	if g.o.groupSep != nil {
		s = *g.o.groupSep
		if s == "\x00none" {
			return
		}
	}
	g.out.WriteString(s)
	g.out.WriteByte('\n')
}

func (g *grepState) writeName(name string, sepc byte) {
	g.out.WriteString(name)
	if g.o.nullName {
		g.out.WriteByte(0)
	} else {
		g.out.WriteByte(sepc)
	}
}

// prefix writes "name:", "num:" and "offset:" as asked, with sepc being ':'
// for selected lines and '-' for context.
func (g *grepState) prefix(name string, showName bool, num, off int64, sepc byte) {
	if showName {
		g.writeName(name, sepc)
	}
	if g.o.lineNum {
		g.writeNum(num)
		g.out.WriteByte(sepc)
	}
	if g.o.byteOffset {
		g.writeNum(off)
		g.out.WriteByte(sepc)
	}
	if g.o.initialTab && (showName || g.o.lineNum || g.o.byteOffset) {
		g.out.WriteByte('\t')
	}
}

// writeNum writes a line number or offset; under -T, right-aligned to the
// width of the file's size, as GNU does.
func (g *grepState) writeNum(n int64) {
	s := strconv.FormatInt(n, 10)
	if g.o.initialTab {
		for i := len(s); i < g.numWidth; i++ {
			g.out.WriteByte(' ')
		}
	}
	g.out.WriteString(s)
}

// ReadLine reads one line including its separator (absent at the end
// of input), reusing *buf for long lines.
func ReadLine(br *bufio.Reader, sep byte, buf *[]byte) ([]byte, error) {
	line, err := br.ReadSlice(sep)
	if err != bufio.ErrBufferFull {
		return line, err
	}
	*buf = append((*buf)[:0], line...)
	for {
		line, err = br.ReadSlice(sep)
		*buf = append(*buf, line...)
		if err != bufio.ErrBufferFull {
			return *buf, err
		}
	}
}

// Writer records the first error writing to an output, so that grep
// and sed stop reading when the reader of a pipe has gone.
type Writer struct {
	W   io.Writer
	Err error
}

func (w *Writer) Write(p []byte) (int, error) {
	if w.Err != nil {
		return 0, w.Err
	}
	n, err := w.W.Write(p)
	if err != nil {
		w.Err = err
	}
	return n, err
}

// WriteFailed ends a command whose output failed: quietly with 141
// (as SIGPIPE would) for a closed pipe, else with a message and status.
func WriteFailed(c *command.Call, name string, status int, err error) error {
	if err == nil {
		err = io.ErrShortWrite
	}
	if errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed) {
		return command.Exit(141)
	}
	return c.Errorf(status, name, "write error: %s", ErrText(err))
}
