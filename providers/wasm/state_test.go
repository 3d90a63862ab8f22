package wasm_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// TestChildProcess is the other process of TestCrossProcess.
func TestChildProcess(t *testing.T) {
	db, id := os.Getenv("WASM_CHILD_DB"), os.Getenv("WASM_CHILD_ID")
	if db == "" {
		t.Skip("run by TestCrossProcess in a child process")
	}
	store, err := sqlitekv.Open(db)
	require.NoError(t, err)
	defer store.Close()
	ctx := context.Background()
	p := wasm.New(wasm.Options{Kv: store})
	sb, err := p.Connect(ctx, id)
	require.NoError(t, err)
	res, err := sb.RunCommand(ctx, "cat from-parent.txt made-by-command.txt; echo from-child > from-child.txt", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	fmt.Printf("child saw: %q\n", res.Stdout)
}

// Two processes, one SQLite kv file: process B connects to process A's
// sandbox and sees its files; A sees what B wrote.
func TestCrossProcess(t *testing.T) {
	needImages(t)
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "kv.db")
	store, err := sqlitekv.Open(db)
	require.NoError(t, err)
	defer store.Close()
	p := wasm.New(wasm.Options{Kv: store})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	require.NoError(t, sb.FileSystem().WriteFile(ctx, "from-parent.txt", []byte("parent-data\n")))
	run(t, sb, "echo command-data > made-by-command.txt", sandbox.RunCommandOptions{})

	cmd := exec.Command(os.Args[0], "-test.run=^TestChildProcess$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "WASM_CHILD_DB="+db, "WASM_CHILD_ID="+sb.ID())
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), `child saw: "parent-data\ncommand-data\n"`)

	// The parent's copy is older than the kv's snapshot now: it reloads.
	got, err := sb.FileSystem().ReadFile(ctx, "from-child.txt")
	require.NoError(t, err)
	assert.Equal(t, "from-child\n", got)
	assert.Equal(t, "from-child\n", run(t, sb, "cat from-child.txt", sandbox.RunCommandOptions{}).Stdout)
}

// A second provider on the same kv is another worker: it loads the
// snapshot, and each side's copy is used only while it is current.
func TestWorkersShareByGeneration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	a := newProvider(t, store, wasm.Options{})
	b := wasm.New(wasm.Options{Kv: store})
	sa := newSandbox(t, a, sandbox.CreateSandboxOptions{})
	sb, err := b.Connect(ctx, sa.ID())
	require.NoError(t, err)
	for i := range 3 {
		run(t, sa, fmt.Sprintf("echo a%d >> log.txt", i), sandbox.RunCommandOptions{})
		run(t, sb, fmt.Sprintf("echo b%d >> log.txt", i), sandbox.RunCommandOptions{})
	}
	want := "a0\nb0\na1\nb1\na2\nb2\n"
	for _, s := range []sandbox.Sandbox{sa, sb} {
		got, err := s.FileSystem().ReadFile(ctx, "log.txt")
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	require.NoError(t, sb.Destroy(ctx))
	_, err = sa.RunCommand(ctx, "true", sandbox.RunCommandOptions{})
	assert.ErrorIs(t, err, sandbox.ErrGone, "destroyed by the other worker")
	keys, err := store.Keys(ctx, "wasm/"+sa.ID()+"/")
	require.NoError(t, err)
	assert.Empty(t, keys, "Destroy leaves nothing of the sandbox in the kv")
}

