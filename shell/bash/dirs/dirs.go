// Package dirs is bash's directory stack builtins: pushd, popd and dirs
// over a stack the shell keeps (the folders below the current one).
package dirs

import (
	"fmt"
	"io"
	"strings"
)

// Shell is what the directory stack builtins need of the shell.
type Shell interface {
	// Dir is the current folder.
	Dir() string
	// Cd changes the current folder as cd does (it reports its own
	// errors) and returns cd's status.
	Cd(dir string) int
	// Home is $HOME ("" when unset).
	Home() string
	// Errf reports an error (the shell prefixes "bash: line N: ").
	Errf(format string, a ...any)
	Stdout() io.Writer
	Stderr() io.Writer
}

// list is the directory stack as dirs prints it: the current folder
// first; with tilde, $HOME as ~.
func list(sh Shell, stack []string, tilde bool) []string {
	home := sh.Home()
	list := append([]string{sh.Dir()}, stack...)
	for i, d := range list {
		if tilde && home != "" && (d == home || strings.HasPrefix(d, home+"/")) {
			list[i] = "~" + d[len(home):]
		}
	}
	return list
}

func line(sh Shell, stack []string) string { return strings.Join(list(sh, stack, true), " ") }

// usage reports a bad argument of pushd, popd or dirs with bash's
// usage line; status 2.
func usage(sh Shell, name, format string, a ...any) int {
	sh.Errf("%s: %s", name, fmt.Sprintf(format, a...))
	usage := map[string]string{"pushd": "pushd [-n] [+N | -N | dir]", "popd": "popd [-n] [+N | -N]", "dirs": "dirs [-clpv] [+N] [-N]"}[name]
	fmt.Fprintf(sh.Stderr(), "%s: usage: %s\n", name, usage)
	return 2
}

// Pushd is pushd [dir] (args without the command's name): it changes
// to dir and pushes the folder it left, or with no dir swaps the current
// folder and the top of the stack; it prints the stack as dirs does.
func Pushd(sh Shell, stack *[]string, args []string) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	} else if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0] != "-n" {
		return usage(sh, "pushd", "%s: invalid number", args[0])
	}
	if len(args) > 1 {
		sh.Errf("pushd: too many arguments")
		return 1
	}
	if len(args) == 0 {
		if len(*stack) == 0 {
			sh.Errf("pushd: no other directory")
			return 1
		}
		old := sh.Dir()
		if st := sh.Cd((*stack)[0]); st != 0 {
			return st
		}
		(*stack)[0] = old
		fmt.Fprintln(sh.Stdout(), line(sh, *stack))
		return 0
	}
	old := sh.Dir()
	if st := sh.Cd(args[0]); st != 0 {
		return st
	}
	*stack = append([]string{old}, *stack...)
	fmt.Fprintln(sh.Stdout(), line(sh, *stack))
	return 0
}

// Popd is popd (args without the command's name): it changes to the
// top of the stack and pops it, then prints the stack as dirs does.
func Popd(sh Shell, stack *[]string, args []string) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) > 0 {
		if len(args[0]) > 1 && args[0][0] == '-' {
			return usage(sh, "popd", "%s: invalid number", args[0])
		}
		return usage(sh, "popd", "%s: invalid argument", args[0])
	}
	if len(*stack) == 0 {
		sh.Errf("popd: directory stack empty")
		return 1
	}
	if st := sh.Cd((*stack)[0]); st != 0 {
		return st
	}
	*stack = (*stack)[1:]
	fmt.Fprintln(sh.Stdout(), line(sh, *stack))
	return 0
}

// Dirs is dirs [-clpv] (args without the command's name): the stack on
// one line with $HOME as ~ (-l: in full), one a line (-p), numbered
// (-v), or -c to clear it.
func Dirs(sh Shell, stack *[]string, args []string) int {
	var long, perLine, numbered bool
	for _, a := range args {
		if a == "--" {
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			return usage(sh, "dirs", "%s: invalid option", a)
		}
		for _, c := range a[1:] {
			switch c {
			case 'c':
				*stack = nil
				return 0
			case 'l':
				long = true
			case 'p':
				perLine = true
			case 'v':
				perLine, numbered = true, true
			default:
				return usage(sh, "dirs", "-%c: invalid option", c)
			}
		}
	}
	list := list(sh, *stack, !long)
	if !perLine {
		fmt.Fprintln(sh.Stdout(), strings.Join(list, " "))
		return 0
	}
	for i, d := range list {
		if numbered {
			fmt.Fprintf(sh.Stdout(), "%2d  %s\n", i, d)
		} else {
			fmt.Fprintln(sh.Stdout(), d)
		}
	}
	return 0
}
