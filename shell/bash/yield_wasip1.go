package bash

import (
	"runtime"
	"sync/atomic"
)

// yieldEvery is how many statements the Runners run between two
// runtime.Gosched calls.
const yieldEvery = 64

// statements counts the statements run, for yield.
var statements atomic.Uint32

// yield lets the other goroutines run every yieldEvery statements. Go's
// wasip1 runtime runs every goroutine on one thread and never preempts
// one: without these yields a CPU-bound loop in a background job, a
// subshell or a pipeline stage would hold back the foreground, the other
// stages and the timers until it ended.
func (r *Runner) yield() {
	if statements.Add(1)%yieldEvery == 0 {
		runtime.Gosched()
	}
}
