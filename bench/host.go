package bench

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/sandbox"
)

// HostName is the native reference's column: the workloads' commands run
// by the host's own bash and python3, with nothing around them.
const HostName = "host"

// hostWorkloads are the workloads measured on the host: the commands of
// issue #19's rows. The others (files, snapshots, downloads) have no native
// counterpart apart from what the local adapter measures.
var hostWorkloads = []string{
	CreateEchoName, FirstSeqName, FirstConcName, WarmEchoName, PipelineName,
	ShellLoopName, PythonName, FirstPythonName, PythonCPUName, ConcurrentName,
}

// hostAdapter is the native reference as an Adapter, so that it runs the
// very workloads the adapters run: every command is `bash -c COMMAND`, a new
// host process in one shared folder, without the local adapter's process
// group, PID namespace, environment or state file. Create costs nothing:
// every "sandbox" is that folder.
func hostAdapter() Adapter {
	return Adapter{Name: HostName, Only: hostWorkloads, Memory: HostProcesses, New: func() (sandbox.Provider, func(), error) {
		bash, err := exec.LookPath("bash")
		if err != nil {
			return nil, nil, fmt.Errorf("no bash on this host: %w", err)
		}
		dir, err := os.MkdirTemp("", "agentenkit-bench-host")
		if err != nil {
			return nil, nil, err
		}
		// The files of the folder (the CPU-bound set's script) through the
		// local adapter's FileSystem.
		sb, err := localsandbox.New(localsandbox.Options{Root: dir}).Create(context.Background(), sandbox.CreateSandboxOptions{})
		if err != nil {
			os.RemoveAll(dir)
			return nil, nil, err
		}
		local := sb.(*localsandbox.Sandbox)
		return &hostProvider{sb: &hostSandbox{Sandbox: local, bash: bash, env: hostEnv()}}, func() { os.RemoveAll(dir) }, nil
	}}
}

// hostEnv is the environment of the host's commands: this process's, with
// the folder of the python3 interpreter itself first on PATH, so that
// python3 is the interpreter and not a wrapper in front of it (pyenv's
// shim, a bash script, costs ~0.4 s a start).
func hostEnv() []string {
	env := os.Environ()
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	exe := strings.TrimSpace(string(out))
	if err != nil || !filepath.IsAbs(exe) {
		return env // no python3: the python rows say so
	}
	return append(env, "PATH="+filepath.Dir(exe)+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// hostProvider makes the host's "sandboxes": the one folder, every time.
type hostProvider struct{ sb *hostSandbox }

func (p *hostProvider) Name() string { return HostName }

func (p *hostProvider) Create(context.Context, sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	return p.sb, nil
}

func (p *hostProvider) Connect(context.Context, string) (sandbox.Sandbox, error) {
	return nil, fmt.Errorf("bench: the host reference keeps no sandboxes to connect to: %w", sandbox.ErrUnsupported)
}

// hostSandbox runs commands as `bash -c COMMAND` in the local sandbox's
// folder; its files are the local sandbox's.
type hostSandbox struct {
	*localsandbox.Sandbox
	bash string
	env  []string
}

func (s *hostSandbox) Provider() string { return HostName }

// RunCommand runs command with the host's bash, in the folder, in a
// process group of its own killed at opts.Timeout (default 120 s) as the
// adapters' commands are. A non-zero exit is a result.
func (s *hostSandbox) RunCommand(ctx context.Context, command string, opts sandbox.RunCommandOptions) (sandbox.CommandResult, error) {
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(opts.Timeout, sandbox.DefaultCommandTimeout))
	defer cancel()
	cmd := exec.CommandContext(ctx, s.bash, "-c", command)
	cmd.Dir, cmd.Env = s.Dir(), s.env
	// At the time limit the whole process group is killed. Its output
	// pipes get 30 s to drain after it ends: with 100 commands at once on
	// a loaded host (load 28 on 2 cores) 1 s cut the copy of 14 of them.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 30 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := sandbox.CommandResult{Stdout: stdout.String(), Stderr: stderr.String(), Duration: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		res.ExitCode, res.TimedOut = sandbox.TimeoutExitCode, true
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
	case err != nil:
		return sandbox.CommandResult{}, fmt.Errorf("bench: host bash: %w", err)
	}
	return res, nil
}

// Destroy leaves the folder: it is every sandbox's, removed with the
// provider.
func (s *hostSandbox) Destroy(context.Context) error { return nil }
