package posixre

import (
	"regexp"
	"testing"
)

func TestRegexTranslateMatches(t *testing.T) {
	bre := Options{}
	ere := Options{ERE: true}
	grepERE := Options{ERE: true, Lenient: true}
	sedBRE := Options{Sed: true}
	tests := []struct {
		pat   string
		o     Options
		match []string
		miss  []string
	}{
		{"abc", bre, []string{"abc", "xabcx"}, []string{"ab", "acb"}},
		{"a.c", bre, []string{"abc", "a.c"}, []string{"ac"}},
		{"a\\.c", bre, []string{"a.c"}, []string{"abc"}},
		{"^ab*$", bre, []string{"a", "abbb"}, []string{"ba", "abc"}},
		{"a^b", bre, []string{"a^b"}, []string{"ab"}},
		{"a$b", bre, []string{"a$b"}, []string{"ab"}},
		{"^*a", bre, []string{"*a"}, []string{"a"}},
		{"*a", bre, []string{"*a"}, []string{"a"}},
		{"\\(*a\\)", bre, []string{"*a"}, []string{"a"}},
		{"^^", bre, []string{"^x"}, []string{"x^"}},
		{"a\\{2\\}", bre, []string{"aa"}, []string{"a"}},
		{"a\\{2,\\}b", bre, []string{"aab", "aaab"}, []string{"ab"}},
		{"^a\\{,2\\}b", bre, []string{"b", "aab"}, []string{"aaab"}},
		{"\\{1\\}a", bre, []string{"{1}a"}, []string{"a"}},
		{"a\\+", bre, []string{"a", "aa"}, []string{"b"}},
		{"a+", bre, []string{"a+"}, []string{"aa"}},
		{"^ab\\?c$", bre, []string{"ac", "abc"}, []string{"abbc"}},
		{"cat\\|dog", bre, []string{"cat", "dog"}, []string{"cow"}},
		{"a|b", bre, []string{"a|b"}, []string{"a"}},
		{"\\(ab\\)*c", bre, []string{"c", "ababc"}, nil},
		{"(ab)", bre, []string{"(ab)"}, []string{"ab"}},
		{"(ab)+c", ere, []string{"abc", "ababc"}, []string{"ac"}},
		{"\\(x\\)", ere, []string{"(x)"}, []string{"x"}},
		{"a|b", ere, []string{"a", "b"}, []string{"c"}},
		{"^(a|b)$", ere, []string{"a", "b"}, []string{"ab"}},
		{"a{2}", ere, []string{"aa"}, []string{"a"}},
		{"a**", ere, []string{"b"}, nil},
		{"a{1}{2}", ere, []string{"aa"}, []string{"a"}},
		{"*a", grepERE, []string{"a"}, []string{"b"}},
		{"a{", grepERE, []string{"a{"}, []string{"a"}},
		{"a{1,x}", grepERE, []string{"a{1,x}"}, []string{"a"}},
		{"a)", grepERE, []string{"a)"}, []string{"a"}},
		{"[abc]", bre, []string{"b"}, []string{"d"}},
		{"[^abc]", bre, []string{"d"}, []string{"a"}},
		{"[]a]", bre, []string{"]", "a"}, []string{"b"}},
		{"[^]a]", bre, []string{"b"}, []string{"]"}},
		{"[a-]", bre, []string{"-"}, []string{"b"}},
		{"[\\.]", bre, []string{"\\", "."}, []string{"a"}},
		{"[[:digit:]]\\+", bre, []string{"42"}, []string{"x"}},
		{"[[:alpha:][:digit:]]", bre, []string{"a", "1"}, []string{"-"}},
		{"[[.-.]]", bre, []string{"-"}, []string{"a"}},
		{"[[=e=]]", bre, []string{"e"}, []string{"a"}},
		{"[*^$.]", bre, []string{"*", "^", "$", "."}, []string{"a"}},
		{"\\w\\+", bre, []string{"a_1"}, []string{"--"}},
		{"^\\W$", bre, []string{"-"}, []string{"a"}},
		{"a\\sb", bre, []string{"a b", "a\tb"}, []string{"ab"}},
		{"a\\Sb", bre, []string{"axb"}, []string{"a b"}},
		{"\\bcat\\b", bre, []string{"a cat."}, []string{"concat"}},
		{"\\<cat\\>", bre, []string{"cat"}, []string{"cats"}},
		{"\\Bat", bre, []string{"cat"}, []string{"at"}},
		{"a\\nb", sedBRE, []string{"a\nb"}, []string{"anb"}},
		{"a\\tb", sedBRE, []string{"a\tb"}, []string{"atb"}},
		{"[\\t]", sedBRE, []string{"\t"}, []string{"t", "\\"}},
		{"\\x41", sedBRE, []string{"A"}, []string{"x41"}},
		{"a.b", sedBRE, []string{"a\nb"}, nil},
		{"ABC", Options{ICase: true}, []string{"abc"}, []string{"abd"}},
		{"\\`a", sedBRE, []string{"ab"}, []string{"ba"}},
		{"a\\'", sedBRE, []string{"ba"}, []string{"ab"}},
	}
	for _, tc := range tests {
		re, err := Compile(tc.pat, tc.o)
		if err != nil {
			t.Errorf("rxCompile(%q, %+v): %v", tc.pat, tc.o, err)
			continue
		}
		for _, s := range tc.match {
			if !re.MatchString(s) {
				t.Errorf("%q (%+v, Go %q) should match %q", tc.pat, tc.o, re.String(), s)
			}
		}
		for _, s := range tc.miss {
			if re.MatchString(s) {
				t.Errorf("%q (%+v, Go %q) should not match %q", tc.pat, tc.o, re.String(), s)
			}
		}
	}
}

