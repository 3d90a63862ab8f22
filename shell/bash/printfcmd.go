package bash

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash/expand"
	"github.com/agentenkit/agentenkit/shell/bash/printf"
)

// printfBuiltin is bash's printf: the format reused until the arguments
// run out, %b %q %(fmt)T, 'c arguments, -v var.
func printfBuiltin(r *Runner, args []string) int {
	args = args[1:]
	varName := ""
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 {
		if args[0] == "--" {
			args = args[1:]
			break
		}
		if args[0] == "-v" && len(args) > 1 {
			varName = args[1]
			args = args[2:]
			continue
		}
		if strings.HasPrefix(args[0], "-v") {
			varName = args[0][2:]
			args = args[1:]
			continue
		}
		r.errf("printf: %s: invalid option", args[0])
		fmt.Fprintln(r.stderr(), "printf: usage: printf [-v var] format [arguments]")
		return 2
	}
	if len(args) == 0 {
		fmt.Fprintln(r.stderr(), "printf: usage: printf [-v var] format [arguments]")
		return 2
	}
	format, rest := args[0], args[1:]
	out, status := printf.Format(format, rest, func(msg string) { r.errf("%s", msg) })
	if varName != "" {
		if strings.Contains(varName, "[") {
			pe, err := expand.ParseRef(varName)
			if err != nil {
				r.errf("printf: `%s': not a valid identifier", varName)
				return 2
			}
			if err := r.setIndex(pe.Param.Value, pe.Index, out, false); err != nil {
				r.report(err)
				return 1
			}
		} else if err := r.setVar(varName, out); err != nil {
			r.report(err)
			return 1
		}
		return status
	}
	if _, err := io.WriteString(r.stdout(), out); err != nil {
		return r.writeErr("printf", err)
	}
	return status
}
