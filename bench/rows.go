package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// The names of the rows of issue #19's table, in the table and chart.
const (
	CreateEchoName  = "create + first `echo hi`"
	WarmEchoName    = "warm `echo hi`"
	PipelineName    = "5-stage pipeline"
	PythonName      = "python3 -c 'print(1)'"
	FirstPythonName = "create + first `python3 -c 'print(1)'`"
	ShellLoopName   = "shell loop (100k iterations)"
	PythonCPUName   = "CPU-bound python (int, dict/str, json, re, sort)"
	FirstSeqName    = "time to first command, 100 sequential"
	FirstConcName   = "time to first command, 100 concurrent"
)

// firstPythonRounds is how many sandboxes the first-python workload makes.
const firstPythonRounds = 10

// cpuTime is the CPU time (user + system) this process has used so far, 0
// where it cannot be read.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuNote is the note of a workload's CPU time, where a.Memory says it is
// this process's (and so the guest's).
func cpuNote(a Adapter, cpu time.Duration) string {
	if a.Memory != InProcess || cpu <= 0 {
		return ""
	}
	return "CPU " + round(cpu)
}

// firstPython times, in a new sandbox each round, Create plus its first
// `python3 -c 'print(1)'` (the sandbox destroyed after, untimed): the median
// of firstPythonRounds, and the median CPU time where it is in-process.
func firstPython(ctx context.Context, a Adapter, p sandbox.Provider) (Result, error) {
	took := make([]time.Duration, 0, firstPythonRounds)
	cpus := make([]time.Duration, 0, firstPythonRounds)
	for range firstPythonRounds {
		start, cpu0 := time.Now(), cpuTime()
		sb, err := p.Create(ctx, a.Python)
		if err != nil {
			return Result{}, noPython(err)
		}
		res, err := sb.RunCommand(ctx, "python3 -c 'print(1)'", sandbox.RunCommandOptions{})
		d, cpu := time.Since(start), cpuTime()-cpu0
		_ = destroy(ctx, sb)
		switch {
		case err != nil:
			return Result{}, err
		case res.ExitCode != 0:
			return Result{}, fmt.Errorf("%w (exit %d: %s)", ErrNoPython, res.ExitCode, strings.TrimSpace(res.Stderr))
		case res.Stdout != "1\n":
			return Result{}, fmt.Errorf("python3 printed %q (stderr %q)", res.Stdout, res.Stderr)
		}
		took, cpus = append(took, d), append(cpus, cpu)
	}
	r := medianOf(took)
	if c := cpuNote(a, medianOf(cpus).PerOp); c != "" {
		r.Note += ", " + c
	}
	return r, nil
}

// shellLoop is issue #19's shell loop; it prints the counter at the end.
const shellLoop = "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; echo $i"

// shellLoopRun times shellLoop once in a warm sandbox.
func shellLoopRun(ctx context.Context, a Adapter, p sandbox.Provider) (Result, error) {
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	if err != nil {
		return Result{}, err
	}
	defer destroy(ctx, sb)
	if err := echoHi(ctx, sb); err != nil {
		return Result{}, err
	}
	start, cpu0 := time.Now(), cpuTime()
	res, err := sb.RunCommand(ctx, shellLoop, sandbox.RunCommandOptions{Timeout: 15 * time.Minute})
	d, cpu := time.Since(start), cpuTime()-cpu0
	if err == nil && res.Stdout != "100000\n" {
		err = fmt.Errorf("the loop printed %q (exit %d, stderr %q)", res.Stdout, res.ExitCode, res.Stderr)
	}
	if err != nil {
		return Result{}, err
	}
	return Result{PerOp: d, Note: cpuNote(a, cpu)}, nil
}

// pythonCPU is the CPU-bound python set: each part timed inside the
// interpreter; it prints the sum of their seconds.
const pythonCPU = `import time, json, re, random

def intloop():
    x = 0
    for i in range(300000):
        x += i * i % 7
    return x

def dictstr():
    d = {}
    for i in range(50000):
        d["k%d" % i] = str(i) * 3
    return sum(len(v) for v in d.values())

def js():
    o = [{"a": i, "b": [i, str(i)], "c": {"d": i * 1.5}} for i in range(5000)]
    for _ in range(3):
        o = json.loads(json.dumps(o))
    return len(o)

def rx():
    s = " ".join("word%d x%d" % (i, i) for i in range(20000))
    return len(re.findall(r"word(\d+)", s)) + len(re.sub(r"x(\d)", r"y\1", s))

def srt():
    r = random.Random(1)
    l = [r.random() for _ in range(100000)]
    return sorted(l)[0] + len(sorted(str(x) for x in l[:30000]))

total = 0.0
for f in (intloop, dictstr, js, rx, srt):
    s = time.perf_counter()
    f()
    total += time.perf_counter() - s
print("%.6f" % total)
`

