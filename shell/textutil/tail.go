package textutil

import (
	"context"
	"io"
	"regexp"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
)

func init() { command.Register(textTail, "tail") }

var tailFlags = cmdutil.Flags{
	Short: "n:c:qvzfFs:",
	Long: map[string]string{
		"lines": "n:", "bytes": "c:", "quiet": "q", "silent": "q",
		"verbose": "v", "zero-terminated": "z", "follow": "f::",
		"retry": "retry", "pid": "pid:", "sleep-interval": "s:",
		"max-unchanged-stats": "mus:",
	},
}

// tailObsolete matches the obsolescent "-NUM[bcl]" / "+NUM[bcl]" first
// argument.
var tailObsolete = regexp.MustCompile(`^([-+])([0-9]+)([bcl]?)$`)

// textTail is tail: print the last part of files.
//
// Supports -n N, -n +N (from line N on), -c N, -c +N, -NUM, +NUM,
// -q/--quiet/--silent, -v/--verbose, -z. A regular file is read from its
// end; a stream keeps only the last N lines in memory. -f/-F (follow) are
// refused: a sandbox command has no way to wait for a file to grow.
func textTail(ctx context.Context, c *command.Call, args []string) error {
	args = args[1:]
	if len(args) > 0 {
		if m := tailObsolete.FindStringSubmatch(args[0]); m != nil && len(args) > 2 && m[1] == "-" {
			return c.Errorf(1, "tail", "option used in invalid context -- %s", m[2][:1])
		} else if m != nil && len(args) <= 2 {
			flag := "-n"
			num := m[2]
			switch m[3] {
			case "c":
				flag = "-c"
			case "b":
				flag = "-c"
				num += "b"
			}
			if m[1] == "+" {
				num = "+" + num
			}
			args = append([]string{flag, num}, args[1:]...)
		}
	}
	opts, files, err := cmdutil.Parse(tailFlags, args)
	if err != nil {
		return cmdutil.Usage(c, "tail", 1, err)
	}
	count, bytesMode, fromStart := int64(10), false, false
	quiet, verbose := false, false
	delim := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "n", "c":
			v := o.Val
			plus := strings.HasPrefix(v, "+")
			if plus || strings.HasPrefix(v, "-") {
				v = v[1:]
			}
			n, ok := cmdutil.ParseCount(v)
			if !ok {
				what := "lines"
				if o.Key == "c" {
					what = "bytes"
				}
				return c.Errorf(1, "tail", "invalid number of %s: %s", what, cmdutil.Quote(o.Val))
			}
			count, bytesMode, fromStart = n, o.Key == "c", plus
		case "q":
			quiet, verbose = true, false
		case "v":
			verbose, quiet = true, false
		case "z":
			delim = 0
		case "f", "F":
			return c.Errorf(1, "tail", "following a file (-f) is not supported here; run tail without -f")
		}
	}
	if count == 0 && !fromStart {
		return nil // GNU opens nothing when it will print nothing
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	headers := verbose || (len(files) > 1 && !quiet)
	return textEachHeaded(ctx, c, "tail", files, headers, func(out cmdutil.Out, r io.ReadCloser) error {
		return tailOne(ctx, out, r, count, bytesMode, fromStart, delim)
	})
}

// tailSeeker is a regular file tail can read from its end.
type tailSeeker interface {
	io.ReadSeeker
	cmdutil.Statter
}

func tailOne(ctx context.Context, w io.Writer, r io.Reader, n int64, bytesMode, fromStart bool, delim byte) error {
	if fromStart {
		if n > 0 {
			n--
		}
		if bytesMode {
			if _, err := io.CopyN(io.Discard, r, n); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
			return cmdutil.Copy(ctx, w, r)
		}
		lr := cmdutil.NewLineReader(ctx, r, delim)
		for ; n > 0; n-- {
			if _, err := lr.Next(); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
		return cmdutil.Copy(ctx, w, lr.Reader)
	}
	if f, ok := r.(tailSeeker); ok {
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			start, err := tailStart(ctx, f, st.Size(), n, bytesMode, delim)
			if err != nil {
				return err
			}
			if _, err := f.Seek(start, io.SeekStart); err != nil {
				return err
			}
			return cmdutil.Copy(ctx, w, f)
		}
	}
	if bytesMode {
		return tailStreamBytes(ctx, w, r, n)
	}
	return tailStreamLines(ctx, w, r, n, delim)
}

// tailStart finds the offset where the last n records (or bytes) of a
// file of the given size begin, reading it backwards.
func tailStart(ctx context.Context, f io.ReadSeeker, size, n int64, bytesMode bool, delim byte) (int64, error) {
	if bytesMode {
		return max(0, size-n), nil
	}
	if n == 0 || size == 0 {
		return size, nil
	}
	buf := make([]byte, 64*1024)
	pos := size
	found := int64(0)
	skipLast := true // a delimiter ending the file starts no record
	for pos > 0 {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		chunk := int64(len(buf))
		if pos < chunk {
			chunk = pos
		}
		pos -= chunk
		if _, err := f.Seek(pos, io.SeekStart); err != nil {
			return 0, err
		}
		if _, err := io.ReadFull(f, buf[:chunk]); err != nil {
			return 0, err
		}
		for i := chunk - 1; i >= 0; i-- {
			if skipLast {
				skipLast = false
				if buf[i] == delim {
					continue
				}
			}
			if buf[i] == delim {
				found++
				if found == n {
					return pos + i + 1, nil
				}
			}
		}
	}
	return 0, nil
}

func tailStreamLines(ctx context.Context, w io.Writer, r io.Reader, n int64, delim byte) error {
	if n == 0 {
		return cmdutil.Copy(ctx, io.Discard, r)
	}
	lr := cmdutil.NewLineReader(ctx, r, delim)
	var ring [][]byte
	next := 0
	for {
		line, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if int64(len(ring)) < n {
			ring = append(ring, append([]byte(nil), line...))
			continue
		}
		ring[next] = append(ring[next][:0], line...)
		next = (next + 1) % len(ring)
	}
	for i := range ring {
		if _, err := w.Write(ring[(next+i)%len(ring)]); err != nil {
			return &cmdutil.WriteError{Err: err}
		}
	}
	return nil
}

func tailStreamBytes(ctx context.Context, w io.Writer, r io.Reader, n int64) error {
	var held []byte
	buf := make([]byte, 64*1024)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := r.Read(buf)
		held = append(held, buf[:m]...)
		if extra := int64(len(held)) - n; extra > 0 {
			held = append(held[:0], held[extra:]...)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if _, err := w.Write(held); err != nil {
		return &cmdutil.WriteError{Err: err}
	}
	return nil
}
