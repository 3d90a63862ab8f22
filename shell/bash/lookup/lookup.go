// Package lookup is how bash finds what a name runs and says so: the
// type builtin, command -v and -V, the hash builtin with the table of
// remembered command paths (hashall) and the help builtin's topics.
//
// # Contracts
//
//   - A name is looked up in bash's order: alias (only while aliases
//     are expanded), keyword, function, builtin, then a file of $PATH
//     through Shell.Find; nothing here reads a filesystem.
//   - The builtins write only to the Shell's streams and report errors
//     through Errf (the shell prefixes "bash: line N: "); they return
//     bash 5.2's exit status.
//   - A Table is owned by one shell; Clone gives a subshell its own.
package lookup

import (
	"fmt"
	"io"
	"maps"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
	"github.com/agentenkit/agentenkit/shell/bash/hashorder"
)

// Shell is what the lookup builtins need of the shell.
type Shell interface {
	// Errf reports an error (the shell prefixes "bash: line N: ").
	Errf(format string, a ...any)
	Stdout() io.Writer
	Stderr() io.Writer
	// Alias is name's alias text, when aliases are expanded
	// (expand_aliases) and name has one.
	Alias(name string) (string, bool)
	// IsFunc reports a function by that name; FuncText is its text as
	// type prints it.
	IsFunc(name string) bool
	FuncText(name string) string
	IsBuiltin(name string) bool
	// Path is $PATH ("" when unset).
	Path() string
	// Find reports what runs name from the folders of pathList (a
	// $PATH), or name itself when it has a slash: "file" and its path,
	// or "" when nothing does.
	Find(name, pathList string) (kind, where string)
}

// Entry is one thing a name can run: its Kind ("alias", "keyword",
// "function", "builtin", "file") and for a file its path, for an alias
// its text.
type Entry struct{ Kind, Where string }

// Entries lists what runs name, in the order bash looks: with all,
// every one (each file of $PATH); else the first. noFunc skips
// functions, pathOnly all but files.
func Entries(sh Shell, name string, all, noFunc, pathOnly bool) []Entry {
	var list []Entry
	add := func(kind, where string) bool {
		list = append(list, Entry{kind, where})
		return !all
	}
	if !pathOnly {
		if a, ok := sh.Alias(name); ok && add("alias", a) {
			return list
		}
		if syntax.IsKeyword(name) && add("keyword", "") {
			return list
		}
		if !noFunc && sh.IsFunc(name) && add("function", "") {
			return list
		}
		if sh.IsBuiltin(name) && add("builtin", "") {
			return list
		}
	}
	pathList := sh.Path()
	if !all || strings.Contains(name, "/") {
		if k, w := sh.Find(name, pathList); k != "" {
			list = append(list, Entry{k, w})
		}
		return list
	}
	for _, d := range strings.Split(pathList, ":") {
		if k, w := sh.Find(name, d); k != "" {
			list = append(list, Entry{k, w})
		}
	}
	return list
}

// Kind is what runs name, the first of Entries: its kind and where, or
// "" when nothing does.
func Kind(sh Shell, name string) (kind, where string) {
	if l := Entries(sh, name, false, false, false); len(l) > 0 {
		return l[0].Kind, l[0].Where
	}
	return "", ""
}

// Type is type [-afptP] name... (args without the command's name): what
// each name runs, as bash words it; status 1 when one is not found.
func Type(sh Shell, args []string) int {
	opts, args, err := builtinopt.Parse("afptP", args)
	if err != nil {
		return usage(sh, "type", err)
	}
	flagT, flagP, flagBigP, flagA, flagF := opts.Has('t'), opts.Has('p'), opts.Has('P'), opts.Has('a'), opts.Has('f')
	status := 0
	out := sh.Stdout()
	for _, name := range args {
		list := Entries(sh, name, flagA, flagF, flagBigP)
		if len(list) == 0 {
			if !flagT && !flagP && !flagBigP {
				sh.Errf("type: %s: not found", name)
			}
			status = 1
			continue
		}
		for _, e := range list {
			switch {
			case flagT:
				fmt.Fprintln(out, e.Kind)
			case flagP || flagBigP:
				if e.Kind == "file" {
					fmt.Fprintln(out, e.Where)
				}
			default:
				describe(sh, name, e)
			}
		}
	}
	return status
}

// describe prints what runs name as type and command -V word it.
func describe(sh Shell, name string, e Entry) {
	out := sh.Stdout()
	switch e.Kind {
	case "alias":
		fmt.Fprintf(out, "%s is aliased to `%s'\n", name, e.Where)
	case "keyword":
		fmt.Fprintf(out, "%s is a shell keyword\n", name)
	case "function":
		fmt.Fprintf(out, "%s is a function\n%s\n", name, sh.FuncText(name))
	case "builtin":
		fmt.Fprintf(out, "%s is a shell builtin\n", name)
	default:
		fmt.Fprintf(out, "%s is %s\n", name, e.Where)
	}
}

