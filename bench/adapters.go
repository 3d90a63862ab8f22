// Package bench measures the sandbox adapters side by side: the same
// workloads on every adapter available here, the host's own bash and
// python3 as the native reference (HostName) and the npm peers just-bash
// and Pyodide where fetched (Peers), reported as ratios between columns
// measured in one run (never as timed assertions), with issue #19's
// targets judged on them (Targets).
//
//	go test -run '^$' -bench . ./bench/      # the raw numbers (adapters and host)
//	make bench-peers                         # fetch the peers (optional)
//	make bench                               # the table and chart, bench/out/results.{md,png}
package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/agentenkit/agentenkit/providers/docker"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv/memkv"
	"github.com/agentenkit/agentenkit/sandbox"
)

// Adapter is one adapter under measurement.
type Adapter struct {
	Name string
	// New returns its provider, or an error saying why it is not available
	// here.
	New func() (sandbox.Provider, func(), error)
	// Python are the create options of a sandbox that has python3 (an
	// image with it, on docker); the zero value where the default sandbox
	// has it or nothing does.
	Python sandbox.CreateSandboxOptions
	// Concurrent is how many sandboxes the concurrent workload makes at once
	// here; 0 means DefaultConcurrent. Lowered only for an adapter too slow
	// for make bench to end in time, and then the table says so.
	Concurrent int
	// Memory says what the concurrent workload's peak RSS covers here.
	Memory Memory
	// Only, when set, are the names of the only workloads measured on it;
	// the others are left out (not even n/a).
	Only []string
	// KvWritten, where the adapter keeps its sandboxes in a kv, is how many
	// bytes it has written to it so far (the snapshot workload reports it).
	KvWritten func() uint64
}

// Memory says where an adapter's sandboxes and commands keep their memory,
// and so what this process's peak RSS tells about them.
type Memory int

const (
	// InProcess: sandboxes and commands live in this process, so its peak
	// RSS is theirs (memory, wasm).
	InProcess Memory = iota
	// ChildProcesses: commands are host processes started by this one; the
	// peak RSS reported is this process's only (local).
	ChildProcesses
	// Elsewhere: sandboxes are containers or remote machines; no RSS is
	// reported, the wall time only (docker).
	Elsewhere
	// HostProcesses: every command is a host process of its own and there
	// is no sandbox; no RSS is reported, the wall time only (the host
	// reference).
	HostProcesses
)

// measures says whether w is measured on a.
func (a Adapter) measures(w Workload) bool {
	return a.Only == nil || slices.Contains(a.Only, w.Name)
}

// DockerImage is the image the docker adapter is measured with (built by
// providers/docker/testdata/build-images.sh).
const DockerImage = "agentenkit-test-busybox:1"

// DockerPythonImage is the docker adapter's image for the workloads that
// run python3 (build-images.sh python); without it they are not measured
// there.
const DockerPythonImage = "agentenkit-test-python:1"

// warmTimeout bounds the wasm adapter's Warm before any workload.
const warmTimeout = 20 * time.Minute

// wasmKv is the wasm adapter's kv, counting what it writes.
var wasmKv = &countingKv{Store: memkv.New(memkv.Options{})}

// Adapters lists the adapters, fastest to set up first, and last the host
// as the native reference (HostName).
func Adapters() []Adapter {
	return []Adapter{
		{Name: "memory", New: func() (sandbox.Provider, func(), error) {
			return memory.New(memory.Options{}), func() {}, nil
		}},
		{Name: "local", New: func() (sandbox.Provider, func(), error) {
			dir, err := os.MkdirTemp("", "agentenkit-bench")
			if err != nil {
				return nil, nil, err
			}
			return localsandbox.New(localsandbox.Options{Root: dir}), func() { os.RemoveAll(dir) }, nil
		}, Memory: ChildProcesses},
		{Name: "wasm", New: func() (sandbox.Provider, func(), error) {
			// TestNetwork lets the download workload reach its server on
			// the host's loopback, which the policy refuses otherwise.
			// LazyNode, as the CLI's daemon: no workload runs node, whose
			// compiled code (~83 MB resident) would otherwise sit in every
			// row's memory, the concurrent row's peaks included.
			p := wasm.New(wasm.Options{Kv: wasmKv, TestNetwork: &wasm.TestNetwork{AllowLoopback: true}, Prewarm: true, LazyNode: true})
			// Compile the images and make the Python template first
			// (once per process, as a long-lived process would), so that no
			// workload measures it.
			// Compiling takes minutes on a loaded machine when the
			// compilation cache is cold (2 min was not enough at load 78
			// on 2 cores, which cost make bench the whole wasm column).
			ctx, cancel := context.WithTimeout(context.Background(), warmTimeout)
			defer cancel()
			start := time.Now()
			if err := p.Warm(ctx); err != nil {
				return nil, nil, fmt.Errorf("wasm: warming the provider (compiling the images, making the Python template) failed after %s: %w", time.Since(start).Round(time.Second), err)
			}
			return p, func() { _ = p.Close() }, nil
		}, KvWritten: wasmKv.written.Load},
		{Name: "docker", New: func() (sandbox.Provider, func(), error) {
			p := docker.New(docker.Options{Image: DockerImage})
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
			defer cancel()
			if err := p.Ping(ctx); err != nil {
				return nil, nil, err
			}
			if exec.Command("docker", "image", "inspect", DockerImage).Run() != nil {
				return nil, nil, fmt.Errorf("image %s missing: run providers/docker/testdata/build-images.sh", DockerImage)
			}
			return p, func() {}, nil
		}, Python: sandbox.CreateSandboxOptions{Image: DockerPythonImage}, Memory: Elsewhere},
		hostAdapter(),
	}
}

