package bench

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/sandbox"
)

func TestMarkdown(t *testing.T) {
	var b strings.Builder
	Markdown(&b, fakeResults())
	want := "| workload | memory | local | wasm | docker |\n" +
		"| --- | ---: | ---: | ---: | ---: |\n" +
		"| create + first `echo hi` | 40 µs (1x) | 3.0 ms (75x) | 27.0 ms (675x) | 270.0 ms (6750x) |\n" +
		"| python3 -c 'print(1)' | n/a | 100.0 ms (1x) | 160.0 ms (1.6x) | n/a |\n" +
		"| 100 concurrent sandboxes | 50.0 ms (1x)<br>echo, peak RSS 80 MiB | 5.00 s (100x)<br>python3, peak RSS 60 MiB + the commands' host processes | 12.00 s (240x)<br>python3, peak RSS 2.2 GiB | 30.00 s (600x)<br>echo, only 50 sandboxes, RSS not in-process (containers): wall time only |\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestMarkdownUnmeasured: a column with nothing measured is left out, a
// line below the table saying why.
func TestMarkdownUnmeasured(t *testing.T) {
	missing := errors.New("just-bash not fetched (run make bench-peers)")
	results := []Result{
		{Workload: "create + first `echo hi`", Adapter: "memory", PerOp: 40 * time.Microsecond},
		{Workload: "create + first `echo hi`", Adapter: "docker", Err: errors.New("no | daemon\nhere")},
		{Workload: "create + first `echo hi`", Adapter: "just-bash", Err: missing},
		{Workload: "5-stage pipeline", Adapter: "memory", PerOp: 5 * time.Millisecond},
		{Workload: "5-stage pipeline", Adapter: "docker", Err: errors.New("no daemon")},
		{Workload: "5-stage pipeline", Adapter: "just-bash", Err: missing},
	}
	var b strings.Builder
	Markdown(&b, results)
	want := "| workload | memory |\n" +
		"| --- | ---: |\n" +
		"| create + first `echo hi` | 40 µs (1x) |\n" +
		"| 5-stage pipeline | 5.0 ms (1x) |\n" +
		"\n" +
		"Not measured here: **docker**: no \\| daemon here\n" +
		"Not measured here: **just-bash**: just-bash not fetched (run make bench-peers)\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if l := layOut(results); len(l.legend) != 1 || len(l.bars) != 2 {
		t.Errorf("the chart has %d adapters, %d bars; want memory's 2", len(l.legend), len(l.bars))
	}
}

