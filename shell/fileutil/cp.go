package fileutil

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
	"github.com/spf13/afero"
)

func init() {
	command.Register(posixfs.Strictly(fsCp), "cp")
	command.Register(posixfs.Strictly(fsMv), "mv")
}

// fsCopyFile copies the regular file src (described by fi) to dst,
// replacing dst's content. A new dst gets src's mode less the umask, or
// src's mode and time with preserve.
func CopyFile(ctx context.Context, fsys afero.Fs, src, dst string, fi fs.FileInfo, preserve bool) error {
	in, err := fsys.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := fsys.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, fi.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := posixfs.CopyCtx(ctx, out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	if preserve {
		if err := fsys.Chmod(dst, fi.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil {
			return err
		}
		return fsys.Chtimes(dst, fi.ModTime(), fi.ModTime())
	}
	return nil
}

type fsCpOpts struct {
	recursive, force, noClobber, verbose, preserve, deref, update, noTargetDir bool
	targetDir                                                                  string
}

// fsCp is cp: -r/-R (folders), -a (-R, links as links, preserve), -p
// (preserve mode and times), -f, -n (no clobber), -u (only newer), -v,
// -L/-P (follow links or not), -T, -t DIR; -i is ignored (no terminal).
func fsCp(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "aRrfnpvuLPdiHTt:", Long: map[string]string{
		"archive": "a", "recursive": "R", "force": "f", "no-clobber": "n", "preserve": "p",
		"verbose": "v", "update": "u", "dereference": "L", "no-dereference": "P",
		"interactive": "i", "no-target-directory": "T", "target-directory": "t:",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "cp", 1, err)
	}
	var o fsCpOpts
	o.deref = true
	derefSet := false
	for _, op := range opts {
		switch op.Key {
		case "a":
			o.recursive, o.preserve = true, true
			if !derefSet {
				o.deref = false
			}
		case "R", "r":
			o.recursive = true
			if !derefSet {
				o.deref = false
			}
		case "f":
			o.force = true
		case "n":
			o.noClobber = true
		case "p":
			o.preserve = true
		case "v":
			o.verbose = true
		case "u":
			o.update = true
		case "L":
			o.deref, derefSet = true, true
		case "P", "d":
			o.deref, derefSet = false, true
		case "T":
			o.noTargetDir = true
		case "t":
			o.targetDir = op.Val
		}
	}
	srcs, dst, toDir, err := fsTargets(c, "cp", ops, o.targetDir, o.noTargetDir)
	if err != nil {
		return err
	}
	status := 0
	for _, src := range srcs {
		if err := ctx.Err(); err != nil {
			return err
		}
		target := dst
		if toDir {
			target = posixfs.Join(dst, path.Base(strings.TrimRight(src, "/")))
		}
		if !fsCpOne(ctx, c, &o, src, target, true) {
			status = 1
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return command.Exit(status)
}

// fsTargets splits the operands of cp and mv into sources and a target,
// telling whether the target is a folder to put them in.
func fsTargets(c *command.Call, name string, ops []string, targetDir string, noTargetDir bool) (srcs []string, dst string, toDir bool, err error) {
	if targetDir != "" {
		if fi, err := c.FS.Stat(c.Abs(targetDir)); err != nil || !fi.IsDir() {
			posixfs.Warn(c, name, "target directory %s: %s", quotearg.Quote(targetDir), posixfs.ErrTextOr(err, "Not a directory"))
			return nil, "", false, command.Exit(1)
		}
		if len(ops) == 0 {
			return nil, "", false, cmdutil.Usage(c, name, 1, cmdutil.Usagef("missing file operand"))
		}
		return ops, targetDir, true, nil
	}
	switch len(ops) {
	case 0:
		return nil, "", false, cmdutil.Usage(c, name, 1, cmdutil.Usagef("missing file operand"))
	case 1:
		return nil, "", false, cmdutil.Usage(c, name, 1, cmdutil.Usagef("missing destination file operand after %s", quotearg.Quote(ops[0])))
	}
	dst = ops[len(ops)-1]
	fi, serr := c.FS.Stat(c.Abs(dst))
	isDir := serr == nil && fi.IsDir()
	if noTargetDir {
		if len(ops) > 2 {
			posixfs.Warn(c, name, "extra operand %s", quotearg.Quote(ops[2]))
			return nil, "", false, command.Exit(1)
		}
		return ops[:1], dst, false, nil
	}
	if len(ops) > 2 && !isDir {
		if serr != nil {
			posixfs.Warn(c, name, "target %s: %s", quotearg.Quote(dst), posixfs.ErrText(serr))
		} else {
			posixfs.Warn(c, name, "target %s is not a directory", quotearg.Quote(dst))
		}
		return nil, "", false, command.Exit(1)
	}
	return ops[:len(ops)-1], dst, isDir, nil
}

// fsCpOne copies src to dst (as named on the command line; top says so),
// reporting errors; false when something failed.
func fsCpOne(ctx context.Context, c *command.Call, o *fsCpOpts, src, dst string, top bool) bool {
	if ctx.Err() != nil {
		return false
	}
	srcAbs, dstAbs := c.Abs(src), c.Abs(dst)
	var fi fs.FileInfo
	var err error
	if o.deref || (top && !o.recursive) {
		fi, err = c.FS.Stat(srcAbs)
	} else {
		fi, err = posixfs.Lstat(c.FS, srcAbs)
	}
	if err != nil {
		posixfs.Warn(c, "cp", "cannot stat %s: %s", quotearg.Quote(src), posixfs.ErrText(err))
		return false
	}
	dfi, derr := posixfs.Lstat(c.FS, dstAbs)
	if derr == nil && fsSameFile(c.FS, srcAbs, dstAbs) {
		posixfs.Warn(c, "cp", "%s and %s are the same file", quotearg.Quote(src), quotearg.Quote(dst))
		return false
	}
	switch {
	case fi.IsDir():
		if !o.recursive {
			posixfs.Warn(c, "cp", "-r not specified; omitting directory %s", quotearg.Quote(src))
			return false
		}
		if dstAbs == srcAbs || strings.HasPrefix(dstAbs, srcAbs+"/") {
			posixfs.Warn(c, "cp", "cannot copy a directory, %s, into itself, %s", quotearg.Quote(src), quotearg.Quote(dst))
			return false
		}
		if derr == nil && !dfi.IsDir() {
			posixfs.Warn(c, "cp", "cannot overwrite non-directory %s with directory %s", quotearg.Quote(dst), quotearg.Quote(src))
			return false
		}
		if derr != nil {
			if err := c.FS.Mkdir(dstAbs, fi.Mode().Perm()|0o700); err != nil {
				posixfs.Warn(c, "cp", "cannot create directory %s: %s", quotearg.Quote(dst), posixfs.ErrText(err))
				return false
			}
			if o.verbose {
				fmt.Fprintf(c.Stdout, "%s -> %s\n", quotearg.Quote(src), quotearg.Quote(dst))
			}
		}
		list, err := posixfs.ReadDir(c.FS, srcAbs)
		if err != nil {
			posixfs.Warn(c, "cp", "cannot access %s: %s", quotearg.Quote(src), posixfs.ErrText(err))
			return false
		}
		ok := true
		for _, e := range list {
			if !fsCpOne(ctx, c, o, posixfs.Join(src, e.Name()), posixfs.Join(dst, e.Name()), false) {
				ok = false
			}
		}
		if o.preserve {
			_ = c.FS.Chmod(dstAbs, fi.Mode()&(fs.ModePerm|fs.ModeSetgid|fs.ModeSticky)|fs.ModeDir)
			_ = c.FS.Chtimes(dstAbs, fi.ModTime(), fi.ModTime())
		} else if derr != nil {
			_ = c.FS.Chmod(dstAbs, (fi.Mode().Perm()&^posixfs.UmaskOf(c.FS))|fs.ModeDir)
		}
		return ok
	case posixfs.IsSymlink(fi):
		target, err := posixfs.Readlink(c.FS, srcAbs)
		if err == nil {
			if derr == nil {
				if o.noClobber {
					return true
				}
				_ = c.FS.Remove(dstAbs)
			}
			err = posixfs.Symlink(c.FS, target, dstAbs)
		}
		if err != nil {
			posixfs.Warn(c, "cp", "cannot create symbolic link %s: %s", quotearg.Quote(dst), posixfs.ErrText(err))
			return false
		}
	default: // a regular file, or a device: its bytes copied as a file (cp /dev/null x empties x)
		if derr == nil {
			if dfi.IsDir() {
				posixfs.Warn(c, "cp", "cannot overwrite directory %s with non-directory", quotearg.Quote(dst))
				return false
			}
			if o.noClobber {
				return true
			}
			if o.update && !fi.ModTime().After(dfi.ModTime()) {
				return true
			}
		}
		err := CopyFile(ctx, c.FS, srcAbs, dstAbs, fi, o.preserve)
		if err != nil && o.force && derr == nil {
			if c.FS.Remove(dstAbs) == nil {
				err = CopyFile(ctx, c.FS, srcAbs, dstAbs, fi, o.preserve)
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return false
			}
			posixfs.Warn(c, "cp", "cannot create regular file %s: %s", quotearg.Quote(dst), posixfs.ErrText(err))
			return false
		}
	}
	if o.verbose {
		fmt.Fprintf(c.Stdout, "%s -> %s\n", quotearg.Quote(src), quotearg.Quote(dst))
	}
	return true
}

// fsSameFile tells whether a and b are the same file (after resolving
// links, which is all a filesystem without inodes can tell).
func fsSameFile(fsys afero.Fs, a, b string) bool {
	ra, err1 := posixfs.Resolve(fsys, "/", a, 'e')
	rb, err2 := posixfs.Resolve(fsys, "/", b, 'e')
	return err1 == nil && err2 == nil && ra == rb
}

// fsMv is mv: -f, -n (no clobber), -u (only newer), -v, -T, -t DIR; -i is
// ignored (no terminal).
func fsMv(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "fnuvibTt:", Long: map[string]string{
		"force": "f", "no-clobber": "n", "update": "u", "verbose": "v", "interactive": "i",
		"no-target-directory": "T", "target-directory": "t:", "backup": "b",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "mv", 1, err)
	}
	var noClobber, update, verbose, noTargetDir bool
	targetDir := ""
	for _, o := range opts {
		switch o.Key {
		case "f":
			noClobber = false
		case "n":
			noClobber = true
		case "u":
			update = true
		case "v":
			verbose = true
		case "T":
			noTargetDir = true
		case "t":
			targetDir = o.Val
		}
	}
	srcs, dst, toDir, err := fsTargets(c, "mv", ops, targetDir, noTargetDir)
	if err != nil {
		return err
	}
	status := 0
	for _, src := range srcs {
		if err := ctx.Err(); err != nil {
			return err
		}
		target := dst
		if toDir {
			target = posixfs.Join(dst, path.Base(strings.TrimRight(src, "/")))
		}
		srcAbs, dstAbs := c.Abs(src), c.Abs(target)
		fi, err := posixfs.Lstat(c.FS, srcAbs)
		if err != nil {
			posixfs.Warn(c, "mv", "cannot stat %s: %s", quotearg.Quote(src), posixfs.ErrText(err))
			status = 1
			continue
		}
		dfi, derr := posixfs.Lstat(c.FS, dstAbs)
		if derr == nil {
			if fsSameFile(c.FS, srcAbs, dstAbs) {
				posixfs.Warn(c, "mv", "%s and %s are the same file", quotearg.Quote(src), quotearg.Quote(target))
				status = 1
				continue
			}
			if noClobber || (update && !fi.ModTime().After(dfi.ModTime())) {
				continue
			}
			if dfi.IsDir() && !fi.IsDir() {
				posixfs.Warn(c, "mv", "cannot overwrite directory %s with non-directory", quotearg.Quote(target))
				status = 1
				continue
			}
			if !dfi.IsDir() && fi.IsDir() {
				posixfs.Warn(c, "mv", "cannot overwrite non-directory %s with directory %s", quotearg.Quote(target), quotearg.Quote(src))
				status = 1
				continue
			}
		}
		if fi.IsDir() && (dstAbs == srcAbs || strings.HasPrefix(dstAbs, srcAbs+"/")) {
			posixfs.Warn(c, "mv", "cannot move %s to a subdirectory of itself, %s", quotearg.Quote(src), quotearg.Quote(target))
			status = 1
			continue
		}
		if err := c.FS.Rename(srcAbs, dstAbs); err != nil {
			posixfs.Warn(c, "mv", "cannot move %s to %s: %s", quotearg.Quote(src), quotearg.Quote(target), posixfs.ErrText(err))
			status = 1
			continue
		}
		if verbose {
			fmt.Fprintf(c.Stdout, "renamed %s -> %s\n", quotearg.Quote(src), quotearg.Quote(target))
		}
	}
	return command.Exit(status)
}
