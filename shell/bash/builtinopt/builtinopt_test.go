package builtinopt

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// show renders a parse as one line: the options (letter, +, =value), a
// bar, the rest, and the error.
func show(opts Options, rest []string, err error) string {
	var b strings.Builder
	for _, o := range opts {
		if o.Plus {
			b.WriteByte('+')
		}
		b.WriteByte(o.Letter)
		if o.Value != "" {
			b.WriteString("=" + o.Value)
		}
		b.WriteByte(' ')
	}
	b.WriteString("| " + strings.Join(rest, " "))
	if err != nil {
		b.WriteString("! " + err.Error())
	}
	return b.String()
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		spec string
		args []string
		want string
	}{
		{"afptP", nil, "| "},
		{"afptP", []string{"-t", "echo"}, "t | echo"},
		{"afptP", []string{"-ta", "-P", "x", "-a"}, "t a P | x -a"},
		{"afptP", []string{"-tZ", "echo"}, "t | ! -Z: invalid option"},
		{"afptP", []string{"-a-"}, "a | ! --: invalid option"},
		{"afptP", []string{"--x"}, "| ! --: invalid option"},
		{"afptP", []string{"-:"}, "| ! -:: invalid option"},
		{"ab:", []string{"-:"}, "| ! -:: invalid option"},
		{"afptP", []string{"--", "-t"}, "| -t"},
		{"afptP", []string{"-", "-t"}, "| - -t"},
		{"afptP", []string{"-t", "--help"}, "t | ! --help"},
		{"afptP", []string{"--", "--help"}, "| --help"},
		{"afptP", []string{"+t"}, "| +t"},
		{"afptP", []string{""}, "| "},
		{"d:r", []string{"-d"}, "| ! -d: option requires an argument"},
		{"d:r", []string{"-rd"}, "r | ! -d: option requires an argument"},
		{"d:r", []string{"-d:", "v"}, "d=: | v"},
		{"d:r", []string{"-rd", "--", "v"}, "r d=-- | v"},
		{"d:r", []string{"-d", "-r", "-r"}, "d=-r r | "},
		{"d:r", []string{"-dr"}, "d=r | "},
		{"d:r", []string{"-d", ""}, "d | "},
		{"+aAx", []string{"+x", "-a", "v=1"}, "+x a | v=1"},
		{"+aAx", []string{"+Z"}, "| ! +Z: invalid option"},
		{"+aAx", []string{"-+"}, "| ! -+: invalid option"},
		{"+aAx", []string{"+-x"}, "| ! +-: invalid option"},
		{"+aAx", []string{"+", "-x"}, "| + -x"},
		{"+aAx", []string{"+--"}, "| ! +-: invalid option"},
		{"aAx", []string{"+Z"}, "| +Z"},
	} {
		opts, rest, err := Parse(tc.spec, tc.args)
		if got := show(opts, rest, err); got != tc.want {
			t.Errorf("Parse(%q, %q) = %q, want %q", tc.spec, tc.args, got, tc.want)
		}
	}
}

func TestOptions(t *testing.T) {
	opts, _, err := Parse("+ab:", []string{"-b1", "+a", "-b", "2"})
	if err != nil {
		t.Fatal(err)
	}
	if opts.Has('a') || !opts.Has('b') {
		t.Errorf("Has: +a counted as -a or -b missed: %v", opts)
	}
	if v, ok := opts.Value('b'); v != "2" || !ok {
		t.Errorf("Value('b') = %q, %v, want the last, 2", v, ok)
	}
	if _, ok := opts.Value('a'); ok {
		t.Error("Value('a') found -a")
	}
}

func TestUsage(t *testing.T) {
	for _, tc := range []struct {
		args               []string
		stdout, errf, serr string
	}{
		{[]string{"-Z"}, "", "type: -Z: invalid option", "type: usage: type [-afptP] name [name ...]\n"},
		{[]string{"--help"}, "type: type [-afptP] name [name ...]\n", "", ""},
	} {
		_, _, err := Parse("afptP", tc.args)
		var out, serr bytes.Buffer
		var errs []string
		st := Usage(func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }, &out, &serr, "type", "type [-afptP] name [name ...]", err)
		if st != 2 || out.String() != tc.stdout || strings.Join(errs, "\n") != tc.errf || serr.String() != tc.serr {
			t.Errorf("Usage(%q) = %d, stdout %q, errf %q, stderr %q", tc.args, st, out.String(), errs, serr.String())
		}
	}
}

// FuzzParse checks what holds for every spec and words: no panic; the
// rest is a suffix of the words; each option is a letter of the spec
// with a value only where the spec asks one; an error leaves no rest.
func FuzzParse(f *testing.F) {
	f.Add("+ab:c", "-ab\x00x\x00--\x00y")
	f.Add("d:r", "-rd")
	f.Add("afptP", "-t\x00--help")
	f.Fuzz(func(t *testing.T, spec, joined string) {
		args := strings.Split(joined, "\x00")
		opts, rest, err := Parse(spec, args)
		if len(rest) > len(args) || !slices.Equal(rest, args[len(args)-len(rest):]) {
			t.Fatalf("rest %q is not a suffix of %q", rest, args)
		}
		if err != nil && rest != nil {
			t.Fatalf("error %v with rest %q", err, rest)
		}
		letters := strings.TrimPrefix(spec, "+")
		for _, o := range opts {
			at := strings.IndexByte(letters, o.Letter)
			if at < 0 || o.Letter == ':' {
				t.Fatalf("option %q is not in spec %q", o.Letter, spec)
			}
			if o.Plus && !strings.HasPrefix(spec, "+") {
				t.Fatalf("+%c read with spec %q", o.Letter, spec)
			}
			takes := at+1 < len(letters) && letters[at+1] == ':'
			if !takes && o.Value != "" {
				t.Fatalf("option %c has value %q", o.Letter, o.Value)
			}
		}
		if e, ok := err.(*Error); ok && (len(e.Opt) != 2 || (e.Opt[0] != '-' && e.Opt[0] != '+')) {
			t.Fatalf("error names %q", e.Opt)
		}
	})
}
