package printf

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestFormat: each want (output, status, messages) was printed by bash
// 5.2's printf builtin with the same format and arguments.
func TestFormat(t *testing.T) {
	tests := []struct {
		format string
		args   []string
		want   string
		status int
		warn   string
	}{
		{format: "%.2f", args: []string{"3.14159"}, want: "3.14"},
		{format: "%5.1f", args: []string{"2.25"}, want: "  2.2"},
		{format: "%.1f", args: []string{"2.25"}, want: "2.2"},
		{format: "%6.4d", args: []string{"42"}, want: "  0042"},
		{format: "%.3s", args: []string{"abcdef"}, want: "abc"},
		{format: "%x", args: []string{"'μ"}, want: "3bc"},
		{format: "%s-", args: []string{"a", "b", "c"}, want: "a-b-c-"},
		{format: "%s=%d;", args: []string{"a"}, want: "a=0;"},
		{format: "%q", args: []string{"a b"}, want: `a\ b`},
		{format: "%b", args: []string{`x\cy`, "z"}, want: "x"},
		{format: "%e", args: []string{"1234.5"}, want: "1.234500e+03"},
		{format: "%g", args: []string{"0.0001"}, want: "0.0001"},
		{format: "%X", args: []string{"255"}, want: "FF"},
		{format: "%o", args: []string{"8"}, want: "10"},
		{format: "%-4s|", args: []string{"ab"}, want: "ab  |"},
		{format: "%c", args: []string{"hello"}, want: "h"},
		{format: `a\tb\x41\101\n`, want: "a\tbAA\n"},
		{format: "%d", args: []string{"12abc"}, want: "12", status: 1, warn: "printf: 12abc: invalid number"},
		{format: "%5%", status: 1, warn: "printf: `%': invalid format character"},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			var warns []string
			got, status := Format(tt.format, tt.args, func(msg string) { warns = append(warns, msg) })
			if got != tt.want || status != tt.status || strings.Join(warns, "\n") != tt.warn {
				t.Fatalf("Format(%q, %q) = %q, %d, warnings %q; want %q, %d, %q",
					tt.format, tt.args, got, status, warns, tt.want, tt.status, tt.warn)
			}
		})
	}
}

func TestSingleQuote(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "''"},
		{"it's", `'it'\''s'`},
		{"a\tb\x01", `$'a\tb\001'`},
	}
	for _, tt := range tests {
		if got := SingleQuote(tt.in); got != tt.want {
			t.Errorf("SingleQuote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestEcho checks echo's text against bash 5.2's output (bash -c 'echo
// -n a; echo -en "b\tc\n"; ...; shopt -s xpg_echo; ...' | od -c).
func TestEcho(t *testing.T) {
	for _, c := range []struct {
		args []string
		xpg  bool
		want string
	}{
		{[]string{"-n", "a"}, false, "a"},
		{[]string{"-en", `b\tc\n`}, false, "b\tc\n"},
		{[]string{"-neE", `d\n`}, false, `d\n`},
		{[]string{"-Ee", `e\x41`}, false, "eA\n"},
		{[]string{"-", "x"}, false, "- x\n"},
		{[]string{"-nx", "y"}, false, "-nx y\n"},
		{[]string{"-e", `f\cg`}, false, "f"},
		{[]string{"h"}, false, "h\n"},
		{[]string{"--", "-n"}, false, "-- -n\n"},
		{nil, false, "\n"},
		{[]string{`i\tj`}, true, "i\tj\n"},
		{[]string{"-E", `k\tl`}, true, `k\tl` + "\n"},
	} {
		if got := Echo(c.args, c.xpg); got != c.want {
			t.Errorf("echo %q (xpg_echo %v) = %q, want %q", c.args, c.xpg, got, c.want)
		}
	}
}

// TestArgs checks the printf builtin's argument reading; the invalid
// and missing cases are those bash 5.2 reports with its usage line
// (bash -c 'printf -x; printf; printf --; printf -v; printf -v 1a; printf -v x %s a; ...').
func TestArgs(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-x"}, `bad "-x: invalid option" usage`},
		{[]string{"-xy"}, `bad "-x: invalid option" usage`},
		{nil, `bad "" usage`},
		{[]string{"--"}, `bad "" usage`},
		{[]string{"-v"}, `bad "-v: option requires an argument" usage`},
		{[]string{"-v", "x"}, `bad "" usage`},
		{[]string{"-v", "1a"}, "bad \"`1a': not a valid identifier\""},
		{[]string{"-va b", "%s"}, "bad \"`a b': not a valid identifier\""},
		{[]string{"-v", "a["}, "bad \"`a[': not a valid identifier\""},
		{[]string{"-v", ""}, "bad \"`': not a valid identifier\""},
		{[]string{"-v", "a_1[x y]", "%s"}, `a_1[x y] "%s" []`},
		{[]string{"-v", "x", "%s", "a"}, `x "%s" [a]`},
		{[]string{"-vy", "b"}, `y "b" []`},
		{[]string{"--", "-%s\n", "c"}, `"-%s\n" [c]`},
		{[]string{"-v", "z", "--", "%s", "d"}, `z "%s" [d]`},
		{[]string{"-"}, `"-" []`},
		{[]string{"-v", "1a", "-x"}, "bad \"`1a': not a valid identifier\""},
		{[]string{"-v", "a", "-vb", "%s"}, `b "%s" []`},
		{[]string{"--help"}, `bad "--help" usage`},
	} {
		v, f, rest, err := Args(c.args)
		got := fmt.Sprintf("%s %q %v", v, f, rest)
		if v == "" {
			got = got[1:]
		}
		var ie *IdentError
		switch {
		case errors.As(err, &ie):
			got = fmt.Sprintf("bad %q", err.Error())
		case errors.Is(err, ErrNoFormat):
			got = `bad "" usage`
		case err != nil:
			got = fmt.Sprintf("bad %q usage", err.Error())
		}
		if got != c.want {
			t.Errorf("printf %q: %s; want %s", c.args, got, c.want)
		}
	}
}
