package sed

// sed's input and output: the pattern and hold spaces, output streams with
// GNU's handling of a last line without newline, input streams with one
// line of lookahead (for $), in-place editing, and the l command's format.

import (
	"bufio"
	"bytes"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/grep"
	"github.com/spf13/afero"
)

// sedBuf is the pattern or hold space; chomped says the text had its
// line terminator (a last line without one is printed without one).
type sedBuf struct {
	s       string
	chomped bool
}

// sedOutput is an output stream. missingNL: the last text written lacked
// its newline, to be written before anything else.
type sedOutput struct {
	w         *bufio.Writer
	missingNL bool
	sep       byte
	// file is set for w files (flushed at the end).
	file afero.File
}

func (o *sedOutput) write(s string) {
	if o.missingNL {
		o.w.WriteByte(o.sep)
		o.missingNL = false
	}
	o.w.WriteString(s)
}

func (o *sedOutput) writeBuf(b sedBuf) {
	o.write(b.s)
	if b.chomped {
		o.w.WriteByte(o.sep)
	} else {
		o.missingNL = true
	}
}

// sedQueued is output waiting for the end of the cycle: a/r/R.
type sedQueued struct {
	text string // a text, or an R line (with its newline)
	file string // r FILE
}

// sedInFile is one input file being read, with one line of lookahead.
type sedInFile struct {
	name   string
	r      *bufio.Reader
	closer io.Closer
	la     sedBuf
	laOK   bool
	done   bool
	buf    []byte
	sep    byte
}

func (f *sedInFile) peek() bool {
	if f.laOK {
		return true
	}
	if f.done {
		return false
	}
	line, _ := grep.ReadLine(f.r, f.sep, &f.buf)
	if len(line) == 0 {
		f.done = true
		if f.closer != nil {
			f.closer.Close()
		}
		return false
	}
	f.la = sedBuf{s: string(line), chomped: false}
	if line[len(line)-1] == f.sep {
		f.la = sedBuf{s: string(line[:len(line)-1]), chomped: true}
	}
	f.laOK = true
	return true
}

// sedInput is a stream of input files read as one.
type sedInput struct {
	x     *sedExec
	names []string
	next  int
	files []*sedInFile
}

// openNext opens the next readable file, reporting the others.
func (in *sedInput) openNext() *sedInFile {
	x := in.x
	for in.next < len(in.names) {
		name := in.names[in.next]
		in.next++
		f := &sedInFile{name: name, sep: x.sep}
		if name == "-" {
			f.r = bufio.NewReader(x.c.Stdin)
			return f
		}
		abs := x.c.Abs(name)
		fi, err := x.c.FS.Stat(abs)
		if err == nil && fi.IsDir() {
			x.warn(4, "read error on %s: Is a directory", name)
			continue
		}
		h, err := x.c.FS.Open(abs)
		if err != nil {
			x.warn(2, "can't read %s: %s", name, grep.ErrText(err))
			continue
		}
		f.r, f.closer = bufio.NewReaderSize(h, 64<<10), h
		return f
	}
	return nil
}

// read returns the next line and the file it comes from.
func (in *sedInput) read() (sedBuf, *sedInFile, bool) {
	for {
		if len(in.files) == 0 {
			f := in.openNext()
			if f == nil {
				return sedBuf{}, nil, false
			}
			in.files = append(in.files, f)
		}
		f := in.files[0]
		if f.peek() {
			f.laOK = false
			return f.la, f, true
		}
		in.files = in.files[1:]
	}
}

// isLast reports whether no line follows the current one.
func (in *sedInput) isLast() bool {
	for k := 0; ; k++ {
		if k >= len(in.files) {
			f := in.openNext()
			if f == nil {
				return true
			}
			in.files = append(in.files, f)
		}
		if in.files[k].peek() {
			return false
		}
	}
}

func (in *sedInput) close() {
	for _, f := range in.files {
		if f.closer != nil && !f.done {
			f.closer.Close()
		}
	}
}

