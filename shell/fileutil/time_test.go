package fileutil

import (
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestStrftimeGNU compares Strftime (date +FORMAT, find -printf %T, ls
// --time-style=+) with GNU date on every conversion and flag. It is why
// the package keeps its own: github.com/itchyny/timefmt-go v0.1.9 differs
// from GNU on %N, %3N, %q, %Ey/%Od, %-10A and %+ of these formats.
func TestStrftimeGNU(t *testing.T) {
	if _, err := exec.LookPath("date"); err != nil {
		t.Skip("no GNU date on this machine")
	}
	formats := []string{"%Y-%m-%d %H:%M:%S", "%a %b %e %T %Z %Y", "%A %B %d", "%c", "%D", "%F",
		"%G-W%V-%u", "%g", "%h", "%I %l %p %P", "%j", "%k", "%n%t", "%r", "%R", "%s", "%U %W %w",
		"%x %X", "%y %C", "%z %:z %::z %:::z", "%%", "%-d %-m %-H", "%_d %_m", "%05Y %^a %^B %#Z %#p",
		"%10A|%-10A", "%N %3N %6N %9N", "%q", "%Ey %Od", "%+", "%E", "%Q", "%-", "%"}
	tm := time.Date(2024, 3, 5, 7, 8, 9, 123456789, time.FixedZone("CET", 3600))
	for _, f := range formats {
		cmd := exec.Command("date", "-d", "2024-03-05T07:08:09.123456789+01:00", "+"+f)
		cmd.Env = []string{"TZ=CET-1", "LC_ALL=C"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("date +%s: %v", f, err)
		}
		gnu := strings.TrimSuffix(string(out), "\n")
		if ours := Strftime(f, tm); ours != gnu {
			t.Errorf("%q: GNU %q, ours %q", f, gnu, ours)
		}
	}
}
