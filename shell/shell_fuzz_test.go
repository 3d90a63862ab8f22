package shell

import (
	"context"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/afero"
)

// FuzzRun runs random scripts on a small memory filesystem with a short
// time limit: Run must never panic, must return soon after the deadline,
// and must make no FIFO in the host's temporary folder (TestRunNoHost
// checks the host in detail). Seeded from the table tests.
func FuzzRun(f *testing.F) {
	for _, tc := range shellCases {
		f.Add(tc.script)
	}
	for _, tc := range fsCases {
		f.Add(tc.script)
	}
	for _, s := range []string{
		"", ":", "exit", "$(", "<(", ">(", "${x:?}", "[[ -O / ]]", "cd /; rm -rf *", "source /", ". .",
		"exec 3>&1", "eval 'eval \"cd /\"'", "trap 'cd /' EXIT", "f() { f; }; f", "a=(1 2); echo ${a[@]}",
		"find / -exec cat {} +", "tar cz / | tar tz", "yes | head", "cat /dev/zero | head -c 10",
		"bash -c 'bash -c \"bash -c exit\"'", "xargs -I{} sh -c {} <<< 'echo hi'", "command -v -- -",
		"type -a ls", "pwd -P -L", "mktemp -d -p /", "ln -s / x; cd x", "touch -d @1e99 x", "date -d '9999999999 years'",
	} {
		f.Add(s)
	}
	tmpBefore := fuzzListing(os.TempDir())
	f.Cleanup(func() {
		for _, n := range fuzzListing(os.TempDir()) {
			if !contains(tmpBefore, n) && strings.HasPrefix(n, "sh-interp-") {
				f.Errorf("a FIFO appeared in the host's temporary folder: %s", n)
			}
		}
	})
	f.Fuzz(func(t *testing.T, script string) {
		fsys := &fuzzQuotaFs{Fs: newShTestFS(t, shTestFiles), left: 4 << 20}
		ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
		defer cancel()
		start := time.Now()
		var out fuzzCapWriter
		_, err := Run(ctx, script, Options{
			FS: fsys, Dir: shTestDir, Env: shTestEnv,
			Stdin: io.LimitReader(zeroReader{}, 1<<16), Stdout: &out, Stderr: &out,
		})
		if err != nil && ctx.Err() == nil {
			t.Fatalf("Run(%q): %v", script, err)
		}
		if took := time.Since(start); took > 1500*time.Millisecond {
			t.Fatalf("Run(%q) took %v with a 150ms limit", script, took)
		}
	})
}

func fuzzListing(dir string) []string {
	entries, _ := os.ReadDir(dir)
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'y'
	}
	return len(p), nil
}

// fuzzCapWriter counts what is written to it and drops it.
type fuzzCapWriter struct {
	mu sync.Mutex
	n  int
}

func (w *fuzzCapWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n += len(p)
	return len(p), nil
}

// fuzzQuotaFs caps the bytes written through it, so that a script like
// "yes > f" cannot fill the fuzzer's memory.
type fuzzQuotaFs struct {
	afero.Fs
	left int64
}

func (q *fuzzQuotaFs) Create(name string) (afero.File, error) {
	return q.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

func (q *fuzzQuotaFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := q.Fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return &fuzzQuotaFile{File: f, q: q}, nil
}

type fuzzQuotaFile struct {
	afero.File
	q *fuzzQuotaFs
}

func (f *fuzzQuotaFile) Write(p []byte) (int, error) {
	if atomic.AddInt64(&f.q.left, -int64(len(p))) < 0 {
		return 0, syscall.ENOSPC
	}
	return f.File.Write(p)
}

func (f *fuzzQuotaFile) WriteAt(p []byte, off int64) (int, error) {
	if atomic.AddInt64(&f.q.left, -int64(len(p))) < 0 {
		return 0, syscall.ENOSPC
	}
	return f.File.WriteAt(p, off)
}

func (f *fuzzQuotaFile) WriteString(s string) (int, error) { return f.Write([]byte(s)) }
