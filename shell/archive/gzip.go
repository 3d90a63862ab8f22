package archive

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
)

func init() {
	command.Register(posixfs.Strictly(fsGzip), "gzip")
	command.Register(posixfs.Strictly(fsGzip), "gunzip")
	command.Register(posixfs.Strictly(fsGzip), "zcat")
}

type fsGzipOpts struct {
	decompress, stdout, keep, force, verbose, quiet, list, test bool
	level                                                       int
	suffix                                                      string
}

// fsGzip is gzip, gunzip (-d) and zcat (-dc): FILE becomes FILE.gz (and
// back), removed unless -k; no operand or "-" filters stdin to stdout.
// -c, -d, -k, -f, -v, -q, -t, -l, -1 ... -9, -S SUF; -n, -N, -r are
// accepted.
func fsGzip(ctx context.Context, c *command.Call, args []string) error {
	me := args[0]
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "cdkfvqtlnNr123456789S:", Long: map[string]string{
		"stdout": "c", "to-stdout": "c", "decompress": "d", "uncompress": "d", "keep": "k",
		"force": "f", "verbose": "v", "quiet": "q", "test": "t", "list": "l", "no-name": "n",
		"name": "N", "recursive": "r", "suffix": "S:", "fast": "1", "best": "9",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, me, 1, err)
	}
	o := fsGzipOpts{level: gzip.DefaultCompression, suffix: ".gz"}
	switch me {
	case "gunzip":
		o.decompress = true
	case "zcat":
		o.decompress, o.stdout = true, true
	}
	for _, op := range opts {
		switch op.Key {
		case "c":
			o.stdout = true
		case "d":
			o.decompress = true
		case "k":
			o.keep = true
		case "f":
			o.force = true
		case "v":
			o.verbose = true
		case "q":
			o.quiet = true
		case "t":
			o.test, o.decompress = true, true
		case "l":
			o.list = true
		case "S":
			o.suffix = op.Val
		default:
			if op.Key[0] >= '1' && op.Key[0] <= '9' {
				o.level = int(op.Key[0] - '0')
			}
		}
	}
	if len(ops) == 0 {
		ops = []string{"-"}
	}
	status := 0
	warn := func(format string, a ...any) {
		if !o.quiet {
			fmt.Fprintf(c.Stderr, "%s: %s\n", me, fmt.Sprintf(format, a...))
		}
	}
	for _, name := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		st := fsGzipOne(ctx, c, &o, me, name, warn)
		if st > status {
			status = st
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return command.Exit(status)
}

