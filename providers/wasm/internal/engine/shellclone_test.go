package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/vfs"
)

// reactorBusybox is the busybox image with the adapter's host module
// stubbed (checks_test.go's busybox), in an engine of its own with the
// compilation cache; it skips unless the image is a reactor build.
func reactorBusybox(t testing.TB, opts Options) *Image {
	t.Helper()
	paths, _ := images.Find("")
	opts.CacheDir = paths.CompileCache
	_, bb := busybox(t, opts)
	if !bb.reactor {
		t.Skip("busybox.wasm is not a reactor build (make images)")
	}
	return bb
}

// shellRun runs script in w (a new shell of it) and returns its output.
func shellRun(t *testing.T, w *Warm, script string, env map[string]string, dir string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code, err := w.Run(context.Background(), RunSpec{Args: []string{"sh", "-c", script}, Env: env, Dir: dir, Stdout: &out, Stderr: &errb, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatalf("%q: %v (stderr %q)", script, err, errb.String())
	}
	return out.String(), errb.String(), code
}

func TestShellClone(t *testing.T) {
	bb := reactorBusybox(t, Options{})
	ctx := context.Background()
	start := time.Now()
	tmpl, err := bb.shellTemplate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("template: %v, %d MiB, %d globals, rand at %#x, looked %q", time.Since(start), len(tmpl.image.bytes)>>20, len(tmpl.globals), tmpl.rand, tmpl.looked)
	fsys := vfs.New(vfs.Options{})
	for i := range 3 {
		start := time.Now()
		w, err := bb.NewWarm(ctx, WarmSpec{FS: fsys.WASI()})
		if err != nil {
			t.Fatal(err)
		}
		ready := time.Since(start)
		out, _, code := shellRun(t, w, "echo hi", nil, "/")
		t.Logf("clone %d: ready in %v, echo hi in %v", i, ready, time.Since(start))
		if out != "hi\n" || code != 0 {
			t.Fatalf("got %q %d", out, code)
		}
		out, _, _ = shellRun(t, w, "echo $((1+2)) | cat; pwd", map[string]string{"X": "1"}, "/")
		if !strings.HasPrefix(out, "3\n/") {
			t.Fatalf("got %q", out)
		}
		w.Close()
	}
}

// shellCases are commands whose output a warm shell started from the
// template (a clone) gives exactly as one that ran Go's init itself: what
// the init could have captured (environment, folder, umask, files, fds,
// clock, names and ids, limits, traps and options) and the shell's own
// machinery (pipelines, stdin, sleeping).
var shellCases = []struct {
	name, script string
	env          map[string]string
	dir, stdin   string
}{
	{name: "env", script: "env | sort", env: map[string]string{"HOME": "/home/u", "X": "1 2", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}},
	{name: "empty env", script: "env | sort; echo ${HOME-unset} ${PATH-unset}"},
	{name: "cwd", script: "pwd; echo $PWD; cd ..; pwd", dir: "/work"},
	{name: "umask", script: "umask; umask -S; : > /work/f; ls -l /work/f | cut -c1-10", dir: "/work"},
	{name: "files", script: "ls -a /; ls -a /work; cat /work/seed.txt; ls -a /tmp 2>&1"},
	{name: "fds", script: "exec 3>/work/fd3; echo three >&3; exec 3>&-; cat /work/fd3; ls /dev/fd 2>&1 | sort; echo x >&4 2>&1 || echo no fd 4", dir: "/work"},
	{name: "stdin", script: "read a; echo got $a; cat", stdin: "first\nrest\n"},
	{name: "time", script: `t=$(date +%s); d=$((t - NOW)); [ $d -ge -2 ] && [ $d -le 30 ] && echo near; date +%Y | grep -c "^$YEAR$"; echo ${SECONDS:-x}`},
	{name: "sleep", script: "sleep 0.05; echo slept"},
	{name: "names", script: "hostname; uname -a; whoami 2>&1; id 2>&1"},
	{name: "pids", script: "echo $$ $PPID $BASHPID; (echo $BASHPID); echo ${SHLVL-unset}"},
	{name: "ulimit", script: "ulimit; ulimit -n; ulimit -a 2>&1 | sort"},
	{name: "traps", script: "trap -p; trap 'echo bye' EXIT; trap -p EXIT; trap - EXIT; trap"},
	{name: "options", script: "echo $-; set -o | sort; shopt | sort | head -5"},
	{name: "pipeline", script: "seq 1 20 | grep 1 | sort -r | uniq | wc -l; awk 'BEGIN{print 6*7}'; echo abc | sed s/b/x/"},
	{name: "errors", script: "cd /nonexistent; nosuchcmd; echo $?; cat /missing"},
	{name: "exit", script: "echo out; echo err >&2; exit 3"},
	{name: "mktemp", script: "f=$(mktemp); test -f $f && echo made; case $f in /tmp/tmp.*) echo named;; esac"},
}

func TestShellCloneLikeCold(t *testing.T) {
	clone := reactorBusybox(t, Options{})
	cold := reactorBusybox(t, Options{NoClones: true})
	ctx := context.Background()
	now := time.Now()
	// dirty is what a recycled spare ran for another sandbox before: it
	// changes what a shell can change (folder, environment, umask,
	// options, traps, aliases, functions, files) and ends, small enough
	// that its memory stays the template's (Recycle's condition).
	const dirty = `cd /work; export Z=1 PATH=/nowhere; umask 077; set -o pipefail; shopt -s extglob; alias q=ls; f() { :; }; ` +
		`trap 'echo trapped' EXIT; echo secret > /work/seed.txt; echo x > /secret; ` +
		`mkdir -p /tmp/d; cd /tmp/d; echo $RANDOM > /dev/null`
	runCase := func(img *Image, i int, spare, recycled bool) (string, bool) {
		c := shellCases[i]
		fsys := vfs.New(vfs.Options{})
		for _, d := range []string{"/work", "/tmp"} {
			if err := fsys.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := fsys.WriteFile("/work/seed.txt", []byte("seed\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var w *Warm
		var err error
		if spare {
			w, err = img.NewSpareShell(ctx, 0)
			if err == nil && recycled {
				other := vfs.New(vfs.Options{})
				if err = errors.Join(other.MkdirAll("/work", 0o755), other.MkdirAll("/tmp", 0o755)); err == nil {
					err = w.Bind(other.WASI(), nil)
				}
				if err == nil {
					if _, _, code := shellRun(t, w, dirty, nil, "/"); code != 0 {
						t.Fatalf("the other sandbox's command: exit %d", code)
					}
					err = w.Recycle(ctx)
				}
			}
			if err == nil {
				err = w.Bind(fsys.WASI(), nil)
			}
		} else {
			w, err = img.NewWarm(ctx, WarmSpec{FS: fsys.WASI()})
		}
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		env := map[string]string{"NOW": strconv.FormatInt(now.Unix(), 10), "YEAR": strconv.Itoa(now.Year())}
		maps.Copy(env, c.env)
		var out, errb bytes.Buffer
		code, err := w.Run(ctx, RunSpec{Args: []string{"sh", "-c", c.script}, Env: env, Dir: c.dir,
			Stdin: strings.NewReader(c.stdin), Stdout: &out, Stderr: &errb, Timeout: 30 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		return fmt.Sprintf("stdout:\n%s\nstderr:\n%s\nexit %d", out.String(), errb.String(), code), w.Reusable()
	}
	for i, c := range shellCases {
		t.Run(c.name, func(t *testing.T) {
			before := clone.shellClones.Load()
			got, gotReuse := runCase(clone, i, false, false)
			spare, spareReuse := runCase(clone, i, true, false)
			recycled, recycledReuse := runCase(clone, i, true, true)
			if clone.shellClones.Load() != before+4 {
				t.Fatal("the shell or a spare was not a clone, or the recycled spare not recycled")
			}
			want, wantReuse := runCase(cold, i, false, false)
			if cold.shellClones.Load() != 0 {
				t.Fatal("NoClones made a clone")
			}
			if got != want || gotReuse != wantReuse {
				t.Errorf("clone (reusable %v):\n%s\ncold start (reusable %v):\n%s", gotReuse, got, wantReuse, want)
			}
			if spare != want || spareReuse != wantReuse {
				t.Errorf("spare clone (reusable %v):\n%s\ncold start (reusable %v):\n%s", spareReuse, spare, wantReuse, want)
			}
			if recycled != want || recycledReuse != wantReuse {
				t.Errorf("recycled spare (reusable %v):\n%s\ncold start (reusable %v):\n%s", recycledReuse, recycled, wantReuse, want)
			}
			if testing.Verbose() {
				t.Logf("%s", got)
			}
		})
	}
}

// TestShellClonesRandom: each clone's runtime random state (the ChaCha8
// state rand() draws from: map seeds, select order, math/rand's global
// generators) has a seed of its own, neither the template's nor another
// clone's, and still draws after a command (the state is live, not a
// copy left aside); $RANDOM, seeded from it, differs from clone to clone.
func TestShellClonesRandom(t *testing.T) {
	bb := reactorBusybox(t, Options{})
	ctx := context.Background()
	tmpl, err := bb.shellTemplate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	state := func(mem []byte) (seed, block []byte) {
		at := int(tmpl.rand)
		return bytes.Clone(mem[at+randSeedAt : at+randSeedAt+32]), bytes.Clone(mem[at : at+randSeedAt])
	}
	tmplSeed, _ := state(tmpl.image.bytes)
	seen := map[string]bool{string(tmplSeed): true}
	blocks := map[string]bool{}
	outputs := map[string]bool{}
	for range 4 {
		w, err := bb.NewWarm(ctx, WarmSpec{FS: vfs.New(vfs.Options{}).WASI()})
		if err != nil {
			t.Fatal(err)
		}
		// A command makes maps (each draws its seed), so the state has
		// made a block from its seed by the end; an unseeded $RANDOM is
		// seeded from it (shell/bash/random.go), so the guest sees it too.
		out, _, _ := shellRun(t, w, "declare -A m=([a]=1 [b]=2); echo ${#m[@]} | cat; echo $RANDOM $RANDOM $RANDOM", nil, "/")
		first, rnd, _ := strings.Cut(out, "\n")
		if first != "2" || outputs[rnd] {
			t.Fatalf("got %q: the same $RANDOM as another clone's, or a wrong count", out)
		}
		outputs[rnd] = true
		seed, block := state(w.alloc.mem.buf)
		w.Close()
		if seen[string(seed)] {
			t.Fatalf("a clone's random seed %x is the template's or another clone's", seed)
		}
		seen[string(seed)] = true
		if bytes.Equal(block, make([]byte, len(block))) || blocks[string(block)] {
			t.Fatal("a clone's random state made no block of its own")
		}
		blocks[string(block)] = true
	}
}

// BenchmarkShellStart: a warm shell's start and first `echo hi`, as a
// clone of the template and with its own Go init (NoClones).
func BenchmarkShellStart(b *testing.B) {
	for _, c := range []struct {
		name string
		opts Options
	}{{"clone", Options{}}, {"init", Options{NoClones: true}}} {
		b.Run(c.name, func(b *testing.B) {
			bb := reactorBusybox(b, c.opts)
			ctx := context.Background()
			if err := bb.PrewarmShell(ctx); err != nil {
				b.Fatal(err)
			}
			fsys := vfs.New(vfs.Options{}).WASI()
			b.ResetTimer()
			for b.Loop() {
				w, err := bb.NewWarm(ctx, WarmSpec{FS: fsys})
				if err != nil {
					b.Fatal(err)
				}
				var out bytes.Buffer
				if _, err := w.Run(ctx, RunSpec{Args: []string{"sh", "-c", "echo hi"}, Stdout: &out}); err != nil || out.String() != "hi\n" {
					b.Fatalf("%q %v", out.String(), err)
				}
				w.Close()
			}
		})
	}
}
