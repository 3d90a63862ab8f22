// Package agentenkit is the one import an app needs to give its agents a
// sandbox: the names of the sandbox port (package sandbox) under the names
// the docs use, and — as they land — the runtime's setup.
//
// Adapters live in providers/: wasm (the embedded default), e2b, docker,
// local and memory. Each one's New returns a sandbox.Provider.
package agentenkit

import "github.com/agentenkit/agentenkit/sandbox"

// The sandbox port, aliased so that app code needs only this package.
type (
	SandboxProvider      = sandbox.Provider
	Sandbox              = sandbox.Sandbox
	SandboxFileSystem    = sandbox.FileSystem
	FileEntry            = sandbox.FileEntry
	CommandResult        = sandbox.CommandResult
	RunCommandOptions    = sandbox.RunCommandOptions
	CreateSandboxOptions = sandbox.CreateSandboxOptions
	SandboxInfo          = sandbox.SandboxInfo
	SandboxResources     = sandbox.Resources
	SandboxNetwork       = sandbox.Network
	SandboxNetworkMode   = sandbox.NetworkMode
	WorkdirRestorer      = sandbox.WorkdirRestorer
	SandboxCommandOutput = sandbox.Output
)

// Errors of the sandbox port; match them with errors.Is.
var (
	ErrSandboxGone = sandbox.ErrGone
	ErrUnsupported = sandbox.ErrUnsupported
	ErrOutsideRoot = sandbox.ErrOutsideRoot
)

// Network modes.
const (
	NetworkNone      = sandbox.NetworkNone
	NetworkAll       = sandbox.NetworkAll
	NetworkAllowList = sandbox.NetworkAllowList
)

// AllowDomains returns a network policy that reaches only the given domains.
func AllowDomains(domains ...string) SandboxNetwork { return sandbox.AllowDomains(domains...) }
