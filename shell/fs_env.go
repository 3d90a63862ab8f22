package shell

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() {
	register(posixfs.Strictly(fsEnv), "env")
	register(posixfs.Strictly(fsPrintenv), "printenv")
	register(posixfs.Strictly(fsWhich), "which")
	register(posixfs.Strictly(fsPwd), "pwd")
}

// fsEnv is env: print the environment, or run COMMAND with NAME=VALUE
// set; -i (empty environment), -u NAME (unset), -0 (NUL after each
// variable), -C DIR (run in DIR), -S STRING (split into arguments).
func fsEnv(ctx context.Context, c *Call, args []string) error {
	env := map[string]string{}
	for _, kv := range c.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	rest := args[1:]
	nul := false
	dir := ""
	for len(rest) > 0 {
		a := rest[0]
		switch {
		case a == "-" || a == "-i" || a == "--ignore-environment":
			env = map[string]string{}
		case a == "-0" || a == "--null":
			nul = true
		case a == "-u" || a == "--unset":
			if len(rest) < 2 {
				return cmdutil.Usage(c, "env", 125, cmdutil.Usagef("option requires an argument -- 'u'"))
			}
			delete(env, rest[1])
			rest = rest[1:]
		case strings.HasPrefix(a, "-u") && len(a) > 2:
			delete(env, a[2:])
		case strings.HasPrefix(a, "--unset="):
			delete(env, strings.TrimPrefix(a, "--unset="))
		case a == "-C" || a == "--chdir":
			if len(rest) < 2 {
				return cmdutil.Usage(c, "env", 125, cmdutil.Usagef("option requires an argument -- 'C'"))
			}
			dir = rest[1]
			rest = rest[1:]
		case a == "-S" || a == "--split-string":
			if len(rest) < 2 {
				return cmdutil.Usage(c, "env", 125, cmdutil.Usagef("option requires an argument -- 'S'"))
			}
			rest = append(strings.Fields(rest[1]), rest[2:]...)
			continue
		case strings.HasPrefix(a, "-S") && len(a) > 2:
			rest = append(strings.Fields(a[2:]), rest[1:]...)
			continue
		case a == "--":
			rest = rest[1:]
			goto assignments
		case strings.HasPrefix(a, "-") && len(a) > 1:
			return cmdutil.Usage(c, "env", 125, cmdutil.Usagef("invalid option -- '%s'", strings.TrimLeft(a, "-")[:1]))
		default:
			goto assignments
		}
		rest = rest[1:]
	}
assignments:
	for len(rest) > 0 && strings.Contains(rest[0], "=") && !strings.HasPrefix(rest[0], "=") {
		k, v, _ := strings.Cut(rest[0], "=")
		env[k] = v
		rest = rest[1:]
	}
	if len(rest) == 0 {
		keys := make([]string, 0, len(env))
		for k := range env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		end := "\n"
		if nul {
			end = "\x00"
		}
		for _, k := range keys {
			fmt.Fprint(c.Stdout, k+"="+env[k]+end)
		}
		return nil
	}
	old := *c
	defer func() { c.Env, c.Environ, c.Dir = old.Env, old.Environ, old.Dir }()
	shSetEnv(c, env)
	if dir != "" {
		abs := c.Abs(dir)
		if fi, err := c.FS.Stat(abs); err != nil || !fi.IsDir() {
			posixfs.Warn(c, "env", "cannot change directory to %s: %s", quotearg.Quote(dir), posixfs.ErrTextOr(err, "Not a directory"))
			return Exit(125)
		}
		c.Dir = abs
	}
	err := c.Exec(ctx, rest)
	var xe *shExecError
	if errors.As(err, &xe) {
		msg := xe.msg
		if xe.status == 127 {
			msg = "No such file or directory"
		}
		posixfs.Warn(c, "env", "%s: %s", quotearg.Quote(rest[0]), msg)
		return Exit(xe.status)
	}
	return err
}

// fsPrintenv is printenv: the whole environment, or the values of the
// named variables (status 1 if one is missing); -0.
func fsPrintenv(ctx context.Context, c *Call, args []string) error {
	opts, names, err := cmdutil.Parse(cmdutil.Flags{Short: "0", Long: map[string]string{"null": "0"}}, args[1:])
	if err != nil {
		return cmdutil.Usage(c, "printenv", 2, err)
	}
	end := "\n"
	if len(opts) > 0 {
		end = "\x00"
	}
	if len(names) == 0 {
		for _, kv := range c.Environ() {
			fmt.Fprint(c.Stdout, kv+end)
		}
		return nil
	}
	status := 0
	for _, n := range names {
		if v, ok := c.Env(n); ok && !strings.Contains(n, "=") {
			fmt.Fprint(c.Stdout, v+end)
		} else {
			status = 1
		}
	}
	return Exit(status)
}

