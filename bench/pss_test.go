package bench

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
)

func TestParseKB(t *testing.T) {
	rollup := "563ed2c2f000-7fffc31ce000 ---p 00000000 00:00 0                          [rollup]\n" +
		"Rss:                1708 kB\nPss:                 386 kB\nPss_Anon:            108 kB\n" +
		"Pss_File:            278 kB\nPss_Shmem:             0 kB\nShared_Clean:       1552 kB\n"
	for _, tc := range []struct {
		name, text string
		need       []string
		want       map[string]uint64
		err        bool
	}{
		{"smaps_rollup", rollup, []string{"Rss", "Pss"}, map[string]uint64{"Rss": 1708 << 10, "Pss": 386 << 10, "Pss_Anon": 108 << 10, "Pss_File": 278 << 10, "Pss_Shmem": 0}, false},
		{"status", "Name:\tbench.test\nVmHWM:\t  12 kB\nVmRSS:\t    1708 kB\nRssAnon:\t     108 kB\n", []string{"VmRSS", "RssAnon"}, map[string]uint64{"VmRSS": 1708 << 10, "RssAnon": 108 << 10}, false},
		{"a needed line missing", "Rss: 1 kB\n", []string{"Rss", "Pss"}, nil, true},
		{"not kB", "Rss: 1 MB\nPss: 1 kB\n", []string{"Rss", "Pss"}, nil, true},
		{"not a number", "Rss: x kB\nPss: 1 kB\n", []string{"Rss", "Pss"}, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			need := map[string]bool{}
			for _, n := range tc.need {
				need[n] = true
			}
			got, err := parseKB([]byte(tc.text), need, "Rss", "Pss", "Pss_Anon", "Pss_File", "Pss_Shmem", "VmRSS", "RssAnon")
			if tc.err {
				if err == nil {
					t.Fatalf("parsed %v, want an error", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %d, want %d", k, got[k], v)
				}
			}
		})
	}
}

func TestReadPSSMissing(t *testing.T) {
	old := procSmapsRollup
	procSmapsRollup = filepath.Join(t.TempDir(), "missing")
	defer func() { procSmapsRollup = old }()
	if _, err := ReadPSS(); !errors.Is(err, ErrNoMemInfo) {
		t.Fatalf("ReadPSS without smaps_rollup: %v, want ErrNoMemInfo", err)
	}
	if _, err := StartPSSSampler(); !errors.Is(err, ErrNoMemInfo) {
		t.Fatalf("StartPSSSampler without smaps_rollup: %v, want ErrNoMemInfo", err)
	}
}

// TestPSSCountsSharedPagesOnce maps the pages of one file ten times, as
// ten clones map their template: RSS grows by ten times the file, PSS (and
// the sampler's peak) by the file once.
func TestPSSCountsSharedPagesOnce(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("smaps_rollup is Linux's")
	}
	if _, err := ReadPSS(); err != nil {
		t.Skip(err)
	}
	const size, maps = 16 << 20, 10
	f, err := os.CreateTemp(t.TempDir(), "pages")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(make([]byte, size)); err != nil {
		t.Fatal(err)
	}
	s, err := StartPSSSampler()
	if err != nil {
		t.Fatal(err)
	}
	before, err := ReadPSS()
	if err != nil {
		t.Fatal(err)
	}
	var sum int
	for range maps {
		b, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
		if err != nil {
			t.Fatal(err)
		}
		defer syscall.Munmap(b)
		for i := 0; i < size; i += os.Getpagesize() {
			sum += int(b[i]) + 1 // fault every page in
		}
	}
	after, err := ReadPSS()
	if err != nil {
		t.Fatal(err)
	}
	peak := s.Stop()
	if sum != maps*size/os.Getpagesize() {
		t.Fatalf("read %d pages", sum)
	}
	rss, pss := int64(after.RSS)-int64(before.RSS), int64(after.PSS)-int64(before.PSS)
	if rss < maps*size*9/10 {
		t.Errorf("RSS grew by %d MiB mapping %d MiB %d times, want about %d MiB", rss>>20, size>>20, maps, maps*size>>20)
	}
	if pss < size*9/10 || pss > 2*size {
		t.Errorf("PSS grew by %d MiB mapping %d MiB %d times, want about %d MiB (once)", pss>>20, size>>20, maps, size>>20)
	}
	if peak.PSS < after.PSS || peak.PSS > after.PSS+size {
		t.Errorf("the sampler's peak PSS %d MiB, the reading after the mappings %d MiB", peak.PSS>>20, after.PSS>>20)
	}
	if peak.Fast < 1 || peak.Slow < 2 {
		t.Errorf("readings: %d fast, %d slow", peak.Fast, peak.Slow)
	}
}
