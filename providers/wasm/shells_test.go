package wasm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// idle is how many warm shells st keeps idle now.
func (p *Provider) idle(id string) int {
	p.mu.Lock()
	st := p.cache[id]
	p.mu.Unlock()
	if st == nil {
		return -1
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.shells.idle)
}

// newWarmSandbox makes a provider with opts and a sandbox destroyed at the
// end of the test.
func newWarmSandbox(t *testing.T, opts Options) (*Provider, sandbox.Sandbox) {
	t.Helper()
	p := New(opts)
	t.Cleanup(func() { _ = p.Close() })
	ctx := context.Background()
	if err := p.Warm(ctx); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "the wasm images are not fetched and built: run `make images`")
	}
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	return p, sb
}

// TestWarmShells: a warm shell runs the next command with nothing of the
// last one but the files; one where something of a command still runs, or
// that a time limit ended, is dropped and the next command gets a new one.
func TestWarmShells(t *testing.T) {
	p, sb := newWarmSandbox(t, Options{})
	ctx := context.Background()
	id := sb.ID()
	runIt := func(cmd string, timeout time.Duration) sandbox.CommandResult {
		t.Helper()
		r, err := sb.RunCommand(ctx, cmd, sandbox.RunCommandOptions{Timeout: timeout})
		require.NoError(t, err, cmd)
		return r
	}

	runIt("true", time.Minute)
	for _, c := range []struct {
		name, first, then, want string
		started                 int64 // shells started for the two commands
	}{
		{"variables, folder, functions and traps do not carry over",
			"x=1; export Y=2; cd /tmp; f() { echo f; }; trap 'echo bye' EXIT", "echo \"[$x][$Y]\"; pwd; type f 2>/dev/null || echo no f", "[][]\n/home/user\nno f\n", 0},
		{"files do", "echo kept > f.txt", "cat f.txt", "kept\n", 0},
		// A background job is a goroutine of the shell's instance, ended
		// with its command: the instance stays warm.
		{"a background job ends with its command", "sleep 30 &", "jobs; echo next", "next\n", 0},
		// Pipeline stages are goroutines too: no instance of their own.
		{"pipeline stages start no shell", "seq 1 100 | grep 7 | wc -l", "seq 1 100 | grep 7 | wc -l", "19\n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := p.shellsStarted.Load()
			runIt(c.first, time.Minute)
			r := runIt(c.then, time.Minute)
			assert.Equal(t, c.want, r.Stdout, "stderr %q", r.Stderr)
			assert.Equal(t, 0, r.ExitCode)
			assert.Equal(t, c.started, p.shellsStarted.Load()-before, "shells started")
		})
	}

	t.Run("a time limit ends the shell, the next command gets a new one", func(t *testing.T) {
		r := runIt("echo started; sleep 20", 300*time.Millisecond)
		assert.True(t, r.TimedOut)
		assert.Equal(t, 124, r.ExitCode)
		assert.Equal(t, "started\n", r.Stdout)
		r = runIt("echo ok", time.Minute)
		assert.Equal(t, "ok\n", r.Stdout)
	})

	t.Run("destroy closes the idle shells", func(t *testing.T) {
		runIt("true", time.Minute)
		require.Positive(t, p.idleShells.Load())
		before := p.idleShells.Load() - int64(p.idle(id))
		require.NoError(t, sb.Destroy(ctx))
		assert.Equal(t, before, p.idleShells.Load())
	})
}

