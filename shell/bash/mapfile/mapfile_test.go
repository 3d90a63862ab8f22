package mapfile

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	tests := []struct {
		args  []string
		input string
		want  []string
		rest  string
	}{
		{nil, "a\nb\nc", []string{"a\n", "b\n", "c"}, ""},
		{[]string{"-t"}, "a\nb\n", []string{"a", "b"}, ""},
		{[]string{"-t", "-s", "1", "-n", "1"}, "a\nb\nc\n", []string{"b"}, "c\n"},
		{[]string{"-d", "", "-t"}, "x\x00y\x00", []string{"x", "y"}, ""},
		{[]string{"-d,"}, "p,q", []string{"p,", "q"}, ""},
		{[]string{"-t"}, "a\x00b\nc\n", []string{"a", "c"}, ""},
	}
	for _, tt := range tests {
		o, err := Parse(tt.args)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.args, err)
		}
		rd := strings.NewReader(tt.input)
		got := Lines(rd, o)
		if !slices.Equal(got, tt.want) {
			t.Errorf("mapfile %q <<< %q = %q, want %q", tt.args, tt.input, got, tt.want)
		}
		if rest := tt.input[len(tt.input)-rd.Len():]; rest != tt.rest {
			t.Errorf("mapfile %q <<< %q left %q, want %q", tt.args, tt.input, rest, tt.rest)
		}
	}
}

func TestParse(t *testing.T) {
	o, err := Parse([]string{"-t", "-O", "2", "-u3", "arr"})
	if err != nil || !o.Trim || o.Origin != 2 || o.FD != 3 || o.Name != "arr" {
		t.Errorf("Parse = %+v, %v", o, err)
	}
	// bash 5.2: mapfile -x, mapfile -n, mapfile -n x a, ...
	for _, tc := range []struct {
		args  []string
		msg   string
		value bool // an *Error (status 1), else a usage error (2)
	}{
		{[]string{"-x"}, "-x: invalid option", false},
		{[]string{"-n"}, "-n: option requires an argument", false},
		{[]string{"-tZ"}, "-Z: invalid option", false},
		{[]string{"-n", "x"}, "x: invalid line count", true},
		{[]string{"-s-1"}, "-1: invalid line count", true},
		{[]string{"-O", "x"}, "x: invalid array origin", true},
		{[]string{"-u", "x"}, "x: invalid file descriptor specification", true},
		{[]string{"-c", "0"}, "0: invalid callback quantum", true},
	} {
		_, err := Parse(tc.args)
		var e *Error
		if err == nil || err.Error() != tc.msg || errors.As(err, &e) != tc.value {
			t.Errorf("Parse(%q) = %#v, want %q (a value error: %v)", tc.args, err, tc.msg, tc.value)
		}
	}
	if o, err := Parse([]string{"-td,", "--", "-a"}); err != nil || o.Delim != ',' || !o.Trim || o.Name != "-a" {
		t.Errorf("Parse(-td, -- -a) = %+v, %v", o, err)
	}
}