// Create with RestoreFrom starts from an ended sandbox's work folder; what
// was outside it is gone.
func TestRestoreFrom(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProvider(t, nil, wasm.Options{})
	assert.True(t, p.RestoresWorkdir())
	old := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	run(t, old, "mkdir -p src && echo 'print(1)' > src/main.py && echo notes > notes.txt && echo scratch > /tmp/scratch && mkdir -p /opt/tool && echo x > /opt/tool/bin", sandbox.RunCommandOptions{})
	require.NoError(t, old.FileSystem().WriteFile(ctx, "data.bin", []byte{0, 1, 2}))
	require.NoError(t, old.SetTimeout(ctx, time.Millisecond))
	time.Sleep(20 * time.Millisecond)
	_, err := p.Connect(ctx, old.ID())
	require.ErrorIs(t, err, sandbox.ErrGone, "the old sandbox ended")

	fresh := newSandbox(t, p, sandbox.CreateSandboxOptions{RestoreFrom: old.ID()})
	assert.NotEqual(t, old.ID(), fresh.ID())
	// The system folders are the shell's, in no snapshot: a restored
	// sandbox has them too.
	res := run(t, fresh, "cat src/main.py notes.txt; python3 src/main.py; ls -A /tmp; ls /; od -An -tu1 data.bin; ls /bin/ls; command -v python3", sandbox.RunCommandOptions{})
	assert.Equal(t, "print(1)\nnotes\n1\nbin\netc\nhome\nsbin\ntmp\nusr\n   0   1   2\n/bin/ls\n/usr/bin/python3\n", res.Stdout, res.Stderr)

	// A sandbox destroyed, or never made, has nothing to restore.
	gone := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	require.NoError(t, gone.Destroy(ctx))
	for _, id := range []string{gone.ID(), "wasm-00000000000000000000000000000000", "../etc"} {
		_, err = p.Create(ctx, sandbox.CreateSandboxOptions{RestoreFrom: id})
		assert.ErrorIs(t, err, sandbox.ErrGone, "RestoreFrom %q", id)
	}
}

// countingKv counts the bytes written to the kv.
type countingKv struct {
	kv.Store
	mu    sync.Mutex
	bytes int64
	sets  int
}

func (c *countingKv) Set(ctx context.Context, key string, value []byte, ttl time.Duration) error {
	c.mu.Lock()
	c.bytes += int64(len(value))
	c.sets++
	c.mu.Unlock()
	return c.Store.Set(ctx, key, value, ttl)
}

func (c *countingKv) CompareAndSwap(ctx context.Context, key string, old, new []byte, ttl time.Duration) (bool, error) {
	c.mu.Lock()
	c.bytes += int64(len(new))
	c.sets++
	c.mu.Unlock()
	return c.Store.CompareAndSwap(ctx, key, old, new, ttl)
}

func (c *countingKv) reset() (int64, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, n := c.bytes, c.sets
	c.bytes, c.sets = 0, 0
	return b, n
}

