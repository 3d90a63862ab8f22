package bash

import (
	"fmt"
	"strings"
)

// hashBuiltin is hash [-r] [name...]: -r forgets the remembered command
// paths; a name is looked up in $PATH and remembered ("hash: NAME: not
// found", status 1, when it is not there). Listing the table prints
// nothing when it is empty, as bash's "hash table empty" goes to a
// terminal only.
func hashBuiltin(r *Runner, args []string) int {
	args = args[1:]
	reset := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		if args[0] != "-r" {
			r.errf("hash: %s: invalid option", args[0][:2])
			fmt.Fprintln(r.stderr(), "hash: usage: hash [-lr] [-p pathname] [-dt] [name ...]")
			return 2
		}
		r.hash, reset = nil, true
		args = args[1:]
	}
	status := 0
	for _, name := range args {
		if _, ok := builtins[name]; ok || strings.Contains(name, "/") {
			continue
		}
		if _, ok := r.funcs[name]; ok {
			continue
		}
		pathList, _ := r.getVar("PATH")
		if pathList != r.hashPath {
			r.hash, r.hashPath = nil, pathList
		}
		k, w := "", ""
		if r.opts.Lookup != nil {
			k, w = r.opts.Lookup(name, pathList, r.dir)
		}
		if k != "file" {
			r.errf("hash: %s: not found", name)
			status = 1
			continue
		}
		r.remember(name, w, 0)
	}
	if len(args) == 0 && !reset {
		if len(r.hash) == 0 {
			fmt.Fprintln(r.stderr(), "hash: hash table empty")
			return 0
		}
		fmt.Fprintln(r.stdout(), "hits\tcommand")
		for _, name := range sortedKeys(r.hash) {
			e := r.hash[name]
			fmt.Fprintf(r.stdout(), "%4d\t%s\n", e.hits, e.path)
		}
	}
	return status
}

// hashEntry is a remembered command path and how often it ran from it.
type hashEntry struct {
	path string
	hits int
}

func (r *Runner) remember(name, path string, hits int) {
	if r.hash == nil {
		r.hash = map[string]*hashEntry{}
	}
	r.hash[name] = &hashEntry{path, hits}
}
