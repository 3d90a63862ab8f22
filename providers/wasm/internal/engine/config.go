package engine

import (
	"context"
	"crypto/rand"
	"io"
	"io/fs"
	"maps"
	"runtime"
	"slices"

	"github.com/tetratelabs/wazero"
	experimentalsys "github.com/tetratelabs/wazero/experimental/sys"
	"github.com/tetratelabs/wazero/experimental/sysfs"
)

// moduleConfig is the module config of every instance, one-shot or warm:
// argv, the whole environment env (nothing of the host's), stdio, the
// mounts, real clocks, crypto random, and sleeps that end when sleepCtx
// does.
func moduleConfig(args []string, env map[string]string, stdin io.Reader, stdout, stderr io.Writer, mounts wazero.FSConfig, sleepCtx context.Context) wazero.ModuleConfig {
	cfg := wazero.NewModuleConfig().
		WithName("").
		WithArgs(args...).
		WithStdin(stdin).
		WithStdout(stdout).
		WithStderr(stderr).
		WithFSConfig(mounts).
		WithRandSource(rand.Reader).
		WithSysWalltime().
		WithNanotime(nanotime, 1000).
		WithNanosleep(nanosleep(sleepCtx)).
		WithOsyield(runtime.Gosched)
	for _, k := range slices.Sorted(maps.Keys(env)) {
		cfg = cfg.WithEnv(k, env[k])
	}
	return cfg
}

// mounts is what an instance of img sees: fsys read-write at "/" (none
// when nil) and, for a Python image, site at PythonSiteDir and stdlib (when
// not nil) at img.stdlibDir.
func (img *Image) mounts(fsys experimentalsys.FS, site, stdlib fs.FS) wazero.FSConfig {
	fsc := wazero.NewFSConfig()
	if fsys != nil {
		fsc = fsc.(sysfs.FSConfig).WithSysFSMount(fsys, "/")
	}
	if img.python {
		fsc = fsc.WithFSMount(site, PythonSiteDir)
		if stdlib != nil {
			fsc = fsc.WithFSMount(stdlib, img.stdlibDir)
		}
	}
	return fsc
}

// allocator is an instance's memory: capped at pages (zero: the Engine's
// cap), counted in budget when not nil.
func (img *Image) allocator(pages uint32, budget *MemoryBudget) *capAllocator {
	if pages == 0 {
		pages = img.e.opts.MemoryLimitPages
	}
	return &capAllocator{limit: uint64(pages) << 16, data: img.data, budget: budget}
}
