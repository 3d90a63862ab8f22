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
	"github.com/spf13/afero"
)

func init() {
	command.Register(posixfs.Strictly(fsLn), "ln")
	command.Register(posixfs.Strictly(fsReadlinkCmd), "readlink")
	command.Register(posixfs.Strictly(fsRealpathCmd), "realpath")
}

// fsLn is ln: -s (symbolic), -f (replace), -n/-h (do not follow a link to
// a folder as the target), -T (the target is never a folder), -v, -r
// (relative link). Without -s, where the filesystem has no hard links, the
// file is copied.
func fsLn(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "sfnhTvrbit:", Long: map[string]string{
		"symbolic": "s", "force": "f", "no-dereference": "n", "no-target-directory": "T",
		"verbose": "v", "relative": "r", "target-directory": "t:", "interactive": "i", "backup": "b",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "ln", 1, err)
	}
	var symbolic, force, noDeref, noTargetDir, verbose, relative bool
	targetDir := ""
	for _, o := range opts {
		switch o.Key {
		case "s":
			symbolic = true
		case "f":
			force = true
		case "n", "h":
			noDeref = true
		case "T":
			noTargetDir = true
		case "v":
			verbose = true
		case "r":
			relative = true
		case "t":
			targetDir = o.Val
		}
	}
	if len(ops) == 0 {
		return cmdutil.Usage(c, "ln", 1, cmdutil.Usagef("missing file operand"))
	}
	type pair struct{ target, link string }
	var pairs []pair
	isDir := func(p string) bool {
		abs := c.Abs(p)
		var fi fs.FileInfo
		var err error
		if noDeref {
			fi, err = posixfs.Lstat(c.FS, abs)
		} else {
			fi, err = c.FS.Stat(abs)
		}
		return err == nil && fi.IsDir()
	}
	switch {
	case targetDir != "":
		for _, t := range ops {
			pairs = append(pairs, pair{t, posixfs.Join(targetDir, path.Base(t))})
		}
	case len(ops) == 1:
		pairs = append(pairs, pair{ops[0], path.Base(ops[0])})
	case len(ops) == 2 && (noTargetDir || !isDir(ops[1])):
		pairs = append(pairs, pair{ops[0], ops[1]})
	default:
		dir := ops[len(ops)-1]
		if !isDir(dir) {
			posixfs.Warn(c, "ln", "target %s is not a directory", quotearg.Quote(dir))
			return command.Exit(1)
		}
		for _, t := range ops[:len(ops)-1] {
			pairs = append(pairs, pair{t, posixfs.Join(dir, path.Base(t))})
		}
	}
	status := 0
	for _, p := range pairs {
		if err := ctx.Err(); err != nil {
			return err
		}
		linkAbs := c.Abs(p.link)
		target := p.target
		if relative && symbolic {
			target = fsRelPath(path.Dir(linkAbs), c.Abs(target))
		}
		if force {
			if fi, err := posixfs.Lstat(c.FS, linkAbs); err == nil && !fi.IsDir() {
				_ = c.FS.Remove(linkAbs)
			}
		}
		if symbolic {
			err = posixfs.Symlink(c.FS, target, linkAbs)
			if err != nil {
				posixfs.Warn(c, "ln", "failed to create symbolic link %s: %s", quotearg.Quote(p.link), posixfs.ErrText(err))
				status = 1
				continue
			}
		} else if err := fsHardLink(ctx, c, c.Abs(p.target), linkAbs); err != nil {
			if errors.Is(err, fs.ErrNotExist) && !posixfs.Exists(c.FS, c.Abs(p.target)) {
				posixfs.Warn(c, "ln", "failed to access %s: %s", quotearg.Quote(p.target), posixfs.ErrText(err))
			} else {
				posixfs.Warn(c, "ln", "failed to create hard link %s => %s: %s", quotearg.Quote(p.link), quotearg.Quote(p.target), posixfs.ErrText(err))
			}
			status = 1
			continue
		}
		if verbose {
			arrow := "->"
			if !symbolic {
				arrow = "=>"
			}
			fmt.Fprintf(c.Stdout, "%s %s %s\n", quotearg.Quote(p.link), arrow, quotearg.Quote(target))
		}
	}
	return command.Exit(status)
}

// fsHardLink makes dst a copy of the regular file src: the stand-in for a
// hard link on filesystems without them.
func fsHardLink(ctx context.Context, c *command.Call, src, dst string) error {
	fi, err := c.FS.Stat(src)
	if err != nil {
		return err
	}
	if fi.IsDir() {
		return posixfs.PathErr("link", src, syscall.EPERM)
	}
	if posixfs.Exists(c.FS, dst) {
		return posixfs.PathErr("link", dst, syscall.EEXIST)
	}
	return CopyFile(ctx, c.FS, src, dst, fi, true)
}

