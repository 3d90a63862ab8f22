package bench

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// Why PSS beside RSS: RSS counts a page once per mapping of it. The wasm
// adapter maps the same file pages (a template's memory image, mapped
// copy-on-write into every clone of it) into many instances of one process,
// so RSS counts the pages 100 clones share, and none wrote, 100 times over,
// though the machine holds them once. PSS (proportional set size) divides
// each page by the number of mappings of it, so a page the process maps
// 100 times counts once, and a page shared with another process in part:
// it is the memory the process really holds. Both are reported; the
// concurrent workload's memory target is judged on peak PSS.
//
// Reading PSS (/proc/self/smaps_rollup) walks every page the process maps,
// 20-50 ms with 100 sandboxes alive on 2 cores, and holds the process's
// memory map lock meanwhile: sampled often, it would slow the very workload
// it measures. The anonymous part, which is what grows with sandboxes, is
// cheap to read (RssAnon in /proc/self/status, a counter); the file and
// shared-memory part is small and changes slowly. So PSSSampler reads
// status every fastEvery (2 ms) and smaps_rollup every slowEvery (500 ms:
// one reading between the first and the last of a 1 s workload), and reports
// peak RssAnon + peak (Pss_File + Pss_Shmem): never below the true peak PSS
// at the readings (Pss_Anon is at most RssAnon, equal in a process that
// shares no anonymous page with another, as here), and at most the file
// part's change between two slow readings above it.

// MemSample is one reading of the process's memory, in bytes: RSS and its
// anonymous part from /proc/self/status, the PSS fields from
// /proc/self/smaps_rollup (zero in a reading of status only).
type MemSample struct {
	RSS, RSSAnon                    uint64
	PSS, PSSAnon, PSSFile, PSSShmem uint64
}

// ErrNoMemInfo is returned where the process's memory cannot be read from
// /proc (not Linux, or a kernel without smaps_rollup, before 4.14).
var ErrNoMemInfo = errors.New("bench: the process's memory cannot be read from /proc here")

// The files read (variables for the tests).
var (
	procStatus      = "/proc/self/status"
	procSmapsRollup = "/proc/self/smaps_rollup"
)

// ReadPSS reads the process's memory now, PSS included: a walk of every
// page it maps (see above). ErrNoMemInfo where it cannot.
func ReadPSS() (MemSample, error) {
	b, err := os.ReadFile(procSmapsRollup)
	if err != nil {
		return MemSample{}, fmt.Errorf("%w: %v", ErrNoMemInfo, err)
	}
	s, err := parseKB(b, map[string]bool{"Rss": true, "Pss": true}, "Rss", "Pss", "Pss_Anon", "Pss_File", "Pss_Shmem")
	if err != nil {
		return MemSample{}, err
	}
	st, err := readStatus()
	if err != nil {
		return MemSample{}, err
	}
	return MemSample{RSS: s["Rss"], RSSAnon: st.RSSAnon, PSS: s["Pss"], PSSAnon: s["Pss_Anon"], PSSFile: s["Pss_File"], PSSShmem: s["Pss_Shmem"]}, nil
}

// readStatus reads RSS and RssAnon from /proc/self/status: counters, no
// walk.
func readStatus() (MemSample, error) {
	b, err := os.ReadFile(procStatus)
	if err != nil {
		return MemSample{}, fmt.Errorf("%w: %v", ErrNoMemInfo, err)
	}
	s, err := parseKB(b, map[string]bool{"VmRSS": true, "RssAnon": true}, "VmRSS", "RssAnon")
	if err != nil {
		return MemSample{}, err
	}
	return MemSample{RSS: s["VmRSS"], RSSAnon: s["RssAnon"]}, nil
}

// parseKB reads the "Name:   N kB" lines of names from b, in bytes; each
// of need must be there.
func parseKB(b []byte, need map[string]bool, names ...string) (map[string]uint64, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]uint64{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if !ok || !want[string(name)] {
			continue
		}
		num, unit, _ := bytes.Cut(bytes.TrimSpace(rest), []byte(" "))
		if string(unit) != "kB" {
			return nil, fmt.Errorf("bench: %s: %q is not in kB", name, rest)
		}
		n, err := strconv.ParseUint(string(num), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("bench: %s: %w", name, err)
		}
		out[string(name)] = n << 10
	}
	for n := range need {
		if _, ok := out[n]; !ok {
			return nil, fmt.Errorf("%w: no %s line", ErrNoMemInfo, n)
		}
	}
	return out, nil
}

// How often PSSSampler reads status and smaps_rollup.
const (
	fastEvery = 2 * time.Millisecond
	slowEvery = 500 * time.Millisecond
)

// MemPeak is what a PSSSampler saw.
type MemPeak struct {
	// PSS is the peak PSS as the sampler bounds it: peak RssAnon + peak
	// (Pss_File + Pss_Shmem) (see above).
	PSS uint64
	// Anon and File are those two peaks.
	Anon, File uint64
	// RSS is the highest RSS of the readings (VmHWM, which the kernel
	// keeps, misses nothing between them).
	RSS uint64
	// Fast and Slow are how many readings of each kind were taken.
	Fast, Slow int
}

// A PSSSampler samples the process's memory in the background until Stop:
// see the comment above.
type PSSSampler struct {
	stop chan struct{}
	done chan struct{}

	mu   sync.Mutex
	peak MemPeak
}

// StartPSSSampler takes a first reading of both kinds and starts
// sampling; ErrNoMemInfo where the process's memory cannot be read.
func StartPSSSampler() (*PSSSampler, error) {
	s := &PSSSampler{stop: make(chan struct{}), done: make(chan struct{})}
	if err := s.slow(); err != nil {
		return nil, err
	}
	go func() {
		defer close(s.done)
		fast := time.NewTicker(fastEvery)
		defer fast.Stop()
		slow := time.NewTicker(slowEvery)
		defer slow.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-fast.C:
				_ = s.fast()
			case <-slow.C:
				_ = s.slow()
			}
		}
	}()
	return s, nil
}

func (s *PSSSampler) fast() error {
	m, err := readStatus()
	if err != nil {
		return err
	}
	s.note(m, false)
	return nil
}

func (s *PSSSampler) slow() error {
	m, err := ReadPSS()
	if err != nil {
		return err
	}
	s.note(m, true)
	return nil
}

func (s *PSSSampler) note(m MemSample, slow bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := &s.peak
	p.Anon, p.RSS = max(p.Anon, m.RSSAnon), max(p.RSS, m.RSS)
	if slow {
		p.File = max(p.File, m.PSSFile+m.PSSShmem)
		p.Slow++
	} else {
		p.Fast++
	}
	p.PSS = p.Anon + p.File
}

// Stop takes a last reading of both kinds, stops the sampler and returns
// the peaks.
func (s *PSSSampler) Stop() MemPeak {
	close(s.stop)
	<-s.done
	_ = s.fast()
	_ = s.slow()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.peak
}
