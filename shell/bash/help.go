package bash

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// helpKeywords are the reserved words help knows as topics besides the
// builtins.
var helpKeywords = []string{"case", "for", "function", "if", "select", "time", "until", "while", "variables", "[[", "((", "{"}

// helpBuiltin is bash's help without bash's help texts (they are bash's
// own writing): it names the builtins and keywords that match each
// pattern, and reports a pattern that matches none as bash does
// (status 1). Options -d, -m and -s are accepted; any other is a usage
// error (status 2).
func helpBuiltin(r *Runner, args []string) int {
	args = args[1:]
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		a := args[0]
		args = args[1:]
		if a == "--" {
			break
		}
		for _, c := range a[1:] {
			if !strings.ContainsRune("dms", c) {
				r.errf("help: -%c: invalid option", c)
				fmt.Fprint(r.stderr(), "help: usage: help [-dms] [pattern ...]\n")
				return 2
			}
		}
	}
	topics := slices.Concat(helpKeywords, nil)
	for name := range builtins {
		topics = append(topics, name)
	}
	slices.Sort(topics)
	if len(args) == 0 {
		fmt.Fprintf(r.stdout(), "Shell builtins and keywords (see the bash manual for each):\n%s\n", strings.Join(topics, " "))
		return 0
	}
	found := false
	for _, pat := range args {
		for _, t := range topics {
			if ok, _ := path.Match(pat, t); ok || t == pat {
				fmt.Fprintf(r.stdout(), "%s: a shell builtin or keyword; see the bash manual\n", t)
				found = true
			}
		}
	}
	if !found {
		last := args[len(args)-1]
		r.errf("help: no help topics match `%s'.  Try `help help' or `man -k %s' or `info %s'.", last, last, last)
		return 1
	}
	return 0
}
