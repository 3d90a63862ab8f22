package vfs

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/spf13/afero"
	"github.com/stretchr/testify/require"
)

func TestSymlinkResolution(t *testing.T) {
	tree := []string{
		"a/", "a/b/", "a/b/f=deep", "top=top", "etc/",
		"a/rel->b/f",                      // relative, same folder
		"a/b/up->../../top",               // relative, climbing
		"a/abs->/a/b/f",                   // absolute: from the vfs root
		"a/dir->b",                        // link to a directory
		"chain1->chain2", "chain2->a/rel", // chain of links
		"a/b/dotty->./../b/./f",                      // dots in the target
		"via->a/dir/up",                              // a link through a link to a directory
		"a/esc->../../../../etc/passwd",              // climbs above the root: stays inside
		"a/escabs->/../../etc/passwd",                // absolute and climbing
		"deepdir->/a/b", "a/phys->../deepdir/../top", // ".." after a link is physical
		"loop1->loop2", "loop2->loop1", "self->self", // loops
		"a/dangle->nothing",
	}
	cases := []struct {
		name string
		want string // content, or "" when err is set
		err  error
	}{
		{"/a/rel", "deep", nil},
		{"/a/b/up", "top", nil},
		{"/a/abs", "deep", nil},
		{"/a/dir/f", "deep", nil},
		{"/chain1", "deep", nil},
		{"/a/b/dotty", "deep", nil},
		{"/via", "top", nil},
		{"a/dir/../top", "a-top", nil}, // a name is cleaned lexically first: /a/top
		{"/a/esc", "", fs.ErrNotExist},
		{"/a/escabs", "", fs.ErrNotExist},
		{"/a/phys", "a-top", nil}, // in a target, /deepdir/.. is /a/b/.. = /a (lexically it would be /top)
		{"/loop1", "", syscall.ELOOP},
		{"/self", "", syscall.ELOOP},
		{"/loop1/x", "", syscall.ELOOP},
		{"/a/dangle", "", fs.ErrNotExist},
		{"/a/rel/x", "", syscall.ENOTDIR},
	}
	fsys := newTree(t, tree...)
	build(t, fsys, "a/top=a-top")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := afero.ReadFile(fsys, c.name)
			requireErr(t, c.err, err)
			if c.err == nil {
				require.Equal(t, c.want, string(b))
			}
		})
	}
}

func TestSymlinkEscapeStaysInside(t *testing.T) {
	fsys := newTree(t, "work/", "work/l->../../../../etc/passwd", "work/d->../../../..")
	_, err := fsys.Stat("/work/l")
	requireErr(t, fs.ErrNotExist, err)
	info, err := fsys.Stat("/work/d")
	require.NoError(t, err, "a link climbing out lands on the root")
	require.True(t, info.IsDir())
	names := func() []string {
		h, err := fsys.Open("/work/d")
		require.NoError(t, err)
		defer h.Close()
		n, err := h.Readdirnames(-1)
		require.NoError(t, err)
		return n
	}
	require.Equal(t, []string{"work"}, names(), "the link's directory is this root, not the host's")

	// Making /etc/passwd inside the vfs is the only way to reach it.
	build(t, fsys, "etc/", "etc/passwd=inside")
	require.Equal(t, "inside", readAll(t, fsys, "/work/l"))
	// Writing through the link writes inside, too.
	require.NoError(t, afero.WriteFile(fsys, "/work/d/etc/shadow", []byte("x"), 0o600))
	require.Equal(t, "x", readAll(t, fsys, "/etc/shadow"))
}

func TestSymlinkHops(t *testing.T) {
	fsys := newTree(t, "target=ok")
	// l0 -> target, l1 -> l0, ..., l40 -> l39: reading l39 follows 40 links.
	require.NoError(t, fsys.SymlinkIfPossible("target", "l0"))
	for i := 1; i <= 40; i++ {
		require.NoError(t, fsys.SymlinkIfPossible(fmt.Sprintf("l%d", i-1), fmt.Sprintf("l%d", i)))
	}
	require.Equal(t, "ok", readAll(t, fsys, "/l39"), "40 hops are allowed")
	_, err := fsys.Stat("/l40")
	requireErr(t, syscall.ELOOP, err, "the 41st hop is ELOOP")
	_, _, err = fsys.LstatIfPossible("/l40")
	require.NoError(t, err, "Lstat does not follow")
}

