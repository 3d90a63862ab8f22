package patch

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	files, err := parse("junk\n--- a/x\t2020-01-01\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n\\ No newline at end of file\n@@ -9 +9,0 @@\n-z\n")
	if err != nil || len(files) != 1 {
		t.Fatalf("parse: %v, %d files", err, len(files))
	}
	f := files[0]
	if f.oldName != "a/x" || f.newName != "b/x" || len(f.hunks) != 2 {
		t.Fatalf("got %+v", f)
	}
	h := f.hunks[0]
	if h.oldStart != 1 || h.oldLines != 2 || !h.noNLOld || !h.noNLNew || strings.Join(h.lines, "|") != "-a|+b| c" {
		t.Errorf("hunk 1: %+v", h)
	}
	if h := f.hunks[1]; h.oldStart != 9 || h.oldLines != 1 || h.newLines != 0 {
		t.Errorf("hunk 2: %+v", h)
	}
	for _, bad := range []string{
		"--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n",         // ends early
		"--- a\n+++ b\n@@ -x +1 @@\n a\n",             // bad range
		"*** a\n--- b\n***************\n*** 1 ****\n", // context diff
		"--- a\n+++ b\n@@ -1 +1 @@\n?a\n",             // bad line
	} {
		if _, err := parse(bad); err == nil {
			t.Errorf("parse(%q): no error", bad)
		}
	}
	if got := stripName("a/b//c/d", 2); got != "c/d" {
		t.Errorf("stripName: %q", got)
	}
}

// FuzzParse: no input makes the parser (or applying what it parsed)
// panic.
func FuzzParse(f *testing.F) {
	f.Add("--- a\n+++ b\n@@ -1,2 +1,2 @@\n-a\n+b\n c\n")
	f.Add("--- /dev/null\n+++ n\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n")
	f.Add("--- a\n+++ b\n@@ -3 +3 @@\n-\n+\n")
	f.Fuzz(func(t *testing.T, text string) {
		files, err := parse(text)
		if err != nil {
			return
		}
		lines, _ := splitLines("1\n2\n3\n4\n5\n")
		for _, fp := range files {
			for _, h := range fp.hunks {
				for fz := 0; fz <= maxFuzz; fz++ {
					if at, _, ok := find(lines, h, 0, fz, 0); ok && (at < 0 || at > len(lines)) {
						t.Fatalf("found at %d of %d", at, len(lines))
					}
				}
				_ = reversed(h)
			}
		}
	})
}
