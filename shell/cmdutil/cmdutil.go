package shell

// Helpers shared by the text coreutils (text_*.go): GNU-style option
// parsing, opening operands, reading lines with cancellation, and the
// error texts coreutils print.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/afero"
)

// textOpt is one parsed option: its key (the short letter, or the long
// option's canonical key) and its argument, if it takes one.
type textOpt struct {
	key string
	val string
}

// textFlags describes a command's options for textParse.
//
// short is getopt's string: letters, each followed by ':' when it takes an
// argument, '::' when it takes an optional one (attached only). long maps a long name to its key; a key ending in ':' takes an
// argument, '::' an optional one (only as --name=value); the colons are
// stripped from the parsed key. When stopAtOperand is set, the first
// operand ends the options (POSIX order, for commands that take a command
// line: xargs, env, timeout).
type textFlags struct {
	short         string
	long          map[string]string
	stopAtOperand bool
}

// textUsageError is a bad command line; the message is printed as
// "NAME: msg" followed by "Try 'NAME --help' for more information.".
type textUsageError struct{ msg string }

func (e *textUsageError) Error() string { return e.msg }

func textUsagef(format string, a ...any) error {
	return &textUsageError{fmt.Sprintf(format, a...)}
}

// textParse parses args (without the command's name) GNU-style: options
// and operands may be mixed (unless stopAtOperand), "--" ends the options,
// "-" is an operand, short options may be clustered ("-la"), an option's
// argument may be attached ("-n5") or the next word, long options may be
// abbreviated and take "=value" or the next word.
func textParse(f textFlags, args []string) (opts []textOpt, operands []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			return opts, operands, nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			full, key, err := textLongLookup(f.long, name)
			if err != nil {
				return nil, nil, err
			}
			switch {
			case strings.HasSuffix(key, "::"):
				opts = append(opts, textOpt{strings.TrimSuffix(key, "::"), val})
			case strings.HasSuffix(key, ":"):
				if !hasVal {
					if i+1 >= len(args) {
						return nil, nil, textUsagef("option '--%s' requires an argument", full)
					}
					i++
					val = args[i]
				}
				opts = append(opts, textOpt{strings.TrimSuffix(key, ":"), val})
			default:
				if hasVal {
					return nil, nil, textUsagef("option '--%s' doesn't allow an argument", full)
				}
				opts = append(opts, textOpt{key, ""})
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				ch := a[j]
				k := strings.IndexByte(f.short, ch)
				if k < 0 || ch == ':' {
					return nil, nil, textUsagef("invalid option -- '%c'", ch)
				}
				if k+2 < len(f.short) && f.short[k+1] == ':' && f.short[k+2] == ':' {
					opts = append(opts, textOpt{string(ch), a[j+1:]})
					break
				}
				if k+1 < len(f.short) && f.short[k+1] == ':' {
					val := a[j+1:]
					if val == "" {
						if i+1 >= len(args) {
							return nil, nil, textUsagef("option requires an argument -- '%c'", ch)
						}
						i++
						val = args[i]
					}
					opts = append(opts, textOpt{string(ch), val})
					break
				}
				opts = append(opts, textOpt{string(ch), ""})
			}
		default:
			if f.stopAtOperand {
				return opts, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
		}
	}
	return opts, operands, nil
}

// textLongLookup finds a long option by its name or an unambiguous prefix.
func textLongLookup(long map[string]string, name string) (full, key string, err error) {
	if k, ok := long[name]; ok {
		return name, k, nil
	}
	var matches []string
	for n := range long {
		if strings.HasPrefix(n, name) {
			matches = append(matches, n)
		}
	}
	sort.Strings(matches)
	if len(matches) > 1 {
		// Abbreviations of aliases of one option are not ambiguous.
		same := true
		for _, m := range matches[1:] {
			if long[m] != long[matches[0]] {
				same = false
			}
		}
		if !same {
			return "", "", textUsagef("option '--%s' is ambiguous; possibilities: '--%s'", name, strings.Join(matches, "' '--"))
		}
	}
	if len(matches) == 0 {
		return "", "", textUsagef("unrecognized option '--%s'", name)
	}
	return matches[0], long[matches[0]], nil
}

// textUsage reports a bad command line like coreutils do and returns
// Exit(status).
func textUsage(c *Call, name string, status int, err error) error {
	fmt.Fprintf(c.Stderr, "%s: %s\nTry '%s --help' for more information.\n", name, err.Error(), name)
	return Exit(status)
}

// textStdin is the call's standard input (empty when it has none).
func textStdin(c *Call) io.Reader {
	if c.Stdin == nil {
		return strings.NewReader("")
	}
	return c.Stdin
}

// errTextIsDir is what textOpen returns for a folder.
var errTextIsDir = errors.New("Is a directory")

// textOpen opens a file operand for reading; "-" is standard input (whose
// Close does nothing). A folder is an error (errTextIsDir), as reading one
// is for coreutils.
func textOpen(c *Call, name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(textStdin(c)), nil
	}
	f, err := c.FS.Open(c.Abs(name))
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, errTextIsDir
	}
	return f, nil
}

// textCreate opens a file operand for writing with flag (os.O_* bits,
// O_WRONLY and O_CREATE among them), failing like a real filesystem when
// its folder does not exist or it is a folder.
func textCreate(c *Call, name string, flag int) (afero.File, error) {
	p := c.Abs(name)
	if st, err := c.FS.Stat(path.Dir(p)); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, syscall.ENOTDIR
	}
	if st, err := c.FS.Stat(p); err == nil && st.IsDir() {
		return nil, errTextIsDir
	}
	return c.FS.OpenFile(p, flag, 0o666)
}

