package gitdiff

import (
	"bytes"
	"testing"
)

// TestWriteHunks: git diff --no-index -U3 of the same two files printed
// these hunks and this --stat (git 2.39).
func TestWriteHunks(t *testing.T) {
	a := "func a\n1\n2\n3\n4\n5\n6\n7\n8\nx\n"
	b := "func a\n1\n2\n3\n4\n5\n6\n7\n8\ny\nz"
	var w bytes.Buffer
	WriteHunks(&w, a, b, 3)
	want := "@@ -7,4 +7,5 @@ func a\n 6\n 7\n 8\n-x\n+y\n+z\n\\ No newline at end of file\n"
	if w.String() != want {
		t.Errorf("WriteHunks = %q, want %q", w.String(), want)
	}
	adds, dels := Count(a, b)
	w.Reset()
	WriteStat(&w, []Stat{{Name: "a => b", Adds: adds, Dels: dels}})
	want = " a => b | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n"
	if w.String() != want {
		t.Errorf("WriteStat = %q, want %q", w.String(), want)
	}
	if !IsBinary([]byte("a\x00b")) || IsBinary([]byte(a)) {
		t.Error("IsBinary: want true only with a NUL byte")
	}
}
