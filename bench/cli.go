package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// CLIRuns is how many whole processes each CLI command is measured over,
// warm and without the daemon.
const CLIRuns = 10

// CLIFirstRuns is how many first runs (each starting a daemon in a fresh
// state folder, stopped after) each CLI command is measured over.
const CLIFirstRuns = 3

// CLICommands are the commands of the CLI row: each the arguments after
// `agentenkit run --`, and what it must print.
var CLICommands = []struct {
	Args []string
	Want string
}{
	{[]string{"echo", "hi"}, "hi\n"},
	{[]string{"python3", "-c", "print(1)"}, "1\n"},
}

// The ways the CLI rows run a command.
const (
	// CLIWarm: the state folder's daemon runs (started by a warm-up run,
	// its start-up work done): what every run but the first costs.
	CLIWarm = "warm: the daemon runs"
	// CLIFirst: no daemon runs; the run starts it (which compiles the
	// images from the compilation cache) and waits for its answer.
	CLIFirst = "first run: starts the daemon"
	// CLIInProcess: --no-daemon, the sandbox in the client's process.
	CLIInProcess = "--no-daemon: in-process"
)

// CLIResult is one CLI command run one way, measured as whole processes:
// the medians of Runs client processes' wall time, CPU time and peak RSS
// (rusage); for the daemon's ways, also the daemon's CPU time per run and
// its memory.
type CLIResult struct {
	Command string
	Mode    string // CLIWarm, CLIFirst or CLIInProcess
	Runs    int
	Wall    time.Duration
	CPU     time.Duration // the client process's (user + system)
	PeakRSS uint64        // the client process's
	// DaemonCPU is the daemon's CPU time per run: for CLIWarm the mean
	// over the runs; for CLIFirst the median of what it had used when the
	// run ended (it goes on compiling the other images after).
	DaemonCPU time.Duration
	// DaemonRSS and DaemonPeakRSS are the daemon's resident memory after
	// the runs and at its peak (VmRSS, VmHWM).
	DaemonRSS, DaemonPeakRSS uint64
	Err                      error
}

// MeasureCLI runs `bin run -- COMMAND` for each of CLICommands three ways:
// with the daemon warm (runs processes on one state folder, after a
// warm-up run that starts the daemon and after the daemon's start-up work
// settles), as first runs (CLIFirstRuns, each on a fresh state folder,
// the daemon stopped after) and in-process (runs, each with a fresh state
// folder, after a warm-up), on the provider the CLI defaults to (env adds
// to the environment). State folders are made under dir.
func MeasureCLI(ctx context.Context, log io.Writer, bin, dir string, runs int, env []string) []CLIResult {
	var out []CLIResult
	for _, c := range CLICommands {
		cmdline := "agentenkit run -- " + strings.Join(c.Args, " ")
		for _, r := range []CLIResult{
			measureWarm(ctx, bin, dir, runs, env, c.Args, c.Want),
			measureFirst(ctx, bin, dir, min(runs, CLIFirstRuns), env, c.Args, c.Want),
			measureInProcess(ctx, bin, dir, runs, env, c.Args, c.Want),
		} {
			r.Command = cmdline
			if r.Err == nil {
				fmt.Fprintf(log, "bench: cli      %-40s %-30s %s wall, client %s CPU and %s peak RSS (medians of %d); daemon %s CPU, %s RSS\n",
					r.Command, r.Mode, round(r.Wall), round(r.CPU), bytesIEC(r.PeakRSS), r.Runs, round(r.DaemonCPU), bytesIEC(r.DaemonRSS))
			} else {
				fmt.Fprintf(log, "bench: cli      %-40s %-30s not measured: %v\n", r.Command, r.Mode, r.Err)
			}
			out = append(out, r)
		}
	}
	return out
}

// cliRun is one client process measured.
type cliRun struct {
	wall, cpu time.Duration
	rss       uint64
}

