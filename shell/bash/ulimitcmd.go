package bash

import "github.com/agentenkit/agentenkit/shell/bash/ulimit"

// ulimitBuiltin is ulimit over the runner's limits (subshells get a
// copy).
func ulimitBuiltin(r *Runner, args []string) int {
	return ulimit.Run(&r.limits, args[1:], r.stdout(), r.stderr(), r.errf)
}
