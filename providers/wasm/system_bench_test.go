package wasm

import (
	"testing"

	"github.com/spf13/afero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"

	"github.com/agentenkit/agentenkit/vfs"
)

// BenchmarkWASIStat: what the system folders add to a stat through the
// WASI view, per path kind.
func BenchmarkWASIStat(b *testing.B) {
	files := vfs.New(vfs.Options{})
	if err := files.MkdirAll("/home/user/pkg", 0o755); err != nil {
		b.Fatal(err)
	}
	if err := afero.WriteFile(files, "/home/user/pkg/mod.py", []byte("x"), 0o644); err != nil {
		b.Fatal(err)
	}
	sys := withSystem(files, fixedCommands{"ls", "sh", "python3"})
	for _, c := range []struct {
		name string
		fsys experimentalsys.FS
	}{{"vfs", files.WASI()}, {"system", sys}} {
		for _, p := range []string{"home/user/pkg/mod.py", "home/user/pkg/nosuch.py", "usr/bin/ls", "bin/python3"} {
			b.Run(c.name+"/"+p, func(b *testing.B) {
				for b.Loop() {
					_, _ = c.fsys.Stat(p)
				}
			})
		}
	}
}

type fixedCommands []string

func (c fixedCommands) Has(name string) bool {
	for _, n := range c {
		if n == name {
			return true
		}
	}
	return false
}
func (c fixedCommands) Names() []string { return c }