// runCLI runs bin with args in state folder state and checks its output.
func runCLI(ctx context.Context, bin, state string, env []string, want string, args ...string) (cliRun, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append(os.Environ(), "AGENTENKIT_STATE_DIR="+state, "AGENTENKIT_PROVIDER="), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := cliRun{wall: time.Since(start)}
	switch {
	case err != nil:
		return r, fmt.Errorf("agentenkit %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	case want != "" && stdout.String() != want:
		return r, fmt.Errorf("agentenkit %s printed %q, want %q (stderr %q)", strings.Join(args, " "), stdout.String(), want, stderr.String())
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		r.rss = uint64(ru.Maxrss) * 1024 // Linux: KiB
	}
	return r, nil
}

// medians fills r's client figures from runs.
func (r *CLIResult) medians(runs []cliRun) {
	var walls, cpus []time.Duration
	var rss []uint64
	for _, x := range runs {
		walls, cpus, rss = append(walls, x.wall), append(cpus, x.cpu), append(rss, x.rss)
	}
	r.Runs = len(runs)
	r.Wall = medianOf(walls).PerOp
	r.CPU = medianOf(cpus).PerOp
	r.PeakRSS = slices.Sorted(slices.Values(rss))[len(rss)/2]
}

func measureWarm(ctx context.Context, bin, dir string, runs int, env, args []string, want string) CLIResult {
	r := CLIResult{Mode: CLIWarm}
	state, err := os.MkdirTemp(dir, "state-")
	if err != nil {
		r.Err = err
		return r
	}
	defer os.RemoveAll(state)
	defer stopDaemon(bin, state, env)
	run := append([]string{"run", "--"}, args...)
	if _, err := runCLI(ctx, bin, state, env, want, run...); err != nil {
		r.Err = err
		return r
	}
	pid, err := daemonPID(ctx, bin, state, env)
	if err != nil {
		r.Err = err
		return r
	}
	settle(pid)
	cpu0, _ := procCPU(pid)
	var got []cliRun
	for range runs {
		x, err := runCLI(ctx, bin, state, env, want, run...)
		if err != nil {
			r.Err = err
			return r
		}
		got = append(got, x)
	}
	cpu1, _ := procCPU(pid)
	r.medians(got)
	r.DaemonCPU = (cpu1 - cpu0) / time.Duration(runs)
	r.DaemonRSS, r.DaemonPeakRSS = procMemory(pid)
	return r
}

func measureFirst(ctx context.Context, bin, dir string, runs int, env, args []string, want string) CLIResult {
	r := CLIResult{Mode: CLIFirst}
	var got []cliRun
	var daemonCPU []time.Duration
	var rss, peak []uint64
	for range runs {
		state, err := os.MkdirTemp(dir, "state-")
		if err != nil {
			r.Err = err
			return r
		}
		x, err := runCLI(ctx, bin, state, env, want, append([]string{"run", "--"}, args...)...)
		if err == nil {
			var pid int
			if pid, err = daemonPID(ctx, bin, state, env); err == nil {
				cpu, _ := procCPU(pid)
				daemonCPU = append(daemonCPU, cpu)
				settle(pid)
				a, b := procMemory(pid)
				rss, peak = append(rss, a), append(peak, b)
			}
		}
		stopDaemon(bin, state, env)
		_ = os.RemoveAll(state)
		if err != nil {
			r.Err = err
			return r
		}
		got = append(got, x)
	}
	r.medians(got)
	r.DaemonCPU = medianOf(daemonCPU).PerOp
	r.DaemonRSS = slices.Sorted(slices.Values(rss))[len(rss)/2]
	r.DaemonPeakRSS = slices.Sorted(slices.Values(peak))[len(peak)/2]
	return r
}

func measureInProcess(ctx context.Context, bin, dir string, runs int, env, args []string, want string) CLIResult {
	r := CLIResult{Mode: CLIInProcess}
	var got []cliRun
	for i := -1; i < runs; i++ {
		state, err := os.MkdirTemp(dir, "state-")
		if err != nil {
			r.Err = err
			return r
		}
		x, err := runCLI(ctx, bin, state, env, want, append([]string{"run", "--no-daemon", "--"}, args...)...)
		_ = os.RemoveAll(state)
		if err != nil {
			r.Err = err
			return r
		}
		if i >= 0 { // not the warm-up
			got = append(got, x)
		}
	}
	r.medians(got)
	return r
}

// daemonPID returns the pid of the state folder's daemon.
func daemonPID(ctx context.Context, bin, state string, env []string) (int, error) {
	cmd := exec.CommandContext(ctx, bin, "daemon", "status")
	cmd.Env = append(append(os.Environ(), "AGENTENKIT_STATE_DIR="+state), env...)
	out, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("agentenkit daemon status: %v", err)
	}
	m := regexp.MustCompile(`(?m)^pid: (\d+)$`).FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("agentenkit daemon status printed no pid: %q", out)
	}
	return strconv.Atoi(string(m[1]))
}

