// Package cmdutil holds the helpers the command packages share: GNU-style
// option parsing, opening operands, reading lines with cancellation,
// buffered output that reports write errors as coreutils do, and the error
// texts coreutils print.
package cmdutil

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
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/spf13/afero"
)

// Opt is one parsed option: its key (the short letter, or the long
// option's canonical key) and its argument, if it takes one.
type Opt struct {
	Key string
	Val string
}

// Flags describes a command's options for textParse.
//
// Short is getopt's string: letters, each followed by ':' when it takes an
// argument, '::' when it takes an optional one (attached only). long maps a long name to its key; a key ending in ':' takes an
// argument, '::' an optional one (only as --name=value); the colons are
// stripped from the parsed key. When StopAtOperand is set, the first
// operand ends the options (POSIX order, for commands that take a command
// line: xargs, env, timeout).
type Flags struct {
	Short         string
	Long          map[string]string
	StopAtOperand bool
}

// UsageError is a bad command line; the message is printed as
// "NAME: msg" followed by "Try 'NAME --help' for more information.".
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

func Usagef(format string, a ...any) error {
	return &UsageError{fmt.Sprintf(format, a...)}
}

// Parse parses args (without the command's name) GNU-style: options
// and operands may be mixed (unless stopAtOperand), "--" ends the options,
// "-" is an operand, short options may be clustered ("-la"), an option's
// argument may be attached ("-n5") or the next word, long options may be
// abbreviated and take "=value" or the next word.
func Parse(f Flags, args []string) (opts []Opt, operands []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			operands = append(operands, args[i+1:]...)
			return opts, operands, nil
		case strings.HasPrefix(a, "--"):
			name, val, hasVal := strings.Cut(a[2:], "=")
			full, key, err := LongLookup(f.Long, name)
			if err != nil {
				return nil, nil, err
			}
			switch {
			case strings.HasSuffix(key, "::"):
				opts = append(opts, Opt{strings.TrimSuffix(key, "::"), val})
			case strings.HasSuffix(key, ":"):
				if !hasVal {
					if i+1 >= len(args) {
						return nil, nil, Usagef("option '--%s' requires an argument", full)
					}
					i++
					val = args[i]
				}
				opts = append(opts, Opt{strings.TrimSuffix(key, ":"), val})
			default:
				if hasVal {
					return nil, nil, Usagef("option '--%s' doesn't allow an argument", full)
				}
				opts = append(opts, Opt{key, ""})
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				ch := a[j]
				k := strings.IndexByte(f.Short, ch)
				if k < 0 || ch == ':' {
					return nil, nil, Usagef("invalid option -- '%c'", ch)
				}
				if k+2 < len(f.Short) && f.Short[k+1] == ':' && f.Short[k+2] == ':' {
					opts = append(opts, Opt{string(ch), a[j+1:]})
					break
				}
				if k+1 < len(f.Short) && f.Short[k+1] == ':' {
					val := a[j+1:]
					if val == "" {
						if i+1 >= len(args) {
							return nil, nil, Usagef("option requires an argument -- '%c'", ch)
						}
						i++
						val = args[i]
					}
					opts = append(opts, Opt{string(ch), val})
					break
				}
				opts = append(opts, Opt{string(ch), ""})
			}
		default:
			if f.StopAtOperand {
				return opts, append(operands, args[i:]...), nil
			}
			operands = append(operands, a)
		}
	}
	return opts, operands, nil
}

// longLookup finds a long option by its name or an unambiguous prefix.
func LongLookup(long map[string]string, name string) (full, key string, err error) {
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
			return "", "", Usagef("option '--%s' is ambiguous; possibilities: '--%s'", name, strings.Join(matches, "' '--"))
		}
	}
	if len(matches) == 0 {
		return "", "", Usagef("unrecognized option '--%s'", name)
	}
	return matches[0], long[matches[0]], nil
}

// Usage reports a bad command line like coreutils do and returns
// Exit(status).
func Usage(c *command.Call, name string, status int, err error) error {
	fmt.Fprintf(c.Stderr, "%s: %s\nTry '%s --help' for more information.\n", name, err.Error(), name)
	return command.Exit(status)
}

// Stdin is the call's standard input (empty when it has none).
func Stdin(c *command.Call) io.Reader {
	if c.Stdin == nil {
		return strings.NewReader("")
	}
	return c.Stdin
}

// ErrIsDir is what textOpen returns for a folder.
var ErrIsDir = errors.New("Is a directory")

// Open opens a file operand for reading; "-" is standard input (whose
// Close does nothing). A folder is an error (errTextIsDir), as reading one
// is for coreutils.
func Open(c *command.Call, name string) (io.ReadCloser, error) {
	if name == "-" {
		return io.NopCloser(Stdin(c)), nil
	}
	if name == "" {
		// An empty operand names no file (not the current folder).
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	f, err := c.FS.Open(c.Abs(name))
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, ErrIsDir
	}
	return f, nil
}

// Create opens a file operand for writing with flag (os.O_* bits,
// O_WRONLY and O_CREATE among them), failing like a real filesystem when
// its folder does not exist or it is a folder.
func Create(c *command.Call, name string, flag int) (afero.File, error) {
	p := c.Abs(name)
	if st, err := c.FS.Stat(path.Dir(p)); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, syscall.ENOTDIR
	}
	if st, err := c.FS.Stat(p); err == nil && st.IsDir() {
		return nil, ErrIsDir
	}
	return c.FS.OpenFile(p, flag, 0o666)
}

