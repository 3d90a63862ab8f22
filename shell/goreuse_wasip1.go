//go:build wasip1

package shell

// idleRunners hands a function to one of wasmRunners goroutines started
// at init, which run one function after another: a script's interpreter
// and a pipeline's stages need deep stacks, which a new goroutine grows
// by copying (in busybox.wasm about a tenth of the 5-stage pipeline's
// CPU); a runner has grown its stack already.
//
// The runners are started by init, before busybox.wasm reports itself
// ready, so they are part of the goroutine count the engine takes as the
// warm shell's baseline: a command that leaves every runner idle again
// and nothing else running keeps its shell warm. A function that finds
// every runner busy runs on a new goroutine that ends with it, so no
// goroutine is left behind beyond the baseline.
var idleRunners = make(chan func())

// wasmRunners is how many runners wait: a script and the stages of a
// pipeline of up to seven commands.
const wasmRunners = 8

func init() {
	for range wasmRunners {
		go func() {
			for f := range idleRunners {
				f()
			}
		}()
	}
}

// goReuse runs f on an idle runner, or on a new goroutine when every
// runner is busy.
func goReuse(f func()) {
	select {
	case idleRunners <- f:
	default:
		go f()
	}
}
