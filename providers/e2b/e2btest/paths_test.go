package e2btest

import (
	"bytes"
	"context"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/sandbox"
)

const testBase = "/srv/b/local-1"

func TestTreeBackend(t *testing.T) {
	tr := tree{base: testBase}
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"/", testBase, true},
		{"/home", testBase + "/home", true},
		{"/home/user/a.txt", testBase + "/home/user/a.txt", true},
		{"/tmp", testBase + "/tmp", true},
		{"/tmp/x/y", testBase + "/tmp/x/y", true},
		{"/etc/passwd", "", false},
		{"/homework", "", false},
		{"/tmpfs", "", false},
		{"/usr/bin", "", false},
	} {
		got, ok := tr.backend(tc.in)
		assert.Equal(t, tc.ok, ok, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
	}
	got, ok := tree{}.backend("/")
	assert.True(t, ok)
	assert.Equal(t, "/", got, "base \"\": the same paths")
}

func TestRewriteCommand(t *testing.T) {
	tr := tree{base: testBase}
	for _, tc := range []struct{ in, want string }{
		{"pwd", "pwd"},
		{"cat /tmp/x", "cat " + testBase + "/tmp/x"},
		{"cd /home/user && ls /tmp", "cd " + testBase + "/home/user && ls " + testBase + "/tmp"},
		{"ls /tmp /tmp", "ls " + testBase + "/tmp " + testBase + "/tmp"},
		{"/tmp/run.sh", testBase + "/tmp/run.sh"},
		{`cat '/home/user/a b' "/tmp/c"`, `cat '` + testBase + `/home/user/a b' "` + testBase + `/tmp/c"`},
		{"x=/tmp/y; echo $x", "x=" + testBase + "/tmp/y; echo $x"},
		{"echo >/tmp/o 2>/dev/null", "echo >" + testBase + "/tmp/o 2>/dev/null"},
		{"$(cat /tmp/f)", "$(cat " + testBase + "/tmp/f)"},
		{"ls /var/tmp /usr/bin /dev/null", "ls /var/tmp /usr/bin /dev/null"},
		{"curl http://h/tmp/x", "curl http://h/tmp/x"},
		{"ls /tmpfs /homework ./tmp", "ls /tmpfs /homework ./tmp"},
		{"cd /home", "cd " + testBase + "/home"},
	} {
		assert.Equal(t, tc.want, tr.rewriteCommand(tc.in), tc.in)
	}
	assert.Equal(t, map[string]string{"P": testBase + "/home/user/lib", "Q": "/usr/lib"},
		tr.rewriteEnv(map[string]string{"P": "/home/user/lib", "Q": "/usr/lib"}))
}

func TestOutputRewriter(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"no path", "hello\n", "hello\n"},
		{"the home", testBase + "/home/user/sub\n", "/home/user/sub\n"},
		{"two paths", testBase + "/tmp/a " + testBase + "/tmp/b\n", "/tmp/a /tmp/b\n"},
		{"base alone is /", "at " + testBase + "\n", "at /\n"},
		{"base at the very end", "at " + testBase, "at /"},
		{"a start of base that is not base", "/srv/b/local-2\n", "/srv/b/local-2\n"},
		{"a start of base at the end", "x /srv/b", "x /srv/b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Every way of cutting the output into two chunks.
			for cut := 0; cut <= len(tc.in); cut++ {
				var out bytes.Buffer
				w := tree{base: testBase, view: viewRewrite}.output(&out)
				_, err := w.Write([]byte(tc.in[:cut]))
				require.NoError(t, err)
				_, err = w.Write([]byte(tc.in[cut:]))
				require.NoError(t, err)
				require.NoError(t, w.Close())
				assert.Equal(t, tc.want, out.String(), "cut at %d", cut)
			}
		})
	}
	var out bytes.Buffer
	w := tree{base: testBase, view: viewMount}.output(&out)
	_, _ = w.Write([]byte(testBase + "\n"))
	assert.Equal(t, testBase+"\n", out.String(), "only viewRewrite rewrites")
}

