package sandboxtest

import (
	"bytes"
	"crypto/rand"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/agentenkit/agentenkit/sandbox"
)

var fileCases = []Case{
	{
		Name: "files/text",
		Rule: "A text file round-trips exactly, and commands see what the file API wrote and the other way round.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			text := "héllo\nwörld\n\ttabbed  \r\nno newline at end"
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "notes.txt", []byte(text)))
			got, err := fsys.ReadFile(e.Ctx, "notes.txt")
			require.NoError(e.T, err)
			assert.Equal(e.T, text, got)
			assert.Equal(e.T, text, e.Run("cat notes.txt", sandbox.RunCommandOptions{}).Stdout)
			got, err = fsys.ReadFile(e.Ctx, e.Workdir+"/notes.txt")
			require.NoError(e.T, err)
			assert.Equal(e.T, text, got, "an absolute path names the same file")

			e.Run("printf 'from the shell\\n' > shell.txt", sandbox.RunCommandOptions{})
			got, err = fsys.ReadFile(e.Ctx, "shell.txt")
			require.NoError(e.T, err)
			assert.Equal(e.T, "from the shell\n", got)

			require.NoError(e.T, fsys.WriteFile(e.Ctx, "notes.txt", []byte("short")))
			got, err = fsys.ReadFile(e.Ctx, "notes.txt")
			require.NoError(e.T, err)
			assert.Equal(e.T, "short", got, "WriteFile replaces the whole file")
		},
	},
	{
		Name: "files/binary",
		Rule: "Binary files round-trip exactly: all 256 byte values.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			var data []byte
			for range 4 {
				for b := range 256 {
					data = append(data, byte(b))
				}
			}
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "all.bin", data))
			got, err := fsys.ReadFileBytes(e.Ctx, "all.bin")
			require.NoError(e.T, err)
			assert.True(e.T, bytes.Equal(data, got), "bytes differ")
			assert.Equal(e.T, "1024\n", e.Run("wc -c < all.bin | tr -d ' '", sandbox.RunCommandOptions{}).Stdout)
		},
	},
	{
		Name: "files/large",
		Rule: "A 10 MiB file round-trips exactly.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			data := make([]byte, 10<<20)
			_, _ = rand.Read(data)
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "big/blob.bin", data))
			got, err := fsys.ReadFileBytes(e.Ctx, "big/blob.bin")
			require.NoError(e.T, err)
			assert.Equal(e.T, len(data), len(got))
			assert.True(e.T, bytes.Equal(data, got), "bytes differ")
		},
	},
	{
		Name: "files/parents",
		Rule: "WriteFile makes missing parent folders.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "a/b/c/d.txt", []byte("deep")))
			got, err := fsys.ReadFile(e.Ctx, "a/b/c/d.txt")
			require.NoError(e.T, err)
			assert.Equal(e.T, "deep", got)
			assert.Equal(e.T, "deep", e.Run("cat a/b/c/d.txt", sandbox.RunCommandOptions{}).Stdout)
		},
	},
	{
		Name: "files/overwrite-keeps-mode",
		Rule: "WriteFile over an existing file keeps its mode (an executable stays one).",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			res := e.Run("printf 'echo old\\n' > tool.sh && chmod 750 tool.sh && stat -c %a tool.sh", sandbox.RunCommandOptions{})
			if res.Stdout != "750\n" {
				e.T.Skipf("chmod 750 then stat -c %%a gives %q (%s): this sandbox's commands do not keep modes", res.Stdout, res.Stderr)
			}
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "tool.sh", []byte("echo new\n")))
			res = e.Run("stat -c %a tool.sh; ./tool.sh", sandbox.RunCommandOptions{})
			assert.Equal(e.T, "750\nnew\n", res.Stdout, res.Stderr)
		},
	},
	{
		Name: "files/folders",
		Rule: "Mkdir makes nested folders (again is fine), ReadDir lists entries sorted, Remove deletes a folder with its contents, Exists tells.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			require.NoError(e.T, fsys.Mkdir(e.Ctx, "top/mid/leaf"))
			require.NoError(e.T, fsys.Mkdir(e.Ctx, "top/mid/leaf"), "Mkdir of an existing folder")
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "top/b.txt", []byte("12345")))
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "top/a.txt", []byte("1")))
			entries, err := fsys.ReadDir(e.Ctx, "top")
			require.NoError(e.T, err)
			var names []string
			for _, en := range entries {
				names = append(names, en.Name)
				assert.Equal(e.T, e.Workdir+"/top/"+en.Name, en.Path, "Path is absolute")
				switch en.Name {
				case "mid":
					assert.True(e.T, en.IsDir, "mid is a folder")
				case "b.txt":
					assert.False(e.T, en.IsDir)
					assert.Equal(e.T, int64(5), en.Size)
				}
			}
			assert.Equal(e.T, []string{"a.txt", "b.txt", "mid"}, names)
			for _, p := range []string{"top", "top/mid/leaf", "top/a.txt"} {
				ok, err := fsys.Exists(e.Ctx, p)
				require.NoError(e.T, err)
				assert.True(e.T, ok, "Exists(%q)", p)
			}
			require.NoError(e.T, fsys.Remove(e.Ctx, "top"))
			ok, err := fsys.Exists(e.Ctx, "top")
			require.NoError(e.T, err)
			assert.False(e.T, ok, "Remove is recursive")
			assert.Equal(e.T, "gone\n", e.Run("[ -e top ] || echo gone", sandbox.RunCommandOptions{}).Stdout)
		},
	},
	{
		Name: "files/remove-workdir",
		Rule: "Remove refuses the work folder and the folders above it (an error matching fs.ErrInvalid): the files stay, and commands still run there.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			require.NoError(e.T, fsys.WriteFile(e.Ctx, "kept.txt", []byte("kept")))
			for _, p := range []string{"", ".", e.Workdir, e.Workdir + "/", "sub/.."} {
				assert.ErrorIs(e.T, fsys.Remove(e.Ctx, p), fs.ErrInvalid, "Remove(%q)", p)
			}
			// Above it: refused too, or outside the sandbox where the work
			// folder is its root (local).
			for _, p := range []string{"/", path.Dir(e.Workdir)} {
				err := fsys.Remove(e.Ctx, p)
				assert.True(e.T, errors.Is(err, fs.ErrInvalid) || errors.Is(err, sandbox.ErrOutsideRoot), "Remove(%q), above the work folder: %v", p, err)
			}
			got, err := fsys.ReadFile(e.Ctx, "kept.txt")
			require.NoError(e.T, err)
			assert.Equal(e.T, "kept", got)
			assert.Equal(e.T, e.Workdir+"\n", e.Run("pwd", sandbox.RunCommandOptions{}).Stdout)
		},
	},
	{
		Name: "files/missing",
		Rule: "A missing file is an error matching fs.ErrNotExist on every call; Exists says false without an error.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			_, err := fsys.ReadFile(e.Ctx, "nope.txt")
			assert.ErrorIs(e.T, err, fs.ErrNotExist, "ReadFile")
			_, err = fsys.ReadFileBytes(e.Ctx, "nope/deeper.bin")
			assert.ErrorIs(e.T, err, fs.ErrNotExist, "ReadFileBytes")
			_, err = fsys.ReadDir(e.Ctx, "nodir")
			assert.ErrorIs(e.T, err, fs.ErrNotExist, "ReadDir")
			assert.ErrorIs(e.T, fsys.Remove(e.Ctx, "nope.txt"), fs.ErrNotExist, "Remove")
			ok, err := fsys.Exists(e.Ctx, "nope.txt")
			assert.NoError(e.T, err)
			assert.False(e.T, ok)
		},
	},
	{
		Name: "files/unicode-and-spaces",
		Rule: "Paths with spaces and non-ASCII letters work in the file API and in commands.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			p := "dir with space/ünïcødé 文件.txt"
			require.NoError(e.T, fsys.WriteFile(e.Ctx, p, []byte("ok")))
			got, err := fsys.ReadFile(e.Ctx, p)
			require.NoError(e.T, err)
			assert.Equal(e.T, "ok", got)
			assert.Equal(e.T, "ok", e.Run(`cat "dir with space/ünïcødé 文件.txt"`, sandbox.RunCommandOptions{}).Stdout)
			// A glob, not ls: busybox's ls shows letters past U+02FF as '?'.
			assert.Equal(e.T, "ünïcødé 文件.txt\n", e.Run(`for f in "dir with space"/*; do printf '%s\n' "${f#dir with space/}"; done`, sandbox.RunCommandOptions{}).Stdout)
			e.Run(`mkdir -p "naïve dir" && echo made > "naïve dir/файл"`, sandbox.RunCommandOptions{})
			got, err = fsys.ReadFile(e.Ctx, "naïve dir/файл")
			require.NoError(e.T, err)
			assert.Equal(e.T, "made\n", got)
		},
	},
	{
		Name: "files/no-escape",
		Rule: "The file API never reaches the host's files: '..' chains, absolute host paths and links pointing out neither read nor write them.",
		Check: func(e *Env) {
			fsys := e.Sandbox.FileSystem()
			host := e.T.TempDir()
			secretPath := filepath.Join(host, "secret.txt")
			require.NoError(e.T, os.WriteFile(secretPath, []byte("host secret"), 0o600))
			up := strings.Repeat("../", 40)
			for _, p := range []string{secretPath, up + strings.TrimPrefix(secretPath, "/"), "sub/" + up + strings.TrimPrefix(secretPath, "/")} {
				got, err := fsys.ReadFile(e.Ctx, p)
				assert.NotEqual(e.T, "host secret", got, "ReadFile(%q) read the host's file", p)
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					assert.ErrorIs(e.T, err, sandbox.ErrOutsideRoot, "ReadFile(%q): an escape is ErrOutsideRoot", p)
				}
				_ = fsys.WriteFile(e.Ctx, filepath.Join(p+".d", "written"), []byte("x"))
				_, err = os.Stat(secretPath + ".d")
				assert.ErrorIs(e.T, err, fs.ErrNotExist, "WriteFile(%q) wrote on the host", p)
			}
			_ = fsys.Remove(e.Ctx, secretPath)
			_, err := os.Stat(secretPath)
			assert.NoError(e.T, err, "Remove of a host path removed the host's file")

			// A link made inside the sandbox that points at the host file.
			e.Run("ln -s "+secretPath+" link-out; ln -s "+up+strings.TrimPrefix(host, "/")+" dir-out", sandbox.RunCommandOptions{})
			got, _ := fsys.ReadFile(e.Ctx, "link-out")
			assert.NotEqual(e.T, "host secret", got, "a link led the file API out of the sandbox")
			got, _ = fsys.ReadFile(e.Ctx, "dir-out/secret.txt")
			assert.NotEqual(e.T, "host secret", got, "a folder link led the file API out of the sandbox")
			_ = fsys.WriteFile(e.Ctx, "dir-out/planted.txt", []byte("x"))
			_, err = os.Stat(filepath.Join(host, "planted.txt"))
			assert.ErrorIs(e.T, err, fs.ErrNotExist, "a write through a folder link reached the host")
		},
	},
	{
		Name:  "files/isolated-commands",
		Rule:  "Commands cannot read, list or write the host's files.",
		Needs: []Capability{CapIsolatedCommands},
		Check: func(e *Env) {
			host := e.T.TempDir()
			secretPath := filepath.Join(host, "secret.txt")
			require.NoError(e.T, os.WriteFile(secretPath, []byte("host secret"), 0o600))
			res := e.Run("cat "+secretPath+"; ls "+host+"; cat "+strings.Repeat("../", 40)+strings.TrimPrefix(secretPath, "/")+"; echo planted > "+host+"/planted", sandbox.RunCommandOptions{})
			assert.NotContains(e.T, res.Stdout, "host secret")
			assert.NotContains(e.T, res.Stdout, "secret.txt")
			_, err := os.Stat(filepath.Join(host, "planted"))
			assert.ErrorIs(e.T, err, fs.ErrNotExist, "a command wrote on the host")
		},
	},
}
