// Package shopt is bash's shopt and set builtins and the listings of
// the shell's options: the names of set -o's options and of shopt's, the
// one-letter options (Short), the forms set -o, set +o, shopt and shopt
// -p print them in, and a shell's command-line options (Flags).
//
// The shell keeps the options; everything here reads and sets them
// through Shell, and set's positional parameters and variable listing
// through SetShell.
package shopt

import (
	"fmt"
	"io"
	"slices"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
)

// SetNames are set -o's options, in the order bash lists them.
var SetNames = []string{"allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace", "hashall", "histexpand", "history", "ignoreeof", "interactive-comments", "keyword", "monitor", "noclobber", "noexec", "noglob", "nolog", "notify", "nounset", "onecmd", "physical", "pipefail", "posix", "privileged", "verbose", "vi", "xtrace"}

// Names are shopt's options, in the order bash lists them.
var Names = []string{"autocd", "assoc_expand_once", "cdable_vars", "cdspell", "checkhash", "checkjobs", "checkwinsize", "cmdhist", "compat31", "compat32", "compat40", "compat41", "compat42", "compat43", "compat44", "complete_fullquote", "direxpand", "dirspell", "dotglob", "execfail", "expand_aliases", "extdebug", "extglob", "extquote", "failglob", "force_fignore", "globasciiranges", "globskipdots", "globstar", "gnu_errfmt", "histappend", "histreedit", "histverify", "hostcomplete", "huponexit", "inherit_errexit", "interactive_comments", "lastpipe", "lithist", "localvar_inherit", "localvar_unset", "login_shell", "mailwarn", "no_empty_cmd_completion", "nocaseglob", "nocasematch", "noexpand_translation", "nullglob", "patsub_replacement", "progcomp", "progcomp_alias", "promptvars", "restricted_shell", "shift_verbose", "sourcepath", "varredir_close", "xpg_echo"}

// Shell is what shopt needs of the shell's options.
type Shell interface {
	// Opt is a set -o option (a name of SetNames).
	Opt(name string) bool
	// SetOpt sets a set -o option as set -o and set +o do.
	SetOpt(name string, on bool)
	// Shopt is a shopt option (a name of Names).
	Shopt(name string) bool
	// SetShopt sets a shopt option.
	SetShopt(name string, on bool)
	// Errf reports an error (the shell prefixes "bash: line N: ").
	Errf(format string, a ...any)
	Stdout() io.Writer
	Stderr() io.Writer
}

// ListSet prints set -o's options as set -o (on) or set +o (not on)
// list them. interactive-comments is always on.
func ListSet(sh Shell, on bool) {
	for _, n := range SetNames {
		v := sh.Opt(n)
		if n == "interactive-comments" {
			v = true
		}
		if on {
			onOff(sh.Stdout(), n, v)
		} else {
			fmt.Fprintf(sh.Stdout(), "set %so %s\n", pick(v, "-", "+"), n)
		}
	}
}

// Run is shopt [-pqsu] [-o] [optname ...] (args without the command's
// name).
func Run(sh Shell, args []string) int {
	opts, args, err := builtinopt.Parse("psuoq", args)
	if err != nil {
		return builtinopt.Usage(sh.Errf, sh.Stdout(), sh.Stderr(), "shopt", "shopt [-pqsu] [-o] [optname ...]", err)
	}
	set, unset, quiet, oMode, print := opts.Has('s'), opts.Has('u'), opts.Has('q'), opts.Has('o'), opts.Has('p')
	get := func(n string) (bool, bool) {
		if oMode {
			if slices.Contains(SetNames, n) {
				return sh.Opt(n), true
			}
			return false, false
		}
		if !slices.Contains(Names, n) {
			return false, false
		}
		return sh.Shopt(n), true
	}
	show := func(n string, v bool) {
		if print {
			printAsCommand(sh.Stdout(), n, v, oMode)
		} else {
			onOff(sh.Stdout(), n, v)
		}
	}
	if len(args) == 0 {
		names := Names
		if oMode {
			names = SetNames
		}
		for _, n := range names {
			v, _ := get(n)
			if (set && !v) || (unset && v) {
				continue
			}
			show(n, v)
		}
		return 0
	}
	status := 0
	for _, n := range args {
		v, ok := get(n)
		if !ok {
			sh.Errf("shopt: %s: %s", n, pick(oMode, "invalid option name", "invalid shell option name"))
			// bash 5.2 reports a bad set -o name given to -s or -u
			// but does not fail for it (its set_minus_o_option
			// status is dropped); every other bad name fails.
			if !oMode || !(set || unset) {
				status = 1
			}
			continue
		}
		switch {
		case set || unset:
			if oMode {
				sh.SetOpt(n, set)
			} else {
				sh.SetShopt(n, set)
			}
		default:
			if !v {
				status = 1
			}
			if quiet {
				continue
			}
			show(n, v)
		}
	}
	return status
}

// printAsCommand prints an option as shopt -p does: a set option (-o) as
// the set command that restores it.
func printAsCommand(w io.Writer, name string, on, setOpt bool) {
	if setOpt {
		fmt.Fprintf(w, "set %s %s\n", pick(on, "-o", "+o"), name)
		return
	}
	fmt.Fprintf(w, "shopt %s %s\n", pick(on, "-s", "-u"), name)
}

// onOff prints an option as "set -o" and "shopt" list it.
func onOff(w io.Writer, name string, on bool) {
	fmt.Fprintf(w, "%-15s\t%s\n", name, pick(on, "on", "off"))
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
