package sandboxtest

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Harness tells the suite how to reach an adapter.
type Harness struct {
	// NewProvider returns a provider value. The suite calls it more than once
	// per case; every value must share the backing store of the others (the
	// same root folder, kv, engine or server), so that a sandbox made through
	// one is found by Connect through another, as from another process.
	NewProvider func(t *testing.T) sandbox.Provider
	// Create is the base of every create the suite makes (an image, say).
	Create sandbox.CreateSandboxOptions
	// Unsupported names the capabilities the adapter lacks, each with the
	// reason printed when a case that needs it is skipped.
	Unsupported map[Capability]string
	// Extra cases run after the suite's own, with the same fresh sandbox
	// per case.
	Extra []Case
	// LoopbackNames says the providers resolve AllowedTestHost and
	// DeniedTestHost to 127.0.0.1 and let commands reach loopback (a
	// test-only setting of the adapter), so that the allow-list case can
	// check a policy against a server the suite starts. Without it that
	// case is skipped.
	LoopbackNames bool
	// ExpiryWithin bounds how long after its end a sandbox may still answer
	// before it must be gone (a watchdog's poll interval). Zero means 15 s.
	ExpiryWithin time.Duration
}

// Capability is something an adapter may lack.
type Capability string

const (
	// CapURL: GetURL gives a URL for a port declared in
	// CreateSandboxOptions.Ports. Without it GetURL must return
	// ErrUnsupported.
	CapURL Capability = "url"
	// CapNetworkAll: Network all is offered. Without it Create must return
	// ErrUnsupported.
	CapNetworkAll Capability = "network-all"
	// CapNetworkAllowList: Network by allow list is offered. Without it
	// Create must return ErrUnsupported.
	CapNetworkAllowList Capability = "network-allow-list"
	// CapIsolatedCommands: commands cannot see the host's files.
	CapIsolatedCommands Capability = "isolated-commands"
	// CapSelfExpiry: SetTimeout makes the sandbox end by itself.
	CapSelfExpiry Capability = "self-expiry"
	// CapBackgroundKill: a command's background children are killed with it
	// at its time limit.
	CapBackgroundKill Capability = "background-kill"
	// CapSessionKill: a command's processes that left its process group
	// (setsid, a double fork) are killed with it at its time limit.
	CapSessionKill Capability = "session-kill"
	// CapPython: python3 is a CPython that commands can run.
	CapPython Capability = "python"
)

// Case is one conformance check.
type Case struct {
	// Name names the subtest.
	Name string
	// Rule is the contract in one sentence, printed when the case fails.
	Rule string
	// Needs lists capabilities without which the case is skipped.
	Needs []Capability
	// NoSandbox cases make their own sandboxes (Env.Sandbox is nil).
	NoSandbox bool
	// Check runs the case.
	Check func(e *Env)
}

// Env is what a case gets: a fresh sandbox of the adapter under test.
type Env struct {
	T        *testing.T
	Ctx      context.Context
	Harness  *Harness
	Provider sandbox.Provider
	Sandbox  sandbox.Sandbox
	// Workdir is the sandbox's work folder, from GetInfo.
	Workdir string
}

// secretEnv is set in the test process while the suite runs; no command may
// see it.
const secretEnv = "AGENTENKIT_SANDBOXTEST_HOST_SECRET"

// Run runs every case of the suite against the adapter h describes, then
// h.Extra. Cases run in parallel, each with its own sandbox.
func Run(t *testing.T, h Harness) {
	t.Helper()
	if h.NewProvider == nil {
		t.Fatal("sandboxtest: Harness.NewProvider is nil")
	}
	if h.ExpiryWithin == 0 {
		h.ExpiryWithin = 15 * time.Second
	}
	t.Setenv(secretEnv, "host-secret-"+strings.Repeat("x", 8))
	for _, c := range append(Cases(), h.Extra...) {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			runCase(t, &h, c)
		})
	}
}

// Cases returns the suite's own cases, in the order Run runs them.
func Cases() []Case {
	var all []Case
	all = append(all, execCases...)
	all = append(all, fileCases...)
	all = append(all, modeCases...)
	all = append(all, lifecycleCases...)
	all = append(all, networkCases...)
	all = append(all, gitCases...)
	return all
}

func runCase(t *testing.T, h *Harness, c Case) {
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("rule broken: %s", c.Rule)
		}
	})
	for _, need := range c.Needs {
		if reason, ok := h.Unsupported[need]; ok {
			t.Skipf("adapter lacks %s: %s", need, reason)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	e := &Env{T: t, Ctx: ctx, Harness: h, Provider: h.NewProvider(t)}
	if !c.NoSandbox {
		e.Sandbox = e.Create(h.Create)
		info, err := e.Sandbox.GetInfo(ctx)
		if err != nil {
			t.Fatalf("GetInfo of a new sandbox: %v", err)
		}
		e.Workdir = info.Workdir
	}
	c.Check(e)
}

// Create makes a sandbox with opts (on top of nothing: pass
// e.Harness.Create to start from the harness's base) and destroys it when
// the case ends.
func (e *Env) Create(opts sandbox.CreateSandboxOptions) sandbox.Sandbox {
	e.T.Helper()
	sb, err := e.Provider.Create(e.Ctx, opts)
	if err != nil {
		e.T.Fatalf("Create: %v", err)
	}
	e.T.Cleanup(func() { _ = sb.Destroy(context.Background()) })
	return sb
}

// Run runs a command on the case's sandbox and fails the case on an error.
func (e *Env) Run(command string, opts sandbox.RunCommandOptions) sandbox.CommandResult {
	e.T.Helper()
	res, err := e.Sandbox.RunCommand(e.Ctx, command, opts)
	if err != nil {
		e.T.Fatalf("RunCommand(%q): %v", command, err)
	}
	return res
}

// hostEnvSecret returns the value of the variable no command may see.
func hostEnvSecret() string { return os.Getenv(secretEnv) }
