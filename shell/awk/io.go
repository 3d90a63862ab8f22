package awk

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// recordReader splits a stream into records by RS, which may change
// between records.
type recordReader struct {
	r     io.Reader
	buf   []byte
	pos   int // start of the unread data
	end   int
	eof   bool
	err   error
	empty int // reads in a row that returned nothing
}

func newRecordReader(r io.Reader) *recordReader {
	return &recordReader{r: r}
}

// fill reads more data; it returns false at the end of the stream.
func (rr *recordReader) fill() bool {
	if rr.eof {
		return false
	}
	if rr.pos > 0 {
		copy(rr.buf, rr.buf[rr.pos:rr.end])
		rr.end -= rr.pos
		rr.pos = 0
	}
	if rr.end == len(rr.buf) {
		n := 2 * len(rr.buf)
		if n < 64<<10 {
			n = 64 << 10
		}
		nb := make([]byte, n)
		copy(nb, rr.buf[:rr.end])
		rr.buf = nb
	}
	n, err := rr.r.Read(rr.buf[rr.end:])
	rr.end += n
	if err != nil {
		rr.eof = true
		if err != io.EOF {
			rr.err = err
		}
		return n > 0
	}
	if n == 0 {
		rr.empty++
		if rr.empty > 100 {
			rr.eof = true
			rr.err = io.ErrNoProgress
			return false
		}
	} else {
		rr.empty = 0
	}
	return true
}

// fillAtLeast reads until n more bytes came in or the stream ended; it
// returns false if nothing more could be read.
func (rr *recordReader) fillAtLeast(n int) bool {
	start := rr.end - rr.pos
	got := false
	for {
		if !rr.fill() {
			return got
		}
		got = true
		if rr.end-rr.pos-start >= n {
			return true
		}
	}
}

// next returns the next record with RS rs and the text that ended it
// (RT).
func (rr *recordReader) next(in *interp, rs string) (rec, rt string, ok bool) {
	switch {
	case len(rs) == 1:
		sep := rs[0]
		off := 0
		for {
			data := rr.buf[rr.pos:rr.end]
			if i := bytes.IndexByte(data[off:], sep); i >= 0 {
				i += off
				rec = string(data[:i])
				rr.pos += i + 1
				return rec, rs, true
			}
			off = len(data)
			if !rr.fill() {
				return rr.rest()
			}
		}
	case rs == "":
		return rr.paragraph()
	}
	re := in.regex(rs)
	for {
		data := rr.buf[rr.pos:rr.end]
		start := 0
		var loc []int
		for start <= len(data) {
			m := re.FindIndex(data[start:])
			if m == nil {
				break
			}
			if m[1] > m[0] {
				loc = []int{start + m[0], start + m[1]}
				break
			}
			start += m[0] + 1
		}
		if loc != nil && (loc[1] < len(data) || rr.eof) {
			rec = string(data[:loc[0]])
			rt = string(data[loc[0]:loc[1]])
			rr.pos += loc[1]
			return rec, rt, true
		}
		// Read at least as much again before searching anew, so that a long
		// record costs O(n) searching, not O(n²), however small the reads.
		if !rr.fillAtLeast(len(data)) {
			if loc != nil {
				data = rr.buf[rr.pos:rr.end]
				rec = string(data[:loc[0]])
				rt = string(data[loc[0]:loc[1]])
				rr.pos += loc[1]
				return rec, rt, true
			}
			return rr.rest()
		}
	}
}

func (rr *recordReader) rest() (string, string, bool) {
	if rr.pos < rr.end {
		rec := string(rr.buf[rr.pos:rr.end])
		rr.pos = rr.end
		return rec, "", true
	}
	return "", "", false
}

func (rr *recordReader) paragraph() (string, string, bool) {
	// Skip leading newlines.
	for {
		for rr.pos < rr.end && rr.buf[rr.pos] == '\n' {
			rr.pos++
		}
		if rr.pos < rr.end {
			break
		}
		if !rr.fill() {
			return "", "", false
		}
	}
	off := 0
	for {
		data := rr.buf[rr.pos:rr.end]
		if i := bytes.Index(data[off:], []byte("\n\n")); i >= 0 {
			i += off
			j := i
			for j < len(data) && data[j] == '\n' {
				j++
			}
			if j == len(data) && !rr.eof {
				off = i
				if rr.fill() {
					continue
				}
				data = rr.buf[rr.pos:rr.end]
			}
			rec := string(data[:i])
			rt := string(data[i:j])
			rr.pos += j
			return rec, rt, true
		}
		if len(data) > 0 {
			off = len(data) - 1
		}
		if !rr.fill() {
			rec := strings.TrimRight(string(rr.buf[rr.pos:rr.end]), "\n")
			rr.pos = rr.end
			return rec, "\n", true
		}
	}
}

// ---- main input

