package bench

import "github.com/agentenkit/agentenkit/sandbox"

// nilSandbox is the state of a workload without Setup.
var nilSandbox sandbox.Sandbox
