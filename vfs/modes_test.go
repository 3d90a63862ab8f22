package vfs

import (
	"context"
	"io/fs"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
)

// TestWASIModes: what a WASI guest creates gets 0644 (files) and 0755
// (folders), whatever wazero asks; every stat carries the node's mode in
// st_dev; a mode set by the host is what the guest sees next.
func TestWASIModes(t *testing.T) {
	fsys := New(Options{})
	w := fsys.WASI()
	f, e := w.OpenFile("f", experimentalsys.O_CREAT|experimentalsys.O_RDWR, 0o600)
	require.Zero(t, e)
	require.Zero(t, f.Close())
	require.Zero(t, w.Mkdir("d", 0o700))
	for name, want := range map[string]fs.FileMode{"f": 0o644, "d": fs.ModeDir | 0o755} {
		fi, err := fsys.Stat(name)
		require.NoError(t, err)
		assert.Equal(t, want, fi.Mode(), name)
		st, e := w.Stat(name)
		require.Zero(t, e)
		assert.Equal(t, WASIDevTag|uint64(want.Perm()), st.Dev, "%s: st_dev carries the mode", name)
	}
	require.NoError(t, fsys.Chmod("f", 0o750|fs.ModeSetuid))
	st, e := w.Lstat("f")
	require.Zero(t, e)
	assert.Equal(t, WASIDevTag|0o4750, st.Dev)
	h, e := w.OpenFile("f", experimentalsys.O_RDONLY, 0)
	require.Zero(t, e)
	hst, e := h.Stat()
	require.Zero(t, e)
	assert.Equal(t, st.Dev, hst.Dev, "an open file's stat carries it too")
	require.Zero(t, h.Close())
	// Opening an existing file with O_CREAT leaves its mode alone.
	h, e = w.OpenFile("f", experimentalsys.O_CREAT|experimentalsys.O_WRONLY|experimentalsys.O_TRUNC, 0o600)
	require.Zero(t, e)
	require.Zero(t, h.Close())
	fi, err := fsys.Stat("f")
	require.NoError(t, err)
	assert.Equal(t, 0o750|fs.ModeSetuid, fi.Mode())
	for _, u := range []uint32{0, 0o7, 0o755, 0o4755, 0o2750, 0o1777} {
		assert.Equal(t, u, UnixMode(FileMode(u)), "%o", u)
	}
}

// TestSnapshotKeepsModes: permission bits, setuid/setgid and the sticky
// bit survive a snapshot, and WriteFile keeps a replaced file's mode.
func TestSnapshotKeepsModes(t *testing.T) {
	ctx := context.Background()
	src := New(Options{})
	require.NoError(t, src.MkdirAll("/w/tmp", 0o755))
	require.NoError(t, src.WriteFile("/w/run.sh", []byte("#!/bin/sh\n"), 0o644))
	require.NoError(t, src.Chmod("/w/run.sh", 0o755))
	require.NoError(t, src.WriteFile("/w/run.sh", []byte("#!/bin/sh\necho\n"), 0o644))
	require.NoError(t, src.Chmod("/w/tmp", fs.ModeDir|fs.ModeSticky|0o777))
	require.NoError(t, src.WriteFile("/w/suid", nil, 0o644))
	require.NoError(t, src.Chmod("/w/suid", fs.ModeSetuid|0o755))
	store := memkv.New(memkv.Options{})
	_, err := NewSnapshotter(store, "m/").Save(ctx, src, time.Hour)
	require.NoError(t, err)
	got, _, err := NewSnapshotter(store, "m/").Load(ctx, Options{})
	require.NoError(t, err)
	for name, want := range map[string]string{"/w/run.sh": "-rwxr-xr-x", "/w/tmp": "dtrwxrwxrwx", "/w/suid": "urwxr-xr-x"} {
		fi, err := got.Stat(name)
		require.NoError(t, err)
		assert.Equal(t, want, fi.Mode().String(), name)
	}
}
