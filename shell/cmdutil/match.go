package cmdutil

import (
	"regexp"

	"mvdan.cc/sh/v3/pattern"
)

// Matcher compiles a shell pattern (mvdan.cc/sh's pattern syntax, in
// mode) into a function that matches it against a whole string, once, for
// a command that matches many names (find -name, tree -I, unzip's
// members). A pattern that does not compile matches only itself.
func Matcher(pat string, mode pattern.Mode) func(string) bool {
	if expr, err := pattern.Regexp(pat, mode|pattern.EntireString); err == nil {
		if rx, err := regexp.Compile(expr); err == nil {
			return rx.MatchString
		}
	}
	return func(s string) bool { return s == pat }
}
