package bash

import (
	"strings"
	"testing"
)

// TestRandom: $RANDOM as bash 5.2 gives it (the expected output is bash
// 5.2.15's for the same script): RANDOM=n seeds bash's sequence, the value
// is arithmetic cut to 32 bits, a subshell draws from a seed of its own
// and leaves the parent's sequence where it was, and an unseeded shell's
// values differ from another's.
func TestRandom(t *testing.T) {
	for _, c := range []struct{ name, script, want, wantErr string }{
		{"seeded", "RANDOM=1; echo $RANDOM $RANDOM $RANDOM; RANDOM=42; echo $RANDOM", "16807 10791 19566\n17772\n", ""},
		{"zero and wrap", "RANDOM=0; echo $RANDOM; RANDOM=-1; echo $RANDOM; RANDOM=-2; echo $RANDOM; RANDOM=4294967296; echo $RANDOM",
			"20814\n16807\n20814\n20814\n", ""},
		{"arithmetic", `RANDOM=" 12"; echo $RANDOM; RANDOM=1+1; echo $RANDOM`, "5079\n846\n", ""},
		{"subshells", "RANDOM=7; (echo $RANDOM) >/dev/null; echo $RANDOM; echo $(RANDOM=3; echo $RANDOM $RANDOM)\n" +
			"RANDOM=5; x=$(echo $RANDOM); y=$(echo $RANDOM | cat); echo $RANDOM", "19344\n17653 593\n18498\n", ""},
		{"loop", "for i in 1 2 3; do RANDOM=9; echo $RANDOM; done", "20189\n20189\n20189\n", ""},
		{"not a number", "RANDOM=12x; echo $?", "0\n", "bash: line 1: 12x: value too great for base (error token is \"12x\")\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, errOut, _ := runScript(t, c.script)
			if out != c.want || errOut != c.wantErr {
				t.Errorf("got %q %q, want %q %q", out, errOut, c.want, c.wantErr)
			}
		})
	}
	// Unseeded: two shells (and a subshell and its parent) differ; the
	// chance of equal 15-bit triples by luck is 2^-45.
	a, _, _ := runScript(t, "echo $RANDOM $RANDOM $RANDOM; (echo $RANDOM $RANDOM $RANDOM)")
	b, _, _ := runScript(t, "echo $RANDOM $RANDOM $RANDOM")
	lines := func(s string) []string { return strings.Split(strings.TrimSuffix(s, "\n"), "\n") }
	la, lb := lines(a), lines(b)
	if len(la) != 2 || len(lb) != 1 || la[0] == lb[0] || la[0] == la[1] {
		t.Errorf("unseeded $RANDOM repeats: %q and %q", a, b)
	}
}
