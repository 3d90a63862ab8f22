package shopt

import (
	"fmt"
	"slices"
)

// Short maps set's one-letter options to their set -o names.
var Short = map[rune]string{
	'e': "errexit", 'u': "nounset", 'x': "xtrace", 'f': "noglob", 'a': "allexport",
	'C': "noclobber", 'n': "noexec", 'v': "verbose", 'b': "notify", 'h': "hashall",
	'B': "braceexpand", 'E': "errtrace", 'T': "functrace", 'H': "histexpand", 'P': "physical",
	'k': "keyword", 'm': "monitor", 't': "onecmd",
}

// Settable reports whether set -o name sets an option of the shell's
// (every name of SetNames but privileged).
func Settable(name string) bool {
	switch name {
	case "errexit", "nounset", "xtrace", "noglob", "allexport", "noclobber", "noexec", "verbose",
		"pipefail", "notify", "hashall", "braceexpand", "errtrace", "functrace", "histexpand",
		"physical", "keyword", "monitor", "onecmd", "posix", "ignoreeof", "interactive-comments",
		"nolog", "emacs", "vi", "history":
		return true
	}
	return false
}

// SetShell is what the set builtin needs of the shell besides Shell.
type SetShell interface {
	Shell
	// SetParams makes p the positional parameters.
	SetParams(p []string)
	// ListVars prints every variable that has a value as set with no
	// arguments lists them.
	ListVars()
}

// Set is set [-abefhkmnptuvxBCEHPT] [-o name] [--] [-] [arg ...] (args
// without the command's name): it sets (-) or unsets (+) options, lists
// them (-o or +o with no name), and makes the arguments after the
// options the positional parameters (-- even with none; a lone - turns
// xtrace and verbose off). With no arguments it lists the variables.
func Set(sh SetShell, args []string) int {
	if len(args) == 0 {
		sh.ListVars()
		return 0
	}
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			sh.SetParams(slices.Clone(args[1:]))
			return 0
		}
		if a == "-" {
			sh.SetOpt("xtrace", false)
			sh.SetOpt("verbose", false)
			args = args[1:]
			if len(args) > 0 { // a lone - leaves the parameters
				sh.SetParams(slices.Clone(args))
			}
			return 0
		}
		if a == "+" { // a lone + is ignored
			args = args[1:]
			continue
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			break
		}
		on := a[0] == '-'
		args = args[1:]
		for _, c := range a[1:] {
			if c == 'o' {
				if len(args) == 0 {
					ListSet(sh, on)
					continue
				}
				if !Settable(args[0]) {
					sh.Errf("set: %s: invalid option name", args[0])
					return 2 // bash 5.2: EX_USAGE, as for a bad letter
				}
				sh.SetOpt(args[0], on)
				args = args[1:]
				continue
			}
			name, ok := Short[c]
			if !ok {
				sh.Errf("set: %c%c: invalid option", a[0], c)
				fmt.Fprintln(sh.Stderr(), "set: usage: set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]")
				return 2
			}
			sh.SetOpt(name, on)
		}
	}
	if len(args) > 0 {
		sh.SetParams(slices.Clone(args))
	}
	return 0
}

// Flags applies a shell's command-line options, as bash -e -o pipefail
// -O extglob reads them: -x/+x letters, -o/+o name, -O/+O shopt name.
// Names it does not know are skipped.
func Flags(sh Shell, flags []string) {
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		if f == "" {
			continue
		}
		on := f[0] == '-'
		if f[1:] == "o" && i+1 < len(flags) {
			i++
			if Settable(flags[i]) {
				sh.SetOpt(flags[i], on)
			}
			continue
		}
		if f[1:] == "O" && i+1 < len(flags) {
			i++
			if slices.Contains(Names, flags[i]) {
				sh.SetShopt(flags[i], on)
			}
			continue
		}
		for _, c := range f[1:] {
			if name, ok := Short[c]; ok {
				sh.SetOpt(name, on)
			}
		}
	}
}
