package localsandbox_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/sandbox"
)

// The host folder named by MetadataStateDir, <dir>/<id>, ends with the
// sandbox: at Destroy, and when the sandbox is found past its end.
func TestStateFolderEndsWithTheSandbox(t *testing.T) {
	ctx := context.Background()
	p := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
	require.NoError(t, p.Err())
	state := t.TempDir()
	neighbour := filepath.Join(state, "not-a-sandbox")
	require.NoError(t, os.MkdirAll(neighbour, 0o755))

	for _, end := range []string{"destroy", "expiry"} {
		t.Run(end, func(t *testing.T) {
			sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{Metadata: map[string]string{localsandbox.MetadataStateDir: state}})
			require.NoError(t, err)
			folder := filepath.Join(state, sb.ID())
			r, err := sb.RunCommand(ctx, "mkdir -p "+folder+"/history && echo old > "+folder+"/history/1", sandbox.RunCommandOptions{})
			require.NoError(t, err)
			require.Equal(t, 0, r.ExitCode, r.Stderr)

			if end == "destroy" {
				require.NoError(t, sb.Destroy(ctx))
			} else {
				require.NoError(t, sb.SetTimeout(ctx, time.Millisecond))
				time.Sleep(20 * time.Millisecond)
				_, err := p.Connect(ctx, sb.ID())
				require.ErrorIs(t, err, sandbox.ErrGone)
			}
			_, err = os.Stat(folder)
			assert.ErrorIs(t, err, fs.ErrNotExist)
			_, err = os.Stat(neighbour)
			assert.NoError(t, err, "nothing else under the state dir")
		})
	}
}