// pythonCPURun runs the CPU-bound python set once in a sandbox with
// python3; its time is the sum of the in-interpreter seconds (what the
// interpreter costs, not its start), the wall time of the command in the
// note.
func pythonCPURun(ctx context.Context, a Adapter, p sandbox.Provider) (Result, error) {
	sb, err := withPython(ctx, a, p)
	if err != nil {
		return Result{}, err
	}
	defer destroy(ctx, sb)
	if err := sb.FileSystem().WriteFile(ctx, "cpu_set.py", []byte(pythonCPU)); err != nil {
		return Result{}, err
	}
	start, cpu0 := time.Now(), cpuTime()
	res, err := sb.RunCommand(ctx, "python3 cpu_set.py", sandbox.RunCommandOptions{Timeout: 5 * time.Minute})
	wall, cpu := time.Since(start), cpuTime()-cpu0
	if err != nil {
		return Result{}, err
	}
	secs, perr := strconv.ParseFloat(strings.TrimSpace(res.Stdout), 64)
	if res.ExitCode != 0 || perr != nil {
		return Result{}, fmt.Errorf("cpu_set.py: exit %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, strings.TrimSpace(res.Stderr))
	}
	note := "in-interpreter sum; command " + round(wall)
	if c := cpuNote(a, cpu); c != "" {
		note += ", " + c
	}
	return Result{PerOp: time.Duration(secs * float64(time.Second)), Note: note}, nil
}

// firstCommands is how many sandboxes each time-to-first-command workload
// makes.
const firstCommands = 100

// firstCommandSequential times create → first `echo hi` for firstCommands
// sandboxes one after another (each destroyed after, untimed): p50, with
// p95 and p99 in the note.
func firstCommandSequential(ctx context.Context, _ Adapter, p sandbox.Provider) (Result, error) {
	took := make([]time.Duration, 0, firstCommands)
	for range firstCommands {
		d, sb, err := firstCommand(ctx, p)
		if sb != nil {
			_ = destroy(ctx, sb)
		}
		if err != nil {
			return Result{}, err
		}
		took = append(took, d)
	}
	return percentiles(took), nil
}

// firstCommandConcurrent times create → first `echo hi` for firstCommands
// sandboxes started at once, each timed on its own (all alive until the
// last ends, destroyed after, untimed): p50, with p95 and p99 in the note.
func firstCommandConcurrent(ctx context.Context, a Adapter, p sandbox.Provider) (Result, error) {
	n := cmp.Or(a.Concurrent, firstCommands)
	took := make([]time.Duration, n)
	sbs := make([]sandbox.Sandbox, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { took[i], sbs[i], errs[i] = firstCommand(ctx, p) })
	}
	wg.Wait()
	undestroyed := destroyAll(ctx, sbs)
	if err := errors.Join(errs...); err != nil {
		return Result{}, err
	}
	r := percentiles(took)
	r.Note += undestroyed
	if n != firstCommands {
		r.Note += fmt.Sprintf(", only %d sandboxes", n)
	}
	return r, nil
}

// firstCommand makes a sandbox and runs `echo hi` in it: the time from the
// call to Create until the command's end.
func firstCommand(ctx context.Context, p sandbox.Provider) (time.Duration, sandbox.Sandbox, error) {
	start := time.Now()
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	if err != nil {
		return 0, nil, err
	}
	err = echoHi(ctx, sb)
	return time.Since(start), sb, err
}

// percentiles is the Result of a distribution: p50 as the time, p95 and
// p99 in the note (nearest rank).
func percentiles(took []time.Duration) Result {
	s := slices.Sorted(slices.Values(took))
	at := func(p int) time.Duration { return s[max(0, (len(s)*p+99)/100-1)] }
	return Result{PerOp: at(50), Note: fmt.Sprintf("p50 of %d; p95 %s, p99 %s", len(s), round(at(95)), round(at(99)))}
}
