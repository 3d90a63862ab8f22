//go:build !wasip1

package bash

// yield does nothing where the Go runtime preempts goroutines itself (see
// yield_wasip1.go).
func (r *Runner) yield() {}
