package tools

import (
	"context"
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
)

// workFolder returns every file under the work folder, relative to it.
func workFolder(t *testing.T, sb sandbox.Sandbox, dir, rel string, into map[string]string) map[string]string {
	ctx := context.Background()
	ents, err := sb.FileSystem().ReadDir(ctx, path.Join(dir, rel))
	require.NoError(t, err)
	for _, e := range ents {
		p := path.Join(rel, e.Name)
		if e.IsDir {
			workFolder(t, sb, dir, p, into)
			continue
		}
		b, err := sb.FileSystem().ReadFile(ctx, path.Join(dir, p))
		require.NoError(t, err)
		into[p] = b
	}
	return into
}

// A provider that restores work folders (wasm) starts the fresh sandbox
// with the old one's work folder: the default state dir is in it, so the
// folder bash was in and the undo history come back too.
func TestStateComesBackWithTheWorkFolder(t *testing.T) {
	ctx := context.Background()
	old := memory.NewSandbox(memory.Options{})
	_, err := Bash{}.Run(ctx, Env{Sandbox: old}, BashInput{Command: "mkdir -p sub && echo x > sub/kept.txt && cd sub"})
	require.NoError(t, err)
	ed := TextEditor{}
	_, err = ed.Run(ctx, Env{Sandbox: old}, EditorInput{Command: CmdCreate, Path: "f.txt", FileText: ptr("one\n")})
	require.NoError(t, err)
	_, err = ed.Run(ctx, Env{Sandbox: old}, EditorInput{Command: CmdStrReplace, Path: "f.txt", OldStr: ptr("one"), NewStr: ptr("two")})
	require.NoError(t, err)

	files := workFolder(t, old, memory.DefaultWorkdir, "", map[string]string{})
	require.NoError(t, old.Destroy(ctx))
	restored := memory.NewSandbox(memory.Options{Files: files})
	env := Env{Sandbox: restored, Note: "The sandbox restarted."}

	r, err := Bash{}.Run(ctx, env, BashInput{Command: "pwd"})
	require.NoError(t, err)
	assert.Equal(t, memory.DefaultWorkdir+"/sub\n", r.Stdout)
	assert.Equal(t, "The sandbox restarted.", r.Note)
	out, err := ed.Run(ctx, env, EditorInput{Command: CmdUndoEdit, Path: "f.txt"})
	require.NoError(t, err)
	assert.Equal(t, "The sandbox restarted.", out.Note)
	assert.True(t, strings.HasPrefix(out.Text(), "<system>The sandbox restarted.</system>\nLast edit to f.txt undone successfully."), out.Text())
	got, err := restored.FileSystem().ReadFile(ctx, "f.txt")
	require.NoError(t, err)
	assert.Equal(t, "one\n", got)
}
