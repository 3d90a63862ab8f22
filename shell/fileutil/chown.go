package fileutil

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/agentenkit/agentenkit/shell/cmdutil"
	"github.com/agentenkit/agentenkit/shell/command"
	"github.com/agentenkit/agentenkit/shell/posixfs"
	"github.com/agentenkit/agentenkit/shell/quotearg"
)

func init() {
	command.Register(posixfs.Strictly(fsChown), "chown")
	command.Register(posixfs.Strictly(fsChown), "chgrp")
}

// sandboxIDs are the users and groups the sandbox knows: root and its
// user (uid and gid 1000), each the other's group of the same name.
var sandboxIDs = map[string]int{"root": 0, Owner: UID}

// idName is the name of uid or gid id, or the number.
func idName(id int) string {
	for n, v := range sandboxIDs {
		if v == id {
			return n
		}
	}
	return strconv.Itoa(id)
}

// parseID reads a user or group: a name the sandbox knows or a number.
func parseID(s string) (int, bool) {
	if id, ok := sandboxIDs[s]; ok {
		return id, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// fsChown is GNU chown and chgrp run by the sandbox's user, who is not
// root: a file keeps its owner (its files are the user's, the system's
// root's), so a change to another owner or group than the one it has is
// "Operation not permitted" (status 1) and the same one is kept, as on
// Linux; -R (post-order: a folder after its entries), -v, -c, -f, -h,
// --reference. Owners are root, user (1000) or numbers; OWNER: takes
// OWNER's group, and '.' is taken for ':' with coreutils' warning.
func fsChown(ctx context.Context, c *command.Call, args []string) error {
	me := args[0]
	opts, ops, err := cmdutil.Parse(cmdutil.Flags{Short: "RvcfhHLP", Long: map[string]string{
		"recursive": "R", "verbose": "v", "changes": "c", "silent": "f", "quiet": "f",
		"no-dereference": "h", "dereference": "deref", "reference": "reference:", "from": "from:",
		"preserve-root": "pr", "no-preserve-root": "npr",
	}}, args[1:])
	if err != nil {
		return cmdutil.Usage(c, me, 1, err)
	}
	co := readChangeOpts(opts) // mkdir.go, with chmod
	recursive, verbose, changes, quiet := co.recursive, co.verbose, co.changes, co.quiet
	uid, gid := -1, -1
	spec := ""
	if co.ref != "" {
		fi, err := co.refInfo(c, me)
		if err != nil {
			return err
		}
		_, id := OwnerOf(fi)
		gid = id
		if me == "chown" {
			uid = id
		}
	} else {
		if len(ops) == 0 {
			return cmdutil.Usage(c, me, 1, cmdutil.Usagef("missing operand"))
		}
		spec, ops = ops[0], ops[1:]
		if me == "chgrp" {
			g, ok := parseID(spec)
			if !ok {
				posixfs.Warn(c, me, "invalid group: %s", quotearg.Quote(spec))
				return command.Exit(1)
			}
			gid = g
		} else {
			var errText string
			uid, gid, errText = chownSpec(c, spec)
			if errText != "" {
				posixfs.Warn(c, me, "%s", errText)
				return command.Exit(1)
			}
		}
	}
	if len(ops) == 0 {
		return cmdutil.Usage(c, me, 1, cmdutil.Usagef("missing operand after %s", quotearg.Quote(spec)))
	}
	r := &chownRun{c: c, me: me, uid: uid, gid: gid, verbose: verbose, changes: changes, quiet: quiet}
	for _, name := range ops {
		if err := ctx.Err(); err != nil {
			return err
		}
		fi, err := c.FS.Stat(c.Abs(name))
		if err != nil {
			if !quiet {
				posixfs.Warn(c, me, "cannot access %s: %s", quotearg.Quote(name), posixfs.ErrText(err))
			}
			r.status = 1
			continue
		}
		if recursive && fi.IsDir() {
			r.tree(ctx, name)
			continue
		}
		r.one(name, fi)
	}
	if r.status != 0 {
		return command.Exit(r.status)
	}
	return nil
}

// chownSpec reads chown's OWNER[:[GROUP]] (or OWNER.GROUP, warned
// about): -1 for what it leaves as it is, or the error's text.
func chownSpec(c *command.Call, spec string) (uid, gid int, errText string) {
	uid, gid = -1, -1
	owner, group, colon := strings.Cut(spec, ":")
	if !colon {
		if o, g, dot := strings.Cut(spec, "."); dot {
			if _, known := parseID(spec); !known {
				posixfs.Warn(c, "chown", "warning: '.' should be ':': %s", quotearg.Quote(spec))
				owner, group, colon = o, g, true
			}
		}
	}
	if owner != "" {
		u, ok := parseID(owner)
		if !ok {
			return 0, 0, "invalid user: " + quotearg.Quote(spec)
		}
		uid = u
		if colon && group == "" {
			gid = u // OWNER: is OWNER and OWNER's login group
		}
	}
	if group != "" {
		g, ok := parseID(group)
		if !ok {
			return 0, 0, "invalid group: " + quotearg.Quote(spec)
		}
		gid = g
	}
	return uid, gid, ""
}

type chownRun struct {
	c                       *command.Call
	me                      string
	uid, gid                int
	verbose, changes, quiet bool
	status                  int
}

// tree is -R: the entries of the folder name first, then the folder.
func (r *chownRun) tree(ctx context.Context, name string) {
	abs := r.c.Abs(name)
	if f, err := r.c.FS.Open(abs); err == nil {
		names, _ := f.Readdirnames(-1)
		f.Close()
		slices.Sort(names)
		for _, n := range names {
			if ctx.Err() != nil {
				return
			}
			p := path.Join(name, n)
			fi, err := posixfs.Lstat(r.c.FS, r.c.Abs(p))
			if err != nil {
				continue
			}
			if fi.IsDir() {
				r.tree(ctx, p)
			} else {
				r.one(p, fi)
			}
		}
	}
	if fi, err := posixfs.Lstat(r.c.FS, abs); err == nil {
		r.one(name, fi)
	}
}

// one changes (or keeps) the owner of one file.
func (r *chownRun) one(name string, fi fs.FileInfo) {
	_, cur := OwnerOf(fi)
	uid, gid := r.uid, r.gid
	// Linux lets only a file's owner keep it as it is (and keep or
	// change its group to one of the owner's): the user's files, not
	// root's
	denied := uid >= 0 && uid != cur || gid >= 0 && gid != cur || cur != UID
	// what -v and -c name: chgrp the group; chown the owner, with the
	// group after a colon when it names one
	what, old, want := "ownership", idName(cur), ""
	switch {
	case r.me == "chgrp":
		what, want = "group", idName(gid)
	case gid < 0:
		want = idName(uid)
	case uid < 0:
		old, want = idName(cur)+":"+idName(cur), idName(cur)+":"+idName(gid)
	default:
		old, want = idName(cur)+":"+idName(cur), idName(uid)+":"+idName(gid)
	}
	if denied {
		if !r.quiet {
			verb := "ownership"
			if uid < 0 {
				verb = "group"
			}
			posixfs.Warn(r.c, r.me, "changing %s of %s: Operation not permitted", verb, quotearg.Quote(name))
		}
		if r.verbose {
			fmt.Fprintf(r.c.Stdout, "failed to change %s of %s from %s to %s\n", what, quotearg.Quote(name), old, want)
		}
		r.status = 1
		return
	}
	if r.verbose && !r.changes {
		fmt.Fprintf(r.c.Stdout, "%s of %s retained as %s\n", what, quotearg.Quote(name), want)
	}
}