// Workload is one measured operation.
//
// A workload is either looped (Op, timed by testing.Benchmark after an
// optional Setup) or measured once (Once).
type Workload struct {
	Name string
	// Setup runs once per adapter before the timed loop; the returned state
	// is passed to Op.
	Setup func(ctx context.Context, a Adapter, p sandbox.Provider) (sandbox.Sandbox, error)
	// Op is one iteration.
	Op func(ctx context.Context, p sandbox.Provider, sb sandbox.Sandbox) error
	// Once measures a workload too big to loop, in one go: its Result has
	// PerOp set to the wall time, and Workload and Adapter left empty for
	// the caller.
	Once func(ctx context.Context, a Adapter, p sandbox.Provider) (Result, error)
}

func echoHi(ctx context.Context, sb sandbox.Sandbox) error {
	res, err := sb.RunCommand(ctx, "echo hi", sandbox.RunCommandOptions{})
	if err != nil {
		return err
	}
	if res.Stdout != "hi\n" {
		return fmt.Errorf("echo hi printed %q (exit %d, stderr %q)", res.Stdout, res.ExitCode, res.Stderr)
	}
	return nil
}

func create(ctx context.Context, _ Adapter, p sandbox.Provider) (sandbox.Sandbox, error) {
	return p.Create(ctx, sandbox.CreateSandboxOptions{})
}

// ErrNoPython: the adapter's sandboxes have no python3, so the python
// workload is not measured there.
var ErrNoPython = errors.New("no python3 in this adapter's sandboxes")

// noPython is err of a Create with a.Python, as ErrNoPython where it says
// the adapter has no image with python3 here.
func noPython(err error) error {
	if errors.Is(err, docker.ErrImageMissing) {
		return fmt.Errorf("%w: %v", ErrNoPython, err)
	}
	return err
}

// withPython makes a sandbox (with a.Python) that has python3, or fails
// with ErrNoPython.
func withPython(ctx context.Context, a Adapter, p sandbox.Provider) (sandbox.Sandbox, error) {
	sb, err := p.Create(ctx, a.Python)
	if err != nil {
		return nil, noPython(err)
	}
	res, err := sb.RunCommand(ctx, "python3 -c pass", sandbox.RunCommandOptions{})
	if err == nil && res.ExitCode != 0 {
		err = fmt.Errorf("%w (exit %d: %s)", ErrNoPython, res.ExitCode, strings.TrimSpace(res.Stderr))
	}
	if err != nil {
		_ = sb.Destroy(ctx)
		return nil, err
	}
	return sb, nil
}

// pipeline is issue #19's 5-stage pipeline; it prints pipelineOut.
const (
	pipeline    = "seq 1 10000 | grep 7 | sort -r | uniq | wc -l"
	pipelineOut = "3439\n"
)

// Workloads lists what is measured on every adapter.
func Workloads() []Workload {
	return []Workload{
		{
			Name: CreateName,
			Once: createOnly,
		},
		{
			Name: CreateEchoName,
			Op: func(ctx context.Context, p sandbox.Provider, _ sandbox.Sandbox) error {
				sb, err := create(ctx, Adapter{}, p)
				if err != nil {
					return err
				}
				defer sb.Destroy(ctx)
				return echoHi(ctx, sb)
			},
		},
		{Name: FirstSeqName, Once: firstCommandSequential},
		{Name: FirstConcName, Once: firstCommandConcurrent},
		{
			Name:  WarmEchoName,
			Setup: create,
			Op:    func(ctx context.Context, _ sandbox.Provider, sb sandbox.Sandbox) error { return echoHi(ctx, sb) },
		},
		{
			Name:  PipelineName,
			Setup: create,
			Op: func(ctx context.Context, _ sandbox.Provider, sb sandbox.Sandbox) error {
				res, err := sb.RunCommand(ctx, pipeline, sandbox.RunCommandOptions{})
				if err == nil && strings.TrimSpace(res.Stdout) != strings.TrimSpace(pipelineOut) {
					err = fmt.Errorf("pipeline printed %q", res.Stdout)
				}
				return err
			},
		},
		{Name: ShellLoopName, Once: shellLoopRun},
		{
			// CPython for WASI on wasm; the host's python3 on local;
			// adapters without python3 are not measured (n/a).
			Name:  PythonName,
			Setup: withPython,
			Op: func(ctx context.Context, _ sandbox.Provider, sb sandbox.Sandbox) error {
				res, err := sb.RunCommand(ctx, "python3 -c 'print(1)'", sandbox.RunCommandOptions{})
				if err == nil && res.Stdout != "1\n" {
					err = fmt.Errorf("python3 printed %q (stderr %q)", res.Stdout, res.Stderr)
				}
				return err
			},
		},
		{Name: FirstPythonName, Once: firstPython},
		{
			Name: IdlePythonName,
			Once: idlePython,
		},
		{Name: PythonCPUName, Once: pythonCPURun},
		{
			Name:  "1 MB file write + read",
			Setup: create,
			Op: func(ctx context.Context, _ sandbox.Provider, sb sandbox.Sandbox) error {
				data := make([]byte, 1<<20)
				if err := sb.FileSystem().WriteFile(ctx, "blob.bin", data); err != nil {
					return err
				}
				got, err := sb.FileSystem().ReadFileBytes(ctx, "blob.bin")
				if err == nil && len(got) != len(data) {
					err = fmt.Errorf("read %d bytes back", len(got))
				}
				return err
			},
		},
		{
			Name: SnapshotName,
			Once: snapshotEdit,
		},
		{
			Name:  DownloadName,
			Setup: downloadSetup,
			Op:    download,
		},
		{
			Name: ConcurrentName,
			Once: concurrent,
		},
		{
			Name: BigFileName,
			Once: bigFile,
		},
	}
}
