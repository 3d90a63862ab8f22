package bash

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agentenkit/agentenkit/shell/bash/builtinopt"
	"github.com/agentenkit/agentenkit/shell/bash/expand"
	"github.com/agentenkit/agentenkit/shell/bash/printf"
)

// printfBuiltin is bash's printf: the format reused until the arguments
// run out, %b %q %(fmt)T, 'c arguments, -v var.
func printfBuiltin(r *Runner, args []string) int {
	varName, format, rest, err := printf.Args(args[1:])
	if ie := (*printf.IdentError)(nil); errors.As(err, &ie) {
		r.errf("printf: %v", ie)
		return 2
	} else if errors.Is(err, printf.ErrNoFormat) {
		fmt.Fprintln(r.stderr(), "printf: usage: "+printf.Synopsis)
		return 2
	} else if err != nil {
		return builtinopt.Usage(r.errf, r.stdout(), r.stderr(), "printf", printf.Synopsis, err)
	}
	out, status := printf.Format(format, rest, func(msg string) { r.errf("%s", msg) })
	if varName != "" {
		if strings.Contains(varName, "[") {
			pe, err := expand.ParseRef(varName)
			if err != nil {
				r.errf("printf: `%s': not a valid identifier", varName)
				return 2
			}
			if err := r.setIndex(pe.Param.Value, pe.Index, out, false); err != nil {
				// A readonly array fails printf only, as in bash; an
				// error in the subscript is an expansion error.
				if se := (*shError)(nil); errors.As(err, &se) && strings.HasSuffix(se.msg, ": readonly variable") {
					r.reportSoft(err)
				} else {
					r.report(err)
				}
				return 1
			}
		} else if err := r.setVar(varName, out); err != nil {
			r.reportSoft(err) // a readonly var fails printf only, as in bash
			return 1
		}
		return status
	}
	if _, err := io.WriteString(r.stdout(), out); err != nil {
		return r.writeErr("printf", err)
	}
	return status
}
