package dirs

import (
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"
	"syscall"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
)

// CdShell is what cd and pwd need of the shell.
type CdShell interface {
	// Errf reports an error (the shell prefixes "bash: line N: ").
	Errf(format string, a ...any)
	Stdout() io.Writer
	Stderr() io.Writer
	// Var is a variable's value (ok false when unset); SetVar assigns
	// it (an error is ignored, as bash ignores a readonly $PWD); Export
	// marks it exported.
	Var(name string) (string, bool)
	SetVar(name, val string) error
	Export(name string)
	// Dir is the current folder; SetDir changes it.
	Dir() string
	SetDir(dir string)
	// Physical is set -o physical: cd and pwd resolve symbolic links.
	Physical() bool
	// Stat stats an absolute path as commands see the filesystem (with
	// /dev and its devices).
	Stat(path string) (fs.FileInfo, error)
	// Realpath is an absolute, clean path with its symbolic links
	// resolved.
	Realpath(path string) (string, error)
	// Readlink is the target of the symbolic link at the absolute path;
	// an error when it is not one.
	Readlink(path string) (string, error)
	// ErrText is the C library's wording of a file error ("No such
	// file or directory").
	ErrText(err error) string
}

// Cd is cd [-L|-P] [dir] (args without the command's name): logically
// (the default) the folder is $PWD/dir with . and .. taken away by text,
// each .. checked to follow a folder, as bash's; with -P (or set -o
// physical) it is the folder's real path, symbolic links resolved. A
// relative dir not starting with . or .. is looked for in $CDPATH first;
// cd - goes to $OLDPWD. It sets $OLDPWD (exported) and $PWD, and prints
// the folder when $CDPATH or - chose it.
func Cd(sh CdShell, args []string) int {
	physical := sh.Physical()
	opts, args, err := builtinopt.Parse("eLP", args)
	if err != nil {
		// -@ (extended attributes as a folder) is an invalid option
		// where the system has no O_XATTR, as on Linux.
		return builtinopt.Usage(sh.Errf, sh.Stdout(), sh.Stderr(), "cd", "cd [-L|[-P [-e]] [-@]] [dir]", err)
	}
	physical = lastLP(opts, physical)
	if len(args) > 1 {
		sh.Errf("cd: too many arguments")
		return 1
	}
	var dir string
	print := false
	if len(args) == 0 {
		h, ok := sh.Var("HOME")
		if !ok {
			sh.Errf("cd: HOME not set")
			return 1
		}
		dir = h
	} else if args[0] == "-" {
		o, ok := sh.Var("OLDPWD")
		if !ok {
			sh.Errf("cd: OLDPWD not set")
			return 1
		}
		dir, print = o, true
	} else {
		dir = args[0]
	}
	if dir == "" {
		return 0
	}
	target, err := "", error(nil)
	if cdp, ok := sh.Var("CDPATH"); ok && cdp != "" && !strings.HasPrefix(dir, "/") && !dotted(dir) {
		for _, e := range strings.Split(cdp, ":") {
			cand := dir
			if e != "" {
				cand = strings.TrimSuffix(e, "/") + "/" + dir
			}
			if t, err := Target(sh, cand, physical); err == nil {
				target = t
				print = print || e != ""
				break
			}
		}
	}
	if target == "" {
		target, err = Target(sh, dir, physical)
		if err != nil {
			sh.Errf("cd: %s: %s", dir, sh.ErrText(err))
			return 1
		}
	}
	old, _ := sh.Var("PWD")
	_ = sh.SetVar("OLDPWD", old)
	sh.Export("OLDPWD")
	sh.SetDir(target)
	_ = sh.SetVar("PWD", target)
	if print {
		fmt.Fprintln(sh.Stdout(), target)
	}
	return 0
}

// dotted reports whether dir starts with . or .. as a whole component,
// which $CDPATH does not apply to.
func dotted(dir string) bool {
	first, _, _ := strings.Cut(dir, "/")
	return first == "." || first == ".."
}

