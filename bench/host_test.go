package bench

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

func TestHost(t *testing.T) {
	a := hostAdapter()
	p, done, err := a.New()
	if err != nil {
		t.Skip("no host reference here:", err)
	}
	defer done()
	ctx := context.Background()
	sb, err := p.Create(ctx, sandbox.CreateSandboxOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Destroy(ctx)
	if err := sb.FileSystem().WriteFile(ctx, "in.txt", []byte("from the file\n")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd      string
		timeout  time.Duration
		stdout   string
		stderr   string
		exit     int
		timedOut bool
	}{
		{cmd: "echo hi", stdout: "hi\n"},
		{cmd: "cat in.txt; echo oops >&2; exit 3", stdout: "from the file\n", stderr: "oops\n", exit: 3},
		{cmd: "echo before; sleep 10; echo after", timeout: 200 * time.Millisecond, exit: sandbox.TimeoutExitCode, timedOut: true},
	} {
		start := time.Now()
		res, err := sb.RunCommand(ctx, tc.cmd, sandbox.RunCommandOptions{Timeout: tc.timeout})
		if err != nil {
			t.Errorf("%s: %v", tc.cmd, err)
			continue
		}
		if !tc.timedOut && (res.Stdout != tc.stdout || res.Stderr != tc.stderr) || res.ExitCode != tc.exit || res.TimedOut != tc.timedOut {
			t.Errorf("%s: %+v", tc.cmd, res)
		}
		if tc.timedOut && time.Since(start) > 5*time.Second {
			t.Errorf("%s: ended after %v, its timeout %v", tc.cmd, time.Since(start), tc.timeout)
		}
	}
	if _, err := p.Connect(ctx, sb.ID()); err == nil {
		t.Error("Connect: no error")
	}
	// Only issue #19's rows are measured on the host.
	for _, w := range Workloads() {
		if a.measures(w) != slices.Contains(hostWorkloads, w.Name) {
			t.Errorf("%s: measured %v", w.Name, a.measures(w))
		}
	}
	if a.measures(Workload{Name: SnapshotName}) {
		t.Error("the snapshot workload measured on the host")
	}
}
