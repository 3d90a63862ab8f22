package sandboxtest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agentenkit/agentenkit/sandbox"
	"github.com/agentenkit/agentenkit/sandboxtest"
)

// brokenSandbox makes the classic mistake: a non-zero exit becomes an error.
type brokenSandbox struct{ sandbox.Sandbox }

func (s brokenSandbox) RunCommand(ctx context.Context, cmd string, o sandbox.RunCommandOptions) (sandbox.CommandResult, error) {
	res, err := s.Sandbox.RunCommand(ctx, cmd, o)
	if err == nil && res.ExitCode != 0 {
		return res, fmt.Errorf("exit status %d", res.ExitCode)
	}
	return res, err
}

type brokenProvider struct{ sandbox.Provider }

func (p brokenProvider) Create(ctx context.Context, o sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	sb, err := p.Provider.Create(ctx, o)
	if err != nil {
		return nil, err
	}
	return brokenSandbox{sb}, nil
}

func TestBrokenAdapterHelper(t *testing.T) {
	if os.Getenv("SANDBOXTEST_RUN_BROKEN") != "1" {
		t.Skip("run by TestSuiteFailsBrokenAdapter in a child process")
	}
	sandboxtest.Run(t, harness(t, func(p sandbox.Provider) sandbox.Provider { return brokenProvider{p} }))
}

func TestSuiteFailsBrokenAdapter(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenAdapterHelper$/^run/exit-codes$", "-test.v")
	cmd.Env = append(os.Environ(), "SANDBOXTEST_RUN_BROKEN=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("the suite passed an adapter that turns exit codes into errors (err %v):\n%s", err, out)
	}
	if !strings.Contains(string(out), "rule broken: A non-zero exit is a result, not an error") {
		t.Errorf("the failure does not quote the rule:\n%s", out)
	}
}
