package fileutil

import (
	"context"
	"os"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() { command.Register(posixfs.Strictly(fsTruncate), "truncate") }

// fsTruncate is GNU truncate: -s SIZE sets each file's size (made when
// missing unless -c), SIZE with GNU's suffixes (K 1024, KB 1000, KiB, M,
// ...) and a prefix: + extends by, - reduces by, < at most, > at least, /
// rounds down to a multiple of, % rounds up to one; -r FILE takes FILE's
// size (with -s, its size is what the prefix applies to); -o counts in
// I/O blocks (4096 bytes here).
func fsTruncate(ctx context.Context, c *command.Call, args []string) error {
	opts, files, err := cmdutil.Parse(cmdutil.Flags{Short: "cos:r:", Long: map[string]string{
		"no-create": "c", "io-blocks": "o", "size": "s:", "reference": "r:",
	}}, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "truncate", 1, err)
	}
	var noCreate, blocks bool
	var sizeArg, ref string
	haveSize := false
	for _, o := range opts {
		switch o.Key {
		case "c":
			noCreate = true
		case "o":
			blocks = true
		case "s":
			sizeArg, haveSize = o.Val, true
		case "r":
			ref = o.Val
		}
	}
	if !haveSize && ref == "" {
		return cmdutil.Usage(c, "truncate", 1, cmdutil.Usagef("you must specify either %s or %s", quotearg.Quote("--size"), quotearg.Quote("--reference")))
	}
	var op byte
	var size int64
	if haveSize {
		s := sizeArg
		if s != "" && strings.IndexByte("+-<>/%", s[0]) >= 0 {
			op, s = s[0], s[1:]
		}
		n, ok := int64(0), false
		if !strings.HasSuffix(s, "b") {
			n, ok = cmdutil.ParseCount(s)
		}
		if !ok {
			posixfs.Warn(c, "truncate", "Invalid number: %s", quotearg.Quote(sizeArg))
			return command.Exit(1)
		}
		if blocks {
			n *= 4096
		}
		if (op == '/' || op == '%') && n == 0 {
			posixfs.Warn(c, "truncate", "division by zero")
			return command.Exit(1)
		}
		size = n
	}
	if ref != "" {
		fi, err := c.FS.Stat(c.Abs(ref))
		if err != nil {
			posixfs.Warn(c, "truncate", "cannot stat %s: %s", quotearg.Quote(ref), posixfs.ErrText(err))
			return command.Exit(1)
		}
		if !haveSize {
			size, op = fi.Size(), 0
		} else if op == 0 {
			// -r with an absolute -s: the size is -s's
		} else {
			size = refSize(fi.Size(), op, size)
			op = 0
		}
	}
	if len(files) == 0 {
		return cmdutil.Usage(c, "truncate", 1, cmdutil.Usagef("missing file operand"))
	}
	status := 0
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		abs := c.Abs(name)
		flags := os.O_WRONLY
		if !noCreate {
			flags |= os.O_CREATE
		}
		fi, statErr := c.FS.Stat(abs)
		if statErr != nil && noCreate {
			continue
		}
		f, err := c.FS.OpenFile(abs, flags, 0o666)
		if err != nil {
			posixfs.Warn(c, "truncate", "cannot open %s for writing: %s", quotearg.Quote(name), posixfs.ErrText(err))
			status = 1
			continue
		}
		cur := int64(0)
		if statErr == nil {
			cur = fi.Size()
		}
		want := size
		if op != 0 {
			want = refSize(cur, op, size)
		}
		if err := f.Truncate(want); err != nil {
			posixfs.Warn(c, "truncate", "failed to truncate %s at %d bytes: %s", quotearg.Quote(name), want, posixfs.ErrText(err))
			status = 1
		}
		f.Close()
	}
	if status != 0 {
		return command.Exit(status)
	}
	return nil
}

// refSize applies a size prefix op (+ - < > / %) with n to the size cur.
func refSize(cur int64, op byte, n int64) int64 {
	switch op {
	case '+':
		return cur + n
	case '-':
		return max(cur-n, 0)
	case '<':
		return min(cur, n)
	case '>':
		return max(cur, n)
	case '/':
		return cur / n * n
	case '%':
		return (cur + n - 1) / n * n
	}
	return n
}
