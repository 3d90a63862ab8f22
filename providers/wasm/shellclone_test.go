package wasm

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
)

// TestShellsAreClones: where the busybox image clones its shells (Linux,
// busybox.wasm a reactor: make images), every sandbox's shells, the first
// included, are clones of the provider's shell template
// (engine/shellclone.go), and two sandboxes' shells are new instances
// apart: their files and their $RANDOM differ.
func TestShellsAreClones(t *testing.T) {
	p, a := newWarmSandbox(t, Options{})
	ctx := context.Background()
	bb, err := p.image(ctx, "busybox")
	require.NoError(t, err)
	if !bb.ClonesShells() {
		t.Skip("the busybox image does not clone its shells here (not Linux, or built as a command)")
	}
	require.NoError(t, bb.PrewarmShell(ctx))
	b, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	defer b.Destroy(ctx)
	ra, err := a.RunCommand(ctx, "echo a > mine; ls; echo $RANDOM$RANDOM", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	rb, err := b.RunCommand(ctx, "ls; echo $RANDOM$RANDOM", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	// The first shell of each, made at Create in the background.
	require.GreaterOrEqual(t, bb.ShellClones(), int64(2), "the sandboxes' first shells were not clones")
	randA, ok := strings.CutPrefix(ra.Stdout, "mine\n")
	require.True(t, ok, "sandbox a: %q", ra.Stdout)
	require.NotContains(t, rb.Stdout, "mine")
	require.NotEqual(t, randA, rb.Stdout, "two sandboxes' shells gave the same $RANDOM")
}