// CommandFlags reads the command builtin's options (args without the
// command's name): -p (the standard $PATH), -v and -V; rest is the
// command. ok is false after a usage error it reported (status 2).
func CommandFlags(sh Shell, args []string) (std, v, bigV bool, rest []string, ok bool) {
	opts, rest, err := builtinopt.Parse("pvV", args)
	if err != nil {
		usage(sh, "command", err)
		return false, false, false, nil, false
	}
	return opts.Has('p'), opts.Has('v'), opts.Has('V'), rest, true
}

// synopses are the usage lines of the builtins here, as bash 5.2 words
// them.
var synopses = map[string]string{
	"type":    "type [-afptP] name [name ...]",
	"command": "command [-pVv] command [arg ...]",
	"hash":    "hash [-lr] [-p pathname] [-dt] [name ...]",
	"help":    "help [-dms] [pattern ...]",
}

// usage reports err, an option error of builtin name, as bash does and
// returns its status (2).
func usage(sh Shell, name string, err error) int {
	return builtinopt.Usage(sh.Errf, sh.Stdout(), sh.Stderr(), name, synopses[name], err)
}

// Command is command -v (v) or -V (bigV) names: each name as a word
// that runs it (-v; a file's path, an alias as its definition) or as
// type describes it (-V, which reports a name not found). The status is
// 0 when any name was found, as bash's.
func Command(sh Shell, names []string, v, bigV bool) int {
	status := 1
	out := sh.Stdout()
	for _, name := range names {
		kind, where := Kind(sh, name)
		if kind != "" {
			status = 0
		}
		switch {
		case kind == "":
			if bigV {
				sh.Errf("command: %s: not found", name)
			}
		case v && kind == "file":
			fmt.Fprintln(out, where)
		case v && kind == "alias":
			fmt.Fprintf(out, "alias %s='%s'\n", name, where)
		case v:
			fmt.Fprintln(out, name)
		default:
			describe(sh, name, Entry{kind, where})
		}
	}
	return status
}

// Table is bash's table of remembered command paths: a name found in
// $PATH once runs from the path found then, until $PATH changes or
// hash -r.
type Table struct {
	paths    map[string]*entry
	pathList string // the $PATH the paths were found in
	next     int    // the seq of the next name remembered
}

// entry is a remembered command path, how often it ran from it, and when
// its name was remembered (its place in bash's hash table).
type entry struct {
	path string
	hits int
	seq  int
}

// Clone returns a copy of t for a subshell.
func (t *Table) Clone() Table {
	c := Table{pathList: t.pathList}
	for _, k := range t.inserted() {
		e := t.paths[k]
		c.remember(k, e.path, e.hits)
	}
	return c
}

// remember remembers name's path; a name remembered already keeps its
// place, as bash updates the entry in place.
func (t *Table) remember(name, path string, hits int) {
	if t.paths == nil {
		t.paths = map[string]*entry{}
	}
	if e, ok := t.paths[name]; ok {
		e.path, e.hits = path, hits
		return
	}
	t.paths[name] = &entry{path, hits, t.next}
	t.next++
}

// inserted lists the names in the order they were remembered.
func (t *Table) inserted() []string {
	names := slices.Collect(maps.Keys(t.paths))
	slices.SortFunc(names, func(a, b string) int { return t.paths[a].seq - t.paths[b].seq })
	return names
}

// sync forgets the paths when $PATH is no longer pathList.
func (t *Table) sync(pathList string) {
	if pathList != t.pathList {
		t.paths, t.pathList = nil, pathList
	}
}

// Run is the path name (without a slash) runs from with hashall: the
// remembered one (counting a hit), else name, which is remembered when
// $PATH has it. A file since put earlier in $PATH is not seen; one
// removed is "No such file or directory" when it runs.
//
// searched tells whether Run searched $PATH (pathList) for name now, and
// found is what that search found ("" for nothing): the caller can hand
// it on so that the command is not searched for twice.
func (t *Table) Run(sh Shell, name string) (run, pathList, found string, searched bool) {
	pathList = sh.Path()
	t.sync(pathList)
	if e, ok := t.paths[name]; ok {
		e.hits++
		return e.path, pathList, "", false
	}
	k, w := sh.Find(name, pathList)
	if k == "file" && w != "" {
		t.remember(name, w, 1)
	} else {
		w = ""
	}
	return name, pathList, w, true
}

