// Package git is the sandbox's `git` command: git 2.x's porcelain on
// go-git (github.com/go-git/go-git/v5), over the command's filesystem only.
//
// It registers "git" with package shell/command; a program links it in by
// importing this package. The repository (worktree and .git folder) lives in
// command.Call.FS, bridged to go-git's billy interface by billy.go, so the
// same code runs natively (the memory adapter) and inside busybox.wasm.
//
// What it keeps from git, and what it does not:
//   - Subcommands: init, add, commit, status, diff, log, show, branch,
//     checkout, switch, restore, reset, rm, mv, tag, rev-parse, config,
//     stash (push, pop, apply, list, drop), clone. Their output is what git
//     2.x prints for the same options; an option or subcommand it does not
//     implement is an error naming it (exit 1 for an unknown option, as
//     git's usage does with 129), never a silent no-op.
//   - No network and no host: a remote is a path inside the sandbox; a URL
//     (https://, ssh://, git@host:...) is refused with a message saying so.
//     Configuration comes from the repository's .git/config and the
//     sandbox's $HOME/.gitconfig (or $XDG_CONFIG_HOME/git/config), never
//     from the host. GIT_DIR and GIT_WORK_TREE are paths in the sandbox.
//   - Hooks (.git/hooks) never run: no program starts from git, as with
//     core.hooksPath=/dev/null.
//   - Identity: GIT_AUTHOR_NAME/EMAIL, GIT_COMMITTER_NAME/EMAIL, then
//     user.name/user.email from the config, then EMAIL; when none is set
//     git falls back, as real git does from the passwd entry and host name,
//     to $USER (default "user") and $USER@$HOSTNAME (default host
//     "sandbox"), printing git's "configured automatically" advice on a
//     commit. So `git commit` works in a fresh sandbox, and where the
//     same configuration is present the result is the same as git's.
package git

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/git/billyfs"
)

func init() { command.Register(Main, "git") }

// fatal is an error git reports as "fatal: MSG" with status 128.
type fatal struct{ msg string }

func (f *fatal) Error() string { return f.msg }

func fatalf(format string, a ...any) error { return &fatal{fmt.Sprintf(format, a...)} }

// usageErr is an error git reports with status 129 (a bad option).
type usageErr struct{ msg string }

func (u *usageErr) Error() string { return u.msg }

// notImpl is what a subcommand or option the sandbox's git does not
// implement returns: "git: 'x' is not implemented in the sandbox's git", 1.
func notImpl(what string) error {
	return &notImplemented{what}
}

type notImplemented struct{ what string }

func (n *notImplemented) Error() string {
	return n.what + " is not implemented by the sandbox's git (go-git based); use the supported subcommands and options (git help lists them)"
}

// env is one git invocation: the call, its flags before the subcommand
// and the repository once found.
type env struct {
	c            *command.Call
	ctx          context.Context
	dir          string            // the folder git runs in (after -C)
	config       map[string]string // -c name=value
	out          io.Writer
	errw         io.Writer
	commitStatus bool // status as commit prints it ("Initial commit")
	quiet        bool // -q: no feedback messages (errors still print)
	// countPaths: checkout without "--" reports "Updated N paths from ..."
	countPaths bool
}

// info prints a feedback message on stderr unless -q.
func (e *env) info(format string, a ...any) {
	if !e.quiet {
		fmt.Fprintf(e.errw, format, a...)
	}
}

// Main is the git command.
func Main(ctx context.Context, c *command.Call, args []string) error {
	e := &env{c: c, ctx: ctx, dir: c.Dir, config: map[string]string{}, out: c.Stdout, errw: c.Stderr}
	args = args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch a := args[0]; {
		case a == "-C" && len(args) > 1:
			e.dir = path.Join(e.dir, args[1])
			if path.IsAbs(args[1]) {
				e.dir = path.Clean(args[1])
			}
			if fi, err := c.FS.Stat(e.dir); err != nil || !fi.IsDir() {
				fmt.Fprintf(c.Stderr, "fatal: cannot change to '%s': No such file or directory\n", args[1])
				return command.Exit(128)
			}
			args = args[2:]
		case a == "-c" && len(args) > 1:
			k, v, ok := strings.Cut(args[1], "=")
			if !ok {
				v = "true"
			}
			e.config[strings.ToLower(k)] = v
			args = args[2:]
		case a == "--no-pager" || a == "-P" || a == "--no-optional-locks" || a == "--literal-pathspecs":
			args = args[1:]
		case a == "--version" || a == "-v":
			fmt.Fprintln(c.Stdout, "git version 2.39.5 (sandbox, go-git)")
			return nil
		case a == "--help" || a == "-h":
			args = []string{"help"}
		default:
			fmt.Fprintf(c.Stderr, "unknown option: %s\n", a)
			fmt.Fprint(c.Stderr, usage)
			return command.Exit(129)
		}
	}
	if len(args) == 0 {
		fmt.Fprint(c.Stdout, usage)
		return command.Exit(1)
	}
	sub, ok := subcommands[args[0]]
	if !ok {
		if args[0] == "help" || args[0] == "version" {
			if args[0] == "version" {
				fmt.Fprintln(c.Stdout, "git version 2.39.5 (sandbox, go-git)")
				return nil
			}
			fmt.Fprint(c.Stdout, usage)
			return nil
		}
		if known[args[0]] {
			fmt.Fprintf(c.Stderr, "git: '%s' is not implemented by the sandbox's git (go-git based). Supported: %s\n", args[0], strings.Join(subcommandNames(), ", "))
			return command.Exit(1)
		}
		fmt.Fprintf(c.Stderr, "git: '%s' is not a git command. See 'git --help'.\n", args[0])
		return command.Exit(1)
	}
	err := sub(e, args)
	return report(c, args[0], err)
}