func TestDetails(t *testing.T) {
	for _, tc := range []struct {
		r    Result
		want string
	}{
		{Result{}, ""},
		{Result{Sandboxes: 100, Command: "echo"}, "<br>echo, peak RSS not measured here"},
		{Result{Sandboxes: 100, Command: "python3", PeakRSS: 300<<20 + 1}, "<br>python3, peak RSS 300 MiB"},
		{Result{Sandboxes: 100, Command: "python3", PeakRSS: 3 << 30}, "<br>python3, peak RSS 3.0 GiB"},
		{Result{Sandboxes: 100, Command: "python3", PeakRSS: 3 << 30, PeakPSS: 480 << 20}, "<br>python3, peak PSS 480 MiB (RSS 3.0 GiB)"},
		{Result{Sandboxes: 100, Command: "python3", PeakRSS: 3 << 30, PeakPSS: 480 << 20, Note: "CPU 1.80 s"}, "<br>python3, peak PSS 480 MiB (RSS 3.0 GiB), CPU 1.80 s"},
		{Result{Sandboxes: 100, Command: "python3", Memory: ChildProcesses, PeakRSS: 60 << 20, PeakPSS: 50 << 20}, "<br>python3, peak PSS 50 MiB (RSS 60 MiB) + the commands' host processes"},
		{Result{Sandboxes: 20, Command: "echo", Memory: Elsewhere, PeakRSS: 1 << 20}, "<br>echo, only 20 sandboxes, RSS not in-process (containers): wall time only"},
	} {
		if got := details(tc.r); got != tc.want {
			t.Errorf("details(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}

// counting is a provider that counts the sandboxes it made and those
// destroyed since.
type counting struct {
	sandbox.Provider
	mu               sync.Mutex
	created, removed int
	opts             []sandbox.CreateSandboxOptions
}

func (c *counting) Create(ctx context.Context, opts sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	sb, err := c.Provider.Create(ctx, opts)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.created++
	c.opts = append(c.opts, opts)
	c.mu.Unlock()
	return &countedSandbox{sb, c}, nil
}

type countedSandbox struct {
	sandbox.Sandbox
	c *counting
}

func (s *countedSandbox) Destroy(ctx context.Context) error {
	s.c.mu.Lock()
	s.c.removed++
	s.c.mu.Unlock()
	return s.Sandbox.Destroy(ctx)
}

func TestConcurrentEcho(t *testing.T) {
	p := &counting{Provider: memory.New(memory.Options{})}
	r, err := concurrent(context.Background(), Adapter{Name: "memory", Concurrent: 7}, p)
	if err != nil {
		t.Fatal(err)
	}
	// The memory sandbox has no python3: one probe, then 7 running echo.
	if r.Sandboxes != 7 || r.Command != "echo" || r.PerOp <= 0 {
		t.Errorf("result %+v", r)
	}
	if p.created != 8 || p.removed != 8 {
		t.Errorf("made %d sandboxes, destroyed %d; want 8 and 8", p.created, p.removed)
	}
	if resetPeakRSS() && r.PeakRSS == 0 {
		t.Errorf("no peak RSS where it can be read")
	}
	if _, err := ReadPSS(); err == nil && (r.PeakPSS == 0 || r.PeakPSS > r.PeakRSS+r.PeakRSS/2) {
		t.Errorf("peak PSS %d with peak RSS %d, where PSS can be read", r.PeakPSS, r.PeakRSS)
	}
}

func TestConcurrentPython(t *testing.T) {
	// A memory sandbox with a python3 that prints what the workload asks.
	p := &counting{Provider: memory.New(memory.Options{Handlers: map[string]memory.Handler{
		"python3": func(ctx context.Context, c *memory.Call, args []string) error {
			if len(args) == 3 && args[1] == "-c" && args[2] == "print(6*7)" {
				_, err := c.Stdout.Write([]byte("42\n"))
				return err
			}
			return nil
		},
	}})}
	python := sandbox.CreateSandboxOptions{Metadata: map[string]string{"image": "python"}}
	r, err := concurrent(context.Background(), Adapter{Name: "fake", Concurrent: 3, Python: python, Memory: Elsewhere}, p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Sandboxes != 3 || r.Command != "python3" || r.Memory != Elsewhere || r.PeakRSS != 0 || r.PeakPSS != 0 {
		t.Errorf("result %+v", r)
	}
	for _, o := range p.opts {
		if o.Metadata["image"] != "python" {
			t.Errorf("a sandbox made without the adapter's python options: %+v", o)
		}
	}
	if p.created != 4 || p.removed != 4 {
		t.Errorf("made %d sandboxes, destroyed %d; want 4 and 4", p.created, p.removed)
	}
}

func TestConcurrentFailsOnWrongOutput(t *testing.T) {
	p := &counting{Provider: memory.New(memory.Options{Handlers: map[string]memory.Handler{
		"python3": func(ctx context.Context, c *memory.Call, args []string) error {
			_, err := c.Stdout.Write([]byte("43\n"))
			return err
		},
	}})}
	_, err := concurrent(context.Background(), Adapter{Name: "memory", Concurrent: 4}, p)
	if err == nil || !strings.Contains(err.Error(), `4 failed, the first: python3 -c 'print(6*7)': exit 0, stdout "43\n"`) {
		t.Fatalf("err %v, want the wrong output named", err)
	}
	if p.removed != p.created {
		t.Errorf("made %d sandboxes, destroyed %d", p.created, p.removed)
	}
}

func TestMeasureOnce(t *testing.T) {
	adapters := []Adapter{{Name: "memory", Concurrent: 2, New: func() (sandbox.Provider, func(), error) {
		return memory.New(memory.Options{}), func() {}, nil
	}}, {Name: "absent", New: func() (sandbox.Provider, func(), error) {
		return nil, nil, errors.New("not installed")
	}}}
	var log strings.Builder
	results := measureAll(context.Background(), &log, adapters, []Workload{{Name: ConcurrentName, Once: concurrent}})
	if len(results) != 2 {
		t.Fatalf("%d results", len(results))
	}
	if r := results[0]; r.Err != nil || r.Workload != ConcurrentName || r.Adapter != "memory" || r.Sandboxes != 2 {
		t.Errorf("memory: %+v", r)
	}
	if r := results[1]; r.Err == nil || r.Adapter != "absent" {
		t.Errorf("absent: %+v", r)
	}
	if !strings.Contains(log.String(), "not installed") {
		t.Errorf("log %q", log.String())
	}
}

// TestOneWorkloadsErrorIsItsOwn: a workload that cannot run on an adapter
// leaves the next ones measured.
func TestOneWorkloadsErrorIsItsOwn(t *testing.T) {
	adapters := []Adapter{{Name: "memory", New: func() (sandbox.Provider, func(), error) {
		return memory.New(memory.Options{}), func() {}, nil
	}}}
	failing := func(context.Context, Adapter, sandbox.Provider) (Result, error) { return Result{}, ErrNoPython }
	fine := func(context.Context, Adapter, sandbox.Provider) (Result, error) {
		return Result{PerOp: time.Millisecond, Note: "fine"}, nil
	}
	var log strings.Builder
	results := measureAll(context.Background(), &log, adapters, []Workload{{Name: "a", Once: failing}, {Name: "b", Once: fine}, {Name: "c", Setup: create, Op: func(ctx context.Context, _ sandbox.Provider, sb sandbox.Sandbox) error { return echoHi(ctx, sb) }}})
	if len(results) != 3 {
		t.Fatalf("%d results", len(results))
	}
	if !errors.Is(results[0].Err, ErrNoPython) {
		t.Errorf("a: %+v", results[0])
	}
	if r := results[1]; r.Err != nil || r.PerOp != time.Millisecond || r.Note != "fine" || r.Workload != "b" {
		t.Errorf("b: %+v", r)
	}
	if r := results[2]; r.Err != nil || r.PerOp == 0 {
		t.Errorf("c: %+v", r)
	}
}

func TestMedianOf(t *testing.T) {
	for _, c := range []struct {
		took []time.Duration
		want time.Duration
	}{
		{[]time.Duration{3, 1, 2}, 2},
		{[]time.Duration{5}, 5},
		{[]time.Duration{9, 1, 7, 3, 5}, 5},
	} {
		r := medianOf(c.took)
		if r.PerOp != c.want || r.Note != fmt.Sprintf("median of %d", len(c.took)) {
			t.Errorf("medianOf(%v) = %v %q, want %v", c.took, r.PerOp, r.Note, c.want)
		}
	}
}
