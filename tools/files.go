package tools

import (
	"context"
	"errors"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// File is a file a run made or changed in the work folder.
type File struct {
	// Path is relative to the work folder, slash-separated.
	Path string `json:"path"`
	// MediaType is from the extension (MediaType).
	MediaType string `json:"mediaType"`
	Size      int64  `json:"size"`
}

// DefaultMaxWalk caps how many entries a listing of the work folder visits.
const DefaultMaxWalk = 5000

// skipDirs are folders a listing does not enter: version control, package
// caches and bytecode, which a run changes as a side effect.
var skipDirs = map[string]bool{".git": true, "node_modules": true, "__pycache__": true, ".venv": true}

type stat struct {
	size  int64
	mod   time.Time
	stamp string // the modification time as stat(1) prints it, when listed by command
	isDir bool
}

// same reports whether two listings of a file show no change.
func (a stat) same(b stat) bool {
	if a.isDir != b.isDir || a.size != b.size {
		return false
	}
	if a.stamp != "" || b.stamp != "" {
		return a.stamp == b.stamp
	}
	return a.mod.Equal(b.mod)
}

// listing is a walk of the work folder: every entry seen, by path relative
// to the root, and which folders were listed whole (or, for the one the
// walk stopped in, up to which name: folders are listed in name order).
type listing struct {
	entries  map[string]stat
	listed   map[string]bool
	upTo     map[string]string
	complete bool
}

// list lists the files under root, skipping skipDirs and the folders in
// skip (absolute), at most limit entries: with one command where the
// sandbox has find and stat (one round trip, where the file API may take
// one per folder), else by walking the file API. byCommand says which;
// pass the before listing's to the after listing, so both are alike.
func list(ctx context.Context, sb sandbox.Sandbox, root string, skip []string, limit int, byCommand bool) (listing, bool, error) {
	if byCommand {
		l, ok, err := listByCommand(ctx, sb, root, skip, limit)
		if err != nil || ok {
			return l, ok, err
		}
	}
	l, err := walk(ctx, sb.FileSystem(), root, skip, limit)
	return l, false, err
}

// listByCommand lists with find and stat; ok is false when the sandbox
// lacks them or the folder has more than limit files (a walk, which goes
// folder by folder in name order, then tells more about what it saw).
func listByCommand(ctx context.Context, sb sandbox.Sandbox, root string, skip []string, limit int) (listing, bool, error) {
	prune := ""
	for name := range skipDirs {
		prune += " -o -name " + shq(name)
	}
	for _, s := range skip {
		if rel, ok := strings.CutPrefix(s, strings.TrimSuffix(root, "/")+"/"); ok {
			prune += " -o -path " + shq("./"+rel)
		}
	}
	cmd := "cd " + shq(root) + " || exit 3\n" +
		"command -v find >/dev/null 2>&1 && command -v stat >/dev/null 2>&1 || exit 3\n" +
		"find . -type d \\( " + strings.TrimPrefix(prune, " -o ") + " \\) -prune -o -type f -exec stat -c '%s|%y|%n' {} + 2>/dev/null | head -n " + strconv.Itoa(limit+1)
	r, err := sb.RunCommand(ctx, cmd, sandbox.RunCommandOptions{Timeout: 30 * time.Second})
	if err != nil || r.ExitCode != 0 || r.Truncated {
		return listing{}, false, err
	}
	l := listing{entries: map[string]stat{}, listed: map[string]bool{}, upTo: map[string]string{}, complete: true}
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if len(lines) > limit {
		return listing{}, false, nil
	}
	for _, line := range lines {
		parts := strings.SplitN(line, "|", 3)
		if len(parts) != 3 || !strings.HasPrefix(parts[2], "./") {
			continue // an odd name (a line break in it): leave it out
		}
		size, err := strconv.ParseInt(parts[0], 10, 64)
		if err != nil {
			continue
		}
		p := path.Clean(parts[2][2:])
		l.entries[p] = stat{size: size, stamp: parts[1]}
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			l.entries[dir] = stat{isDir: true}
		}
	}
	for p, st := range l.entries {
		if st.isDir {
			l.listed[p] = true
		}
	}
	l.listed[""] = true
	return l, true, nil
}

// walk lists the tree under root, breadth first, skipping skipDirs and the
// folders in skip (absolute), visiting at most limit entries.
func walk(ctx context.Context, fsys sandbox.FileSystem, root string, skip []string, limit int) (listing, error) {
	l := listing{entries: map[string]stat{}, listed: map[string]bool{}, upTo: map[string]string{}, complete: true}
	queue := []string{""}
	for len(queue) > 0 {
		rel := queue[0]
		queue = queue[1:]
		ents, err := fsys.ReadDir(ctx, path.Join(root, rel))
		if err != nil {
			if rel != "" && (errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission)) {
				continue // gone meanwhile, or unreadable: not ours to report
			}
			return l, err
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
		for i, e := range ents {
			if len(l.entries) >= limit {
				l.complete = false
				if i > 0 {
					l.upTo[rel] = ents[i-1].Name
				}
				return l, nil
			}
			p := path.Join(rel, e.Name)
			if e.IsDir && (skipDirs[e.Name] || skipped(path.Join(root, p), skip)) {
				continue
			}
			l.entries[p] = stat{size: e.Size, mod: e.ModTime, isDir: e.IsDir}
			if e.IsDir {
				queue = append(queue, p)
			}
		}
		l.listed[rel] = true
	}
	return l, nil
}

func skipped(abs string, skip []string) bool {
	for _, s := range skip {
		if abs == s {
			return true
		}
	}
	return false
}

// changed returns the files of after that are new or changed since before,
// sorted by path. A file missing from before counts as new only where
// before listed its folder (or an ancestor that lacked the path) whole.
func changed(before, after listing) []File {
	files := []File{}
	for p, st := range after.entries {
		if st.isDir {
			continue
		}
		old, ok := before.entries[p]
		switch {
		case ok && old.same(st):
			continue
		case !ok && !before.complete && !newIn(before, p):
			continue
		}
		files = append(files, File{Path: p, MediaType: MediaType(p), Size: st.size})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files
}

// newIn reports whether before shows p was absent: some folder on its way
// was listed, whole or past the name of the next step of the path, without
// that step.
func newIn(before listing, p string) bool {
	for next := p; ; {
		dir := path.Dir(next)
		if dir == "." {
			dir = ""
		}
		if before.listed[dir] {
			return true
		}
		if last, ok := before.upTo[dir]; ok {
			return path.Base(next) < last
		}
		if _, ok := before.entries[dir]; ok || dir == "" {
			return false // there, but not listed: unknown
		}
		next = dir
	}
}
