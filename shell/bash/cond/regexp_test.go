package cond

import "testing"

// TestRegexp checks [[ aabc =~ $re ]] against bash 5.2: its status (2
// when regcomp refuses re) and BASH_REMATCH[0], and the status with
// shopt -s nocasematch.
func TestRegexp(t *testing.T) {
	for _, c := range []struct {
		re     string
		st     int
		match  string
		nocase int
	}{
		{"a{", 2, "", 2},
		{"a{2}", 0, "aa", 0},
		{"a{,2}b", 0, "aab", 0},
		{"{1}", 2, "", 2},
		{"a{1,2,3}", 2, "", 2},
		{"a{x}", 2, "", 2},
		{"(a|b)+c", 0, "aabc", 0},
		{"[{]", 1, "", 1},
		{`x\{`, 1, "", 1},
		{"^[[:alpha:]]+$", 0, "aabc", 0},
		{"a{1", 2, "", 2},
		{"(", 2, "", 2},
		{"ab{0,}", 0, "a", 0},
		{"A", 1, "", 0},
	} {
		status := func(nocase bool) (int, string) {
			re, ok := Regexp(c.re, nocase)
			if !ok {
				return 2, ""
			}
			if m := re.FindString("aabc"); re.MatchString("aabc") {
				return 0, m
			}
			return 1, ""
		}
		st, m := status(false)
		nst, _ := status(true)
		if st != c.st || m != c.match || nst != c.nocase {
			t.Errorf("%q: status %d match %q nocase %d; want %d %q %d", c.re, st, m, nst, c.st, c.match, c.nocase)
		}
	}
}
