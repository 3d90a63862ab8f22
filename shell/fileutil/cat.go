package fileutil

import (
	"bufio"
	"context"
	"io"
	"io/fs"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
	"github.com/spf13/afero"
)

func init() { command.Register(posixfs.Strictly(fsCat), "cat") }

// fsCat is cat: -n (number lines), -b (number non-blank lines), -s
// (squeeze blank lines), -E (show ends), -T (show tabs), -v (show
// non-printing), -A (-vET), -e (-vE), -t (-vT), -u (ignored). "-" and no
// operand read stdin.
func fsCat(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(cmdutil.Flags{Short: "AbeEnstTuv", Long: map[string]string{
		"show-all": "A", "number-nonblank": "b", "show-ends": "E", "number": "n",
		"squeeze-blank": "s", "show-tabs": "T", "show-nonprinting": "v",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "cat", 1, err)
	}
	var o fsCatOpts
	for _, op := range opts {
		switch op.Key {
		case "A":
			o.nonprint, o.ends, o.tabs = true, true, true
		case "b":
			o.numberNonblank = true
		case "e":
			o.nonprint, o.ends = true, true
		case "E":
			o.ends = true
		case "n":
			o.number = true
		case "s":
			o.squeeze = true
		case "t":
			o.nonprint, o.tabs = true, true
		case "T":
			o.tabs = true
		case "v":
			o.nonprint = true
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	plain := !o.number && !o.numberNonblank && !o.squeeze && !o.ends && !o.tabs && !o.nonprint
	w := bufio.NewWriterSize(c.Stdout, 32<<10)
	st := &fsCatState{o: o, w: w}
	status := 0
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			w.Flush()
			return err
		}
		var r io.Reader
		if name == "-" {
			r = c.Stdin
		} else {
			f, err := openOperand(c, name)
			if err != nil {
				w.Flush()
				posixfs.Warn(c, "cat", "%s: %s", quotearg.Name(name), posixfs.ErrText(err))
				status = 1
				continue
			}
			if fi, err := f.Stat(); err == nil && fi.IsDir() {
				f.Close()
				w.Flush()
				posixfs.Warn(c, "cat", "%s: Is a directory", quotearg.Name(name))
				status = 1
				continue
			}
			defer f.Close()
			r = f
		}
		if plain {
			_, err = posixfs.CopyCtx(ctx, w, r)
		} else {
			err = st.copy(ctx, r)
		}
		if err != nil {
			w.Flush()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if cmdutil.BrokenPipe(err) {
				return command.Exit(141) // SIGPIPE: quiet, as for GNU cat
			}
			posixfs.Warn(c, "cat", "%s: %s", quotearg.Name(name), posixfs.ErrText(err))
			status = 1
		}
	}
	if err := w.Flush(); err != nil {
		return command.Exit(1)
	}
	return command.Exit(status)
}

type fsCatOpts struct {
	number, numberNonblank, squeeze, ends, tabs, nonprint bool
}

// fsCatState carries line numbering and blank squeezing across files, as
// GNU cat does.
type fsCatState struct {
	o         fsCatOpts
	w         *bufio.Writer
	line      int
	lastBlank bool
	midLine   bool // the previous file ended without a newline
}

func (st *fsCatState) copy(ctx context.Context, r io.Reader) error {
	br := bufio.NewReaderSize(posixfs.ContextReader(ctx, r), 32<<10)
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A long line: write what there is and go on with the rest.
			st.emit(line)
			continue
		}
		if len(line) > 0 {
			st.emit(line)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// emit writes one piece of a line: a whole line, a line's last piece
// without its newline, or a long line's chunk (which continues it).
func (st *fsCatState) emit(line []byte) {
	nl := len(line) > 0 && line[len(line)-1] == '\n'
	body := line
	if nl {
		body = line[:len(line)-1]
	}
	if !st.midLine {
		blank := nl && len(body) == 0
		if st.o.squeeze && blank && st.lastBlank {
			return
		}
		st.lastBlank = blank
		if st.o.numberNonblank {
			if !blank {
				st.line++
				st.w.WriteString(fsCatNum(st.line))
			}
		} else if st.o.number {
			st.line++
			st.w.WriteString(fsCatNum(st.line))
		}
	}
	for _, b := range body {
		switch {
		case b == '\t' && st.o.tabs:
			st.w.WriteString("^I")
		case st.o.nonprint && b != '\t':
			st.w.WriteString(fsCatVis(b))
		default:
			st.w.WriteByte(b)
		}
	}
	if nl {
		if st.o.ends {
			st.w.WriteByte('$')
		}
		st.w.WriteByte('\n')
	}
	st.midLine = !nl
}

func fsCatNum(n int) string {
	s := fsItoa(n)
	for len(s) < 6 {
		s = " " + s
	}
	return s + "\t"
}

// fsCatVis is cat -v's notation of a byte: ^X, M-x, M-^X.
func fsCatVis(b byte) string {
	prefix := ""
	if b >= 128 {
		prefix = "M-"
		b -= 128
	}
	switch {
	case b < 32:
		return prefix + "^" + string(rune(b+64))
	case b == 127:
		return prefix + "^?"
	}
	return prefix + string(rune(b))
}

func fsItoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [24]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// openOperand opens the file an operand names; an empty operand names no
// file (c.Abs would make it the current folder).
func openOperand(c *command.Call, name string) (afero.File, error) {
	if name == "" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return c.FS.Open(c.Abs(name))
}
