package textutil

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() { command.Register(textWc, "wc") }

var wcFlags = cmdutil.Flags{
	Short: "clmwL",
	Long: map[string]string{
		"bytes": "c", "chars": "m", "lines": "l", "words": "w", "max-line-length": "L",
	},
}

// wcCounts are the counts of one input.
type wcCounts struct {
	lines, words, chars, bytes, maxLine int64
}

// textWc is wc: print newline, word, and byte counts.
//
// Supports -l, -w, -c, -m (UTF-8 characters; an invalid byte counts as one), -L and the default -lwc,
// with GNU's column widths (from the sizes of the regular files named, at
// least 7 when one is standard input or not a regular file) and a total
// line for several files. A word is a run of printable characters
// delimited by white space.
func textWc(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(wcFlags, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "wc", 1, err)
	}
	var show struct{ l, w, m, c, L bool }
	for _, o := range opts {
		switch o.Key {
		case "l":
			show.l = true
		case "w":
			show.w = true
		case "m":
			show.m = true
		case "c":
			show.c = true
		case "L":
			show.L = true
		}
	}
	if !show.l && !show.w && !show.m && !show.c && !show.L {
		show.l, show.w, show.c = true, true, true
	}
	nshow := 0
	for _, b := range []bool{show.l, show.w, show.m, show.c, show.L} {
		if b {
			nshow++
		}
	}
	named := len(files) > 0
	if !named {
		files = []string{"-"}
	}
	width := wcWidth(c, files, nshow)
	out := cmdutil.NewOut(c)
	emit := func(k wcCounts, name string) {
		var fields []string
		add := func(on bool, n int64) {
			if on {
				fields = append(fields, strconv.FormatInt(n, 10))
			}
		}
		add(show.l, k.lines)
		add(show.w, k.words)
		add(show.m, k.chars)
		add(show.c, k.bytes)
		add(show.L, k.maxLine)
		for i, f := range fields {
			if i > 0 {
				out.WriteByte(' ')
			}
			fmt.Fprintf(out, "%*s", width, f)
		}
		if name != "" {
			out.WriteString(" " + name)
		}
		out.WriteByte('\n')
	}
	var total wcCounts
	status := 0
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		label := name
		if !named {
			label = ""
		}
		if name == "" && named {
			if ferr := cmdutil.Flush(out); ferr != nil {
				return cmdutil.Finish(c, "wc", ferr)
			}
			fmt.Fprintln(c.Stderr, "wc: invalid zero-length file name")
			status = 1
			continue
		}
		r, err := cmdutil.Open(c, name)
		if err != nil {
			if ferr := cmdutil.Flush(out); ferr != nil {
				return cmdutil.Finish(c, "wc", ferr)
			}
			fmt.Fprintf(c.Stderr, "wc: %s: %s\n", quotearg.Name(name), cmdutil.ErrText(err))
			status = 1
			if err == cmdutil.ErrIsDir {
				emit(wcCounts{}, label)
			}
			continue
		}
		k, err := wcCount(ctx, r, show.l && !show.w && !show.m && !show.c && !show.L)
		r.Close()
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			if ferr := cmdutil.Flush(out); ferr != nil {
				return cmdutil.Finish(c, "wc", ferr)
			}
			fmt.Fprintf(c.Stderr, "wc: %s: %s\n", quotearg.Name(name), cmdutil.ErrText(err))
			status = 1
		}
		emit(k, label)
		total.lines += k.lines
		total.words += k.words
		total.chars += k.chars
		total.bytes += k.bytes
		total.maxLine = max(total.maxLine, k.maxLine)
	}
	if len(files) > 1 {
		emit(total, "total")
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, "wc", err)
	}
	return command.Exit(status)
}

// wcWidth is GNU wc's column width: 1 for one count of one input, else the
// digits of the total size of the regular files, at least 7 when an input
// is not a regular file.
func wcWidth(c *command.Call, files []string, nshow int) int {
	if len(files) == 1 && nshow == 1 {
		return 1
	}
	minWidth := 1
	var size int64
	for _, name := range files {
		var st fs.FileInfo
		var err error
		switch name {
		case "":
			continue // not a file: an error, counted as none
		case "-":
			if s, ok := c.Stdin.(cmdutil.Statter); ok {
				st, err = s.Stat()
			}
		default:
			st, err = c.FS.Stat(c.Abs(name))
		}
		switch {
		case err != nil:
		case st == nil || !st.Mode().IsRegular():
			minWidth = 7
		default:
			size += st.Size()
		}
	}
	width := len(strconv.FormatInt(size, 10))
	return max(width, minWidth)
}

// wcCount counts one input in chunks; linesOnly counts only its lines
// and bytes (wc -l: the newlines, without decoding characters or words).
func wcCount(ctx context.Context, r io.Reader, linesOnly bool) (wcCounts, error) {
	var k wcCounts
	pooled := cmdutil.GetBuf()
	defer cmdutil.PutBuf(pooled)
	buf := *pooled
	if linesOnly {
		for {
			if err := ctx.Err(); err != nil {
				return k, err
			}
			n, err := r.Read(buf)
			k.bytes += int64(n)
			k.lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
			if err == io.EOF {
				return k, nil
			}
			if err != nil {
				return k, err
			}
		}
	}
	var carry []byte // an incomplete UTF-8 sequence at a chunk's end
	inWord := false
	linePos := int64(0)
	for {
		if err := ctx.Err(); err != nil {
			return k, err
		}
		n, err := r.Read(buf)
		k.bytes += int64(n)
		data := buf[:n]
		if len(carry) > 0 {
			data = append(carry, data...)
			carry = nil
		}
		for i := 0; i < len(data); {
			b := data[i]
			if b < utf8.RuneSelf {
				i++
				k.chars++
				switch b {
				case '\n':
					k.lines++
					k.maxLine = max(k.maxLine, linePos)
					linePos = 0
					inWord = false
				case '\r', '\f':
					k.maxLine = max(k.maxLine, linePos)
					linePos = 0
					inWord = false
				case '\t':
					linePos += 8 - linePos%8
					inWord = false
				case ' ', '\v':
					if b == ' ' {
						linePos++
					}
					inWord = false
				default:
					if b > ' ' && b < 0x7f {
						linePos++
						if !inWord {
							k.words++
							inWord = true
						}
					}
				}
				continue
			}
			if !utf8.FullRune(data[i:]) && err == nil {
				carry = append([]byte(nil), data[i:]...)
				break
			}
			r, size := utf8.DecodeRune(data[i:])
			i += size
			k.chars++ // an invalid byte counts as a character, as in the C locale
			if r == utf8.RuneError && size == 1 {
				continue // but starts no word
			}
			switch {
			case unicode.IsSpace(r):
				linePos++
				inWord = false
			case unicode.IsPrint(r):
				linePos++
				if !inWord {
					k.words++
					inWord = true
				}
			}
		}
		if err == io.EOF {
			k.maxLine = max(k.maxLine, linePos)
			return k, nil
		}
		if err != nil {
			return k, err
		}
	}
}