func TestTreeFS(t *testing.T) {
	ctx := context.Background()
	back := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
	require.NoError(t, back.Err())
	sb, err := back.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	info, err := sb.GetInfo(ctx)
	require.NoError(t, err)
	f := treeFS{fs: sb.FileSystem(), tree: tree{base: info.Workdir}}

	require.NoError(t, f.WriteFile(ctx, "/home/user/a.txt", []byte("a")))
	got, err := sb.FileSystem().ReadFile(ctx, info.Workdir+"/home/user/a.txt")
	require.NoError(t, err)
	assert.Equal(t, "a", got, "the sandbox's /home is home in the backend's work folder")
	ents, err := f.ReadDir(ctx, "/home/user")
	require.NoError(t, err)
	require.Len(t, ents, 1)
	assert.Equal(t, "/home/user/a.txt", ents[0].Path, "listings carry the sandbox's paths")

	for _, tc := range []struct {
		op string
		fn func() error
	}{
		{"write /etc", func() error { return f.WriteFile(ctx, "/etc/x", []byte("x")) }},
		{"read /etc", func() error { _, err := f.ReadFileBytes(ctx, "/etc/passwd"); return err }},
		{"mkdir /usr", func() error { return f.Mkdir(ctx, "/usr/x") }},
		{"remove /", func() error { return f.Remove(ctx, "/") }},
		{"write /", func() error { return f.WriteFile(ctx, "/", nil) }},
	} {
		assert.ErrorIs(t, tc.fn(), sandbox.ErrOutsideRoot, tc.op)
	}
	ok, err := f.Exists(ctx, "/etc/passwd")
	assert.NoError(t, err)
	assert.False(t, ok, "nothing of the host's /etc is the sandbox's")
}

// TestViews runs the same commands under each view a local backend can
// give: all print the sandbox's paths and reach the sandbox's files.
func TestViews(t *testing.T) {
	ctx := context.Background()
	back := localsandbox.New(localsandbox.Options{Root: t.TempDir()})
	require.NoError(t, back.Err())
	sb, err := back.Create(ctx, sandbox.CreateSandboxOptions{})
	require.NoError(t, err)
	info, err := sb.GetInfo(ctx)
	require.NoError(t, err)
	base := tree{base: info.Workdir}
	fsys := treeFS{fs: sb.FileSystem(), tree: base}
	require.NoError(t, fsys.Mkdir(ctx, HomeDir+"/sub"))
	require.NoError(t, fsys.WriteFile(ctx, "/tmp/in.txt", []byte("from the file API\n")))

	views := map[string]tree{"rewrite": {base: info.Workdir, view: viewRewrite}}
	if mounted := chooseView(ctx, sb, base); mounted.view == viewMount {
		views["mount"] = mounted
	} else {
		t.Log("no mount namespace for the backend's commands here: only the rewriting view is checked")
	}
	for name, tr := range views {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct{ cmd, dir, want string }{
				{"pwd", HomeDir, "/home/user\n"},
				{"pwd", HomeDir + "/sub", "/home/user/sub\n"},
				{"cd /tmp && pwd", HomeDir, "/tmp\n"},
				{"echo $HOME", HomeDir, "/home/user\n"},
				{"cat /tmp/in.txt", HomeDir, "from the file API\n"},
				{"echo made > /home/user/sub/out.txt && cat sub/out.txt", HomeDir, "made\n"},
				{"ls /home", HomeDir, "user\n"},
			} {
				cmd, dir, env := tr.backendCommand(tc.cmd, tc.dir, defaultUser, map[string]string{"HOME": HomeDir})
				var out bytes.Buffer
				w := tr.output(&out)
				r, err := sb.RunCommand(ctx, cmd, sandbox.RunCommandOptions{Cwd: dir, Env: env, Stdout: w, Timeout: 10 * time.Second})
				require.NoError(t, err, tc.cmd)
				require.NoError(t, w.Close())
				assert.Equal(t, 0, r.ExitCode, "%s: %s", tc.cmd, r.Stderr)
				assert.Equal(t, tc.want, out.String(), tc.cmd)
				assert.False(t, strings.Contains(out.String(), info.Workdir), "no backend path shows")
			}
			got, err := fsys.ReadFile(ctx, HomeDir+"/sub/out.txt")
			require.NoError(t, err)
			assert.Equal(t, "made\n", got, "what a command wrote, the file API reads")
			require.NoError(t, fsys.Remove(ctx, HomeDir+"/sub/out.txt"))
			_, err = fsys.ReadFile(ctx, HomeDir+"/sub/out.txt")
			assert.ErrorIs(t, err, fs.ErrNotExist, "removed")
		})
	}
}