// textErrText is the strerror-like text coreutils print for err.
func textErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	switch {
	case err == errTextIsDir, errors.Is(err, syscall.EISDIR):
		return "Is a directory"
	case errors.Is(err, fs.ErrNotExist):
		return "No such file or directory"
	case errors.Is(err, fs.ErrPermission):
		return "Permission denied"
	case errors.Is(err, syscall.ENOTDIR):
		return "Not a directory"
	case errors.Is(err, fs.ErrExist):
		return "File exists"
	}
	s := err.Error()
	if s != "" {
		s = strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

// textStatter is a reader that can tell whether it is a regular file (an
// afero file or *os.File given as stdin).
type textStatter interface {
	Stat() (fs.FileInfo, error)
}

// textLineReader reads delimiter-terminated records, checking the context
// before each one.
type textLineReader struct {
	ctx   context.Context
	br    *bufio.Reader
	delim byte
	buf   []byte
}

func newTextLineReader(ctx context.Context, r io.Reader, delim byte) *textLineReader {
	return &textLineReader{ctx: ctx, br: bufio.NewReaderSize(r, 64*1024), delim: delim}
}

// next returns the next record including its delimiter (absent on a last,
// unterminated record). The slice is valid until the next call. At the end
// it returns nil, io.EOF.
func (lr *textLineReader) next() ([]byte, error) {
	if err := lr.ctx.Err(); err != nil {
		return nil, err
	}
	line, err := lr.br.ReadSlice(lr.delim)
	if err == nil {
		return line, nil
	}
	if err == bufio.ErrBufferFull {
		lr.buf = append(lr.buf[:0], line...)
		for err == bufio.ErrBufferFull {
			if cerr := lr.ctx.Err(); cerr != nil {
				return nil, cerr
			}
			line, err = lr.br.ReadSlice(lr.delim)
			lr.buf = append(lr.buf, line...)
		}
		line = lr.buf
	}
	if err == io.EOF {
		if len(line) == 0 {
			return nil, io.EOF
		}
		return line, nil
	}
	if err != nil {
		return nil, err
	}
	return line, nil
}

// textReadLines calls fn with each record of r (delimiter stripped) and
// whether it was terminated.
func textReadLines(ctx context.Context, r io.Reader, delim byte, fn func(line []byte, terminated bool) error) error {
	lr := newTextLineReader(ctx, r, delim)
	for {
		line, err := lr.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		term := line[len(line)-1] == delim
		if term {
			line = line[:len(line)-1]
		}
		if err := fn(line, term); err != nil {
			return err
		}
	}
}

// textCopy copies r to w in chunks, checking ctx before each.
func textCopy(ctx context.Context, w io.Writer, r io.Reader) error {
	buf := make([]byte, 64*1024)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return &textWriteError{werr}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// textWriteError marks an error writing the output (as opposed to reading
// an input).
type textWriteError struct{ err error }

func (e *textWriteError) Error() string { return e.err.Error() }
func (e *textWriteError) Unwrap() error { return e.err }

// textOut is a buffered standard output that remembers its first error.
type textOut struct {
	*bufio.Writer
}

func newTextOut(c *Call) textOut {
	return textOut{bufio.NewWriterSize(c.Stdout, 32*1024)}
}

// textFinish turns the error a command ended with into its exit status:
// the context's error as is, a broken pipe as a quiet 141 (what bash
// reports for SIGPIPE), another write error as "NAME: write error: ...",
// and a read error as "NAME: MSG".
func textFinish(c *Call, name string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if textBrokenPipe(err) {
		return Exit(141)
	}
	var we *textWriteError
	if errors.As(err, &we) {
		return c.Errorf(1, name, "write error: %s", textErrText(we.err))
	}
	if _, ok := asInterpStatus(err); ok {
		return err
	}
	return c.Errorf(1, name, "%s", textErrText(err))
}

// textBrokenPipe tells whether err is a write to a reader that went away.
func textBrokenPipe(err error) bool {
	return errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed)
}

// textFlush flushes out, returning a textWriteError on failure.
func textFlush(out textOut) error {
	if err := out.Flush(); err != nil {
		return &textWriteError{err}
	}
	return nil
}

// textParseCount parses a non-negative count with an optional GNU size
// suffix (b 512, K/KiB 1024, KB 1000, M, MB, ... ). Too big values clamp.
func textParseCount(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, false
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		n = 1<<63 - 1
	}
	suf := s[i:]
	if suf == "" {
		return n, true
	}
	mult := int64(1)
	switch suf {
	case "b":
		mult = 512
	default:
		units := "KMGTPEZY"
		u := strings.IndexByte(units, suf[0])
		if suf[0] == 'k' {
			u = 0
		}
		if u < 0 {
			return 0, false
		}
		base := int64(1024)
		switch suf[1:] {
		case "", "iB":
		case "B":
			base = 1000
		default:
			return 0, false
		}
		for k := 0; k <= u; k++ {
			if mult > (1<<63-1)/base {
				return 1<<63 - 1, true
			}
			mult *= base
		}
	}
	if n > (1<<63-1)/mult {
		return 1<<63 - 1, true
	}
	return n * mult, true
}

// textQuote quotes a file name for a diagnostic, as GNU's quote() does in
// the C locale for ordinary names.
func textQuote(s string) string {
	if !strings.ContainsAny(s, "'\\\n\t ") {
		return "'" + s + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
