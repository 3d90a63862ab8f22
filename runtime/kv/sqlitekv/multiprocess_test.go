package sqlitekv

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/runtime/kv"
)

// The multi-process test runs this test binary again as several child
// processes (TestMultiProcessChild with these variables set) that hammer
// one file at once, and checks their combined outcome.
const (
	envDB    = "SQLITEKV_CHILD_DB"
	envID    = "SQLITEKV_CHILD_ID"
	envStart = "SQLITEKV_CHILD_START"

	children      = 4
	raceKeys      = 100 // each a SetIfAbsent race among all children
	casPerChild   = 25  // CompareAndSwap increments of one counter
	leasePerChild = 10  // read-then-write increments under a lease
	childMark     = "kvchild "
)

func TestMultiProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns child processes")
	}
	path := filepath.Join(t.TempDir(), "shared", "kv.db")
	// Children start together, a moment from now, so their work overlaps.
	start := time.Now().Add(time.Second).UnixNano()
	type result struct {
		id  int
		out []byte
		err error
	}
	results := make([]result, children)
	var wg sync.WaitGroup
	for i := range children {
		wg.Go(func() {
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestMultiProcessChild$", "-test.count=1")
			cmd.Env = append(os.Environ(),
				envDB+"="+path, envID+"="+strconv.Itoa(i), envStart+"="+strconv.FormatInt(start, 10))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				err = fmt.Errorf("%w; stderr:\n%s", err, stderr.Bytes())
			}
			results[i] = result{id: i, out: out, err: err}
		})
	}
	wg.Wait()

	winners := map[string][]int{} // key → the children that won it
	for _, r := range results {
		if r.err != nil {
			t.Fatalf("child %d: %v\nstdout:\n%s", r.id, r.err, r.out)
		}
		done := false
		sc := bufio.NewScanner(bytes.NewReader(r.out))
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), childMark)
			if !ok {
				continue
			}
			if key, ok := strings.CutPrefix(line, "win "); ok {
				winners[key] = append(winners[key], r.id)
			}
			done = done || line == "done"
		}
		if !done {
			t.Fatalf("child %d did not finish its work; stdout:\n%s", r.id, r.out)
		}
	}

	s := open(t, path)
	ctx := t.Context()
	for i := range raceKeys {
		key := fmt.Sprint("win/", i)
		if w := winners[key]; len(w) != 1 {
			t.Errorf("%s: won by children %v, want exactly one", key, w)
			continue
		}
		v, err := s.Get(ctx, key)
		if err != nil || string(v) != strconv.Itoa(winners[key][0]) {
			t.Errorf("%s = %q, %v; want the winner %d", key, v, err, winners[key][0])
		}
	}
	for key, want := range map[string]int{"counter": children * casPerChild, "leased": children * leasePerChild} {
		v, err := s.Get(ctx, key)
		if err != nil || string(v) != strconv.Itoa(want) {
			t.Errorf("%s = %q, %v; want %d (every child's increments added up)", key, v, err, want)
		}
	}
	if _, err := s.Get(ctx, "lock"); !errors.Is(err, kv.ErrNotFound) {
		t.Errorf("the lease is still held after every child released it: %v", err)
	}
}

// TestMultiProcessChild is one child of TestMultiProcess; run alone it
// skips.
func TestMultiProcessChild(t *testing.T) {
	path := os.Getenv(envDB)
	if path == "" {
		t.Skip("run by TestMultiProcess")
	}
	id := os.Getenv(envID)
	startNS, _ := strconv.ParseInt(os.Getenv(envStart), 10, 64)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := t.Context()
	time.Sleep(time.Until(time.Unix(0, startNS)))

	var (
		mu  sync.Mutex
		out []string
		wg  sync.WaitGroup
	)
	say := func(format string, args ...any) {
		mu.Lock()
		out = append(out, childMark+fmt.Sprintf(format, args...))
		mu.Unlock()
	}
	wg.Go(func() {
		for i := range raceKeys {
			key := fmt.Sprint("win/", i)
			ok, err := s.SetIfAbsent(ctx, key, []byte(id), 0)
			if err != nil {
				t.Errorf("SetIfAbsent(%s): %v", key, err)
				return
			}
			if ok {
				say("win %s", key)
			}
		}
	})
	wg.Go(func() {
		for range casPerChild {
			for {
				cur, err := s.Get(ctx, "counter")
				if errors.Is(err, kv.ErrNotFound) {
					cur = nil // the first increment makes it
				} else if err != nil {
					t.Errorf("Get(counter): %v", err)
					return
				}
				n, _ := strconv.Atoi(string(cur))
				ok, err := s.CompareAndSwap(ctx, "counter", cur, []byte(strconv.Itoa(n+1)), 0)
				if err != nil {
					t.Errorf("CompareAndSwap(counter): %v", err)
					return
				}
				if ok {
					break
				}
			}
		}
	})
	wg.Go(func() {
		for range leasePerChild {
			var l *kv.Lease
			for {
				var err error
				l, err = kv.AcquireLease(ctx, s, "lock", "child-"+id, 30*time.Second)
				if err == nil {
					break
				}
				if !errors.Is(err, kv.ErrLocked) {
					t.Errorf("AcquireLease: %v", err)
					return
				}
				time.Sleep(time.Millisecond)
			}
			// A plain read-then-write: correct only if the lease excludes
			// the other processes.
			v, err := s.Get(ctx, "leased")
			if err != nil && !errors.Is(err, kv.ErrNotFound) {
				t.Errorf("Get(leased): %v", err)
				return
			}
			n, _ := strconv.Atoi(string(v))
			if err := s.Set(ctx, "leased", []byte(strconv.Itoa(n+1)), 0); err != nil {
				t.Errorf("Set(leased): %v", err)
				return
			}
			if err := l.Release(ctx); err != nil {
				t.Errorf("Release: %v", err)
				return
			}
		}
	})
	wg.Wait()
	if !t.Failed() {
		say("done")
	}
	fmt.Println(strings.Join(out, "\n"))
}
