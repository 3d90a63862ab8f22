package vfs_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/agentenkit/agentenkit/vfs"
	"github.com/spf13/afero"
)

func ExampleNew() {
	fsys := vfs.New(vfs.Options{MaxBytes: 8})
	_ = fsys.MkdirAll("/work", 0o755)
	fmt.Println(afero.WriteFile(fsys, "work/a.txt", []byte("12345678"), 0o644))
	err := afero.WriteFile(fsys, "/work/b.txt", []byte("9"), 0o644)
	fmt.Println(errors.Is(err, vfs.ErrNoSpace), err)
	_, err = fsys.Stat("/work/../../../work/nope")
	fmt.Println(errors.Is(err, fs.ErrNotExist), err)
	fmt.Println(fsys.Usage())
	// Output:
	// <nil>
	// true write /work/b.txt: no space left on device (sandbox quota of 8 bytes)
	// true stat /work/nope: no such file or directory
	// 8 3
}

func ExampleFS_SymlinkIfPossible() {
	fsys := vfs.New(vfs.Options{})
	_ = fsys.MkdirAll("/work", 0o755)
	_ = fsys.SymlinkIfPossible("../../../../etc/passwd", "/work/passwd")
	_, err := afero.ReadFile(fsys, "/work/passwd")
	fmt.Println(err)
	// Output:
	// open /work/passwd: no such file or directory
}

func ExampleSandboxFS() {
	ctx := context.Background()
	files := vfs.SandboxFS(vfs.New(vfs.Options{}), "/home/user")
	_ = files.WriteFile(ctx, "src/main.py", []byte("print(1)\n"))
	entries, _ := files.ReadDir(ctx, "src")
	for _, e := range entries {
		fmt.Println(e.Path, e.Size)
	}
	// Output:
	// /home/user/src/main.py 9
}

func ExampleFS_IOFS() {
	fsys := vfs.New(vfs.Options{})
	_ = fsys.MkdirAll("/a/b", 0o755)
	_ = afero.WriteFile(fsys, "/a/b/c.txt", nil, 0o644)
	_ = fs.WalkDir(fsys.IOFS(), ".", func(p string, d fs.DirEntry, err error) error {
		fmt.Println(p)
		return err
	})
	// Output:
	// .
	// a
	// a/b
	// a/b/c.txt
}
