package sed

// sed's executor: the cycle, addresses and the commands.

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/grep"
	"github.com/spf13/afero"
)

// sedExec runs a program.
type sedExec struct {
	ctx      context.Context
	c        *command.Call
	o        *sedOpts
	prog     *sedProg
	quiet    bool
	sep      byte
	in       *sedInput
	out      *sedOutput
	stdout   *sedOutput
	stdoutW  *grep.Writer // under stdout
	ps, hs   sedBuf
	lineNo   int64
	fileName string
	queue    []sedQueued
	tflag    bool
	lastRE   *sedRegex
	wfiles   map[string]*sedOutput
	rfiles   map[string]*bufio.Reader
	status   int
	quit     bool
	quitCode int
}

// warn prints "sed: message" and raises the exit status.
func (x *sedExec) warn(status int, format string, a ...any) {
	x.stdout.w.Flush()
	x.c.Errorf(status, "sed", format, a...)
	if status > x.status {
		x.status = status
	}
}

// sedRun executes prog over the files (stdin when none).
func sedRun(ctx context.Context, c *command.Call, o *sedOpts, prog *sedProg, files []string) error {
	x := &sedExec{ctx: ctx, c: c, o: o, prog: prog, quiet: o.quiet || prog.quiet, sep: '\n'}
	if o.nullData {
		x.sep = 0
	}
	x.stdoutW = &grep.Writer{W: c.Stdout}
	x.stdout = &sedOutput{w: bufio.NewWriterSize(x.stdoutW, 32<<10), sep: x.sep}
	x.out = x.stdout
	x.hs = sedBuf{chomped: true}
	if err := x.openWFiles(); err != nil {
		return err
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	var err error
	switch {
	case o.inPlace:
		for _, f := range files {
			if x.quit || err != nil {
				break
			}
			err = x.editInPlace(f)
		}
	case o.separate:
		for _, f := range files {
			if x.quit || err != nil {
				break
			}
			err = x.stream([]string{f})
		}
	default:
		err = x.stream(files)
	}
	x.stdout.w.Flush()
	for _, name := range prog.wfiles {
		if w := x.wfiles[name]; w != nil {
			w.w.Flush()
			if w.file != nil {
				w.file.Close()
				w.file = nil
			}
		}
	}
	if x.stdoutW.Err != nil {
		return grep.WriteFailed(c, "sed", 4, x.stdoutW.Err)
	}
	if err != nil {
		if f, ok := err.(*sedFail); ok {
			return c.Errorf(f.status, "sed", "%s", f.msg)
		}
		return err
	}
	if x.quit {
		return command.Exit(x.quitCode)
	}
	return command.Exit(x.status)
}

// stream runs cycles over the files as one input stream.
func (x *sedExec) stream(names []string) error {
	x.in = &sedInput{x: x, names: names}
	defer x.in.close()
	if x.o.separate {
		x.lineNo = 0
	}
	for !x.quit && x.stdoutW.Err == nil {
		if err := x.ctx.Err(); err != nil {
			return err
		}
		if !x.readLine(false) {
			break
		}
		if err := x.cycle(); err != nil {
			return err
		}
	}
	return nil
}

// readLine reads the next input line into the pattern space (appending
// after a newline when add). It first flushes the append queue.
func (x *sedExec) readLine(add bool) bool {
	line, f, ok := x.in.read()
	if !ok {
		return false
	}
	x.flushQueue()
	x.lineNo++
	x.fileName = f.name
	x.tflag = false
	if add {
		x.ps = sedBuf{s: x.ps.s + string(x.sep) + line.s, chomped: line.chomped}
	} else {
		x.ps = line
	}
	return true
}

// flushQueue writes the a/r/R output waiting for the end of the cycle.
func (x *sedExec) flushQueue() {
	for _, q := range x.queue {
		switch {
		case q.file != "":
			var data []byte
			if q.file == "/dev/stdin" {
				data, _ = io.ReadAll(x.c.Stdin)
			} else {
				data, _ = afero.ReadFile(x.c.FS, x.c.Abs(q.file))
			}
			if len(data) > 0 {
				x.out.write(string(data))
			}
		default:
			x.out.write(q.text)
		}
	}
	x.queue = x.queue[:0]
}

// endCycle prints the pattern space (unless -n) and the append queue.
func (x *sedExec) endCycle() {
	if !x.quiet {
		x.out.writeBuf(x.ps)
	}
	x.flushQueue()
}

// cycle runs the script over the pattern space, then ends the cycle.
func (x *sedExec) cycle() error {
	for restart := true; restart; {
		restart = false
		act, err := x.execute()
		if err != nil {
			return err
		}
		switch act {
		case sedActEnd:
			x.endCycle()
		case sedActDelete:
			x.flushQueue()
		case sedActRestart:
			// D with a newline: new cycle on the rest, no new input.
			if err := x.ctx.Err(); err != nil {
				return err
			}
			restart = true
		case sedActQuit:
			x.endCycle()
			x.quit = true
		case sedActQuitSilent:
			x.quit = true
		}
	}
	return nil
}

type sedAction int

// sedMaxSpace bounds the pattern and hold spaces (a runaway loop such as
// ":a;s/x/xx/g;ta" would otherwise exhaust memory).
const sedMaxSpace = 64 << 20

const (
	sedActEnd sedAction = iota
	sedActDelete
	sedActRestart
	sedActQuit
	sedActQuitSilent
)

// matchAddr reports whether a single address matches the current line.
func (x *sedExec) matchAddr(a *sedAddr) (bool, error) {
	switch a.kind {
	case sedAddrLine:
		return x.lineNo == a.n, nil
	case sedAddrLast:
		return x.in.isLast(), nil
	case sedAddrStep:
		if a.step <= 0 {
			return x.lineNo == a.n, nil
		}
		return x.lineNo >= a.n && (x.lineNo-a.n)%a.step == 0, nil
	case sedAddrRegex:
		re, err := x.regex(a.re)
		if err != nil {
			return false, err
		}
		return re.re.MatchString(x.ps.s), nil
	}
	return false, nil
}

// regex returns the regexp to use, tracking the last one used.
func (x *sedExec) regex(r *sedRegex) (*sedRegex, error) {
	if r.re != nil {
		x.lastRE = r
		return r, nil
	}
	if x.lastRE == nil {
		return nil, &sedFail{status: 1, msg: "-e expression #1, char 0: no previous regular expression"}
	}
	return x.lastRE, nil
}

// selected reports whether cmd applies to the current line.
func (x *sedExec) selected(cmd *sedCmd) (bool, error) {
	if cmd.a1 == nil {
		return !cmd.negate, nil
	}
	ok, err := x.selectedRaw(cmd)
	return ok != cmd.negate, err
}

func (x *sedExec) selectedRaw(cmd *sedCmd) (bool, error) {
	if cmd.a2 == nil {
		return x.matchAddr(cmd.a1)
	}
	a2 := cmd.a2
	if cmd.active {
		switch a2.kind {
		case sedAddrLine, sedAddrPlus, sedAddrMult:
			if x.lineNo > cmd.end {
				cmd.active = false
				return x.startRange(cmd)
			}
			if x.lineNo == cmd.end {
				cmd.active = false
			}
			return true, nil
		case sedAddrLast:
			if x.in.isLast() {
				cmd.active = false
			}
			return true, nil
		default:
			ok, err := x.matchAddr(a2)
			if err != nil {
				return false, err
			}
			if ok {
				cmd.active = false
			}
			return true, nil
		}
	}
	return x.startRange(cmd)
}

// startRange checks the first address of a range and opens it.
func (x *sedExec) startRange(cmd *sedCmd) (bool, error) {
	a2 := cmd.a2
	if cmd.a1.kind == sedAddrZero {
		// 0,/re/: open before the first line, so /re/ may end it there.
		if cmd.zeroDone {
			return false, nil
		}
		cmd.zeroDone = true
		m, err := x.matchAddr(a2)
		if err != nil {
			return false, err
		}
		cmd.active = !m
		return true, nil
	}
	ok, err := x.matchAddr(cmd.a1)
	if err != nil || !ok {
		return false, err
	}
	switch a2.kind {
	case sedAddrLine:
		if a2.n > x.lineNo {
			cmd.active, cmd.end = true, a2.n
		}
	case sedAddrPlus:
		if a2.n > 0 {
			cmd.active, cmd.end = true, x.lineNo+a2.n
		}
	case sedAddrMult:
		if a2.n > 0 && x.lineNo%a2.n != 0 {
			cmd.active, cmd.end = true, (x.lineNo/a2.n+1)*a2.n
		}
	case sedAddrLast:
		if !x.in.isLast() {
			cmd.active = true
		}
	default:
		cmd.active = true
	}
	return true, nil
}

// execute runs the commands over the pattern space.
func (x *sedExec) execute() (sedAction, error) {
	cmds := x.prog.cmds
	jumps := 0
	for pc := 0; pc < len(cmds); {
		cmd := cmds[pc]
		if cmd.name == '}' || cmd.name == ':' {
			pc++
			continue
		}
		ok, err := x.selected(cmd)
		if err != nil {
			return 0, err
		}
		if !ok {
			if cmd.name == '{' {
				pc = cmd.blockEnd + 1
			} else {
				pc++
			}
			continue
		}
		pc++
		switch cmd.name {
		case '{':
		case '=':
			x.out.write(strconv.FormatInt(x.lineNo, 10) + "\n")
		case 'a':
			x.queue = append(x.queue, sedQueued{text: cmd.text})
		case 'i':
			x.out.write(cmd.text)
		case 'c':
			if cmd.a2 == nil || !cmd.active {
				x.out.write(cmd.text)
			}
			return sedActDelete, nil
		case 'd':
			return sedActDelete, nil
		case 'D':
			i := strings.IndexByte(x.ps.s, x.sep)
			if i < 0 {
				return sedActDelete, nil
			}
			x.ps.s = x.ps.s[i+1:]
			return sedActRestart, nil
		case 'e':
		case 'F':
			name := x.fileName
			x.out.write(name + "\n")
		case 'g':
			x.ps = x.hs
		case 'G':
			x.ps = sedBuf{s: x.ps.s + string(x.sep) + x.hs.s, chomped: x.hs.chomped}
		case 'h':
			x.hs = x.ps
		case 'H':
			x.hs = sedBuf{s: x.hs.s + string(x.sep) + x.ps.s, chomped: x.ps.chomped}
		case 'x':
			x.ps, x.hs = x.hs, x.ps
		case 'l':
			width := x.o.lineLen
			if cmd.intArg >= 0 {
				width = cmd.intArg
			}
			x.out.write(sedList(x.ps.s, width))
		case 'n':
			// At the end of input, n and N end the cycle (GNU prints the
			// pattern space) and sed stops.
			if x.in.isLast() {
				return sedActEnd, nil
			}
			if !x.quiet {
				x.out.writeBuf(x.ps)
			}
			x.readLine(false)
		case 'N':
			if x.in.isLast() {
				return sedActEnd, nil
			}
			x.readLine(true)
		case 'p':
			x.out.writeBuf(x.ps)
		case 'P':
			x.out.writeBuf(sedFirstLine(x.ps, x.sep))
		case 'q':
			x.quitCode = cmd.intArg
			return sedActQuit, nil
		case 'Q':
			x.quitCode = cmd.intArg
			return sedActQuitSilent, nil
		case 'r':
			x.queue = append(x.queue, sedQueued{file: cmd.fname})
		case 'R':
			if line, ok := x.readRLine(cmd.fname); ok {
				x.queue = append(x.queue, sedQueued{text: line})
			}
		case 's':
			if err := x.substitute(cmd); err != nil {
				return 0, err
			}
		case 't':
			if x.tflag {
				x.tflag = false
				pc = cmd.target
			}
		case 'T':
			if !x.tflag {
				pc = cmd.target
			} else {
				x.tflag = false
			}
		case 'b':
			pc = cmd.target
		}
		switch cmd.name {
		case 'b', 't', 'T', 's', 'G', 'H', 'N':
			jumps++
			if jumps%1024 == 0 {
				if err := x.ctx.Err(); err != nil {
					return 0, err
				}
			}
			if len(x.ps.s) > sedMaxSpace || len(x.hs.s) > sedMaxSpace {
				return 0, &sedFail{status: 4, msg: "pattern space too large"}
			}
		}
		switch cmd.name {
		case 'w':
			x.wfiles[cmd.fname].writeBuf(sedBuf{s: x.ps.s, chomped: true})
		case 'W':
			x.wfiles[cmd.fname].writeBuf(sedFirstLine(x.ps, x.sep))
		case 'y':
			var b strings.Builder
			for _, r := range x.ps.s {
				if m, ok := cmd.ymap[r]; ok {
					r = m
				}
				b.WriteRune(r)
			}
			x.ps.s = b.String()
		case 'z':
			x.ps.s = ""
		}
	}
	return sedActEnd, nil
}

// sedFirstLine is the pattern space up to its first newline (P, W).
func sedFirstLine(b sedBuf, sep byte) sedBuf {
	if i := strings.IndexByte(b.s, sep); i >= 0 {
		return sedBuf{s: b.s[:i], chomped: true}
	}
	return b
}

// substitute runs an s command. Matches are found one at a time (no
// slice of all matches), with Go's rule for empty matches, which is GNU's:
// an empty match right after a previous match is skipped.
func (x *sedExec) substitute(cmd *sedCmd) error {
	re, err := x.regex(cmd.re)
	if err != nil {
		return err
	}
	s := x.ps.s
	want := cmd.nth
	if want < 1 {
		want = 1
	}
	var b strings.Builder
	last, count, replaced := 0, 0, false
	for pos, prevEnd := 0, -1; pos <= len(s); {
		var m []int
		if pos == 0 {
			m = re.re.FindStringSubmatchIndex(s)
		} else if m = re.cont.FindStringSubmatchIndex(s[pos-1:]); m != nil {
			for k := range m {
				if m[k] >= 0 {
					m[k] += pos - 1
				}
			}
			m[0]++ // the context character is not part of the match
		}
		if m == nil {
			break
		}
		accept := true
		if m[1] == pos {
			if m[0] == prevEnd {
				accept = false
			}
			if pos < len(s) {
				_, w := utf8.DecodeRuneInString(s[pos:])
				pos += w
			} else {
				pos++
			}
		} else {
			pos = m[1]
		}
		prevEnd = m[1]
		if !accept {
			continue
		}
		count++
		if count%4096 == 0 {
			if err := x.ctx.Err(); err != nil {
				return err
			}
		}
		if count < want {
			continue
		}
		b.WriteString(s[last:m[0]])
		sedExpand(&b, cmd.repl, s, m)
		last = m[1]
		replaced = true
		if !cmd.global || b.Len() > sedMaxSpace {
			break
		}
	}
	if !replaced {
		return nil
	}
	b.WriteString(s[last:])
	x.ps.s = b.String()
	x.tflag = true
	if cmd.print > 0 {
		x.out.writeBuf(x.ps)
	}
	if cmd.fname != "" {
		x.wfiles[cmd.fname].writeBuf(sedBuf{s: x.ps.s, chomped: true})
	}
	return nil
}

// sedExpand appends the replacement for match m of s.
func sedExpand(b *strings.Builder, parts []sedReplPart, s string, m []int) {
	var mode, once byte // mode: 'U' 'L' or 0; once: 'u' 'l' or 0
	put := func(t string) {
		if t == "" {
			return
		}
		if once != 0 {
			r, size := utf8.DecodeRuneInString(t)
			if once == 'u' {
				r = unicode.ToUpper(r)
			} else {
				r = unicode.ToLower(r)
			}
			b.WriteRune(r)
			t = t[size:]
			once = 0
		}
		switch mode {
		case 'U':
			t = strings.ToUpper(t)
		case 'L':
			t = strings.ToLower(t)
		}
		b.WriteString(t)
	}
	for _, p := range parts {
		switch {
		case p.conv == 'U' || p.conv == 'L':
			mode, once = p.conv, 0
		case p.conv == 'E':
			mode, once = 0, 0
		case p.conv != 0:
			once = p.conv
		case p.group >= 0:
			if 2*p.group+1 < len(m) && m[2*p.group] >= 0 {
				put(s[m[2*p.group]:m[2*p.group+1]])
			}
		default:
			put(p.lit)
		}
	}
}