// stdinReader is the one reader over standard input, shared by the main
// input ("-") and getline < "-".
func (in *interp) stdinReader() *recordReader {
	if in.stdin == nil {
		var r io.Reader = strings.NewReader("")
		if in.cfg.Stdin != nil {
			r = in.cfg.Stdin
		}
		in.stdin = newRecordReader(r)
	}
	return in.stdin
}

func (in *interp) argvArray() map[string]value {
	c := &in.globals[1]
	if c.k != cArray {
		return nil
	}
	return c.a
}

// openNextMain opens the next file of ARGV, running assignments on the
// way; it tells whether one was opened.
func (in *interp) openNextMain() bool {
	for {
		argc := int(in.argc.toNum())
		if in.argi >= argc {
			break
		}
		i := in.argi
		in.argi++
		argv := in.argvArray()
		v, ok := argv[itoa(i)]
		if !ok {
			continue
		}
		arg := in.toStr(v)
		if arg == "" {
			continue
		}
		if in.assignArg(arg) {
			continue
		}
		in.sawFile = true
		if arg == "-" || arg == "/dev/stdin" {
			in.main = in.stdinReader()
			in.mainCloser = nil
			in.filename = strnum(arg)
			in.fnr = 0
			return true
		}
		rc, err := in.open(arg)
		if err != nil {
			in.warnf("cannot open %q (%s)", arg, errText(err))
			in.errCode = 2
			continue
		}
		in.main = newRecordReader(rc)
		in.mainCloser = rc
		in.filename = strnum(arg)
		in.fnr = 0
		return true
	}
	if !in.sawFile && !in.stdinDone {
		in.stdinDone = true
		in.main = in.stdinReader()
		in.mainCloser = nil
		in.fnr = 0
		return true
	}
	return false
}

