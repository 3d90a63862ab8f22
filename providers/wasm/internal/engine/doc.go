// Package engine runs WASI images for the wasm adapter: one wazero runtime
// per Engine, each image compiled once and instantiated per command.
//
// # Vocabulary
//
//   - An Engine owns one wazero.Runtime (compiler backend, DWARF off) with an optional compilation cache on disk, and the host
//     modules every guest may import (WASI, plus any AddHostModule adds).
//   - An Image is one compiled module (Load compiles it once per Engine, even
//     when many goroutines ask at once). Many commands run it concurrently;
//     each Run is a fresh instance with its own memory, arguments,
//     environment, stdio and filesystem mount.
//   - With a cache, what Load makes of an image file is made once, not per
//     process (prepared.go): the rewritten module split from its data, the
//     data's memory image (mapped from the cache's file, shared through the
//     page cache), Python's site files, found from one stat of the file.
//     What is left per process is wazero's: it decodes and validates every
//     function of the module and reads its compiled code into memory even
//     on a cache hit, in time and memory linear in the module's size.
//
// # Limits
//
//   - Time: RunSpec.Timeout and ctx's deadline. Each image is instrumented
//     at Load with a countdown on every loop iteration (checks.go): every
//     checkEvery iterations the guest calls WASI's sched_yield, which ends
//     the instance when its context has ended and lets other goroutines
//     run, so a spinning guest ends soon after its deadline even when more
//     guests spin than there are cores (TestBusyGuestsEndAtDeadline).
//     Only loops are counted: code that recurses without a loop is not
//     ended before it overflows its stack; in both images, work that
//     input can make long goes through loops (CPython's eval loop, the
//     shell's interpreter). This costs a few
//     percent of guest CPU where wazero's WithCloseOnContextDone (a check
//     outside native code at every back-edge and call) doubled it. A
//     sleeping guest wakes at once, and a guest waiting on stdin gets end
//     of file. An image with loops that does not import sched_yield
//     cannot be ended, and Load refuses it.
//   - Memory: a cap per instance (Options.MemoryLimitPages, default 8192
//     pages = 512 MiB, or RunSpec.MemoryLimitPages). Growing past it fails
//     inside the guest (Python raises MemoryError); the rest of the process
//     is untouched.
//   - A guest trap (unreachable, out-of-bounds access, stack exhaustion) ends
//     that run with exit code ExitTrap, never a host panic.
//
// # Memory on Linux
//
// An instance's linear memory is one anonymous mapping of its cap, outside
// the Go heap: growing neither copies nor clears, untouched pages cost
// nothing, and closing the instance returns the pages at once. A module's
// data segments (100 000 of them, 12 MB, in a Go program) are laid out once
// at Load into an image in an unlinked temporary file and mapped
// copy-on-write into each new instance (dataimage.go) instead of being
// copied by wazero: about 12 ms less per busybox instance, and pages that
// instances only read are shared. Elsewhere memory is a Go slice and
// wazero copies the segments.
//
// # Results
//
// Run returns the guest's exit code and a nil error whenever the guest ended
// by itself within its limits, whatever the code. When the engine ended it
// or it crashed, the error is a *RunError and the code is still a result:
//
//	what                       code           errors.Is(err, …)
//	time limit / deadline      ExitTimeout    ErrTimeout, context.DeadlineExceeded
//	ctx cancelled              ExitCanceled   ErrCanceled, context.Canceled
//	memory cap hit, then exit  guest's code   ErrMemoryLimit
//	trap                       ExitTrap       ErrTrap
//
// For ErrMemoryLimit and ErrTrap the engine also writes one line saying so
// to the run's Stderr, so a reader of the output sees why. Any other error
// (code -1) means the run could not start: a setup fault, not a result.
//
// # WASI as wazero gives it, and what the engine changes
//
//   - Clocks are real (time.Now and a monotonic clock), random is
//     crypto/rand, sleeping honours ctx.
//   - poll_oneoff accepts absolute-time clock subscriptions, which wazero
//     rejects with ENOTSUP (errno 58). The engine rewrites each one into the
//     equivalent relative timeout and hands the call to wazero's own
//     poll_oneoff, so CPython's time.sleep (clock_nanosleep with
//     TIMER_ABSTIME) works.
//   - The guest sees only RunSpec.FS, mounted read-write at "/", and an empty
//     environment except RunSpec.Env and PWD.
//
// # Python
//
// An image loaded under the name Python gets CPython's conventions:
//
//   - wasi-libc starts every process in "/" and ignores $PWD, so the engine
//     mounts a read-only folder holding a sitecustomize.py at PythonSiteDir,
//     puts it first on PYTHONPATH, and that file calls os.chdir($PWD) before
//     any user code runs (`-S` and `-I` skip site and so start in "/").
//   - CPython makes a relative script path absolute against "/" before site
//     runs, so Run rewrites the first script argument (after the options, not
//     after -c or -m) to RunSpec.Dir joined with it.
//   - The standard library CPython keeps in a zip inside the image is read
//     out once at Load and mounted read-only at PythonStdlibDir, last on
//     PYTHONPATH: CPython's zipimport would otherwise parse the zip's
//     directory in Python code on every start (about 45 ms). An image with
//     its standard library beside it as python3XY.zip (the project's own
//     build, images.BuildPython) has that zip mounted at
//     /usr/local/lib/python3.XY instead, where its CPython finds it by
//     itself, and not on PYTHONPATH.
//   - The sandbox's /usr/bin and /usr/sbin are mounted at the same paths
//     too (PythonUsrMounts): the npm image's own tree at /usr (its
//     standard library, wasi-vfs) would hide them from CPython.
//   - PYTHONUNBUFFERED=1 (stdout is not a TTY; without it nothing streams)
//     and PYTHONDONTWRITEBYTECODE=1 (no __pycache__ in the sandbox's files),
//     unless RunSpec.Env sets them.
//
// Other images (the busybox shell is Go for GOOS=wasip1, which takes its
// working folder from $PWD) only get PWD.
package engine
