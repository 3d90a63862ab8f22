package wasm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/sandbox"
)

// A guest that overflows its stack (the shell's parser on 100 000 nested
// subshells) is a failed command with a message, not an error of the
// call, and the sandbox runs the next command.
func TestGuestStackOverflowIsAResult(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p := newProvider(t, nil, wasm.Options{})
	sb := newSandbox(t, p, sandbox.CreateSandboxOptions{})
	deep := strings.Repeat("(", 100000) + "echo deep" + strings.Repeat(")", 100000)
	res, err := sb.RunCommand(ctx, deep, sandbox.RunCommandOptions{Timeout: 2 * time.Minute})
	require.NoError(t, err, "a guest crash must be a result")
	assert.NotEqual(t, 0, res.ExitCode)
	assert.NotEmpty(t, res.Stderr, "the failed command says why")
	t.Logf("exit %d, stderr %.200q", res.ExitCode, res.Stderr)
	res, err = sb.RunCommand(ctx, "echo next", sandbox.RunCommandOptions{})
	require.NoError(t, err)
	assert.Equal(t, "next\n", res.Stdout)
}
