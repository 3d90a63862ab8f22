package tools

import (
	"context"
	"fmt"
	"path"
	"testing"

	"github.com/spf13/afero"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
)

// fakePython is a python3 for the memory adapter: it makes the files its
// program names, one "path size" per line, and prints "ran".
func fakePython(ctx context.Context, c *memory.Call, args []string) error {
	if len(args) < 1 {
		return memory.Exit(2)
	}
	prog, err := afero.ReadFile(c.FS, c.Abs(args[len(args)-1]))
	if err != nil {
		return err
	}
	var name string
	var size int
	for _, line := range splitLines(string(prog)) {
		if _, err := fmt.Sscanf(line, "%s %d", &name, &size); err == nil {
			p := c.Abs(name)
			if err := c.FS.MkdirAll(path.Dir(p), 0o755); err != nil {
				return err
			}
			if err := afero.WriteFile(c.FS, p, make([]byte, size), 0o644); err != nil {
				return err
			}
		}
	}
	fmt.Fprintln(c.Stdout, "ran")
	return nil
}

func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && s[i] != '\n' {
			i++
		}
		out = append(out, s[:i])
		if i < len(s) {
			i++
		}
		s = s[i:]
	}
	return out
}

func TestCodeListsTheFilesARunMadeOrChanged(t *testing.T) {
	ctx := context.Background()
	sb := memory.NewSandbox(memory.Options{Files: map[string]string{"keep.txt": "k", "old.json": "{}", "sub/x.bin": "12"}})
	sb.Handle("python3", fakePython)
	r, err := CodeExecution{}.Run(ctx, Env{Sandbox: sb}, CodeInput{Code: "chart.png 100\nold.json 7\nsub/plot.svg 3\n.git/objects/ab 5\nnode_modules/x/index.js 4"})
	require.NoError(t, err)
	assert.Equal(t, "ran\n", r.Stdout)
	assert.Equal(t, []File{
		{Path: "chart.png", MediaType: "image/png", Size: 100},
		{Path: "old.json", MediaType: "application/json", Size: 7},
		{Path: "sub/plot.svg", MediaType: "image/svg+xml", Size: 3},
	}, r.Files, "the program (in the state dir), unchanged files and skipped folders are not listed")
}

func TestCodeListingIsCapped(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{}
	for i := 0; i < 30; i++ {
		files[fmt.Sprintf("d%02d/f.txt", i)] = "x"
	}
	sb := memory.NewSandbox(memory.Options{Files: files})
	sb.Handle("python3", fakePython)
	r, err := CodeExecution{MaxWalk: 10}.Run(ctx, Env{Sandbox: sb}, CodeInput{Code: "a.png 1\nd29/new.txt 2"})
	require.NoError(t, err)
	assert.Equal(t, []File{{Path: "a.png", MediaType: "image/png", Size: 1}}, r.Files, "what the capped walk saw")
	assert.Equal(t, "the work folder has more than 10 entries; only the first 10 were checked for files made or changed", r.Note)
}

func TestProgramError(t *testing.T) {
	for _, c := range []struct {
		lang, stderr string
		code         int
		want         string
	}{
		{Python, "Traceback (most recent call last):\n  File \"x.py\", line 1\nKeyError: 'a'\n", 1, "KeyError: 'a'"},
		{Python, "Traceback (most recent call last):\n  File \"x.py\", line 1\nmymod.Problem: bad\n", 1, "mymod.Problem: bad"},
		{Python, "  File \"x.py\", line 1\n    def (\n        ^\nSyntaxError: invalid syntax\n", 1, "SyntaxError: invalid syntax"},
		{Python, "", 3, "exit status 3"},
		{Python, "sh: python3: not found\n", 127, "python3 is not available in this sandbox (exit status 127)"},
		{JavaScript, "[stdin]:1\nthrow new Error('boom')\n^\n\nError: boom\n    at [stdin]:1:7\n\nNode.js v20.20.2\n", 1, "Error: boom"},
		{JavaScript, "x\n", 2, "exit status 2"},
		{Python, "warning only\n", 0, ""},
	} {
		assert.Equal(t, c.want, programError(c.lang, sandboxResult(c.stderr, c.code), DefaultCodeTimeout), c.stderr)
	}
}

func sandboxResult(stderr string, code int) sandbox.CommandResult {
	return sandbox.CommandResult{Stderr: stderr, ExitCode: code}
}

func TestListingByCommandMatchesTheWalk(t *testing.T) {
	ctx := context.Background()
	sb := memory.NewSandbox(memory.Options{Files: map[string]string{
		"a.txt": "1", "sub/b c.png": "22", "sub/deep/x|y.csv": "333", ".agentenkit/bash/cwd": "/", ".git/HEAD": "x",
		"web/node_modules/m/index.js": "1", "pkg/__pycache__/m.pyc": "1",
	}})
	skip := []string{memory.DefaultWorkdir + "/.agentenkit"}
	byCmd, ok, err := listByCommand(ctx, sb, memory.DefaultWorkdir, skip, 100)
	require.NoError(t, err)
	require.True(t, ok, "the project's shell has find and stat")
	walked, err := walk(ctx, sb.FileSystem(), memory.DefaultWorkdir, skip, 100)
	require.NoError(t, err)
	files := func(l listing) map[string]int64 {
		m := map[string]int64{}
		for p, st := range l.entries {
			if !st.isDir {
				m[p] = st.size
			}
		}
		return m
	}
	want := map[string]int64{"a.txt": 1, "sub/b c.png": 2, "sub/deep/x|y.csv": 3}
	assert.Equal(t, want, files(byCmd))
	assert.Equal(t, want, files(walked))
	assert.NotEmpty(t, byCmd.entries["a.txt"].stamp, "with the time as stat prints it, to the nanosecond")

	_, ok, err = listByCommand(ctx, sb, memory.DefaultWorkdir, skip, 2)
	require.NoError(t, err)
	assert.False(t, ok, "past the limit, walk instead")
}
