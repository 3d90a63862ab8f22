package wasm_test

import (
	"context"
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

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/runtime/kv/rediskv"
	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// openKv opens "sqlite:FILE" or "redis:URL".
func openKv(t testing.TB, spec string) kv.Store {
	t.Helper()
	kind, where, _ := strings.Cut(spec, ":")
	var store kv.Store
	var err error
	switch kind {
	case "sqlite":
		store, err = sqlitekv.Open(where)
	case "redis":
		store, err = rediskv.Open(where)
	default:
		t.Fatalf("bad kv spec %q", spec)
	}
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })
	return store
}

// barrier waits until both workers reached point name.
func barrier(ctx context.Context, t testing.TB, store kv.Store, id, name string, me int) {
	t.Helper()
	require.NoError(t, store.Set(ctx, fmt.Sprintf("test/%s/%s/%d", id, name, me), []byte("1"), 10*time.Minute))
	other := fmt.Sprintf("test/%s/%s/%d", id, name, 1-me)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		_, err := store.Get(ctx, other)
		if err == nil {
			return
		}
		require.ErrorIs(t, err, kv.ErrNotFound)
		require.True(t, time.Now().Before(deadline), "the other worker never reached %s", name)
		time.Sleep(2 * time.Millisecond)
	}
}

// TestWriterChild is one worker process of TestTwoProcessWriters.
func TestWriterChild(t *testing.T) {
	spec := os.Getenv("WASM_WRITER_KV")
	if spec == "" {
		t.Skip("run by TestTwoProcessWriters* in a child process")
	}
	id := os.Getenv("WASM_WRITER_ID")
	me, _ := strconv.Atoi(os.Getenv("WASM_WRITER_ME"))
	rounds, _ := strconv.Atoi(os.Getenv("WASM_WRITER_ROUNDS"))
	store := openKv(t, spec)
	ctx := context.Background()
	p := wasm.New(wasm.Options{Kv: store})
	sb, err := p.Connect(ctx, id)
	require.NoError(t, err)
	runOK := func(cmd string) string {
		res, err := sb.RunCommand(ctx, cmd, sandbox.RunCommandOptions{Timeout: time.Minute})
		require.NoError(t, err, "worker %d: %s (a gone sandbox is the runtime's \"restarted\")", me, cmd)
		require.Equal(t, 0, res.ExitCode, "worker %d: %s: %s", me, cmd, res.Stderr)
		return res.Stdout
	}
	for r := range rounds {
		barrier(ctx, t, store, id, fmt.Sprintf("start-%d", r), me)
		// Both at once: a new file each, an existing file each, the same
		// file both.
		runOK(fmt.Sprintf("echo w%d-r%d > own%d-%d; echo %d >> log%d; echo w%d-r%d > shared", me, r, me, r, r, me, me, r))
		barrier(ctx, t, store, id, fmt.Sprintf("done-%d", r), me)
		got := runOK(fmt.Sprintf("cat own0-%d own1-%d keep; tail -n 1 log0 log1; cat shared", r, r))
		want := fmt.Sprintf("w0-r%d\nw1-r%d\nkept\n==> log0 <==\n%d\n\n==> log1 <==\n%d\n", r, r, r, r)
		require.True(t, strings.HasPrefix(got, want), "worker %d round %d: got %q, want %q then shared", me, r, got, want)
		shared := strings.TrimPrefix(got, want)
		require.Contains(t, []string{fmt.Sprintf("w0-r%d\n", r), fmt.Sprintf("w1-r%d\n", r)}, shared, "round %d: shared is one writer's", r)
		barrier(ctx, t, store, id, fmt.Sprintf("checked-%d", r), me)
	}
	fmt.Printf("worker %d: %d rounds checked\n", me, rounds)
}

// twoProcessWriters runs two worker processes on one sandbox in the kv
// spec for rounds rounds, then checks every round's files.
func twoProcessWriters(t *testing.T, spec string, rounds int) {
	needImages(t)
	store := openKv(t, spec)
	p := newProvider(t, store, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	run(t, sb, "echo kept > keep; : > log0; : > log1", sandbox.RunCommandOptions{})

	var wg sync.WaitGroup
	outs := make([]string, 2)
	errs := make([]error, 2)
	for me := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestWriterChild$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), "WASM_WRITER_KV="+spec, "WASM_WRITER_ID="+sb.ID(),
				"WASM_WRITER_ME="+strconv.Itoa(me), "WASM_WRITER_ROUNDS="+strconv.Itoa(rounds))
			out, err := cmd.CombinedOutput()
			outs[me], errs[me] = string(out), err
		}()
	}
	wg.Wait()
	for me := range 2 {
		require.NoError(t, errs[me], "worker %d:\n%s", me, outs[me])
		assert.Contains(t, outs[me], fmt.Sprintf("worker %d: %d rounds checked", me, rounds))
	}
	// Every round of both, from a third copy.
	var want strings.Builder
	var files []string
	for r := range rounds {
		files = append(files, fmt.Sprintf("own0-%d own1-%d", r, r))
		fmt.Fprintf(&want, "w0-r%d\nw1-r%d\n", r, r)
	}
	got := run(t, sb, "cat "+strings.Join(files, " "), sandbox.RunCommandOptions{})
	assert.Equal(t, want.String(), got.Stdout)
	var seq strings.Builder
	for r := range rounds {
		fmt.Fprintf(&seq, "%d\n", r)
	}
	assert.Equal(t, seq.String()+seq.String(), run(t, sb, "cat log0 log1", sandbox.RunCommandOptions{}).Stdout)
}

