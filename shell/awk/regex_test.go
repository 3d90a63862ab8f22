package awk

import "testing"

func TestRegexTranslate(t *testing.T) {
	cases := []struct {
		re      string
		match   []string
		noMatch []string
	}{
		{`^[[:alpha:]_][[:alnum:]_]*$`, []string{"a1", "_x"}, []string{"1a", "a-b"}},
		{`[[:digit:]-]+`, []string{"1-2"}, []string{"ab"}},
		{`[]a]`, []string{"]", "a"}, []string{"b"}},
		{`[^]a]`, []string{"b"}, []string{"]", "a"}},
		{`[a\]]`, []string{"]"}, []string{"b"}},
		{`[\\/]`, []string{`\`, "/"}, []string{"a"}},
		{`a{2}`, []string{"aa"}, []string{"a"}},
		{`a{,2}b`, []string{"b", "aab"}, nil},
		{`a{`, []string{"a{"}, []string{"a"}},
		{`x{1,2`, []string{"x{1,2"}, []string{"x"}},
		{`+`, []string{"+"}, []string{"a"}},
		{`a|*`, []string{"*", "a"}, []string{"b"}},
		{`\.`, []string{"."}, []string{"a"}},
		{`\/`, []string{"/"}, []string{"a"}},
		{`\q`, []string{"q"}, []string{"a"}},
		{`\y` + `ab` + `\y`, []string{"x ab y"}, []string{"xaby"}},
		{`\<ab\>`, []string{"ab"}, []string{"cab"}},
		{`\101`, []string{"A"}, []string{"a"}},
		{`a.b`, []string{"a\nb"}, []string{"ab"}},
		{`[[:upper:][:digit:]]`, []string{"A", "1"}, []string{"a"}},
		{`[é-ë]`, []string{"ê"}, []string{"e"}},
		{`^(ab|cd)+$`, []string{"abcd"}, []string{"abc"}},
		{`x**`, []string{"xxx", ""}, nil},
		{`[[]`, []string{"["}, []string{"]"}},
		{`\$[0-9]`, []string{"$5"}, []string{"5"}},
		{`[a-]`, []string{"-", "a"}, []string{"b"}},
		{`[.]`, []string{"."}, []string{"a"}},
	}
	for _, c := range cases {
		re, err := compileRegex(c.re)
		if err != nil {
			t.Errorf("%q: %v", c.re, err)
			continue
		}
		for _, s := range c.match {
			if !re.MatchString(s) {
				t.Errorf("%q should match %q", c.re, s)
			}
		}
		for _, s := range c.noMatch {
			if re.MatchString(s) {
				t.Errorf("%q should not match %q", c.re, s)
			}
		}
	}
	for _, bad := range []string{`[a`, `(a`, `[[:nope:]]`, `[z-a]`} {
		if _, err := compileRegex(bad); err == nil {
			t.Errorf("%q compiled, want an error", bad)
		}
	}
}
