package glob

import (
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"mvdan.cc/sh/v3/syntax"
)

// mapFS is an FS over a map file system whose root is the working
// directory.
type mapFS fstest.MapFS

func (m mapFS) Stat(p string) (fs.FileInfo, error)  { return fs.Stat(fstest.MapFS(m), path.Clean(p)) }
func (m mapFS) Lstat(p string) (fs.FileInfo, error) { return m.Stat(p) }
func (m mapFS) ReadDir(p string) ([]fs.DirEntry, error) {
	return fs.ReadDir(fstest.MapFS(m), path.Clean(p))
}

// TestGlob: each want is what bash 5.2 printed with shopt -s extglob
// globstar in a directory holding a.txt, b.txt, .h and sub/c.txt.
func TestGlob(t *testing.T) {
	g := &Globber{
		FS: mapFS{
			"a.txt": {}, "b.txt": {}, ".h": {}, "sub/c.txt": {},
		},
		ExtGlob: true, GlobStar: true, GlobSkipDots: true,
	}
	tests := []struct{ pat, want string }{
		{"*", "a.txt b.txt sub"},
		{".*", ".h"},
		{"**/*.txt", "a.txt b.txt sub/c.txt"},
		{"!(a).txt", "b.txt"},
		{"*/", "sub/"},
		{"sub/*", "sub/c.txt"},
		{"nope*", ""},
		{"a.txt", "a.txt"},
	}
	for _, tt := range tests {
		if got := strings.Join(g.Glob(tt.pat), " "); got != tt.want {
			t.Errorf("Glob(%q) = %q, want %q", tt.pat, got, tt.want)
		}
	}
}

func TestMatch(t *testing.T) {
	tests := []struct {
		pat, s string
		want   bool
	}{
		{"a*", "abc", true},
		{"@(x|a)b?", "abc", true},
		{"!(abc)", "abc", false},
		{"!(abc)", "abd", true},
		{"[a-c]x", "bx", true},
		{"?", "ab", false},
	}
	for _, tt := range tests {
		if got := Match(tt.pat, tt.s, false); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pat, tt.s, got, tt.want)
		}
	}
}

// TestBraces: bash 5.2's brace expansion of each word.
func TestBraces(t *testing.T) {
	tests := []struct{ word, want string }{
		{"a{1..3}b", "a1b a2b a3b"},
		{"{a,b}{c,d}", "ac ad bc bd"},
		{"x{1..10..3}", "x1 x4 x7 x10"},
		{"{z..w}", "z y x w"},
		{"{1..3..0}", "1 2 3"},
		{"{a}", "{a}"},
	}
	for _, tt := range tests {
		w, err := syntax.NewParser().Document(strings.NewReader(tt.word))
		if err != nil {
			t.Fatal(err)
		}
		syntax.SplitBraces(w)
		var got []string
		for _, x := range Braces(w) {
			got = append(got, printWord(x))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("Braces(%s) = %q, want %q", tt.word, got, tt.want)
		}
	}
}