// TestWarmShellsBurst: sandboxes made at once, more than WarmShells,
// start WarmShells shells in the background, not one each: the shells
// being started count against the cap with the idle ones (counted only
// once idle, a burst of 100 started 100, closed all but 32 as they became
// ready, and the commands of those sandboxes then started their own). The
// others' commands start their shell when they run.
func TestWarmShellsBurst(t *testing.T) {
	const warm, n = 3, 10
	p, first := newWarmSandbox(t, Options{WarmShells: warm})
	ctx := context.Background()
	require.NoError(t, first.Destroy(ctx))
	deadline := time.Now().Add(30 * time.Second)
	for p.warmingShells.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	before := p.shellsStarted.Load()
	sbs := make([]sandbox.Sandbox, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
			if assert.NoError(t, err) {
				sbs[i] = sb
				t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
			}
		})
	}
	wg.Wait()
	for p.warmingShells.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	require.Zero(t, p.warmingShells.Load(), "shells still starting after 30 s")
	assert.EqualValues(t, warm, p.shellsStarted.Load()-before, "shells started for %d sandboxes made at once", n)
	assert.EqualValues(t, warm, p.idleShells.Load())
	for _, sb := range sbs {
		if sb == nil {
			continue
		}
		wg.Go(func() {
			r, err := sb.RunCommand(ctx, "echo 42", sandbox.RunCommandOptions{})
			if assert.NoError(t, err) {
				assert.Equal(t, "42\n", r.Stdout, r.Stderr)
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, p.idleShells.Load(), int64(warm))
}

// TestWarmShellsOff: with WarmShells negative nothing is kept.
func TestWarmShellsOff(t *testing.T) {
	p, sb := newWarmSandbox(t, Options{WarmShells: -1})
	ctx := context.Background()
	r, err := sb.RunCommand(ctx, "echo a | tr a b", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "b\n", strings.TrimSpace(r.Stdout)+"\n")
	assert.Zero(t, p.idle(sb.ID()))
	assert.Zero(t, p.idleShells.Load())
	assert.EqualValues(t, 1, p.shellsStarted.Load(), "one instance, the command's: its two stages are goroutines of it")
}

// readyPython waits until sandbox id has a started prestarted Python.
func (p *Provider) readyPython(t *testing.T, id string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		st := p.cache[id]
		p.mu.Unlock()
		st.mu.Lock()
		pw := st.shells.python
		st.mu.Unlock()
		if pw != nil {
			select {
			case <-pw.done:
				if pw.sh != nil {
					return
				}
			default:
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("no prestarted Python after 30 s")
}

// TestPrestartedPython: after python3 ran twice (once, where no template
// serves the sandbox yet: TestPrestartFromSecondPython), the next python3
// command the prestarted one serves runs in it with the command's folder,
// environment, stdin and files; one it does not serve runs in a new
// CPython.
func TestPrestartedPython(t *testing.T) {
	p, sb := newWarmSandbox(t, Options{})
	ctx := context.Background()
	runIt := func(cmd string) sandbox.CommandResult {
		t.Helper()
		r, err := sb.RunCommand(ctx, cmd, sandbox.RunCommandOptions{Timeout: time.Minute})
		require.NoError(t, err, cmd)
		return r
	}
	runIt("python3 -c pass")
	runIt("python3 -c pass")
	for _, c := range []struct {
		name, cmd, out string
		code           int
		prestarted     bool
	}{
		{"-c with folder, env and stdin", "mkdir -p d && cd d && echo in | X=1 python3 -c 'import os, sys; print(os.getcwd(), os.environ[\"X\"], sys.stdin.read().strip(), sys.argv)' a",
			"/home/user/d 1 in ['-c', 'a']\n", 0, true},
		{"a script that writes a file", "printf 'open(\"out.txt\", \"w\").write(\"w\")\\nimport sys; sys.exit(4)\\n' > s.py; python3 s.py; echo $?; cat out.txt",
			"4\nw", 0, true},
		{"another PYTHONHASHSEED starts a new CPython", "PYTHONHASHSEED=0 python3 -c 'import sys; print(sys.flags.hash_randomization)'", "0\n", 0, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p.readyPython(t, sb.ID())
			used := p.pythonsUsed.Load()
			r := runIt(c.cmd)
			assert.Equal(t, c.out, r.Stdout, "stderr %q", r.Stderr)
			assert.Equal(t, c.code, r.ExitCode)
			assert.Equal(t, c.prestarted, p.pythonsUsed.Load() > used, "ran in the prestarted Python")
		})
	}
	t.Run("destroy closes it", func(t *testing.T) {
		p.readyPython(t, sb.ID())
		require.EqualValues(t, 1, p.idlePythons.Load())
		require.NoError(t, sb.Destroy(ctx))
		assert.Zero(t, p.idlePythons.Load())
	})
}

// TestPrewarmFirstPython: with Options.Prewarm, a new sandbox's first
// python3 command, and the first of another, start from a clone of the
// template Warm made (made for the command, or a spare of the pool), and
// print what a new CPython prints.
func TestPrewarmFirstPython(t *testing.T) {
	p, sb := newWarmSandbox(t, Options{Prewarm: true})
	ctx := context.Background()
	img, err := p.image(ctx, "python")
	require.NoError(t, err)
	sb2, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb2.Destroy(context.Background()) })
	for _, s := range []sandbox.Sandbox{sb, sb2} {
		// From a clone: one Image.Run made, or a spare of the pool's.
		clones := func() int64 { return img.CloneRuns() + p.pool.pythonsTaken.Load() }
		before := clones()
		r, err := s.RunCommand(ctx, "python3 -c 'import sys, os; print(6*7, sys.argv, os.getcwd())'", sandbox.RunCommandOptions{Timeout: time.Minute})
		require.NoError(t, err)
		assert.Equal(t, "42 ['-c'] /home/user\n", r.Stdout, "stderr %q", r.Stderr)
		assert.Equal(t, before+1, clones(), "the first python3 of %s started from a clone", s.ID())
	}
}

// TestPrestartFromSecondPython: where a template serves the sandbox
// (Options.Prewarm), its first python3 command starts from a clone and
// prestarts no Python for the next (which a clone serves as fast); the
// second prestarts one, and the third runs in it.
func TestPrestartFromSecondPython(t *testing.T) {
	p, sb := newWarmSandbox(t, Options{Prewarm: true})
	ctx := context.Background()
	prestarted := func() bool {
		p.mu.Lock()
		st := p.cache[sb.ID()]
		p.mu.Unlock()
		st.mu.Lock()
		defer st.mu.Unlock()
		return st.shells.python != nil
	}
	for i, want := range []bool{false, true} {
		r, err := sb.RunCommand(ctx, fmt.Sprintf("python3 -c 'print(%d)'", i), sandbox.RunCommandOptions{Timeout: time.Minute})
		require.NoError(t, err)
		require.Equal(t, fmt.Sprintf("%d\n", i), r.Stdout, r.Stderr)
		assert.Equal(t, want, prestarted(), "a prestarted Python after python3 command %d", i+1)
	}
	p.readyPython(t, sb.ID())
	used := p.pythonsUsed.Load()
	r, err := sb.RunCommand(ctx, "python3 -c 'print(2)'", sandbox.RunCommandOptions{Timeout: time.Minute})
	require.NoError(t, err)
	assert.Equal(t, "2\n", r.Stdout, r.Stderr)
	assert.Equal(t, used+1, p.pythonsUsed.Load(), "the third python3 ran in the prestarted Python")
}

// TestPythonLoadsOnlyWhenNeeded: a sandbox that runs shell commands never
// asks for the python image (a CLI process running `echo hi` does not load
// it); the first python3 command does.
func TestPythonLoadsOnlyWhenNeeded(t *testing.T) {
	if _, _, err := New(Options{}).imagePaths(); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "the wasm images are not fetched and built: run `make images`")
	}
	p := New(Options{})
	ctx := context.Background()
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	res, err := sb.RunCommand(ctx, "echo hi | cat; ls /", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, 0, res.ExitCode, res.Stderr)
	assert.False(t, p.pythonAsked.Load(), "the python image was loaded for shell commands")
	res, err = sb.RunCommand(ctx, "python3 -c 'print(6*7)'", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "42\n", res.Stdout, res.Stderr)
	assert.True(t, p.pythonAsked.Load(), "python3 ran without the python image being asked for")
}