// Target is the folder cd dir goes to from sh.Dir(): the logical path
// (every .. checked to follow a folder: ENOENT or ENOTDIR when it does
// not) or with physical the real path; an error when it is not a folder.
func Target(sh CdShell, dir string, physical bool) (string, error) {
	p := dir
	if !strings.HasPrefix(p, "/") {
		p = sh.Dir() + "/" + p
	}
	if physical {
		return Physical(sh, p)
	}
	var parts []string
	for _, c := range strings.Split(p, "/") {
		switch c {
		case "", ".":
		case "..":
			if err := isDir(sh, "/"+strings.Join(parts, "/")); err != nil {
				return "", err
			}
			if len(parts) > 0 {
				parts = parts[:len(parts)-1]
			}
		default:
			parts = append(parts, c)
		}
	}
	abs := "/" + strings.Join(parts, "/")
	if err := isDir(sh, abs); err != nil {
		return "", err
	}
	return slashes(p) + abs, nil
}

// Physical is the real path of the absolute path p as cd -P and pwd -P
// find it: each symbolic link resolved where it stands, so that a ..
// after a link goes to the parent of the link's target (bash chdirs to
// p as written); an error when it is not a folder. A leading // stays
// unless a link with an absolute target restarts the path, as bash's
// sh_physpath keeps it.
func Physical(sh CdShell, p string) (string, error) {
	real, err := sh.Realpath(p)
	if err != nil {
		return "", err
	}
	if err := isDir(sh, real); err != nil {
		return "", err
	}
	if slashes(p) != "" && !absLink(sh, "/", strings.Split(p, "/"), 0) {
		real = "/" + real
	}
	return real, nil
}

// absLink reports whether resolving the components comps from the real
// folder cur meets a symbolic link with an absolute target.
func absLink(sh CdShell, cur string, comps []string, depth int) bool {
	if depth > 40 {
		return false
	}
	for _, c := range comps {
		switch c {
		case "", ".":
			continue
		case "..":
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, c)
		target, err := sh.Readlink(next)
		if err != nil {
			cur = next
			continue
		}
		if strings.HasPrefix(target, "/") {
			return true
		}
		if absLink(sh, cur, strings.Split(target, "/"), depth+1) {
			return true
		}
		real, err := sh.Realpath(next)
		if err != nil {
			return false
		}
		cur = real
	}
	return false
}

// slashes is "/" when p starts with exactly two slashes, which bash
// keeps in $PWD (POSIX leaves their meaning to the system), else "".
func slashes(p string) string {
	if strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "///") {
		return "/"
	}
	return ""
}

// isDir is nil when p is a folder, else Stat's error or ENOTDIR.
func isDir(sh CdShell, p string) error {
	fi, err := sh.Stat(p)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return syscall.ENOTDIR
	}
	return nil
}

// Clean is p made absolute and clean by text: "" is /, each . and
// empty component goes, each .. takes the one before it away.
func Clean(p string) string {
	if p == "" {
		return "/"
	}
	var out []string
	for _, s := range strings.Split(p, "/") {
		switch s {
		case "", ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
		}
	}
	return "/" + strings.Join(out, "/")
}

// Pwd is pwd [-LP] (args without the command's name): the shell's
// folder, or with -P (or set -o physical) its real path. It returns the
// text to print and the status; a usage error is reported (status 2).
func Pwd(sh CdShell, args []string) (string, int) {
	physical := sh.Physical()
	opts, _, err := builtinopt.Parse("LP", args)
	if err != nil {
		return "", builtinopt.Usage(sh.Errf, sh.Stdout(), sh.Stderr(), "pwd", "pwd [-LP]", err)
	}
	physical = lastLP(opts, physical)
	dir := sh.Dir()
	if physical {
		if real, err := Physical(sh, dir); err == nil {
			dir = real
		}
	}
	return dir + "\n", 0
}

// lastLP is physical as the last of -L and -P among opts sets it.
func lastLP(opts builtinopt.Options, physical bool) bool {
	for _, o := range opts {
		switch o.Letter {
		case 'L':
			physical = false
		case 'P':
			physical = true
		}
	}
	return physical
}