// Hash is hash [-lr] [-p pathname] [-dt] [name ...] (args without the
// command's name) over t: -r forgets the remembered paths; a name is
// looked up in $PATH and remembered ("hash: NAME: not found", status 1,
// when it is not there), or with -p remembered as pathname; -d forgets
// each name, -t prints each one's path ("name\tpath" when more than one)
// and -l lists the table as hash -p commands. Listing an empty table
// prints "hash: hash table empty" on stdout (bash's printf), nothing with
// -l. Listings are in bash's order: its table of 256
// buckets (hashorder.Order).
func Hash(sh Shell, t *Table, args []string) int {
	opts, args, err := builtinopt.Parse("dlp:rt", args)
	if err != nil {
		return usage(sh, "hash", err)
	}
	del, portable, target := opts.Has('d'), opts.Has('l'), opts.Has('t')
	pathname, set := opts.Value('p')
	if len(args) == 0 && (del || target) { // bash 5.2: no usage line, status 1
		sh.Errf("hash: %v", &builtinopt.Error{Opt: map[bool]string{true: "-d", false: "-t"}[del], Missing: true})
		return 1
	}
	t.sync(sh.Path())
	if opts.Has('r') {
		t.paths = nil
	}
	if len(args) == 0 {
		if !opts.Has('r') {
			t.list(sh, portable)
		}
		return 0
	}
	status := 0
	if target {
		for _, name := range args {
			e, ok := t.paths[name]
			switch {
			case !ok:
				sh.Errf("hash: %s: not found", name)
				status = 1
			case portable:
				fmt.Fprintf(sh.Stdout(), "builtin hash -p %s %s\n", e.path, name)
			case len(args) > 1:
				fmt.Fprintf(sh.Stdout(), "%s\t%s\n", name, e.path)
			default:
				fmt.Fprintln(sh.Stdout(), e.path)
			}
		}
		return status
	}
	for _, name := range args {
		switch {
		case del:
			if _, ok := t.paths[name]; !ok {
				sh.Errf("hash: %s: not found", name)
				status = 1
			}
			delete(t.paths, name)
		case strings.Contains(name, "/"):
		case set:
			t.remember(name, pathname, 0)
		case sh.IsBuiltin(name) || sh.IsFunc(name):
		default:
			if k, w := sh.Find(name, sh.Path()); k != "file" {
				sh.Errf("hash: %s: not found", name)
				status = 1
			} else {
				t.remember(name, w, 0)
			}
		}
	}
	return status
}

// list prints the table as hash does with no name (-l: as hash -p
// commands).
func (t *Table) list(sh Shell, portable bool) {
	if len(t.paths) == 0 {
		if !portable {
			fmt.Fprintln(sh.Stdout(), "hash: hash table empty")
		}
		return
	}
	if !portable {
		fmt.Fprintln(sh.Stdout(), "hits\tcommand")
	}
	for _, name := range hashorder.Order(t.inserted(), 256) {
		e := t.paths[name]
		if portable {
			fmt.Fprintf(sh.Stdout(), "builtin hash -p %s %s\n", e.path, name)
		} else {
			fmt.Fprintf(sh.Stdout(), "%4d\t%s\n", e.hits, e.path)
		}
	}
}

// helpKeywords are the reserved words help knows as topics besides the
// builtins.
var helpKeywords = []string{"case", "for", "function", "if", "select", "time", "until", "while", "variables", "[[", "((", "{"}

// Help is bash's help (args without the command's name) without bash's
// help texts (they are bash's own writing): it names the builtins (of
// builtins) and keywords that match each pattern, and reports a pattern
// that matches none as bash does (status 1). Options -d, -m and -s are
// accepted; any other is a usage error (status 2).
func Help(sh Shell, builtins []string, args []string) int {
	_, args, err := builtinopt.Parse("dms", args)
	if err != nil {
		return usage(sh, "help", err)
	}
	topics := slices.Concat(helpKeywords, builtins)
	slices.Sort(topics)
	if len(args) == 0 {
		fmt.Fprintf(sh.Stdout(), "Shell builtins and keywords (see the bash manual for each):\n%s\n", strings.Join(topics, " "))
		return 0
	}
	found := false
	for _, pat := range args {
		for _, t := range topics {
			if ok, _ := path.Match(pat, t); ok || t == pat {
				fmt.Fprintf(sh.Stdout(), "%s: a shell builtin or keyword; see the bash manual\n", t)
				found = true
			}
		}
	}
	if !found {
		last := args[len(args)-1]
		sh.Errf("help: no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.", last, last, last)
		return 1
	}
	return 0
}