// fsRelPath is the path of target relative to the folder dir (both
// absolute and clean).
func fsRelPath(dir, target string) string {
	split := func(p string) []string {
		if p == "/" {
			return nil
		}
		return strings.Split(p[1:], "/")
	}
	a, b := split(dir), split(target)
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	var parts []string
	for range a[i:] {
		parts = append(parts, "..")
	}
	parts = append(parts, b[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

// fsReadlinkCmd is readlink: a link's target; -f, -e, -m canonicalize
// (see fsResolve); -n no newline; -z NUL; -q, -s, -v quiet or not.
func fsReadlinkCmd(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "femnqsvz", Long: map[string]string{
		"canonicalize": "f", "canonicalize-existing": "e", "canonicalize-missing": "m",
		"no-newline": "n", "quiet": "q", "silent": "s", "verbose": "v", "zero": "z",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "readlink", 1, err)
	}
	var mode posixfs.ResolveMode
	noNL, verbose, zero := false, false, false
	for _, o := range opts {
		switch o.Key {
		case "f", "e", "m":
			mode = posixfs.ResolveMode(o.Key[0])
		case "n":
			noNL = true
		case "v":
			verbose = true
		case "q", "s":
			verbose = false
		case "z":
			zero = true
		}
	}
	if len(ops) == 0 {
		return cmdutil.Usage(c, "readlink", 1, cmdutil.Usagef("missing operand"))
	}
	end := "\n"
	switch {
	case zero:
		end = "\x00"
	case noNL && len(ops) == 1:
		end = ""
	}
	status := 0
	for _, name := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		var out string
		if mode != 0 {
			out, err = posixfs.Resolve(c.FS, c.Dir, name, mode)
		} else {
			out, err = posixfs.Readlink(c.FS, c.Abs(name))
		}
		if err != nil {
			if verbose {
				posixfs.Warn(c, "readlink", "%s: %s", name, posixfs.ErrText(err))
			}
			status = 1
			continue
		}
		fmt.Fprint(c.Stdout, out+end)
	}
	return command.Exit(status)
}

// fsRealpathCmd is realpath: -e (all must exist), -m (none must), -s (no
// link resolution), -q, -z, --relative-to=DIR, --relative-base=DIR.
func fsRealpathCmd(ctx context.Context, c *command.Call, args []string) error {
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "emsqzLP", Long: map[string]string{
		"canonicalize-existing": "e", "canonicalize-missing": "m", "strip": "s", "no-symlinks": "s",
		"quiet": "q", "zero": "z", "relative-to": "relative-to:", "relative-base": "relative-base:",
		"logical": "L", "physical": "P",
	}}, args[1:])

	if err != nil {
		return cmdutil.Usage(c, "realpath", 1, err)
	}
	mode := posixfs.ResolveMode('f')
	strip, quiet, zero := false, false, false
	relTo, relBase := "", ""
	for _, o := range opts {
		switch o.Key {
		case "e", "m":
			mode = posixfs.ResolveMode(o.Key[0])
		case "s":
			strip = true
		case "q":
			quiet = true
		case "z":
			zero = true
		case "relative-to":
			relTo = o.Val
		case "relative-base":
			relBase = o.Val
		}
	}
	if len(ops) == 0 {
		return cmdutil.Usage(c, "realpath", 1, cmdutil.Usagef("missing operand"))
	}
	resolve := func(p string) (string, error) {
		if strip {
			abs := c.Abs(p)
			if mode == 'e' {
				if _, err := c.FS.Stat(abs); err != nil {
					return "", err
				}
			}
			return abs, nil
		}
		return posixfs.Resolve(c.FS, c.Dir, p, mode)
	}
	if relTo != "" {
		if relTo, err = resolve(relTo); err != nil {
			posixfs.Warn(c, "realpath", "%s: %s", relTo, posixfs.ErrText(err))
			return command.Exit(1)
		}
	}
	if relBase != "" {
		if relBase, err = resolve(relBase); err != nil {
			posixfs.Warn(c, "realpath", "%s: %s", relBase, posixfs.ErrText(err))
			return command.Exit(1)
		}
	}
	end := "\n"
	if zero {
		end = "\x00"
	}
	status := 0
	for _, p := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		out, err := resolve(p)
		if err != nil {
			if !quiet {
				posixfs.Warn(c, "realpath", "%s: %s", p, posixfs.ErrText(err))
			}
			status = 1
			continue
		}
		switch {
		case relTo != "" && (relBase == "" || fsUnder(out, relBase) && fsUnder(relTo, relBase)):
			out = fsRelPath(relTo, out)
		case relBase != "" && fsUnder(out, relBase):
			out = fsRelPath(relBase, out)
		}
		fmt.Fprint(c.Stdout, out+end)
	}
	return command.Exit(status)
}

// fsUnder tells whether p is dir or inside it.
func fsUnder(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// fsLinkTarget is a link's target for listings, or "" for none.
func LinkTarget(fsys afero.Fs, abs string) string {
	t, err := posixfs.Readlink(fsys, abs)
	if err != nil {
		return ""
	}
	return t
}