// report turns a subcommand's error into git's message and status.
func report(c *command.Call, sub string, err error) error {
	if err == nil {
		return nil
	}
	var st command.ExitStatus
	if errors.As(err, &st) {
		return err
	}
	var f *fatal
	var u *usageErr
	var n *notImplemented
	switch {
	case errors.As(err, &f):
		fmt.Fprintf(c.Stderr, "fatal: %s\n", f.msg)
		return command.Exit(128)
	case errors.As(err, &u):
		fmt.Fprintf(c.Stderr, "error: %s\n", u.msg)
		return command.Exit(129)
	case errors.As(err, &n):
		fmt.Fprintf(c.Stderr, "git %s: %s\n", sub, n.Error())
		return command.Exit(1)
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		return err
	}
	fmt.Fprintf(c.Stderr, "fatal: %v\n", err)
	return command.Exit(128)
}

const usage = `usage: git [-v | --version] [-h | --help] [-C <path>] [-c <name>=<value>]
           <command> [<args>]

These are common Git commands used in various situations:

start a working area
   clone     Clone a repository into a new directory
   init      Create an empty Git repository or reinitialize an existing one

work on the current change
   add       Add file contents to the index
   mv        Move or rename a file, a directory, or a symlink
   restore   Restore working tree files
   rm        Remove files from the working tree and from the index

examine the history and state
   diff      Show changes between commits, commit and working tree, etc
   log       Show commit logs
   show      Show various types of objects
   status    Show the working tree status

grow, mark and tweak your common history
   branch    List, create, or delete branches
   commit    Record changes to the repository
   reset     Reset current HEAD to the specified state
   switch    Switch branches
   tag       Create, list, delete or verify a tag object signed with GPG

The sandbox's git (on go-git) also has: checkout, config, rev-parse, stash.
It has no network: clone takes a path inside the sandbox.
`

type subcommand func(e *env, args []string) error

var subcommands map[string]subcommand

func init() {
	subcommands = map[string]subcommand{
		"init":      cmdInit,
		"add":       cmdAdd,
		"commit":    cmdCommit,
		"status":    cmdStatus,
		"diff":      cmdDiff,
		"log":       cmdLog,
		"show":      cmdShow,
		"branch":    cmdBranch,
		"checkout":  cmdCheckout,
		"switch":    cmdSwitch,
		"restore":   cmdRestore,
		"reset":     cmdReset,
		"rm":        cmdRm,
		"mv":        cmdMv,
		"tag":       cmdTag,
		"rev-parse": cmdRevParse,
		"config":    cmdConfig,
		"stash":     cmdStash,
		"clone":     cmdClone,
	}
}

// known are git commands this git does not implement: they say so.
var known = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`am apply archive bisect blame bundle cherry cherry-pick clean
		describe fetch format-patch fsck gc grep gui instaweb ls-files ls-remote ls-tree merge
		merge-base notes pull push range-diff rebase reflog remote repack replace revert
		shortlog show-ref sparse-checkout submodule worktree cat-file hash-object
		update-index update-ref symbolic-ref write-tree commit-tree read-tree rev-list
		for-each-ref count-objects prune var whatchanged`) {
		known[n] = true
	}
}

