//go:build !unix

package engine

import "time"

// cpuTime is the process's CPU time where it cannot be read: zero.
func cpuTime() time.Duration { return 0 }
