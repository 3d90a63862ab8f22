package bash

import (
	"github.com/agentenkit/agentenkit/shell/bash/ulimit"
	"github.com/agentenkit/agentenkit/shell/bash/umask"
)

// ulimitBuiltin is ulimit over the runner's limits (subshells get a
// copy).
func ulimitBuiltin(r *Runner, args []string) int {
	return ulimit.Run(&r.limits, args[1:], r.stdout(), r.stderr(), r.errf)
}

// umaskBuiltin is umask over the runner's mask.
func umaskBuiltin(r *Runner, args []string) int {
	out, status := umask.Run(args[1:], r.umask, r.stderr(), r.errf)
	if status != 0 || out == "" {
		return status
	}
	return r.writeOut(out)
}
