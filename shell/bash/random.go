package bash

import (
	"math/rand/v2"
	"strconv"

	"github.com/agentenkit/agentenkit/shell/bash/vars"
)

// randomState is $RANDOM's generator, bash 5.2's (variables.c): Park and
// Miller's minimal standard generator on a 32-bit seed, each value the
// seed's halves xored and cut to 15 bits, never the same value twice in a
// row. A shell seeds it at its first $RANDOM from the process's random
// state (bash: the time and its pid), so two shells' values differ;
// RANDOM=n seeds it with n (evaluated as arithmetic), and the same n
// gives bash's very sequence. A
// subshell (( ), $( ), a pipeline stage, a background job) that did not
// assign RANDOM itself draws from a new seed of its own, as bash reseeds
// in each subshell, so the parent's sequence goes on as if it had not run.
type randomState struct {
	seed uint32
	last int
	pid  int // the shell ($BASHPID) that seeded it; 0: not yet seeded
}

// random is the next value of $RANDOM.
func (r *Runner) random() int {
	if r.rnd.pid != r.pid {
		r.rnd = randomState{seed: rand.Uint32(), pid: r.pid}
	}
	for {
		r.rnd.seed = intrand32(r.rnd.seed)
		v := int((r.rnd.seed>>16)^(r.rnd.seed&0xffff)) & 32767
		if v != r.rnd.last {
			r.rnd.last = v
			return v
		}
	}
}

// assignRandom is RANDOM=val into v, RANDOM's variable: bash reads val as
// arithmetic and seeds the generator with it cut to 32 bits. A value that
// is not arithmetic is reported, and changes nothing, the command going
// on (bash 5.2's assign_random).
func (r *Runner) assignRandom(v *vars.Var, val string) error {
	n, err := r.arithString(val)
	if err != nil {
		r.errf("%v", err)
		return nil
	}
	r.rnd = randomState{seed: uint32(n), pid: r.pid}
	v.Str, v.Set = strconv.FormatInt(n, 10), true
	return nil
}

// intrand32 is bash's step: x(n+1) = 16807 * x(n) mod (2^31 - 1); 0 is
// not a seed.
func intrand32(last uint32) uint32 {
	x := uint64(last)
	if x == 0 {
		x = 123459876
	}
	return uint32(x * 16807 % 0x7fffffff)
}
