package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
)

// sandboxID returns the id of the only live sandbox.
func (c *cli) sandboxID() string {
	c.t.Helper()
	r := c.mustRun("", "sandboxes", "list")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 {
		c.t.Fatalf("want one sandbox, got\n%s", r.stdout)
	}
	return strings.Fields(lines[1])[0]
}

// TestKillDamagedSandbox: a wasm sandbox whose snapshot object, manifest
// or live record is damaged in the kv says so (it does not start afresh
// as if restarted), and `sandboxes kill` ends it all the same.
func TestKillDamagedSandbox(t *testing.T) {
	t.Parallel()
	if testProvider(t) != "wasm" {
		t.Skip("needs the wasm images (make images)")
	}
	for _, c := range []struct {
		name string
		key  func(keys []string, id string) string
	}{
		{"object", func(keys []string, id string) string {
			for _, k := range keys {
				if strings.Contains(k, "/obj/") {
					return k
				}
			}
			return ""
		}},
		{"manifest", func(_ []string, id string) string { return "wasm/" + id + "/manifest" }},
		{"live record", func(_ []string, id string) string { return "wasm/" + id + "/live" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cl := newCLI(t)
			cl.mustRun("", "run", "--provider", "wasm", "--thread", "t", "--", "echo hi > f")
			id := cl.sandboxID()
			ctx := context.Background()
			store, err := sqlitekv.Open(filepath.Join(cl.state, "kv.sqlite"))
			if err != nil {
				t.Fatal(err)
			}
			keys, err := store.Keys(ctx, "wasm/"+id+"/")
			if err != nil {
				t.Fatal(err)
			}
			key := c.key(keys, id)
			ttl, err := store.TTL(ctx, key)
			if err != nil {
				t.Fatal(err)
			}
			if err := store.Set(ctx, key, []byte("damaged"), ttl); err != nil {
				t.Fatal(err)
			}
			store.Close()
			// The daemon has the sandbox's files in memory: the next one
			// loads them from the kv, as another process would.
			cl.stopDaemon()

			r := cl.run("", "run", "--provider", "wasm", "--thread", "t", "--", "cat f")
			if r.code == 0 || strings.Contains(r.stdout+r.stderr, "restarted") || !strings.Contains(r.stderr, "damaged") {
				t.Fatalf("a run on the damaged sandbox: want a failure that says damaged, got %+v", r)
			}
			r = cl.mustRun("", "sandboxes", "kill", id)
			if !strings.Contains(r.stdout, "killed sandbox "+id) {
				t.Fatalf("kill: %+v", r)
			}
			store, err = sqlitekv.Open(filepath.Join(cl.state, "kv.sqlite"))
			if err != nil {
				t.Fatal(err)
			}
			defer store.Close()
			if left, _ := store.Keys(ctx, "wasm/"+id+"/"); len(left) != 0 {
				t.Fatalf("kill left %d keys: %v", len(left), left)
			}
			// The thread goes on in a fresh sandbox.
			cl.mustRun("", "run", "--provider", "wasm", "--thread", "t", "--", "echo ok")
		})
	}
}

// TestDamagedKvHint: a kv file that is not a database says so, and how to
// start afresh, not that the folder is not writable.
func TestDamagedKvHint(t *testing.T) {
	t.Parallel()
	c := newCLI(t)
	if err := os.WriteFile(filepath.Join(c.state, "kv.sqlite"), []byte(strings.Repeat("not a database\n", 500)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := c.run("", "sandboxes", "list")
	if r.code == 0 || !strings.Contains(r.stderr, "damaged") || strings.Contains(r.stderr, "folder you can write") {
		t.Fatalf("want a hint about a damaged state file, got %+v", r)
	}
}

// TestTwoWorkersOnOneThread: two CLI processes run commands on one thread
// at the same time, writing different files and the same file; neither
// loses the other's writes, nor does the sandbox restart.
func TestTwoWorkersOnOneThread(t *testing.T) {
	t.Parallel()
	if testProvider(t) != "wasm" {
		t.Skip("needs the wasm images (make images)")
	}
	c := newCLI(t)
	c.mustRun("", "run", "--provider", "wasm", "--thread", "t", "--", "echo base > keep; echo 0 > a; echo 0 > b")
	const rounds = 3
	for r := range rounds {
		var wg sync.WaitGroup
		results := make([]result, 2)
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				script := fmt.Sprintf("sleep 0.%d; echo w%d-r%d > own%d-%d; echo w%d-r%d > shared; echo w%d > %s", 3*w, w, r, w, r, w, r, w, []string{"a", "b"}[w])
				results[w] = c.run("", "run", "--provider", "wasm", "--thread", "t", "--", script)
			}()
		}
		wg.Wait()
		for w, res := range results {
			if res.code != 0 || strings.Contains(res.stdout+res.stderr, "restarted") {
				t.Fatalf("round %d worker %d: %+v", r, w, res)
			}
		}
		got := c.mustRun("", "run", "--provider", "wasm", "--thread", "t", "--", fmt.Sprintf("cat keep own0-%d own1-%d a b shared", r, r))
		want := fmt.Sprintf("base\nw0-r%d\nw1-r%d\nw0\nw1\n", r, r)
		if !strings.HasPrefix(got.stdout, want) || strings.Contains(got.stdout+got.stderr, "restarted") {
			t.Fatalf("round %d: got %q, want %q then the shared file", r, got.stdout, want)
		}
	}
}