// ErrText is the strerror-like text coreutils print for err.
func ErrText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	switch {
	case err == ErrIsDir, errors.Is(err, syscall.EISDIR):
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

// Statter is a reader that can tell whether it is a regular file (an
// afero file or *os.File given as stdin).
type Statter interface {
	Stat() (fs.FileInfo, error)
}

// LineReader reads delimiter-terminated records, checking the context
// before each one.
type LineReader struct {
	ctx    context.Context
	Reader *bufio.Reader // the buffered input, for a caller that reads past the lines
	delim  byte
	buf    []byte
}

func NewLineReader(ctx context.Context, r io.Reader, delim byte) *LineReader {
	return &LineReader{ctx: ctx, Reader: bufio.NewReaderSize(r, 64*1024), delim: delim}
}

// Next returns the next record including its delimiter (absent on a last,
// unterminated record). The slice is valid until the next call. At the end
// it returns nil, io.EOF.
func (lr *LineReader) Next() ([]byte, error) {
	if err := lr.ctx.Err(); err != nil {
		return nil, err
	}
	line, err := lr.Reader.ReadSlice(lr.delim)
	if err == nil {
		return line, nil
	}
	if err == bufio.ErrBufferFull {
		lr.buf = append(lr.buf[:0], line...)
		for err == bufio.ErrBufferFull {
			if cerr := lr.ctx.Err(); cerr != nil {
				return nil, cerr
			}
			line, err = lr.Reader.ReadSlice(lr.delim)
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

// ReadLines calls fn with each record of r (delimiter stripped) and
// whether it was terminated. line is valid only during the call. It looks
// at ctx before each read of r and every lineCheckEvery records, and
// returns ctx's error once it has ended; an error of r ends it after the
// records read before it (a partial last one is dropped). Records are cut
// from a buffer of r's data as it is read, not copied one by one.
func ReadLines(ctx context.Context, r io.Reader, delim byte, fn func(line []byte, terminated bool) error) error {
	pooled := GetBuf()
	// Refill may move the data to a larger array; the pooled one is then
	// unused and goes back all the same.
	defer PutBuf(pooled)
	buf := *pooled
	start, end := 0, 0 // unread data: buf[start:end]
	var rerr error
	n, empty := 0, 0
	for {
		for {
			i := bytes.IndexByte(buf[start:end], delim)
			if i < 0 {
				break
			}
			if n++; n%lineCheckEvery == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			line := buf[start : start+i]
			start += i + 1
			if err := fn(line, true); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if rerr == io.EOF {
			if start < end {
				return fn(buf[start:end], false)
			}
			return nil
		}
		if rerr != nil {
			return rerr
		}
		buf, end, rerr = Refill(r, buf, start, end, &empty)
		start = 0
	}
}

// Refill moves buf[start:end], the data read and not used yet, to the front
// of buf, doubles buf when that fills it, and reads once from r after it:
// the data is then nbuf[:nend]. *empty counts reads in a row that gave
// nothing and no error; the 100th gives io.ErrNoProgress, as bufio gives up.
func Refill(r io.Reader, buf []byte, start, end int, empty *int) (nbuf []byte, nend int, err error) {
	if start > 0 {
		end = copy(buf, buf[start:end])
	}
	if end == len(buf) {
		buf = append(buf, make([]byte, len(buf))...)
	}
	k, err := r.Read(buf[end:])
	end += k
	if k == 0 && err == nil {
		if *empty++; *empty >= 100 {
			err = io.ErrNoProgress
		}
	} else {
		*empty = 0
	}
	return buf, end, err
}

// lineCheckEvery is how many records ReadLines passes between two looks
// at its context (it also looks before each read).
const lineCheckEvery = 64

// Copy copies r to w in chunks, checking ctx before each.
func Copy(ctx context.Context, w io.Writer, r io.Reader) error {
	buf := make([]byte, 64*1024)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := r.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return &WriteError{werr}
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

// WriteError marks an error writing the output (as opposed to reading
// an input).
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// Out is a buffered standard output that remembers its first error.
type Out struct {
	*bufio.Writer
}

func NewOut(c *command.Call) Out {
	return Out{bufio.NewWriterSize(c.Stdout, OutSize)}
}

// Finish turns the error a command ended with into its exit status:
// the context's error as is, a broken pipe as a quiet 141 (what bash
// reports for SIGPIPE), another write error as "NAME: write error: ...",
// and a read error as "NAME: MSG".
func Finish(c *command.Call, name string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if BrokenPipe(err) {
		return command.Exit(141)
	}
	var we *WriteError
	if errors.As(err, &we) {
		return c.Errorf(1, name, "write error: %s", ErrText(we.Err))
	}
	if _, ok := command.StatusOf(err); ok {
		return err
	}
	return c.Errorf(1, name, "%s", ErrText(err))
}

// BrokenPipe tells whether err is a write to a reader that went away.
func BrokenPipe(err error) bool {
	return errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed)
}

// Flush flushes out, returning a textWriteError on failure.
func Flush(out Out) error {
	if err := out.Flush(); err != nil {
		return &WriteError{err}
	}
	return nil
}

// ParseCount parses a non-negative count with an optional GNU size
// suffix (b 512, K/KiB 1024, KB 1000, M, MB, ... ). Too big values clamp.
func ParseCount(s string) (int64, bool) {
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

// Quote quotes a file name for a diagnostic, as GNU's quote() does in
// the C locale for ordinary names.
func Quote(s string) string {
	if !strings.ContainsAny(s, "'\\\n\t ") {
		return "'" + s + "'"
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
