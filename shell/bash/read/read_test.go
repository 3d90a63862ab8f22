package read

import (
	"strings"
	"testing"
)

// TestLineSplit: each want is the variables bash 5.2's read (without -r)
// set from the line with IFS and n names.
func TestLineSplit(t *testing.T) {
	tests := []struct {
		line, ifs string
		n         int
		want      string
	}{
		{" a  b  c \n", " \t\n", 3, "[a][b][c]"},
		{"_a_b_\n", "_", 3, "[][a][b]"},
		{"a:b:c:\n", ":", 2, "[a][b:c:]"},
		{"x y z  \n", " \t\n", 1, "[x y z]"},
		{`a\ b c` + "\n", " \t\n", 2, "[a b][c]"},
		{"a\\\nb c\nrest", " \t\n", 2, "[ab][c]"},
	}
	for _, tt := range tests {
		line, quoted, eof := Line(strings.NewReader(tt.line), Options{Delim: '\n', N: -1})
		if eof {
			t.Errorf("Line(%q): eof before the newline", tt.line)
		}
		var b strings.Builder
		for _, f := range Split(line, quoted, tt.ifs, tt.n) {
			b.WriteString("[" + f + "]")
		}
		if b.String() != tt.want {
			t.Errorf("read %d names from %q with IFS %q = %s, want %s", tt.n, tt.line, tt.ifs, b.String(), tt.want)
		}
	}
}

// TestLineOptions: -r, -d, -n, -N and the end of input.
func TestLineOptions(t *testing.T) {
	tests := []struct {
		in   string
		o    Options
		want string
		eof  bool
	}{
		{`a\tb` + "\n", Options{Raw: true, Delim: '\n', N: -1}, `a\tb`, false},
		{"a,b", Options{Delim: ',', N: -1}, "a", false},
		{"abc", Options{Delim: '\n', N: -1}, "abc", true},
		{"hello\n", Options{Delim: '\n', N: 2}, "he", false},
		{"a\nbc", Options{Delim: '\n', N: 3, Exact: true}, "a\nb", false},
		{"a\x00b\n", Options{Delim: '\n', N: -1}, "ab", false},
		{"", Options{Delim: '\n', N: 0}, "", false},
	}
	for _, tt := range tests {
		got, _, eof := Line(strings.NewReader(tt.in), tt.o)
		if got != tt.want || eof != tt.eof {
			t.Errorf("Line(%q, %+v) = %q, %v; want %q, %v", tt.in, tt.o, got, eof, tt.want, tt.eof)
		}
	}
}
