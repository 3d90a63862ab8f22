//go:build !wasip1

package shell

import "time"

// idleRunners hands a function to a goroutine that ran one before and
// waits for another: a script's interpreter needs a deep stack, which a
// new goroutine grows by copying (a sixth of a warm `echo hi`'s CPU);
// a reused one has it already.
var idleRunners = make(chan func())

// runnerIdle is how long a reusable goroutine waits for work before it
// ends.
const runnerIdle = 10 * time.Second

// goReuse runs f on an idle goroutine of an earlier goReuse, or on a new
// one when none is waiting.
func goReuse(f func()) {
	select {
	case idleRunners <- f:
	default:
		go runner(f)
	}
}

func runner(f func()) {
	t := time.NewTimer(runnerIdle)
	defer t.Stop()
	for {
		f()
		f = nil
		t.Reset(runnerIdle)
		select {
		case f = <-idleRunners:
		case <-t.C:
			return
		}
	}
}
