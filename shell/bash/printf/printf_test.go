package printf

import (
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