func subcommandNames() []string {
	names := make([]string, 0, len(subcommands))
	for n := range subcommands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// repo is an opened repository.
type repo struct {
	*env
	r      store
	gitDir string // absolute
	top    string // the worktree's top, absolute; "" when bare
	st     *filesystem.Storage
}

// findGitDir returns the .git folder that dir is in (GIT_DIR first) and
// the worktree's top, or "" when there is none.
func (e *env) findGitDir() (gitDir, top string) {
	if d, ok := e.c.Env("GIT_DIR"); ok && d != "" {
		gitDir = e.abs(d)
		top = e.dir
		if w, ok := e.c.Env("GIT_WORK_TREE"); ok && w != "" {
			top = e.abs(w)
		}
		if !e.isGitDir(gitDir) {
			return "", ""
		}
		return gitDir, top
	}
	for d := e.dir; ; d = path.Dir(d) {
		if g := path.Join(d, ".git"); e.isGitDir(g) {
			return g, d
		}
		if e.isGitDir(d) && path.Base(d) != ".git" && isBare(e.c.FS, d) {
			return d, ""
		}
		if d == "/" {
			return "", ""
		}
	}
}

func (e *env) abs(p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(e.dir, p)
}

// isGitDir reports whether d looks like a git folder: HEAD, objects, refs.
func (e *env) isGitDir(d string) bool {
	for _, n := range []string{"HEAD", "objects", "refs"} {
		if _, err := e.c.FS.Stat(path.Join(d, n)); err != nil {
			return false
		}
	}
	return true
}

func isBare(fsys afero.Fs, d string) bool {
	b, err := afero.ReadFile(fsys, path.Join(d, "config"))
	return err == nil && strings.Contains(string(b), "bare = true")
}

var errNotRepo = &fatal{"not a git repository (or any of the parent directories): .git"}

// open opens the repository dir is in.
func (e *env) open() (*repo, error) {
	gitDir, top := e.findGitDir()
	if gitDir == "" {
		if d, ok := e.c.Env("GIT_DIR"); ok && d != "" {
			return nil, fatalf("not a git repository: '%s'", d)
		}
		return nil, errNotRepo
	}
	return e.openAt(gitDir, top)
}

func (e *env) openAt(gitDir, top string) (*repo, error) {
	st := filesystem.NewStorage(billyfs.At(e.c.FS, gitDir), cache.NewObjectLRUDefault())
	if _, err := st.Reference(plumbing.HEAD); err != nil {
		return nil, fatalf("not a git repository: %s: %v", gitDir, err)
	}
	return &repo{env: e, r: store{st}, gitDir: gitDir, top: top, st: st}, nil
}

// rel returns the repository path p (slash-separated, from the top) as a
// path relative to the current folder, as git prints them.
func (r *repo) rel(p string) string {
	return relPath(r.top, r.dir, p)
}

func relPath(top, dir, p string) string {
	abs := path.Join(top, p)
	if dir == top {
		return p
	}
	up := ""
	d := dir
	for d != "/" && !strings.HasPrefix(abs+"/", d+"/") {
		d = path.Dir(d)
		up += "../"
	}
	if d == "/" {
		return up + strings.TrimPrefix(abs, "/")
	}
	rest := strings.TrimPrefix(abs, d)
	rest = strings.TrimPrefix(rest, "/")
	if strings.HasSuffix(p, "/") && !strings.HasSuffix(rest, "/") {
		rest += "/"
	}
	if rest == "" {
		if up == "" {
			return "./"
		}
		return up
	}
	return up + rest
}

// pathspec turns a command-line path into a repository path (from the
// top, slash-separated, "" for the top itself). ok is false outside it.
func (r *repo) pathspec(p string) (string, bool) {
	abs := r.abs(p)
	if abs == r.top {
		return "", true
	}
	if !strings.HasPrefix(abs, r.top+"/") && r.top != "/" {
		return "", false
	}
	return strings.TrimPrefix(strings.TrimPrefix(abs, r.top), "/"), true
}

// under returns whether a repository path is one of specs (command-line
// paths) or inside one of them; a spec outside the worktree is an error.
func (r *repo) under(specs []string) (func(string) bool, error) {
	var prefixes []string
	for _, sp := range specs {
		p, ok := r.pathspec(sp)
		if !ok {
			return nil, r.outside(sp)
		}
		prefixes = append(prefixes, strings.TrimSuffix(p, "/"))
	}
	return func(p string) bool {
		for _, pre := range prefixes {
			if pre == "" || p == pre || strings.HasPrefix(p, pre+"/") {
				return true
			}
		}
		return false
	}, nil
}

func (r *repo) outside(p string) error {
	return fatalf("%s: '%s' is outside repository at '%s'", p, p, r.top)
}

// needWorktree fails in a bare repository.
func (r *repo) needWorktree(what string) error {
	if r.top == "" {
		return fatalf("this operation must be run in a work tree")
	}
	return nil
}