// fsWhichUtilities are shell builtins that also exist as programs, which
// which(1) finds.
var fsWhichUtilities = map[string]bool{
	"echo": true, "printf": true, "test": true, "[": true, "true": true, "false": true,
	"pwd": true, "kill": true,
}

// fsWhich is which: the path of each command as a program (a handler, a
// coreutil or a fallback name is /usr/bin/NAME; a script found in $PATH
// is its path); -a is accepted. Status 1 if one is missing.
func fsWhich(ctx context.Context, c *Call, args []string) error {
	s, ok := sessionFrom(ctx)
	if !ok {
		s = newSession(Options{FS: c.FS})
	}
	pathList, _ := c.Env("PATH")
	look := lookEnv{fsys: c.FS, dir: c.Dir, path: pathList}
	status := 0
	all := slices.Contains(args[1:], "-a")
	for _, name := range args[1:] {
		if name == "-a" || name == "-s" {
			continue
		}
		if _, set := c.Env("PATH"); all && set && !strings.Contains(name, "/") {
			// -a: every executable of that name in $PATH, in order
			found := whichAll(c, pathList, name)
			for _, p := range found {
				fmt.Fprintln(c.Stdout, p)
			}
			if len(found) > 0 {
				continue
			}
		}
		p := s.whichPath(c, look, name)
		if p == "" && fsWhichUtilities[name] && !strings.Contains(name, "/") {
			if _, set := c.Env("PATH"); set {
				p = whichBinDir(pathList, name)
			} else {
				p = "/usr/bin/" + name
			}
		}
		if p == "" {
			status = 1
			continue
		}
		if !path.IsAbs(p) && !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
			p = "./" + p
		}
		fmt.Fprintln(c.Stdout, p)
	}
	return Exit(status)
}

// whichPath is the path which reports for name: a name with a slash, or
// any name when $PATH is unset, as lookPath finds it; else the first executable file in $PATH or, for a
// command built in, its place in the first of /usr/bin and /bin that
// $PATH names (the merged-/usr Debian view the shell's command -v
// gives); "" for none.
func (s *session) whichPath(c *Call, look lookEnv, name string) string {
	if _, set := c.Env("PATH"); !set || strings.Contains(name, "/") {
		return s.lookPath(look, name) // no $PATH: a command built in is /usr/bin's
	}
	p := s.pathLookup(c.Dir, look.path, name)
	if p == "" {
		return ""
	}
	if _, err := c.FS.Stat(shAbs(c.Dir, p)); err == nil && !fsExecutable(c.FS, shAbs(c.Dir, p)) {
		return "" // a file without an execute bit: which skips it
	}
	return p
}

// whichAll is which -a's list: each executable file called name in the
// folders of pathList (the system's /usr/bin and /bin among them), as
// which prints them.
func whichAll(c *Call, pathList, name string) []string {
	var found []string
	for _, d := range strings.Split(pathList, ":") {
		if d == "" {
			d = "."
		}
		cand := path.Join(d, name)
		if !fsExecutable(c.FS, shAbs(c.Dir, cand)) || slices.Contains(found, cand) {
			continue
		}
		if !path.IsAbs(cand) && !strings.HasPrefix(cand, "./") && !strings.HasPrefix(cand, "../") {
			cand = "./" + cand
		}
		found = append(found, cand)
	}
	return found
}

// whichBinDir is name in the first of /usr/bin and /bin that pathList
// names; "" if it names neither.
func whichBinDir(pathList, name string) string {
	for _, d := range strings.Split(pathList, ":") {
		if c := path.Clean(d); c == "/usr/bin" || c == "/bin" {
			return path.Join(d, name)
		}
	}
	return ""
}

// fsPwd is pwd for Call.Exec (the shell runs its own): the current
// folder; -P resolves links.
func fsPwd(ctx context.Context, c *Call, args []string) error {
	physical := false
	for _, a := range args[1:] {
		switch a {
		case "-P", "--physical":
			physical = true
		case "-L", "--logical":
			physical = false
		default:
			return cmdutil.Usage(c, "pwd", 1, cmdutil.Usagef("invalid option -- '%s'", strings.TrimLeft(a, "-")))
		}
	}
	dir := c.Dir
	if physical {
		real, err := posixfs.Realpath(c.FS, c.Dir, true)
		if err != nil {
			posixfs.Warn(c, "pwd", "error retrieving current directory: %s", posixfs.ErrText(err))
			return Exit(1)
		}
		dir = real
	}
	fmt.Fprintln(c.Stdout, dir)
	return nil
}
