package toolstest

import (
	"context"
	"encoding/json"
	"path"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/runtime/lifecycle"
)

func testRuntime(t *testing.T, h Harness) {
	w := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{})

	t.Run("a fresh sandbox after the old one ended says its files are lost", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		w.sh(t, ctx, "mkdir -p sub && cd sub && echo x > kept.txt")
		w.mustEdit(t, ctx, `{"command":"create","path":"notes.txt","file_text":"a"}`)
		first := w.sandbox(t, ctx)
		require.NoError(t, first.Destroy(ctx))

		r := w.sh(t, ctx, "pwd; ls")
		assert.Equal(t, lifecycle.LostNote, r.Note)
		assert.Equal(t, w.workdir(t, ctx)+"\n", r.Stdout, "back in the start folder of an empty sandbox")
		assert.Empty(t, w.sh(t, ctx, "pwd").Note, "the note comes once")

		second := w.sandbox(t, ctx)
		require.NoError(t, second.Destroy(ctx))
		_, err := w.edit(t, ctx, `{"command":"undo_edit","path":"notes.txt"}`)
		assert.Equal(t, "<system>"+lifecycle.LostNote+"</system>\nThe path notes.txt does not exist. Please provide a valid path.", modelError(t, err),
			"a failure carries the note too")

		third := w.sandbox(t, ctx)
		require.NoError(t, third.Destroy(ctx))
		out := w.mustEdit(t, ctx, `{"command":"create","path":"n.txt","file_text":"b"}`)
		assert.Equal(t, "<system>"+lifecycle.LostNote+"</system>\nFile created successfully at: n.txt", out)
	})

	t.Run("cd carries over a park and resume of a run-scoped sandbox kept on park", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, h, lifecycle.Config{SandboxScope: lifecycle.ScopeRun, SandboxKeepOnPark: true}, lifecycle.BuiltinToolOptions{})
		thread := randomID("thread")
		t.Cleanup(func() { _ = w.rt.EndThread(context.Background(), thread) })
		run, ctx, err := w.rt.BeginRun(context.Background(), thread, lifecycle.BeginRunOptions{RunID: "run-1"})
		require.NoError(t, err)
		wd := w.workdir(t, ctx)
		first := w.sandbox(t, ctx).ID()
		w.sh(t, ctx, "mkdir -p sub && cd sub && X=1")
		require.NoError(t, run.End(ctx, lifecycle.RunParked))

		run, ctx, err = w.rt.BeginRun(context.Background(), thread, lifecycle.BeginRunOptions{RunID: "run-1"})
		require.NoError(t, err)
		r := w.sh(t, ctx, `pwd; echo "[$X]"`)
		assert.Equal(t, wd+"/sub\n[]\n", r.Stdout)
		assert.Empty(t, r.Note)
		assert.Equal(t, first, w.sandbox(t, ctx).ID(), "the resumed run found the kept sandbox")
		require.NoError(t, run.End(ctx, lifecycle.RunFinished))

		run, ctx, err = w.rt.BeginRun(context.Background(), thread, lifecycle.BeginRunOptions{RunID: "run-2"})
		require.NoError(t, err)
		defer func() { _ = run.End(ctx, lifecycle.RunFinished) }()
		r = w.sh(t, ctx, "pwd")
		assert.NotEqual(t, first, w.sandbox(t, ctx).ID(), "the next run has a sandbox of its own")
		assert.Equal(t, w.workdir(t, ctx)+"\n", r.Stdout, "in its start folder")
	})

	t.Run("MaxUses caps the calls of a run", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{
			Bash:       lifecycle.BashOptions{MaxUses: 2},
			TextEditor: lifecycle.TextEditorOptions{MaxUses: 1},
		})
		ctx := w.thread(t)
		w.sh(t, ctx, "true")
		w.sh(t, ctx, "true")
		_, err := w.call(t, ctx, lifecycle.ToolBash, `{"command":"echo third"}`)
		assert.Equal(t, "The bash tool can be used at most 2 times per run, and this run has used it 2 times; this call did not run. Go on without it.", modelError(t, err))
		w.mustEdit(t, ctx, `{"command":"create","path":"a","file_text":""}`)
		_, err = w.edit(t, ctx, `{"command":"view","path":"a"}`)
		assert.Contains(t, modelError(t, err), "The text_editor tool can be used at most 1 times per run")

		next := lifecycle.WithRun(context.Background(), lifecycle.ThreadID(ctx), randomID("run"))
		assert.Equal(t, "again\n", w.sh(t, next, "echo again").Stdout, "a new run starts counting afresh")
	})

	t.Run("AfterSandboxCall runs after each call", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{})
		ctx := w.thread(t)
		w.sh(t, ctx, "true")
		w.mustEdit(t, ctx, `{"command":"create","path":"a","file_text":""}`)
		_, _ = w.call(t, ctx, lifecycle.ToolBash, `{}`)
		assert.Equal(t, int64(3), w.hooks.Load(), "failed calls that used the sandbox count too")
	})

	t.Run("approval defaults", func(t *testing.T) {
		t.Parallel()
		ctx := context.Background()
		ask := func(tool lifecycle.Tool, in string) bool {
			ok, err := tool.Approval(ctx, json.RawMessage(in))
			require.NoError(t, err)
			return ok
		}
		assert.True(t, ask(w.tools["bash"], `{"command":"ls"}`), "bash asks")
		assert.False(t, ask(w.tools["code_execution"], `{"code":"print(1)"}`), "code_execution does not")
		editor := w.tools["text_editor"]
		assert.False(t, ask(editor, `{"command":"view","path":"a"}`), "the editor does not ask to view")
		for _, cmd := range []string{"create", "str_replace", "insert", "undo_edit"} {
			assert.True(t, ask(editor, `{"command":"`+cmd+`","path":"a"}`), "the editor asks to %s", cmd)
		}
		assert.True(t, ask(editor, `not json`), "an unreadable call asks")

		never := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{Bash: lifecycle.BashOptions{Approval: lifecycle.AskNever}})
		assert.False(t, ask(never.tools["bash"], `{"command":"ls"}`))
	})

	t.Run("schemas", func(t *testing.T) {
		t.Parallel()
		for name, tool := range w.tools {
			var schema struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			require.NoError(t, json.Unmarshal(tool.InputSchema, &schema), name)
			assert.Equal(t, "object", schema.Type, name)
			assert.NotEmpty(t, tool.Description, name)
			for _, r := range schema.Required {
				assert.Contains(t, schema.Properties, r, name)
			}
		}
		props := func(name string) []string {
			var s struct{ Properties map[string]any }
			require.NoError(t, json.Unmarshal(w.tools[name].InputSchema, &s))
			var keys []string
			for k := range s.Properties {
				keys = append(keys, k)
			}
			return keys
		}
		assert.ElementsMatch(t, []string{"command", "restart"}, props("bash"))
		assert.ElementsMatch(t, []string{"language", "code"}, props("code_execution"))
		assert.ElementsMatch(t, []string{"command", "path", "file_text", "old_str", "new_str", "insert_line", "insert_text", "view_range"}, props("text_editor"))
	})

	t.Run("the tools' files are in .agentenkit in the work folder by default", func(t *testing.T) {
		t.Parallel()
		ctx := w.thread(t)
		w.sh(t, ctx, "mkdir -p sub && cd sub")
		w.writeFile(t, ctx, "f.txt", "a")
		w.mustEdit(t, ctx, `{"command":"str_replace","path":"f.txt","old_str":"a","new_str":"b"}`)
		got, ok := w.readFile(t, ctx, ".agentenkit/bash/cwd")
		assert.True(t, ok)
		assert.Equal(t, w.workdir(t, ctx)+"/sub\n", got)
		ents, err := w.sandbox(t, ctx).FileSystem().ReadDir(ctx, ".agentenkit/text_editor/history")
		require.NoError(t, err)
		assert.Len(t, ents, 1, "one file's history")
	})

	t.Run("an absolute SandboxStateDir keeps the work folder clean", func(t *testing.T) {
		t.Parallel()
		root := h.stateRoot(t)
		w := newWorld(t, h, lifecycle.Config{SandboxStateDir: root}, lifecycle.BuiltinToolOptions{})
		ctx := w.thread(t)
		wd := w.workdir(t, ctx)
		sb := w.sandbox(t, ctx)
		git := w.has(t, ctx, "git")
		if git {
			r := w.sh(t, ctx, "git init -q && printf 'a\\n' > tracked.txt && git add -A && git -c user.email=t@example.com -c user.name=t commit -qm init && git status --porcelain")
			require.Equal(t, 0, r.ExitCode, r.Stderr)
			require.Empty(t, r.Stdout)
		}
		w.sh(t, ctx, "mkdir -p sub && cd sub")
		assert.Equal(t, wd+"/sub\n", w.sh(t, ctx, "pwd").Stdout, "cd carries over")
		w.writeFile(t, ctx, "e.txt", "x\n")
		w.mustEdit(t, ctx, `{"command":"str_replace","path":"e.txt","old_str":"x","new_str":"y"}`)
		w.mustEdit(t, ctx, `{"command":"undo_edit","path":"e.txt"}`)
		got, _ := w.readFile(t, ctx, "e.txt")
		assert.Equal(t, "x\n", got, "undo works from the state dir")
		if h.Python {
			r := w.code(t, ctx, "python", "print('ran')")
			assert.Equal(t, "ran\n", r.Stdout, r.Stderr)
			assert.Empty(t, r.Files)
		}

		ls := w.sh(t, ctx, "ls -a "+wd)
		assert.NotContains(t, ls.Stdout, ".agentenkit")
		state := path.Join(root, sb.ID())
		r := w.sh(t, ctx, "cat "+state+"/bash/cwd")
		assert.Equal(t, wd+"/sub\n", r.Stdout, "the state is under SandboxStateDir/<sandbox id>")
		if git {
			require.NoError(t, sb.FileSystem().Remove(ctx, "e.txt"))
			r := w.sh(t, ctx, "cd "+wd+" && git status --porcelain")
			assert.Equal(t, 0, r.ExitCode, r.Stderr)
			assert.Empty(t, r.Stdout, "git sees no change")

			// The default state dir, by contrast, shows.
			d := newWorld(t, h, lifecycle.Config{}, lifecycle.BuiltinToolOptions{})
			ctx := d.thread(t)
			d.sh(t, ctx, "git init -q && git -c user.email=t@example.com -c user.name=t commit -q --allow-empty -m init && cd .")
			assert.Equal(t, "?? .agentenkit/\n", d.sh(t, ctx, "git status --porcelain").Stdout)
		}
	})
}
