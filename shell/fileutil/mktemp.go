package fileutil

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() { command.Register(posixfs.Strictly(fsMktemp), "mktemp") }

// fsMktemp is mktemp: make a new file (0600) or, with -d, folder (0700)
// from TEMPLATE (default tmp.XXXXXXXXXX; at least 3 trailing X's, before
// --suffix), in -p DIR / $TMPDIR / /tmp when -t, -p or no template is
// given, and print its name. -u only prints a name, -q is quiet. /tmp is
// made when missing.
func fsMktemp(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "dqtup:", Long: map[string]string{
		"directory": "d", "quiet": "q", "dry-run": "u", "tmpdir": "p:", "suffix": "suffix:",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "mktemp", 1, err)
	}
	var dir, quiet, dry, useTmp bool
	tmpdir, suffix := "", ""
	for _, o := range opts {
		switch o.Key {
		case "d":
			dir = true
		case "q":
			quiet = true
		case "u":
			dry = true
		case "t":
			useTmp = true
		case "p":
			tmpdir, useTmp = o.Val, true
		case "suffix":
			suffix = o.Val
		}
	}
	if len(ops) > 1 {
		return cmdutil.Usage(c, "mktemp", 1, cmdutil.Usagef("too many templates"))
	}
	template := "tmp.XXXXXXXXXX"
	if len(ops) == 1 {
		template = ops[0]
	} else {
		useTmp = true
	}
	fail := func(format string, a ...any) error {
		if !quiet {
			posixfs.Warn(c, "mktemp", format, a...)
		}
		return command.Exit(1)
	}
	if suffix == "" && !strings.HasSuffix(template, "X") {
		if i := strings.LastIndex(template, "X"); i >= 0 && !strings.Contains(template[i+1:], "/") {
			template, suffix = template[:i+1], template[i+1:]
		}
	}
	n := len(template) - len(strings.TrimRight(template, "X"))
	if n < 3 {
		return fail("too few X's in template %s", quotearg.Quote(template+suffix))
	}
	if useTmp {
		if strings.Contains(template, "/") && len(ops) == 1 && tmpdir == "" {
			return fail("invalid template, %s, contains directory separator", quotearg.Quote(template))
		}
		if tmpdir == "" {
			tmpdir, _ = c.Env("TMPDIR")
		}
		if tmpdir == "" {
			tmpdir = "/tmp"
			if _, err := c.FS.Stat("/tmp"); errors.Is(err, fs.ErrNotExist) {
				if c.FS.Mkdir("/tmp", 0o777) == nil {
					_ = c.FS.Chmod("/tmp", fs.ModeDir|fs.ModeSticky|0o777)
				}
			}
		}
		template = strings.TrimRight(tmpdir, "/") + "/" + template
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	prefix := template[:len(template)-n]
	var lastErr error
	for try := 0; try < 100; try++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := make([]byte, n)
		_, _ = rand.Read(b)
		for i := range b {
			b[i] = letters[int(b[i])%len(letters)]
		}
		name := prefix + string(b) + suffix
		abs := c.Abs(name)
		if dry {
			if posixfs.Exists(c.FS, abs) {
				continue
			}
			fmt.Fprintln(c.Stdout, name)
			return nil
		}
		if dir {
			lastErr = c.FS.Mkdir(abs, 0o700)
			if lastErr == nil {
				_ = c.FS.Chmod(abs, fs.ModeDir|0o700)
			}
		} else {
			var f interface{ Close() error }
			f, lastErr = c.FS.OpenFile(abs, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
			if lastErr == nil {
				f.Close()
				_ = c.FS.Chmod(abs, 0o600)
			}
		}
		if lastErr == nil {
			fmt.Fprintln(c.Stdout, name)
			return nil
		}
		if !errors.Is(lastErr, fs.ErrExist) {
			break
		}
	}
	kind := "file"
	if dir {
		kind = "directory"
	}
	return fail("failed to create %s via template %s: %s", kind, quotearg.Quote(path.Clean(template)+suffix), posixfs.ErrText(lastErr))
}
