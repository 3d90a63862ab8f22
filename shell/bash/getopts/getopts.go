// Package getopts is bash's getopts builtin: one option of the
// positional parameters (or of the given words) per call, with OPTIND,
// OPTARG, grouped options (-ab), option arguments (-fFILE, -f FILE) and
// the silent mode of a leading ':' in the option string.
package getopts

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Shell is what getopts needs of the shell's variables.
type Shell interface {
	// Var is a variable's value and whether it is set.
	Var(name string) (string, bool)
	// SetVar assigns a variable as an assignment does (its error, such
	// as a readonly variable, is reported by getopts).
	SetVar(name, val string) error
	// UnsetVar removes a variable.
	UnsetVar(name string)
	// SetGlobal sets a global variable, past any local of that name.
	SetGlobal(name, val string)
	// Errf reports an error (the shell prefixes "bash: line N: ").
	Errf(format string, a ...any)
	Stderr() io.Writer
}

// subVar keeps the position inside a group of options (-abc) between
// calls; bash keeps it in a C static.
const subVar = "__GETOPTS_SUB"

// Run is getopts optstring name [arg ...] (args without the command's
// name) over params, the positional parameters; shell is the shell's
// name for the messages of an unknown option or a missing argument.
// The status is 0 for an option, 1 at the end of the options, 2 for a
// usage error.
func Run(sh Shell, shell string, args, params []string) int {
	if len(args) < 2 {
		sh.Errf("getopts: usage: getopts optstring name [arg ...]")
		return 2
	}
	optstring, name := args[0], args[1]
	if len(args) > 2 {
		params = args[2:]
	}
	silent := strings.HasPrefix(optstring, ":")
	if silent {
		optstring = optstring[1:]
	}
	optind := 1
	if s, ok := sh.Var("OPTIND"); ok {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			optind = n
		}
	}
	sub := 0
	if s, ok := sh.Var(subVar); ok {
		sub, _ = strconv.Atoi(s)
	}
	status := 0
	setOpt := func(v string) {
		if err := sh.SetVar(name, v); err != nil {
			sh.Errf("getopts: %s", err)
			status = 1
		}
	}
	if optind > len(params) {
		// past the arguments: OPTIND is where they end, as bash's
		// sh_getopt sets it.
		_ = sh.SetVar("OPTIND", strconv.Itoa(len(params)+1))
		sh.SetGlobal(subVar, "0")
		sh.UnsetVar("OPTARG")
		setOpt("?")
		return 1
	}
	arg := params[optind-1]
	if sub == 0 {
		if arg == "--" {
			_ = sh.SetVar("OPTIND", strconv.Itoa(optind+1))
			sh.UnsetVar("OPTARG")
			setOpt("?")
			return 1
		}
		if len(arg) < 2 || arg[0] != '-' {
			sh.UnsetVar("OPTARG")
			setOpt("?")
			return 1
		}
		sub = 1
	}
	c := arg[sub]
	sub++
	advance := func() {
		if sub >= len(arg) {
			optind++
			sub = 0
		}
		_ = sh.SetVar("OPTIND", strconv.Itoa(optind))
		sh.SetGlobal(subVar, strconv.Itoa(sub))
	}
	k := strings.IndexByte(optstring, c)
	if k < 0 || c == ':' {
		if silent {
			_ = sh.SetVar("OPTARG", string(c))
		} else {
			fmt.Fprintf(sh.Stderr(), "%s: illegal option -- %c\n", shell, c)
			sh.UnsetVar("OPTARG")
		}
		setOpt("?")
		advance()
		return status
	}
	if k+1 < len(optstring) && optstring[k+1] == ':' {
		if sub < len(arg) {
			_ = sh.SetVar("OPTARG", arg[sub:])
			sub = len(arg)
			advance()
		} else {
			if optind >= len(params) {
				if silent {
					setOpt(":")
					_ = sh.SetVar("OPTARG", string(c))
				} else {
					fmt.Fprintf(sh.Stderr(), "%s: option requires an argument -- %c\n", shell, c)
					setOpt("?")
					sh.UnsetVar("OPTARG")
				}
				sub = len(arg)
				advance()
				return status
			}
			_ = sh.SetVar("OPTARG", params[optind])
			optind++
			sub = len(arg)
			advance()
		}
		setOpt(string(c))
		return status
	}
	sh.UnsetVar("OPTARG")
	setOpt(string(c))
	advance()
	return status
}
