package tools

import (
	"bytes"
	"context"
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
)

// confined is a sandbox whose file API refuses the paths under outside, as
// the local adapter's refuses host paths outside its folder, while its
// commands reach them.
type confined struct {
	sandbox.Sandbox
	outside string
}

func (c confined) FileSystem() sandbox.FileSystem {
	return confinedFS{c.Sandbox.FileSystem(), c.outside}
}

type confinedFS struct {
	sandbox.FileSystem
	outside string
}

func (f confinedFS) check(op, p string) error {
	if strings.HasPrefix(p, f.outside) {
		return sandbox.OutsideRoot(op, p)
	}
	return nil
}

func (f confinedFS) ReadFileBytes(ctx context.Context, p string) ([]byte, error) {
	if err := f.check("read", p); err != nil {
		return nil, err
	}
	return f.FileSystem.ReadFileBytes(ctx, p)
}

func (f confinedFS) WriteFile(ctx context.Context, p string, b []byte) error {
	if err := f.check("write", p); err != nil {
		return err
	}
	return f.FileSystem.WriteFile(ctx, p, b)
}

func (f confinedFS) Remove(ctx context.Context, p string) error {
	if err := f.check("remove", p); err != nil {
		return err
	}
	return f.FileSystem.Remove(ctx, p)
}

func (f confinedFS) Mkdir(ctx context.Context, p string) error {
	if err := f.check("mkdir", p); err != nil {
		return err
	}
	return f.FileSystem.Mkdir(ctx, p)
}

func TestStoreGoesThroughCommandsWhereTheFileAPIRefuses(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewSandbox(memory.Options{})
	st := store{confined{mem, "/state"}}
	p := "/state/sb-1/text_editor/history/x/0"

	_, err := st.read(ctx, p)
	assert.ErrorIs(t, err, fs.ErrNotExist)

	big := bytes.Repeat([]byte("0123456789\x00\xff"), 3*stateChunk/12+7) // several chunks, binary
	require.NoError(t, st.write(ctx, p, big))
	direct, err := mem.FileSystem().ReadFileBytes(ctx, p)
	require.NoError(t, err)
	assert.Equal(t, big, direct, "written through commands")
	got, err := st.read(ctx, p)
	require.NoError(t, err)
	assert.Equal(t, big, got, "read through commands")

	require.NoError(t, st.write(ctx, p, nil))
	got, err = st.read(ctx, p)
	require.NoError(t, err)
	assert.Empty(t, got)

	require.NoError(t, st.remove(ctx, p))
	require.NoError(t, st.remove(ctx, p), "a missing file is fine")
	_, err = st.read(ctx, p)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	require.NoError(t, st.mkdir(ctx, "/state/a/b"))
	ok, err := mem.FileSystem().Exists(ctx, "/state/a/b")
	require.NoError(t, err)
	assert.True(t, ok)
}

func TestEditorUndoThroughCommands(t *testing.T) {
	ctx := context.Background()
	mem := memory.NewSandbox(memory.Options{})
	env := Env{Sandbox: confined{mem, "/state"}, StateDir: "/state/sb"}
	e := TextEditor{}
	_, err := e.Run(ctx, env, EditorInput{Command: CmdCreate, Path: "f.txt", FileText: ptr("one\n")})
	require.NoError(t, err)
	_, err = e.Run(ctx, env, EditorInput{Command: CmdStrReplace, Path: "f.txt", OldStr: ptr("one"), NewStr: ptr("two")})
	require.NoError(t, err)
	out, err := e.Run(ctx, env, EditorInput{Command: CmdUndoEdit, Path: "f.txt"})
	require.NoError(t, err)
	assert.Equal(t, EditorResult{Command: CmdUndoEdit, OK: true, Message: "Last edit to f.txt undone successfully. Here's the result of running `cat -n` on f.txt:\n     1\tone\n     2\t\n"}, out)
	ents, err := mem.FileSystem().ReadDir(ctx, "/state/sb/text_editor/history")
	require.NoError(t, err)
	assert.Len(t, ents, 1)
}