// TestPythonBackToBack runs python3 commands one after another in one
// sandbox, each taking the Python prestarted after the last, often while
// it is still starting: every one prints its line and exits 0. A command
// that took a Python just as its start ended once found it closed under
// it ("the instance ended", or no output at all), about once in a
// thousand runs.
func TestPythonBackToBack(t *testing.T) {
	_, sb := newWarmSandbox(t, Options{})
	ctx := context.Background()
	n := 1500
	if testing.Short() {
		n = 200
	}
	for i := range n {
		r, err := sb.RunCommand(ctx, fmt.Sprintf("python3 -c 'print(%d)'", i), sandbox.RunCommandOptions{Timeout: time.Minute})
		require.NoError(t, err, "run %d", i)
		require.Equal(t, fmt.Sprintf("%d\n", i), r.Stdout, "run %d: exit %d, stderr %q", i, r.ExitCode, r.Stderr)
		require.Zero(t, r.ExitCode, "run %d: stderr %q", i, r.Stderr)
	}
}

// TestPythonHashSeedRandom: python3 commands with PYTHONHASHSEED=random
// each draw their own str hash seed, as new CPythons do, although the
// commands before them left a prestarted Python and clones of a template
// (which drew theirs before) behind.
func TestPythonHashSeedRandom(t *testing.T) {
	_, sb := newWarmSandbox(t, Options{})
	ctx := context.Background()
	r, err := sb.RunCommand(ctx, `python3 -c pass; python3 -c pass; for i in 1 2 3 4; do PYTHONHASHSEED=random python3 -c 'print(hash("abc"))'; done`, sandbox.RunCommandOptions{Timeout: 2 * time.Minute})
	require.NoError(t, err)
	require.Zero(t, r.ExitCode, "stderr %q", r.Stderr)
	seen := map[string]bool{}
	for _, line := range strings.Fields(r.Stdout) {
		seen[line] = true
	}
	assert.Len(t, seen, 4, "four hashes of one string, each under its own seed: %q", r.Stdout)
}
