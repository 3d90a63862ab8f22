package vfs

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/require"
	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental/sysfs"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// guestWasm builds testdata/guest for wasip1 once per test binary. This is
// the one place the package's tests touch the host filesystem.
var guestWasm = sync.OnceValues(func() ([]byte, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "vfs-guest-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "guest.wasm")
	cmd := exec.Command(goTool, "build", "-o", out, "./testdata/guest")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm", "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, &buildError{err: err, out: string(msg)}
	}
	return os.ReadFile(out)
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// guestRunner runs the guest with fsys mounted read-write at "/".
type guestRunner struct {
	t        *testing.T
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
}

func newGuestRunner(t *testing.T) *guestRunner {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a wasip1 guest; skipped with -short")
	}
	wasm, err := guestWasm()
	if err != nil {
		t.Skipf("cannot build the wasip1 guest (GOOS=wasip1 GOARCH=wasm go build ./testdata/guest): %v", err)
	}
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	t.Cleanup(func() { _ = r.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	compiled, err := r.CompileModule(ctx, wasm)
	require.NoError(t, err)
	return &guestRunner{t: t, runtime: r, compiled: compiled}
}

// run runs the steps in one guest process and returns its output lines.
func (g *guestRunner) run(fsys *FS, steps ...string) []string {
	g.t.Helper()
	var stdout, stderr bytes.Buffer
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithArgs(append([]string{"guest"}, steps...)...).
		WithStdout(&stdout).
		WithStderr(&stderr).
		WithSysWalltime().
		WithFSConfig(wazero.NewFSConfig().(sysfs.FSConfig).WithSysFSMount(fsys.WASI(), "/"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	mod, err := g.runtime.InstantiateModule(ctx, g.compiled, cfg)
	if mod != nil {
		_ = mod.Close(ctx)
	}
	require.NoError(g.t, err, "guest failed; stderr:\n%s", stderr.String())
	return strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
}

func TestWASIGuest(t *testing.T) {
	g := newGuestRunner(t)

	t.Run("host and guest see each other's files", func(t *testing.T) {
		fsys := newTree(t, "host/", "host/in.txt=from the host\n")
		require.Equal(t, []string{
			`ok "from the host\n"`,
			"ok",
			"ok",
			"ok",
		}, g.run(fsys,
			"cat|/host/in.txt",
			"mkdirall|/guest/deep/er",
			"write|/guest/deep/er/out.txt|written by the guest",
			"append|/host/in.txt|and by the guest\n",
		))
		require.Equal(t, "written by the guest", readAll(t, fsys, "/guest/deep/er/out.txt"))
		require.Equal(t, "from the host\nand by the guest\n", readAll(t, fsys, "/host/in.txt"))
		requireUsage(t, fsys)
	})

	t.Run("listing", func(t *testing.T) {
		fsys := newTree(t, "d/", "d/zeta=1", "d/alpha=2", "d/mid/", "d/link->alpha", "d/Upper=3")
		require.Equal(t, []string{
			"ok Upper,alpha,link@,mid/,zeta",
			"ok Upper,alpha,link,mid,zeta Upper,alpha,link,mid,zeta",
			"ok",
		}, g.run(fsys, "ls|/d", "ls-twice|/d", "ls|/d/mid"))
	})

	t.Run("rename and remove", func(t *testing.T) {
		fsys := newTree(t, "a/", "a/f=1", "a/g=2", "b/", "b/x=3", "c/", "c/d/", "c/d/e=4", "empty/")
		require.Equal(t, []string{
			"ok",         // rename file
			"ok",         // rename over a file replaces it
			"err EISDIR", // file over dir
			"err ENOTEMPTY",
			"err EINVAL", // dir into itself
			"ok",         // dir over empty dir
			"ok",         // remove file
			"err ENOTEMPTY",
			"err EISDIR", // unlink of a directory
			"err ENOTDIR",
			"ok", // removeall
		}, g.run(fsys,
			"rename|/a/f|/a/h",
			"rename|/a/h|/a/g",
			"rename|/a/g|/b",
			"rename|/a|/b",
			"rename|/c|/c/d/x",
			"rename|/b|/empty",
			"remove|/a/g",
			"rmdir|/c",
			"unlink|/c",
			"rmdir|/empty/x",
			"removeall|/c",
		))
		require.Equal(t, []string{"/a/", "/empty/", "/empty/x=3"}, dump(t, fsys))
		requireUsage(t, fsys)
	})

	t.Run("errors", func(t *testing.T) {
		fsys := newTree(t, "d/", "f=1", "work/", "work/esc->../../../../etc/passwd", "loop->loop")
		require.Equal(t, []string{
			"err ENOENT", // missing
			"err EEXIST", // mkdir existing
			"err ENOENT", // write into a missing parent
			"err ENOTDIR",
			"err EEXIST", // O_EXCL
			"err ENOENT", // .. stops at the root
			"err ENOENT", // a link climbing out stays inside
			"err ELOOP",
			"err EPERM", // removing the root
			"err EISDIR",
		}, g.run(fsys,
			"cat|/nope",
			"mkdir|/d",
			"write|/no/such/f|x",
			"write|/f/g|x",
			"create-excl|/f",
			"cat|/../../../etc/passwd",
			"cat|/work/esc",
			"cat|/loop",
			"remove|/",
			"cat|/d",
		))
		require.Equal(t, []string{"/d/", "/f=1", "/loop->loop", "/work/", "/work/esc->../../../../etc/passwd"}, dump(t, fsys),
			"no failed call left anything behind")
	})

	t.Run("symlinks", func(t *testing.T) {
		fsys := newTree(t, "d/", "d/f=target", "hostlink->d/f")
		require.Equal(t, []string{
			`ok "target"`,
			"ok d/f",
			"ok hostlink 3 L--------- ino>0",
			"ok hostlink 6 ---------- ino>0",
			"ok",
			"ok true",
			`ok "target"`,
		}, g.run(fsys,
			"cat|/hostlink",
			"readlink|/hostlink",
			"lstat|/hostlink",
			"stat|/hostlink",
			"symlink|/d/f|/d/guestlink",
			"same|/d/guestlink|/d/f",
			"cat|/d/guestlink",
		))
		target, err := fsys.ReadlinkIfPossible("/d/guestlink")
		require.NoError(t, err)
		require.Equal(t, "/d/f", target, "the guest's link is stored as written")
	})

	t.Run("seek, pwrite, truncate", func(t *testing.T) {
		fsys := New(Options{})
		require.Equal(t, []string{
			`ok end=11 read="llo" at=5 neg=EINVAL eof=0,EOF`,
		}, g.run(fsys, "seek|/f|hello world"))
		require.Equal(t, "XYllo worl", readAll(t, fsys, "/f"))
	})

	t.Run("times", func(t *testing.T) {
		// Go's wasip1 os.Chmod only stats (WASI has no chmod), so only
		// times are checked.
		fsys := newTree(t, "f=1")
		require.Equal(t, []string{"ok"}, g.run(fsys, "chtimes|/f"))
		info, err := fsys.Stat("/f")
		require.NoError(t, err)
		require.True(t, info.ModTime().Equal(time.Unix(1e9, 0)), "%v", info.ModTime())
	})

	t.Run("quota", func(t *testing.T) {
		fsys := New(Options{MaxBytes: 1000, MaxFiles: 3})
		build(t, fsys, "work/")
		big := strings.Repeat("x", 1001)
		fits := strings.Repeat("y", 1000)
		require.Equal(t, []string{
			"err EIO", // over the byte quota: WASI has no ENOSPC
			"ok",
			"ok",
			"err EIO", // over the file quota
			"ok",
		}, g.run(fsys,
			"write|/work/big|"+big,
			"write|/work/big|"+fits,
			"mkdir|/work/d",
			"mkdir|/work/e",
			"remove|/work/d",
		))
		require.Equal(t, fits, readAll(t, fsys, "/work/big"))
		requireUsed(t, fsys, 1000, 2)
		require.Error(t, afero.WriteFile(fsys, "/work/more", []byte("z"), 0o644), "the host sees the same quota")
	})
}