// stopDaemon stops the state folder's daemon.
func stopDaemon(bin, state string, env []string) {
	cmd := exec.Command(bin, "daemon", "stop")
	cmd.Env = append(append(os.Environ(), "AGENTENKIT_STATE_DIR="+state), env...)
	_ = cmd.Run()
}

// settle waits (up to a minute) until process pid has used no CPU for a
// second: the daemon's start-up work (compiling the other images, the
// Python template) done.
func settle(pid int) {
	last, err := procCPU(pid)
	if err != nil {
		return
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		time.Sleep(time.Second)
		now, err := procCPU(pid)
		if err != nil || now == last {
			return
		}
		last = now
	}
}

// procCPU is process pid's CPU time (user + system), from /proc/PID/stat.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command's name, which is in parentheses.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: too few fields", pid)
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * (time.Second / 100), nil // USER_HZ is 100 on Linux
}

// procMemory is process pid's resident memory and its peak (VmRSS,
// VmHWM from /proc/PID/status), 0 where unknown.
func procMemory(pid int) (rss, peak uint64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	for line := range strings.Lines(string(b)) {
		k, v, _ := strings.Cut(line, ":")
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, _ := strconv.ParseUint(f[0], 10, 64)
		switch k {
		case "VmRSS":
			rss = n << 10
		case "VmHWM":
			peak = n << 10
		}
	}
	return rss, peak
}

// CLIMarkdown writes the CLI rows as a markdown table.
func CLIMarkdown(w io.Writer, results []CLIResult) {
	fmt.Fprintln(w, "| CLI (whole processes, wasm) | how | wall | client CPU | client peak RSS | daemon CPU | daemon RSS (peak) |")
	fmt.Fprintln(w, "| --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range results {
		if r.Err != nil {
			fmt.Fprintf(w, "| `%s` | %s | not measured: %s | | | | |\n", r.Command, r.Mode, strings.ReplaceAll(r.Err.Error(), "|", `\|`))
			continue
		}
		daemonCPU, daemonRSS := "none", "none"
		switch r.Mode {
		case CLIWarm:
			daemonCPU = round(r.DaemonCPU) + " per run (mean)"
		case CLIFirst:
			daemonCPU = round(r.DaemonCPU) + " by the run's end"
		}
		if r.Mode != CLIInProcess {
			daemonRSS = fmt.Sprintf("%s (%s)", bytesIEC(r.DaemonRSS), bytesIEC(r.DaemonPeakRSS))
		}
		fmt.Fprintf(w, "| `%s` | %s | %s | %s | %s | %s | %s |\n", r.Command, r.Mode, round(r.Wall), round(r.CPU), bytesIEC(r.PeakRSS), daemonCPU, daemonRSS)
	}
	if len(results) > 0 {
		n := map[string]int{}
		for _, r := range results {
			n[r.Mode] = max(n[r.Mode], r.Runs)
		}
		fmt.Fprintf(w, "\nMedians of whole client processes (wall, CPU and peak RSS from rusage): %q %d runs on one state folder after a warm-up run that started the daemon and after its start-up work settled; %q %d, each with a fresh state folder and no daemon, stopped after; %q %d after a warm-up, each with a fresh state folder. "+
			"The daemon's CPU is its own, apart from the client's (warm: its CPU over the runs divided by their number; first: what it had used when the run ended, then it goes on compiling the python and node images and starting the Python template); its RSS is measured after the runs (first: after that start-up work).\n",
			CLIWarm, n[CLIWarm], CLIFirst, n[CLIFirst], CLIInProcess, n[CLIInProcess])
	}
}
