package git

import (
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/spf13/afero"
)

// store is the repository's object and reference database: go-git's
// filesystem storage and its object model. (go-git's root package, with
// Repository and Worktree, does not build for wasip1, and the porcelain
// here is git's rather than go-git's anyway.)
type store struct{ st *filesystem.Storage }

func (s store) CommitObject(h plumbing.Hash) (*object.Commit, error) {
	return object.GetCommit(s.st, h)
}
func (s store) BlobObject(h plumbing.Hash) (*object.Blob, error) { return object.GetBlob(s.st, h) }
func (s store) TagObject(h plumbing.Hash) (*object.Tag, error)   { return object.GetTag(s.st, h) }

// Reference returns a reference, following symbolic ones when resolved.
func (s store) Reference(name plumbing.ReferenceName, resolved bool) (*plumbing.Reference, error) {
	if resolved {
		return storer.ResolveReference(s.st, name)
	}
	return s.st.Reference(name)
}

func (s store) References() (storer.ReferenceIter, error) { return s.st.IterReferences() }

func (s store) filtered(keep func(*plumbing.Reference) bool) (storer.ReferenceIter, error) {
	it, err := s.st.IterReferences()
	if err != nil {
		return nil, err
	}
	return storer.NewReferenceFilteredIter(keep, it), nil
}

func (s store) Branches() (storer.ReferenceIter, error) {
	return s.filtered(func(r *plumbing.Reference) bool { return r.Name().IsBranch() })
}

func (s store) Tags() (storer.ReferenceIter, error) {
	return s.filtered(func(r *plumbing.Reference) bool { return r.Name().IsTag() })
}

var errBadRevision = errors.New("unknown revision")

// ResolveRevision resolves git's revision syntax as far as the sandbox's
// git supports it: HEAD or @, a ref by git's lookup order, a full or
// abbreviated (4+ digits) object id, followed by any of ~N, ^N, ^{},
// ^{commit}, ^{tree}.
func (s store) ResolveRevision(rev plumbing.Revision) (*plumbing.Hash, error) {
	str := string(rev)
	i := strings.IndexAny(str, "~^")
	base, suffix := str, ""
	if i >= 0 {
		base, suffix = str[:i], str[i:]
	}
	h, err := s.resolveBase(base)
	if err != nil {
		return nil, err
	}
	for suffix != "" {
		switch {
		case strings.HasPrefix(suffix, "^{"):
			end := strings.Index(suffix, "}")
			if end < 0 {
				return nil, errBadRevision
			}
			kind := suffix[2:end]
			suffix = suffix[end+1:]
			c, err := s.peel(h)
			if err != nil {
				return nil, err
			}
			switch kind {
			case "", "commit":
				h = c.Hash
			case "tree":
				h = c.TreeHash
			default:
				return nil, errBadRevision
			}
		case suffix[0] == '~' || suffix[0] == '^':
			op := suffix[0]
			j := 1
			for j < len(suffix) && suffix[j] >= '0' && suffix[j] <= '9' {
				j++
			}
			n := 1
			if j > 1 {
				n, _ = strconv.Atoi(suffix[1:j])
			}
			suffix = suffix[j:]
			c, err := s.peel(h)
			if err != nil {
				return nil, err
			}
			if op == '^' {
				if n == 0 {
					h = c.Hash
					continue
				}
				if n > len(c.ParentHashes) {
					return nil, errBadRevision
				}
				h = c.ParentHashes[n-1]
				continue
			}
			for ; n > 0; n-- {
				if len(c.ParentHashes) == 0 {
					return nil, errBadRevision
				}
				if c, err = s.CommitObject(c.ParentHashes[0]); err != nil {
					return nil, err
				}
			}
			h = c.Hash
		default:
			return nil, errBadRevision
		}
	}
	return &h, nil
}

// peel follows tags to a commit.
func (s store) peel(h plumbing.Hash) (*object.Commit, error) {
	for range 10 {
		if t, err := s.TagObject(h); err == nil {
			h = t.Target
			continue
		}
		return s.CommitObject(h)
	}
	return nil, errBadRevision
}

func (s store) resolveBase(base string) (plumbing.Hash, error) {
	if base == "" || base == "@" {
		base = "HEAD"
	}
	for _, f := range []string{"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"} {
		name := plumbing.ReferenceName(fmt.Sprintf(f, base))
		if f == "%s" && base != "HEAD" && !strings.HasPrefix(base, "refs/") && !strings.HasSuffix(base, "HEAD") {
			continue
		}
		if ref, err := storer.ResolveReference(s.st, name); err == nil {
			return ref.Hash(), nil
		}
	}
	if len(base) == 40 && isHex(base) {
		h := plumbing.NewHash(base)
		if _, err := s.st.EncodedObject(plumbing.AnyObject, h); err == nil {
			return h, nil
		}
		return plumbing.ZeroHash, errBadRevision
	}
	if len(base) >= 4 && len(base) < 40 && isHex(base) {
		prefix := base
		if len(prefix)%2 == 1 {
			prefix = prefix[:len(prefix)-1]
		}
		b, _ := hex.DecodeString(prefix)
		hs, err := s.st.HashesWithPrefix(b)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		var found []plumbing.Hash
		for _, h := range hs {
			if strings.HasPrefix(h.String(), strings.ToLower(base)) {
				found = append(found, h)
			}
		}
		if len(found) == 1 {
			return found[0], nil
		}
	}
	return plumbing.ZeroHash, errBadRevision
}

func isHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// initRepo makes an empty repository at gitDir whose HEAD names branch,
// with the files and folders git init makes.
func initRepo(fsys afero.Fs, gitDir, branch string, bare bool) error {
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags", "info", "hooks"} {
		if err := fsys.MkdirAll(path.Join(gitDir, d), 0o755); err != nil {
			return err
		}
	}
	core := "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n"
	if bare {
		core = "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n"
	}
	files := []struct{ name, text string }{
		{"HEAD", "ref: refs/heads/" + branch + "\n"},
		{"config", core},
		{"description", "Unnamed repository; edit this file 'description' to name the repository.\n"},
		{"info/exclude", "# git ls-files --others --exclude-from=.git/info/exclude\n# Lines that start with '#' are comments.\n# For a project mostly in C, the following would be a good set of\n# exclude patterns (uncomment them if you want to use them):\n# *.[oa]\n# *~\n"},
	}
	for _, f := range files {
		if err := afero.WriteFile(fsys, path.Join(gitDir, f.name), []byte(f.text), 0o644); err != nil {
			return err
		}
	}
	return nil
}
