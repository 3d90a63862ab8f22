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
	for args, msg := range map[string]string{
		"-x": "mapfile: -x: invalid option",
		"-n": "mapfile: -n: option requires an argument",
	} {
		_, err := Parse([]string{args})
		var ue *UsageError
		if !errors.As(err, &ue) || ue.Msg != msg {
			t.Errorf("Parse(%s) = %v, want %q", args, err, msg)
		}
	}
}