func TestRegexTranslateErrors(t *testing.T) {
	bre := Options{}
	ere := Options{ERE: true}
	tests := []struct {
		pat  string
		o    Options
		want string
	}{
		{"\\(a\\)\\1", bre, "back-references in patterns are not supported"},
		{"(a)\\1", ere, "back-references in patterns are not supported"},
		{"a\\", bre, "Trailing backslash"},
		{"[a", bre, "Unmatched [, [^, [:, [., or [="},
		{"[[:alpha:", bre, "Unmatched [, [^, [:, [., or [="},
		{"\\(a", bre, "Unmatched ( or \\("},
		{"(a", ere, "Unmatched ( or \\("},
		{"a\\)", bre, "Unmatched ) or \\)"},
		{"a)", ere, "Unmatched ) or \\)"},
		{"a\\{1", bre, "Unmatched \\{"},
		{"a\\{1,x\\}", bre, "Invalid content of \\{\\}"},
		{"a\\{2,1\\}", bre, "Invalid content of \\{\\}"},
		{"a{2,1}", Options{ERE: true, Lenient: true}, "Invalid content of \\{\\}"},
		{"a{99999}", ere, "Regular expression too big"},
		{"a{1001}", ere, "Regular expression too big"},
		{"(a{1000}){1000}", ere, "Regular expression too big"},
		{"[b-a]", bre, "Invalid range end"},
		{"[[:foo:]]", bre, "Invalid character class name"},
		{"[[.ab.]]", bre, "Invalid collation character"},
		{"*a", ere, "Invalid preceding regular expression"},
		{"a|*b", ere, "Invalid preceding regular expression"},
		{"[:space:]", bre, "character class syntax is [[:space:]], not [:space:]"},
	}
	for _, tc := range tests {
		_, err := Translate(tc.pat, tc.o)
		if err == nil || err.Error() != tc.want {
			t.Errorf("rxTranslate(%q, %+v) error = %v, want %q", tc.pat, tc.o, err, tc.want)
		}
	}
}

func TestRegexLongestAndLiteral(t *testing.T) {
	re, err := Compile("a\\|ab", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := re.FindString("abc"); got != "ab" {
		t.Errorf("leftmost-longest: got %q, want \"ab\"", got)
	}
	lit := QuoteLiteral("a.b*[c]\x01\xff")
	if _, err := regexp.Compile(lit); err != nil {
		t.Errorf("rxQuoteLiteral gave %q: %v", lit, err)
	}
	if !regexp.MustCompile(lit).MatchString("xa.b*[c]\x01\xffy") {
		t.Errorf("rxQuoteLiteral %q does not match its text", lit)
	}
}

// FuzzRegexTranslate: translation never panics, and a translation that
// succeeds always compiles with Go's regexp.
func FuzzRegexTranslate(f *testing.F) {
	for _, s := range []string{
		"a*b", "\\(a\\)\\{2,3\\}", "[[:alpha:]]+", "(a|b){1,}", "^*x$", "a**",
		"[]a-]", "\\<w\\>", "a\\{1", "x{,3}", "[^\\n]", "\\x41\\t", "(|a)*", "$*",
		"[[.a.]-z]", "\\`\\'", "a{1}{2}{3}", "(((a)))", "\xff[\xfe-\xff]",
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(15))
	}
	f.Fuzz(func(t *testing.T, pat string, flags uint8) {
		o := Options{ERE: flags&1 != 0, Lenient: flags&2 != 0, Sed: flags&4 != 0, ICase: flags&8 != 0, Multiline: flags&16 != 0}
		s, err := Translate(pat, o)
		if err != nil {
			return
		}
		if _, err := regexp.Compile(rxFlags(o) + s); err != nil {
			t.Fatalf("rxTranslate(%q, %+v) = %q which does not compile: %v", pat, o, s, err)
		}
	})
}