func TestSymlinkOps(t *testing.T) {
	fsys := newTree(t, "d/", "d/f=1", "rel->d/f", "dirl->d")

	target, err := fsys.ReadlinkIfPossible("/rel")
	require.NoError(t, err)
	require.Equal(t, "d/f", target, "Readlink gives the target as written")
	_, err = fsys.ReadlinkIfPossible("/dirl/")
	requireErr(t, syscall.EINVAL, err, "a trailing slash follows the link")

	info, _, err := fsys.LstatIfPossible("/dirl/")
	require.NoError(t, err)
	require.True(t, info.IsDir(), "Lstat of link/ describes the directory")
	info, err = fsys.Stat("/dirl")
	require.NoError(t, err)
	require.True(t, info.IsDir())

	// Open follows; writing through a link changes the target.
	require.NoError(t, afero.WriteFile(fsys, "/rel", []byte("22"), 0o644))
	require.Equal(t, "22", readAll(t, fsys, "/d/f"))

	// Moving a link keeps its target as written: relative now means elsewhere.
	require.NoError(t, fsys.Rename("/rel", "/d/rel"))
	_, err = fsys.Stat("/d/rel")
	requireErr(t, fs.ErrNotExist, err, "d/rel -> d/f now means /d/d/f")
	require.NoError(t, fsys.MkdirAll("/d/d", 0o755))
	require.NoError(t, fsys.SymlinkIfPossible("/d/f", "/d/d/f"))
	require.Equal(t, "22", readAll(t, fsys, "/d/rel"))

	// Renaming a directory carries its links along, targets unchanged: the
	// absolute one now dangles, the relative one still resolves inside.
	require.NoError(t, fsys.Rename("/d", "/e"))
	target, err = fsys.ReadlinkIfPossible("/e/d/f")
	require.NoError(t, err)
	require.Equal(t, "/d/f", target)
	_, err = fsys.Stat("/e/rel")
	requireErr(t, fs.ErrNotExist, err, "/e/rel -> d/f = /e/d/f -> /d/f, gone")
	require.NoError(t, fsys.SymlinkIfPossible("../f", "/e/d/g"))
	require.Equal(t, "22", readAll(t, fsys, "/e/d/g"))
}

func TestSymlinkCreateThroughAndExcl(t *testing.T) {
	fsys := newTree(t, "d/", "l->d/new", "dl->d")
	_, err := fsys.OpenFile("/l", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	requireErr(t, fs.ErrExist, err, "O_EXCL does not follow a link")
	h, err := fsys.OpenFile("/l", os.O_RDWR|os.O_CREATE, 0o644)
	require.NoError(t, err, "O_CREATE through a dangling link makes the target")
	require.Equal(t, "/l", h.Name())
	require.NoError(t, h.Close())
	_, err = fsys.Stat("/d/new")
	require.NoError(t, err)

	requireErr(t, fs.ErrExist, fsys.Mkdir("/dl", 0o755))
	require.NoError(t, fsys.MkdirAll("/dl/x/y", 0o755), "MkdirAll follows a link to a directory")
	require.Equal(t, []string{"/d/", "/d/new=", "/d/x/", "/d/x/y/", "/dl->d", "/l->d/new"}, dump(t, fsys))

	err = fsys.SymlinkIfPossible("x", "/d/new")
	var le *os.LinkError
	require.ErrorAs(t, err, &le)
	require.Equal(t, "symlink", le.Op)
	require.Equal(t, "x", le.Old)
	require.Equal(t, "/d/new", le.New)
	require.ErrorIs(t, err, fs.ErrExist)
	requireErr(t, syscall.EINVAL, fsys.SymlinkIfPossible("a\x00b", "/z"))
}