// fsGzipOne handles one operand and returns its status: 0, 1 (error) or
// 2 (warning).
func fsGzipOne(ctx context.Context, c *command.Call, o *fsGzipOpts, me, name string, warn func(string, ...any)) int {
	if name == "-" {
		var out io.Writer = c.Stdout
		if o.test {
			out = io.Discard
		}
		if err := fsGzipStream(ctx, o, out, c.Stdin); err != nil {
			if ctx.Err() != nil {
				return 1
			}
			warn("stdin: %s", err)
			return 1
		}
		return 0
	}
	src := name
	abs := c.Abs(src)
	fi, err := c.FS.Stat(abs)
	if err != nil && o.decompress && !strings.HasSuffix(src, o.suffix) {
		src += o.suffix
		abs = c.Abs(src)
		fi, err = c.FS.Stat(abs)
	}
	if err != nil {
		warn("%s: %s", src, posixfs.ErrText(err))
		return 1
	}
	if fi.IsDir() {
		warn("%s is a directory -- ignored", src)
		return 2
	}
	var dst string
	if o.decompress {
		switch {
		case strings.HasSuffix(src, o.suffix) && len(src) > len(o.suffix):
			dst = strings.TrimSuffix(src, o.suffix)
		case strings.HasSuffix(src, ".tgz"):
			dst = strings.TrimSuffix(src, ".tgz") + ".tar"
		case o.stdout || o.test:
		default:
			warn("%s: unknown suffix -- ignored", src)
			return 2
		}
	} else {
		if strings.HasSuffix(src, o.suffix) && !o.stdout {
			warn("%s already has %s suffix -- unchanged", src, o.suffix)
			return 2
		}
		dst = src + o.suffix
	}
	in, err := c.FS.Open(abs)
	if err != nil {
		warn("%s: %s", src, posixfs.ErrText(err))
		return 1
	}
	defer in.Close()
	if o.stdout || o.test {
		var out io.Writer = c.Stdout
		if o.test {
			out = io.Discard
		}
		if err := fsGzipStream(ctx, o, out, in); err != nil {
			if ctx.Err() == nil {
				warn("%s: %s", src, err)
			}
			return 1
		}
		return 0
	}
	dstAbs := c.Abs(dst)
	if posixfs.Exists(c.FS, dstAbs) && !o.force {
		warn("%s already exists;\tnot overwritten", dst)
		return 2
	}
	out, err := c.FS.OpenFile(dstAbs, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		warn("%s: %s", dst, posixfs.ErrText(err))
		return 1
	}
	var gerr error
	if o.decompress {
		gerr = fsGzipStream(ctx, o, out, in)
	} else {
		gerr = fsGzipCompress(ctx, o, out, in, path.Base(src), fi.ModTime())
	}
	if cerr := out.Close(); gerr == nil {
		gerr = cerr
	}
	if gerr != nil {
		_ = c.FS.Remove(dstAbs)
		if ctx.Err() == nil {
			warn("%s: %s", src, gerr)
		}
		return 1
	}
	_ = c.FS.Chmod(dstAbs, fi.Mode().Perm())
	_ = c.FS.Chtimes(dstAbs, fi.ModTime(), fi.ModTime())
	if o.verbose {
		if dfi, err := c.FS.Stat(dstAbs); err == nil {
			ratio := 0.0
			a, b := fi.Size(), dfi.Size()
			if o.decompress {
				a, b = b, a
			}
			if a > 0 {
				ratio = 100 * float64(a-b) / float64(a)
			}
			fmt.Fprintf(c.Stderr, "%s:\t%.1f%% -- replaced with %s\n", src, ratio, dst)
		}
	}
	if !o.keep {
		in.Close()
		if err := c.FS.Remove(abs); err != nil {
			warn("%s: %s", src, posixfs.ErrText(err))
			return 1
		}
	}
	return 0
}

// fsGzipStream compresses or decompresses (per o) r into w. Decompression
// reads concatenated members, as gzip does.
func fsGzipStream(ctx context.Context, o *fsGzipOpts, w io.Writer, r io.Reader) error {
	if !o.decompress {
		return fsGzipCompress(ctx, o, w, r, "", time.Time{})
	}
	br := bufio.NewReader(posixfs.ContextReader(ctx, r))
	zr, err := gzip.NewReader(br)
	if err != nil {
		if err == io.EOF {
			return fmt.Errorf("unexpected end of file")
		}
		return fmt.Errorf("not in gzip format")
	}
	defer zr.Close()
	if _, err := posixfs.CopyCtx(ctx, w, zr); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err == io.ErrUnexpectedEOF {
			return fmt.Errorf("unexpected end of file")
		}
		return err
	}
	return nil
}

// fsGzipCompress compresses r into w, recording name and mtime (for a
// file) in the header.
func fsGzipCompress(ctx context.Context, o *fsGzipOpts, w io.Writer, r io.Reader, name string, mtime time.Time) error {
	zw, err := gzip.NewWriterLevel(w, o.level)
	if err != nil {
		return err
	}
	zw.OS = 3 // Unix, as GNU gzip writes it
	if name != "" {
		zw.Name = name
		zw.ModTime = mtime
	}
	if _, err := posixfs.CopyCtx(ctx, zw, r); err != nil {
		return err
	}
	return zw.Close()
}