func errText(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func (in *interp) open(name string) (io.ReadCloser, error) {
	if in.cfg.Open == nil {
		return nil, fs.ErrNotExist
	}
	return in.cfg.Open(name)
}

func (in *interp) closeMain() {
	if in.mainCloser != nil {
		in.mainCloser.Close()
	}
	in.main = nil
	in.mainCloser = nil
}

// nextMain reads the next record of the main input, counting NR and FNR.
func (in *interp) nextMain() (string, bool) {
	if in.mainEOF {
		return "", false
	}
	for {
		if in.main == nil {
			if !in.openNextMain() {
				in.mainEOF = true
				return "", false
			}
		}
		rec, rt, ok := in.main.next(in, in.rs)
		if ok {
			in.nr++
			in.fnr++
			in.rt = rt
			return rec, true
		}
		if err := in.main.err; err != nil {
			in.warnf("error reading %s: %v", in.toStr(in.filename), err)
			in.errCode = 2
			in.main.err = nil
		}
		in.closeMain()
	}
}

func (in *interp) warnf(format string, a ...any) {
	in.flushAll()
	io.WriteString(in.stderr, in.name+": "+fmt.Sprintf(format, a...)+"\n")
}

// ---- getline

type inStream struct {
	rr     *recordReader
	closer io.Closer
	cmd    bool
	status int
}

func (in *interp) getline(g *getlineExpr) value {
	var rec, rt string
	// The variable is resolved (its subscript evaluated) whether or not a
	// record comes, as other awks do.
	var lv lref
	resolve := func() {
		if g.lv != nil {
			lv = in.ref(g.lv)
		}
	}
	switch g.kind {
	case getlineMain:
		resolve()
		r, ok := in.nextMain()
		if !ok {
			return num(0)
		}
		rec = r
		if g.lv == nil {
			in.setRecord(rec)
		} else {
			in.set(lv, strnum(rec))
		}
		return num(1)
	case getlineFile:
		name := in.toStr(in.eval(g.src))
		resolve()
		s := in.inputs[name]
		if s == nil {
			if name == "-" || name == "/dev/stdin" {
				s = &inStream{rr: in.stdinReader()}
			} else {
				rc, err := in.open(name)
				if err != nil {
					return num(-1)
				}
				s = &inStream{rr: newRecordReader(rc), closer: rc}
			}
			in.inputs[name] = s
		}
		r, t, ok := s.rr.next(in, in.rs)
		if !ok {
			if s.rr.err != nil {
				return num(-1)
			}
			return num(0)
		}
		rec, rt = r, t
		in.rt = rt
		if g.lv == nil {
			in.setRecord(rec)
		} else {
			in.set(lv, strnum(rec))
		}
		return num(1)
	}
	// cmd | getline
	cmd := in.toStr(in.eval(g.src))
	resolve()
	s := in.inputs[cmd]
	if s == nil {
		in.flushAll()
		out := &capWriter{max: maxString}
		status := in.run(cmd, nil, out)
		s = &inStream{rr: newRecordReader(bytes.NewReader(out.buf.Bytes())), cmd: true, status: status}
		in.inputs[cmd] = s
	}
	r, t, ok := s.rr.next(in, in.rs)
	if !ok {
		return num(0)
	}
	in.rt = t
	in.nr++
	if g.lv == nil {
		in.setRecord(r)
	} else {
		in.set(lv, strnum(r))
	}
	return num(1)
}

// run runs a command through Config.Exec and returns its status.
func (in *interp) run(cmd string, stdin io.Reader, stdout io.Writer) int {
	if in.cfg.Exec == nil {
		in.errorf("can't run %q: running commands is not supported here", cmd)
	}
	status, err := in.cfg.Exec(in.ctx, cmd, stdin, stdout)
	if in.stopped.Load() {
		panic(stopPanic{})
	}
	if err != nil {
		in.errorf("can't run %q: %v", cmd, err)
	}
	return status
}

// capWriter collects a command's output up to max bytes; past that its
// writes fail, which stops a command that never ends by itself.
type capWriter struct {
	buf bytes.Buffer
	max int
}

func (w *capWriter) Write(p []byte) (int, error) {
	if w.buf.Len()+len(p) > w.max {
		n := w.max - w.buf.Len()
		w.buf.Write(p[:n])
		return n, errors.New("awk: command output too large for getline")
	}
	return w.buf.Write(p)
}

// ---- output

type outStream struct {
	w      *bufio.Writer
	closer io.Closer
	pipe   *bytes.Buffer
	cmd    string
}

// outputFor returns the writer for print > name, >> name or | name.
func (in *interp) outputFor(kind redirect, name string) io.Writer {
	if s, ok := in.outputs[name]; ok {
		if s.pipe != nil {
			return s.pipe
		}
		return s.w
	}
	switch name {
	case "/dev/stdout", "/dev/fd/1":
		if kind != redirPipe {
			return in.out
		}
	case "/dev/stderr", "/dev/fd/2":
		if kind != redirPipe {
			return stderrWriter{in}
		}
	}
	s := &outStream{cmd: name}
	if kind == redirPipe {
		s.pipe = &bytes.Buffer{}
	} else {
		if in.cfg.Create == nil {
			in.errorf("can't redirect to %q: writing files is not supported here", name)
		}
		wc, err := in.cfg.Create(name, kind == redirAppend)
		if err != nil {
			in.errorf("can't redirect to %q (%s)", name, errText(err))
		}
		s.w = bufio.NewWriter(wc)
		s.closer = wc
	}
	in.outputs[name] = s
	in.outOrder = append(in.outOrder, name)
	if s.pipe != nil {
		return s.pipe
	}
	return s.w
}

// stderrWriter writes to standard error after flushing standard output, so
// the two keep their order when they go to the same place.
type stderrWriter struct{ in *interp }

func (w stderrWriter) Write(p []byte) (int, error) {
	w.in.out.Flush()
	return w.in.stderr.Write(p)
}

// closeStream closes an output or input stream by name; it returns close()'s
// result.
func (in *interp) closeStream(name string) int {
	if s, ok := in.outputs[name]; ok {
		delete(in.outputs, name)
		for i, n := range in.outOrder {
			if n == name {
				in.outOrder = append(in.outOrder[:i], in.outOrder[i+1:]...)
				break
			}
		}
		return in.closeOut(s)
	}
	if s, ok := in.inputs[name]; ok {
		delete(in.inputs, name)
		if s.closer != nil {
			s.closer.Close()
		}
		if s.cmd {
			return s.status
		}
		return 0
	}
	switch name {
	case "/dev/stdout", "/dev/fd/1":
		in.out.Flush()
		return 0
	case "/dev/stderr", "/dev/fd/2":
		return 0
	}
	return -1
}

func (in *interp) closeOut(s *outStream) int {
	if s.pipe != nil {
		in.flushAll()
		return in.run(s.cmd, bytes.NewReader(s.pipe.Bytes()), nil)
	}
	err := s.w.Flush()
	if cerr := s.closer.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return -1
	}
	return 0
}

// flushAll flushes standard output and every output file.
func (in *interp) flushAll() {
	if err := in.out.Flush(); err != nil && in.writeErr == nil {
		in.writeErr = err
	}
	for _, name := range in.outOrder {
		if s := in.outputs[name]; s != nil && s.w != nil {
			s.w.Flush()
		}
	}
}

// closeAll ends the program's streams: files are flushed and closed, and
// output pipes run (unless the program was stopped).
func (in *interp) closeAll(runPipes bool) {
	for _, name := range append([]string(nil), in.outOrder...) {
		s := in.outputs[name]
		if s == nil {
			continue
		}
		delete(in.outputs, name)
		if s.pipe != nil {
			if runPipes {
				in.closeOut(s)
			}
			continue
		}
		in.closeOut(s)
	}
	in.outOrder = nil
	for name, s := range in.inputs {
		if s.closer != nil {
			s.closer.Close()
		}
		delete(in.inputs, name)
	}
	in.closeMain()
	if err := in.out.Flush(); err != nil && in.writeErr == nil {
		in.writeErr = err
	}
}