// TestTwoProcessWritersSQLite: two processes sharing the SQLite kv run 50
// rounds of commands at once on one sandbox, writing different files, an
// existing file each and the same file: no write is lost, the sandbox never
// goes, every round checked by both.
func TestTwoProcessWritersSQLite(t *testing.T) {
	twoProcessWriters(t, "sqlite:"+filepath.Join(t.TempDir(), "kv.db"), 50)
}

// TestTwoProcessWritersRedis: the same on Redis.
func TestTwoProcessWritersRedis(t *testing.T) {
	url := testenv.RedisURL(t)
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	twoProcessWriters(t, "redis:"+url+sep+"prefix=wasm-writers-"+uuid.NewString()[:8]+":", 50)
}

// TestRemovedWorkdirComesBack: a command that removes the work folder does
// not brick the sandbox; the next command finds it again, empty.
func TestRemovedWorkdirComesBack(t *testing.T) {
	t.Parallel()
	store := memkv.New(memkv.Options{})
	p := newProvider(t, store, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	run(t, sb, "echo x > f; cd /; rm -rf /home/user", sandbox.RunCommandOptions{})
	res := run(t, sb, "pwd; ls -A | wc -l", sandbox.RunCommandOptions{})
	assert.Equal(t, "/home/user\n0\n", res.Stdout)
	// From another worker too (the snapshot has no work folder).
	run(t, sb, "rm -rf /home", sandbox.RunCommandOptions{})
	other := wasm.New(wasm.Options{Kv: store})
	sb2, err := other.Connect(context.Background(), sb.ID())
	require.NoError(t, err)
	assert.Equal(t, "/home/user\n", run(t, sb2, "pwd", sandbox.RunCommandOptions{}).Stdout)
}

// TestDeepFoldersLoadFast: a tree 1500 folders deep (made by a command, as
// python's os.mkdir/os.chdir loop did) loads in another worker well within
// a short time limit: path lookups no longer walk the tree node by node.
func TestDeepFoldersLoadFast(t *testing.T) {
	t.Parallel()
	store := openKv(t, "sqlite:"+filepath.Join(t.TempDir(), "kv.db"))
	p := newProvider(t, store, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	ctx := context.Background()
	deep := strings.Repeat("d/", 1500)
	require.NoError(t, sb.FileSystem().Mkdir(ctx, deep))
	require.NoError(t, sb.FileSystem().WriteFile(ctx, deep+"f", []byte("bottom")))
	other := wasm.New(wasm.Options{Kv: store})
	sb2, err := other.Connect(ctx, sb.ID())
	require.NoError(t, err)
	res, err := sb2.RunCommand(ctx, "echo hi; cat "+deep+"f", sandbox.RunCommandOptions{Timeout: 30 * time.Second})
	require.NoError(t, err)
	assert.False(t, res.TimedOut)
	assert.Equal(t, "hi\nbottom", res.Stdout)
}

// TestDamagedSnapshotIsNotGone: a snapshot object missing from the kv
// makes the sandbox fail with a "damaged" error, not ErrGone (which would
// replace it with an empty one); DestroySandbox still ends it.
func TestDamagedSnapshotIsNotGone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := openKv(t, "sqlite:"+filepath.Join(t.TempDir(), "kv.db"))
	p := newProvider(t, store, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	run(t, sb, "echo x > f", sandbox.RunCommandOptions{})
	keys, err := store.Keys(ctx, "wasm/"+sb.ID()+"/obj/")
	require.NoError(t, err)
	for _, k := range keys {
		require.NoError(t, store.Delete(ctx, k))
	}
	other := wasm.New(wasm.Options{Kv: store})
	_, err = other.Connect(ctx, sb.ID())
	require.Error(t, err)
	assert.False(t, errors.Is(err, sandbox.ErrGone), "a damaged sandbox is not gone: %v", err)
	assert.ErrorContains(t, err, "damaged")
	require.NoError(t, other.DestroySandbox(ctx, sb.ID()))
	left, err := store.Keys(ctx, "wasm/"+sb.ID()+"/")
	require.NoError(t, err)
	assert.Empty(t, left)
	_, err = other.Connect(ctx, sb.ID())
	assert.ErrorIs(t, err, sandbox.ErrGone)
}

// TestProviderMemoryBudget: commands in different sandboxes together
// cannot take more than the provider's MemoryBudgetMB; the one that asks
// past it fails with a message naming the budget, and the budget is given
// back after.
func TestProviderMemoryBudget(t *testing.T) {
	t.Parallel()
	p := newProvider(t, nil, wasm.Options{MemoryBudgetMB: 200})
	const script = `python3 -c 'import time; b = bytearray(90 << 20); time.sleep(3); print("held")'`
	var wg sync.WaitGroup
	results := make([]sandbox.CommandResult, 3)
	for i := range results {
		sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = run(t, sb, script, sandbox.RunCommandOptions{})
		}()
	}
	wg.Wait()
	held, refused := 0, 0
	for _, r := range results {
		switch {
		case r.ExitCode == 0 && r.Stdout == "held\n":
			held++
		case strings.Contains(r.Stderr, "memory budget"):
			refused++
		default:
			t.Errorf("unexpected result %+v", r)
		}
	}
	assert.GreaterOrEqual(t, held, 1, "one fits")
	assert.GreaterOrEqual(t, refused, 1, "three of 90 MiB do not fit in 200 MiB together: %+v", results)
	// Given back: one alone fits again.
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	assert.Equal(t, "held\n", run(t, sb, script, sandbox.RunCommandOptions{}).Stdout)
}
