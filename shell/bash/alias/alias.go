// Package alias is bash's alias and unalias builtins over the shell's
// table of aliases (the reader in shell/bash/parse expands them).
package alias

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash/printf"
)

// Alias is alias [-p] [name[=value] ...] (args without the command's
// name) over aliases: it defines each name=value and prints each name
// (all, sorted, with none) as alias name='value'. errf reports an error
// (the shell prefixes "bash: line N: ").
func Alias(aliases map[string]string, args []string, stdout io.Writer, errf func(format string, a ...any)) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 || args[0] == "-p" {
		for _, k := range slices.Sorted(maps.Keys(aliases)) {
			fmt.Fprintf(stdout, "alias %s=%s\n", k, printf.SingleQuote(aliases[k]))
		}
		return 0
	}
	status := 0
	for _, a := range args {
		name, val, ok := strings.Cut(a, "=")
		if !ok {
			if v, ok := aliases[a]; ok {
				fmt.Fprintf(stdout, "alias %s=%s\n", a, printf.SingleQuote(v))
			} else {
				errf("alias: %s: not found", a)
				status = 1
			}
			continue
		}
		aliases[name] = val
	}
	return status
}

// Unalias is unalias [-a] name ... (args without the command's name)
// over *aliases (-a gives it a new, empty table).
func Unalias(aliases *map[string]string, args []string, stderr io.Writer, errf func(format string, a ...any)) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintf(stderr, "unalias: usage: unalias [-a] name [name ...]\n")
		return 2
	}
	if args[0] == "-a" {
		*aliases = map[string]string{}
		return 0
	}
	status := 0
	for _, a := range args {
		if _, ok := (*aliases)[a]; !ok {
			errf("unalias: %s: not found", a)
			status = 1
			continue
		}
		delete(*aliases, a)
	}
	return status
}