// openWFiles creates (truncates) the files of w commands.
func (x *sedExec) openWFiles() error {
	x.wfiles = map[string]*sedOutput{}
	for _, name := range x.prog.wfiles {
		if _, ok := x.wfiles[name]; ok {
			continue
		}
		switch name {
		case "/dev/stdout":
			x.wfiles[name] = x.stdout
			continue
		case "/dev/stderr":
			x.wfiles[name] = &sedOutput{w: bufio.NewWriter(x.c.Stderr), sep: x.sep}
			continue
		}
		f, err := x.c.FS.Create(x.c.Abs(name))
		if err != nil {
			return x.c.Errorf(4, "sed", "couldn't open file %s: %s", name, grep.ErrText(err))
		}
		x.wfiles[name] = &sedOutput{w: bufio.NewWriter(f), sep: x.sep, file: f}
	}
	return nil
}

// editInPlace runs the program over one file, writing the result back.
func (x *sedExec) editInPlace(name string) error {
	abs := x.c.Abs(name)
	fi, err := x.c.FS.Stat(abs)
	if err != nil {
		x.warn(2, "can't read %s: %s", name, grep.ErrText(err))
		return nil
	}
	if !fi.Mode().IsRegular() {
		x.warn(4, "couldn't edit %s: not a regular file", name)
		return nil
	}
	orig, err := afero.ReadFile(x.c.FS, abs)
	if err != nil {
		x.warn(4, "couldn't edit %s: %s", name, grep.ErrText(err))
		return nil
	}
	var buf bytes.Buffer
	x.out = &sedOutput{w: bufio.NewWriter(&buf), sep: x.sep}
	err = x.stream([]string{name})
	x.out.w.Flush()
	x.out = x.stdout
	if err != nil {
		return err
	}
	if x.o.suffix != "" {
		bak := x.o.suffix
		if strings.Contains(bak, "*") {
			bak = strings.ReplaceAll(bak, "*", path.Base(abs))
			if !strings.Contains(bak, "/") {
				bak = path.Join(path.Dir(abs), bak)
			} else {
				bak = x.c.Abs(bak)
			}
		} else {
			bak = abs + bak
		}
		if err := afero.WriteFile(x.c.FS, bak, orig, fi.Mode().Perm()); err != nil {
			x.warn(4, "couldn't open file %s: %s", bak, grep.ErrText(err))
			return nil
		}
	}
	if err := afero.WriteFile(x.c.FS, abs, buf.Bytes(), fi.Mode().Perm()); err != nil {
		x.warn(4, "couldn't edit %s: %s", name, grep.ErrText(err))
	}
	return nil
}

// readRLine reads the next line of an R file ("" false at its end).
func (x *sedExec) readRLine(name string) (string, bool) {
	if x.rfiles == nil {
		x.rfiles = map[string]*bufio.Reader{}
	}
	r, ok := x.rfiles[name]
	if !ok {
		if name == "/dev/stdin" || name == "-" {
			r = bufio.NewReader(x.c.Stdin)
		} else if data, err := afero.ReadFile(x.c.FS, x.c.Abs(name)); err == nil {
			r = bufio.NewReader(bytes.NewReader(data))
		}
		x.rfiles[name] = r
	}
	if r == nil {
		return "", false
	}
	line, err := r.ReadString(x.sep)
	if line == "" && err != nil {
		return "", false
	}
	return line, true // GNU copies a last line without newline as it is
}

// sedList renders s as the l command does, wrapping at width (0 or 1: no
// wrapping).
func sedList(s string, width int) string {
	var b strings.Builder
	col := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var e string
		switch c {
		case '\\':
			e = `\\`
		case '\a':
			e = `\a`
		case '\b':
			e = `\b`
		case '\f':
			e = `\f`
		case '\n':
			e = `\n`
		case '\r':
			e = `\r`
		case '\t':
			e = `\t`
		case '\v':
			e = `\v`
		default:
			if c >= ' ' && c < 0x7f {
				e = string(c)
			} else {
				e = "\\" + strconv.FormatInt(int64(c)+01000, 8)[1:]
			}
		}
		if width > 1 && col+len(e) > width-1 {
			b.WriteString("\\\n")
			col = 0
		}
		b.WriteString(e)
		col += len(e)
	}
	b.WriteString("$\n")
	return b.String()
}
