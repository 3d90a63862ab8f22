package textutil

import (
	"context"
	"fmt"
	"io"
	"regexp"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() { command.Register(textHead, "head") }

var headFlags = cmdutil.Flags{
	Short: "n:c:qvz",
	Long: map[string]string{
		"lines": "n:", "bytes": "c:", "quiet": "q", "silent": "q",
		"verbose": "v", "zero-terminated": "z",
	},
}

// textObsoleteCount matches the obsolescent "-NUM[unit][c|l]" first
// argument of head and tail.
var textObsoleteCount = regexp.MustCompile(`^-([0-9]+)(b|[kKmMGTPEZY](iB|B)?)?([cl]?)$`)

// textHead is head: print the first part of files.
//
// Supports -n N, -n -N (all but the last N lines), -c N, -c -N, -NUM,
// -q/--quiet/--silent, -v/--verbose, -z; sizes take GNU suffixes (K, M, b,
// KB, ...). It stops reading an input as soon as it has printed enough.
func textHead(ctx context.Context, c *command.Call, args []string) error {
	args = args[1:]
	if len(args) > 0 {
		if m := textObsoleteCount.FindStringSubmatch(args[0]); m != nil {
			flag := "-n"
			if m[4] == "c" {
				flag = "-c"
			}
			args = append([]string{flag, m[1] + m[2]}, args[1:]...)
		}
	}
	opts, files, err := cmdutil.Parse(headFlags, args)
	if err != nil {
		return cmdutil.Usage(c, "head", 1, err)
	}
	count, bytesMode, allBut := int64(10), false, false
	quiet, verbose := false, false
	delim := byte('\n')
	for _, o := range opts {
		switch o.Key {
		case "n", "c":
			v := o.Val
			neg := len(v) > 0 && v[0] == '-'
			if neg || (len(v) > 0 && v[0] == '+') {
				v = v[1:]
			}
			n, ok := cmdutil.ParseCount(v)
			if !ok {
				what := "lines"
				if o.Key == "c" {
					what = "bytes"
				}
				return c.Errorf(1, "head", "invalid number of %s: %s", what, cmdutil.Quote(o.Val))
			}
			count, bytesMode, allBut = n, o.Key == "c", neg
		case "q":
			quiet, verbose = true, false
		case "v":
			verbose, quiet = true, false
		case "z":
			delim = 0
		}
	}
	if len(files) == 0 {
		files = []string{"-"}
	}
	headers := verbose || (len(files) > 1 && !quiet)
	return textEachHeaded(ctx, c, "head", files, headers, func(out cmdutil.Out, r io.ReadCloser) error {
		switch {
		case bytesMode && !allBut:
			return cmdutil.Copy(ctx, out, io.LimitReader(r, count))
		case bytesMode:
			return headAllButBytes(ctx, out, r, count)
		case !allBut:
			return headLines(ctx, out, r, count, delim)
		default:
			return headAllButLines(ctx, out, r, count, delim)
		}
	})
}

// textEachHeaded runs each on every file in turn for head and tail: with
// "==> NAME <==" headers when asked, GNU's messages for a file that cannot be
// opened, is a folder or fails part way (status 1, the next file goes on),
// and a write failure or the end of ctx ending the command.
func textEachHeaded(ctx context.Context, c *command.Call, cmd string, files []string, headers bool, each func(out cmdutil.Out, r io.ReadCloser) error) error {
	out := cmdutil.NewOut(c)
	status := 0
	first := true
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		r, err := cmdutil.Open(c, name)
		if err != nil && err != cmdutil.ErrIsDir {
			fmt.Fprintf(c.Stderr, "%s: cannot open %s for reading: %s\n", cmd, quotearg.Quote(name), cmdutil.ErrText(err))
			status = 1
			continue
		}
		if headers {
			textWriteHeader(out, name, first)
			first = false
		}
		if err == cmdutil.ErrIsDir {
			if ferr := cmdutil.Flush(out); ferr != nil {
				return cmdutil.Finish(c, cmd, ferr)
			}
			fmt.Fprintf(c.Stderr, "%s: error reading %s: Is a directory\n", cmd, quotearg.Quote(name))
			status = 1
			continue
		}
		err = each(out, r)
		r.Close()
		if err != nil {
			if _, isWrite := err.(*cmdutil.WriteError); isWrite || ctx.Err() != nil {
				return cmdutil.Finish(c, cmd, err)
			}
			if ferr := cmdutil.Flush(out); ferr != nil {
				return cmdutil.Finish(c, cmd, ferr)
			}
			fmt.Fprintf(c.Stderr, "%s: error reading %s: %s\n", cmd, quotearg.Quote(name), cmdutil.ErrText(err))
			status = 1
		}
	}
	if err := cmdutil.Flush(out); err != nil {
		return cmdutil.Finish(c, cmd, err)
	}
	return command.Exit(status)
}

// textWriteHeader writes head's and tail's "==> NAME <==" header.
func textWriteHeader(w io.Writer, name string, first bool) {
	if name == "-" {
		name = "standard input"
	}
	if !first {
		io.WriteString(w, "\n")
	}
	fmt.Fprintf(w, "==> %s <==\n", name)
}

// headLines copies the first n records of r.
func headLines(ctx context.Context, w io.Writer, r io.Reader, n int64, delim byte) error {
	if n == 0 {
		return nil
	}
	lr := cmdutil.NewLineReader(ctx, r, delim)
	for ; n > 0; n-- {
		line, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := w.Write(line); err != nil {
			return &cmdutil.WriteError{Err: err}
		}
	}
	return nil
}

// headAllButLines copies all but the last n records of r, keeping n
// records in memory.
func headAllButLines(ctx context.Context, w io.Writer, r io.Reader, n int64, delim byte) error {
	lr := cmdutil.NewLineReader(ctx, r, delim)
	var ring [][]byte
	next := 0
	for {
		line, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if n == 0 {
			if _, err := w.Write(line); err != nil {
				return &cmdutil.WriteError{Err: err}
			}
			continue
		}
		if int64(len(ring)) < n {
			ring = append(ring, append([]byte(nil), line...))
			continue
		}
		if _, err := w.Write(ring[next]); err != nil {
			return &cmdutil.WriteError{Err: err}
		}
		ring[next] = append(ring[next][:0], line...)
		next = (next + 1) % len(ring)
	}
}

// headAllButBytes copies all but the last n bytes of r.
func headAllButBytes(ctx context.Context, w io.Writer, r io.Reader, n int64) error {
	var held []byte
	buf := make([]byte, 64*1024)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		m, err := r.Read(buf)
		held = append(held, buf[:m]...)
		if extra := int64(len(held)) - n; extra > 0 {
			if _, werr := w.Write(held[:extra]); werr != nil {
				return &cmdutil.WriteError{Err: werr}
			}
			held = append(held[:0], held[extra:]...)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
