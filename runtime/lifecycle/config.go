package lifecycle

import (
	"time"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Scope says which sandbox a call gets.
type Scope string

const (
	// ScopeThread: one sandbox per thread, kept across runs. The default.
	ScopeThread Scope = "thread"
	// ScopeRun: one sandbox per run, ended when the run ends (and when it
	// parks, unless SandboxKeepOnPark).
	ScopeRun Scope = "run"
)

// Config tunes the sandbox lifecycle. Zero fields take the defaults below.
type Config struct {
	// SandboxIdleTTL: an unused sandbox ends this long after its last use.
	// Default 30 minutes.
	SandboxIdleTTL time.Duration
	// SandboxMaxLifetime: a sandbox ends this long after it was made, used
	// or not. Default 24 hours.
	SandboxMaxLifetime time.Duration
	// SandboxScope: ScopeThread (default) or ScopeRun.
	SandboxScope Scope
	// SandboxKeepOnPark keeps a run-scoped sandbox while its run is parked
	// (waiting for an approval), so the resumed run finds it.
	SandboxKeepOnPark bool
	// SandboxDefaults is merged into every create; the runtime still sets
	// the timeout and its own metadata.
	SandboxDefaults sandbox.CreateSandboxOptions
	// SandboxStateDir holds the tools' own files: relative (default
	// ".agentenkit") means inside the sandbox's work folder; absolute gives
	// each sandbox its own folder under it, which keeps a Git work folder's
	// status clean.
	SandboxStateDir string
	// RunLockTTL is how long a run lock lives without renewal: how soon
	// another worker takes over a crashed run's thread. Default 30 s.
	RunLockTTL time.Duration
	// Now is the clock. Default time.Now.
	Now func() time.Time
}

// Defaults of Config.
const (
	DefaultSandboxIdleTTL     = 30 * time.Minute
	DefaultSandboxMaxLifetime = 24 * time.Hour
	DefaultSandboxStateDir    = ".agentenkit"
	DefaultRunLockTTL         = 30 * time.Second
)

func (c Config) withDefaults() Config {
	if c.SandboxIdleTTL <= 0 {
		c.SandboxIdleTTL = DefaultSandboxIdleTTL
	}
	if c.SandboxMaxLifetime <= 0 {
		c.SandboxMaxLifetime = DefaultSandboxMaxLifetime
	}
	if c.SandboxScope == "" {
		c.SandboxScope = ScopeThread
	}
	if c.SandboxStateDir == "" {
		c.SandboxStateDir = DefaultSandboxStateDir
	}
	if c.RunLockTTL <= 0 {
		c.RunLockTTL = DefaultRunLockTTL
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}