// A one-line edit in a big tree writes kilobytes, not the tree.
func TestSnapshotIsIncremental(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := &countingKv{Store: memkv.New(memkv.Options{})}
	p := newProvider(t, store, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	// 20 folders of 50 files of 10 KB of random text: 10 MB.
	res := run(t, sb, `python3 -c '
import os
for d in range(20):
    os.makedirs(f"tree/d{d}", exist_ok=True)
    for f in range(50):
        with open(f"tree/d{d}/f{f}.txt", "w") as fh:
            fh.write("".join("line %d %s\n" % (l, os.urandom(45).hex()) for l in range(100)))
'; du -sh tree | cut -f1`, sandbox.RunCommandOptions{Timeout: 2 * time.Minute})
	require.Equal(t, 0, res.ExitCode, res.Stderr)
	full, _ := store.reset()
	t.Logf("the tree (%s) wrote %d KiB", strings.TrimSpace(res.Stdout), full>>10)

	run(t, sb, "sed -i 's/^line 7 /LINE 7 /' tree/d3/f17.txt", sandbox.RunCommandOptions{})
	edit, sets := store.reset()
	t.Logf("a one-line edit with sed wrote %d bytes in %d sets", edit, sets)
	assert.Less(t, edit, int64(32<<10), "a one-line edit wrote more than 32 KiB")

	require.NoError(t, sb.FileSystem().WriteFile(ctx, "tree/d9/f1.txt", []byte("replaced\n")))
	edit, sets = store.reset()
	t.Logf("WriteFile of one file wrote %d bytes in %d sets", edit, sets)
	assert.Less(t, edit, int64(32<<10))

	run(t, sb, "cat tree/d0/f0.txt > /dev/null; ls tree | wc -l", sandbox.RunCommandOptions{})
	edit, _ = store.reset()
	assert.Less(t, edit, int64(2<<10), "a command that changed nothing wrote a snapshot (%d bytes)", edit)

	// And another worker sees the edit.
	other, err := wasm.New(wasm.Options{Kv: store}).Connect(ctx, sb.ID())
	require.NoError(t, err)
	got, err := other.FileSystem().ReadFile(ctx, "tree/d3/f17.txt")
	require.NoError(t, err)
	assert.Contains(t, got, "\nLINE 7 ")
}

// The live record's end moves with use and SetTimeout, never past the max
// lifetime, and the kv forgets an idle sandbox by itself.
func TestIdleAndMaxLifetime(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := memkv.New(memkv.Options{})
	p := newProvider(t, store, wasm.Options{MaxLifetime: 3 * time.Second})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{Timeout: 1500 * time.Millisecond})
	for range 3 { // each use pushes the end back
		time.Sleep(700 * time.Millisecond)
		run(t, sb, "true", sandbox.RunCommandOptions{})
	}
	info, err := sb.GetInfo(ctx)
	require.NoError(t, err)
	assert.WithinDuration(t, info.CreatedAt.Add(3*time.Second), info.EndAt, time.Second, "the end is capped by the max lifetime")
	require.NoError(t, sb.SetTimeout(ctx, time.Hour))
	info, err = sb.GetInfo(ctx)
	require.NoError(t, err)
	assert.False(t, info.EndAt.After(info.CreatedAt.Add(3*time.Second)), "SetTimeout moved the end past the max lifetime")
	time.Sleep(time.Until(info.EndAt) + 50*time.Millisecond)
	_, err = wasm.New(wasm.Options{Kv: store}).Connect(ctx, sb.ID())
	assert.ErrorIs(t, err, sandbox.ErrGone)
	_, err = sb.RunCommand(ctx, "true", sandbox.RunCommandOptions{})
	assert.ErrorIs(t, err, sandbox.ErrGone)
	_, err = store.Get(ctx, "wasm/"+sb.ID()+"/live")
	assert.ErrorIs(t, err, kv.ErrNotFound, "the live record expired by its TTL")
	_, err = store.Get(ctx, "wasm/"+sb.ID()+"/manifest")
	assert.NoError(t, err, "the snapshot outlives the live record, for RestoreFrom")
}

// A Destroy at any moment of a command's start (before the shell is
// taken, while it is, just after) stops it with ErrGone: none runs on.
func TestDestroyRacesCommandStart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProvider(t, nil, wasm.Options{})
	for _, delay := range []time.Duration{0, time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond, 25 * time.Millisecond, 60 * time.Millisecond} {
		sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
		done := make(chan error, 1)
		go func() {
			_, err := sb.RunCommand(ctx, "sleep 60", sandbox.RunCommandOptions{})
			done <- err
		}()
		time.Sleep(delay)
		require.NoError(t, sb.Destroy(ctx))
		select {
		case err := <-done:
			assert.ErrorIs(t, err, sandbox.ErrGone, "Destroy %v after the start", delay)
		case <-time.After(20 * time.Second):
			t.Fatalf("Destroy %v after the start did not stop the command", delay)
		}
	}
}

func TestDestroyStopsCommands(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	done := make(chan error, 1)
	go func() {
		_, err := sb.RunCommand(ctx, "sleep 60", sandbox.RunCommandOptions{})
		done <- err
	}()
	time.Sleep(500 * time.Millisecond)
	require.NoError(t, sb.Destroy(ctx))
	select {
	case err := <-done:
		assert.ErrorIs(t, err, sandbox.ErrGone)
	case <-time.After(10 * time.Second):
		t.Fatal("Destroy did not stop the running command")
	}
}
