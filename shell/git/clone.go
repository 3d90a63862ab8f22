package git

import (
	"fmt"
	"path"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/spf13/afero"

	"github.com/agentenkit/agentenkit/shell/git/billyfs"
)

// isURL reports whether a repository argument names a remote host rather
// than a path: a scheme (https://, ssh://, git://, file://) or scp-like
// user@host:path syntax.
func isURL(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	if i := strings.Index(s, ":"); i > 0 && !strings.Contains(s[:i], "/") {
		return true
	}
	return false
}

// cmdClone copies a repository of the sandbox: its objects and refs go
// into a new repository whose origin is the source path; the default
// branch is checked out. No transport is involved, so nothing but the
// sandbox's files is read.
func cmdClone(e *env, args []string) error {
	quiet, bare := false, false
	branch := ""
	var rest []string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-q" || a == "--quiet":
			quiet = true
		case a == "--bare":
			bare = true
		case (a == "-b" || a == "--branch") && i+1 < len(args):
			i++
			branch = args[i]
		case a == "--no-hardlinks" || a == "-l" || a == "--local" || a == "--no-local":
		case strings.HasPrefix(a, "--depth") || a == "--single-branch" || a == "--recursive" || a == "--recurse-submodules":
			return notImpl("clone " + a)
		case strings.HasPrefix(a, "-"):
			return notImpl("clone option " + a)
		default:
			rest = append(rest, a)
		}
	}
	if len(rest) == 0 {
		return fatalf("You must specify a repository to clone.")
	}
	if len(rest) > 2 {
		return fatalf("Too many arguments.")
	}
	src := rest[0]
	if strings.HasPrefix(src, "file://") {
		src = strings.TrimPrefix(src, "file://")
	} else if isURL(src) {
		return fatalf("unable to access '%s': the sandbox's git has no network; only a repository inside the sandbox (a path) can be cloned", src)
	}
	srcAbs := e.abs(src)
	srcGit := srcAbs
	srcTop := ""
	switch {
	case e.isGitDir(path.Join(srcAbs, ".git")):
		srcGit, srcTop = path.Join(srcAbs, ".git"), srcAbs
	case e.isGitDir(srcAbs):
	case e.isGitDir(srcAbs + ".git"):
		srcGit = srcAbs + ".git"
	default:
		return fatalf("repository '%s' does not exist", src)
	}
	_ = srcTop
	var dst string
	if len(rest) == 2 {
		dst = rest[1]
	} else {
		base := strings.TrimSuffix(strings.TrimSuffix(path.Clean(srcAbs), "/.git"), ".git")
		dst = path.Base(base)
		if bare {
			dst += ".git"
		}
	}
	dstAbs := e.abs(dst)
	if infos, err := afero.ReadDir(e.c.FS, dstAbs); err == nil && len(infos) > 0 {
		return fatalf("destination path '%s' already exists and is not an empty directory.", dst)
	} else if fi, err := e.c.FS.Stat(dstAbs); err == nil && !fi.IsDir() {
		return fatalf("destination path '%s' already exists and is not an empty directory.", dst)
	}
	if !quiet {
		if bare {
			fmt.Fprintf(e.errw, "Cloning into bare repository '%s'...\n", dst)
		} else {
			fmt.Fprintf(e.errw, "Cloning into '%s'...\n", dst)
		}
	}
	from, err := e.openAt(srcGit, "")
	if err != nil {
		return err
	}
	dstGit := path.Join(dstAbs, ".git")
	if bare {
		dstGit = dstAbs
	}
	if err := e.c.FS.MkdirAll(dstAbs, 0o755); err != nil {
		return fatalf("could not create work tree dir '%s': %v", dst, err)
	}
	st := filesystem.NewStorage(billyfs.At(e.c.FS, dstGit), cache.NewObjectLRUDefault())
	// the source's HEAD decides the default branch
	headRef, err := from.r.Reference(plumbing.HEAD, false)
	if err != nil {
		return fatalf("could not read HEAD of '%s': %v", src, err)
	}
	defBranch := plumbing.Master
	if headRef.Type() == plumbing.SymbolicReference {
		defBranch = headRef.Target()
	}
	if branch != "" {
		defBranch = plumbing.NewBranchReferenceName(branch)
	}
	if err := initRepo(e.c.FS, dstGit, defBranch.Short(), bare); err != nil {
		return fatalf("cannot init %s: %v", dst, err)
	}
	// objects
	iter, err := from.st.IterEncodedObjects(plumbing.AnyObject)
	if err != nil {
		return err
	}
	err = iter.ForEach(func(o plumbing.EncodedObject) error {
		if err := e.ctx.Err(); err != nil {
			return err
		}
		_, err := st.SetEncodedObject(o)
		return err
	})
	if err != nil {
		return fatalf("copying objects: %v", err)
	}
	// refs: branches become origin/*, tags stay tags
	refs, err := from.st.IterReferences()
	if err != nil {
		return err
	}
	var branchHash plumbing.Hash
	found := false
	err = refs.ForEach(func(ref *plumbing.Reference) error {
		if ref.Type() != plumbing.HashReference {
			return nil
		}
		n := ref.Name()
		switch {
		case n.IsBranch():
			if n == defBranch {
				branchHash, found = ref.Hash(), true
			}
			if bare {
				return st.SetReference(ref)
			}
			return st.SetReference(plumbing.NewHashReference(plumbing.NewRemoteReferenceName("origin", n.Short()), ref.Hash()))
		case n.IsTag():
			return st.SetReference(ref)
		}
		return nil
	})
	if err != nil && err != storer.ErrStop {
		return err
	}
	if branch != "" && !found {
		_ = e.c.FS.RemoveAll(dstAbs)
		return fatalf("Remote branch %s not found in upstream origin", branch)
	}
	r, err := e.openAt(dstGit, map[bool]string{true: "", false: dstAbs}[bare])
	if err != nil {
		return err
	}
	if !bare {
		if err := r.setConfig("remote.origin.url", srcAbs); err != nil {
			return err
		}
		if err := r.setConfig("remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*"); err != nil {
			return err
		}
		if !found {
			if !quiet {
				fmt.Fprintln(e.errw, "warning: You appear to have cloned an empty repository.\ndone.")
			}
			return nil
		}
		if err := st.SetReference(plumbing.NewSymbolicReference(plumbing.NewRemoteReferenceName("origin", "HEAD"), plumbing.NewRemoteReferenceName("origin", defBranch.Short()))); err != nil {
			return err
		}
		if err := st.SetReference(plumbing.NewHashReference(defBranch, branchHash)); err != nil {
			return err
		}
		if err := r.setConfig("branch."+defBranch.Short()+".remote", "origin"); err != nil {
			return err
		}
		if err := r.setConfig("branch."+defBranch.Short()+".merge", defBranch.String()); err != nil {
			return err
		}
		s, err := r.state()
		if err != nil {
			return err
		}
		to, err := r.treeSnapshot(branchHash)
		if err != nil {
			return err
		}
		if err := r.switchTree(s, to, true, "clone"); err != nil {
			return err
		}
	}
	if !quiet {
		fmt.Fprintln(e.errw, "done.")
	}
	return nil
}
