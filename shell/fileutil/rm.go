package fileutil

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() {
	command.Register(posixfs.Strictly(fsRm), "rm")
	command.Register(posixfs.Strictly(fsRmdir), "rmdir")
}

// fsRm is rm: -r/-R (folders with their content), -f (no error for a
// missing file, no prompt), -d (empty folders), -v; -i and -I are ignored
// (no terminal). It refuses "/", "." and "..".
func fsRm(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "rRfdviI", Long: map[string]string{
		"recursive": "r", "force": "f", "dir": "d", "verbose": "v", "interactive": "i",
		"preserve-root": "preserve-root", "no-preserve-root": "no-preserve-root", "one-file-system": "x",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "rm", 1, err)
	}
	var recursive, force, dirs, verbose bool
	for _, o := range opts {
		switch o.Key {
		case "r", "R":
			recursive = true
		case "f":
			force = true
		case "d":
			dirs = true
		case "v":
			verbose = true
		}
	}
	if len(ops) == 0 {
		if force {
			return nil
		}
		return cmdutil.Usage(c, "rm", 1, cmdutil.Usagef("missing operand"))
	}
	status := 0
	for _, name := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		base := path.Base(strings.TrimRight(name, "/"))
		if base == "." || base == ".." {
			posixfs.Warn(c, "rm", "refusing to remove '.' or '..' directory: skipping %s", quotearg.Quote(name))
			status = 1
			continue
		}
		abs := c.Abs(name)
		if abs == "/" && recursive {
			posixfs.Warn(c, "rm", "it is dangerous to operate recursively on '/'")
			posixfs.Warn(c, "rm", "use --no-preserve-root to override this failsafe")
			status = 1
			continue
		}
		fi, err := posixfs.Lstat(c.FS, abs)
		if err != nil {
			if !force || !errors.Is(err, fs.ErrNotExist) {
				posixfs.Warn(c, "rm", "cannot remove %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
				status = 1
			}
			continue
		}
		if fi.IsDir() && !recursive {
			if !dirs {
				posixfs.Warn(c, "rm", "cannot remove %s: Is a directory", quotearg.Quote(name))
				status = 1
				continue
			}
		}
		if !fsRmTree(ctx, c, name, abs, fi.IsDir() && recursive, verbose) {
			status = 1
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return command.Exit(status)
}

// fsRmTree removes name (at abs), its content first when recurse; false
// when something could not be removed (reported).
func fsRmTree(ctx context.Context, c *command.Call, name, abs string, recurse, verbose bool) bool {
	if ctx.Err() != nil {
		return false
	}
	isDir := false
	if recurse {
		isDir = true
		list, err := posixfs.ReadDir(c.FS, abs)
		if err != nil {
			posixfs.Warn(c, "rm", "cannot remove %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
			return false
		}
		ok := true
		for _, e := range list {
			child := posixfs.Join(name, e.Name())
			if !fsRmTree(ctx, c, child, abs+"/"+e.Name(), e.IsDir() && !posixfs.IsSymlink(e), verbose) {
				ok = false
			}
		}
		if !ok {
			return false
		}
	} else if fi, err := posixfs.Lstat(c.FS, abs); err == nil && fi.IsDir() {
		isDir = true
	}
	if err := c.FS.Remove(abs); err != nil {
		posixfs.Warn(c, "rm", "cannot remove %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
		return false
	}
	if verbose {
		if isDir {
			fmt.Fprintf(c.Stdout, "removed directory %s\n", quotearg.Quote(name))
		} else {
			fmt.Fprintf(c.Stdout, "removed %s\n", quotearg.Quote(name))
		}
	}
	return true
}

// fsRmdir is rmdir: -p (the parents too), -v, --ignore-fail-on-non-empty.
func fsRmdir(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "pv", Long: map[string]string{
		"parents": "p", "verbose": "v", "ignore-fail-on-non-empty": "ignore",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "rmdir", 1, err)
	}
	var parents, verbose, ignore bool
	for _, o := range opts {
		switch o.Key {
		case "p":
			parents = true
		case "v":
			verbose = true
		case "ignore":
			ignore = true
		}
	}
	if len(ops) == 0 {
		return cmdutil.Usage(c, "rmdir", 1, cmdutil.Usagef("missing operand"))
	}
	status := 0
	remove := func(name string) bool {
		abs := c.Abs(name)
		fi, err := posixfs.Lstat(c.FS, abs)
		if err == nil && !fi.IsDir() {
			posixfs.Warn(c, "rmdir", "failed to remove %s: Not a directory", quotearg.Quote(name))
			status = 1
			return false
		}
		if err == nil {
			err = c.FS.Remove(abs)
		}
		if err != nil {
			if ignore && errors.Is(err, syscall.ENOTEMPTY) {
				return false
			}
			posixfs.Warn(c, "rmdir", "failed to remove %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
			status = 1
			return false
		}
		if verbose {
			fmt.Fprintf(c.Stdout, "rmdir: removing directory, %s\n", quotearg.Quote(name))
		}
		return true
	}
	for _, name := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !remove(name) {
			continue
		}
		if parents {
			for p := path.Dir(strings.TrimRight(name, "/")); p != "." && p != "/"; p = path.Dir(p) {
				if !remove(p) {
					break
				}
			}
		}
	}
	return command.Exit(status)
}
