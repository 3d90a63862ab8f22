package git_test

import (
	"context"
	"errors"
	"testing"

	"github.com/agentenkit/agentenkit/images"
	"github.com/agentenkit/agentenkit/internal/testenv"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// wasmSandbox returns a sandbox of the wasm adapter (git inside
// busybox.wasm), destroyed at the end of the test, or skips without the
// images.
func wasmSandbox(t *testing.T) sandbox.Sandbox {
	t.Helper()
	p := wasm.New(wasm.Options{Kv: memkv.New(memkv.Options{})})
	if err := p.Warm(context.Background()); errors.Is(err, images.ErrMissing) {
		testenv.Missing(t, "wasm-images", "the wasm images are not fetched and built: run `make images` ("+err.Error()+")")
	} else if err != nil {
		t.Fatal(err)
	}
	sb, err := p.Create(context.Background(), sandbox.CreateSandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	return sb
}

// The differential cases of diff_test.go, on busybox.wasm.
func TestDifferentialWasm(t *testing.T) {
	needGit(t)
	compareCases(t, wasmSandbox(t))
}

// The spec's afterSandboxCall example, as written, on wasm with no git
// identity configured: it commits (with the sandbox's default identity) and
// git status is clean afterwards.
func TestSpecAfterSandboxCallWasm(t *testing.T) {
	sb := wasmSandbox(t)
	res := run(t, sb, `git init -q && echo hi > notes.md && mkdir -p src && echo 'print(1)' > src/main.py`, nil)
	if res.ExitCode != 0 {
		t.Fatalf("setup: %s", res.Stderr)
	}
	res = run(t, sb, `git add -A && git commit -qm "agent: tool call" || true`, nil)
	if res.ExitCode != 0 || res.Stderr != "" {
		t.Fatalf("the example failed: exit %d, stderr %q", res.ExitCode, res.Stderr)
	}
	res = run(t, sb, `git status; git log --format='%an <%ae> %s'`, nil)
	want := "On branch master\nnothing to commit, working tree clean\nuser <user@sandbox> agent: tool call\n"
	if res.Stdout != want {
		t.Fatalf("after the example:\n%s\nwant:\n%s", res.Stdout, want)
	}
}
