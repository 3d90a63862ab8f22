package sandbox

import (
	"io"
	"time"
)

// RunCommandOptions tunes one command. The zero value runs in the work folder
// with the sandbox's environment and the default timeout.
type RunCommandOptions struct {
	// Cwd is the folder the command starts in; relative to the work folder
	// unless absolute. Empty means the work folder.
	Cwd string
	// Env is added to the sandbox's environment for this command only.
	Env map[string]string
	// Timeout kills the command (and every process it started) after this
	// long. Zero means DefaultCommandTimeout.
	Timeout time.Duration
	// Stdout and Stderr, when set, receive the command's output live, while
	// it runs, in the chunks the adapter reads. They get all output, also
	// past MaxOutputBytes. Writes to one of them are never concurrent.
	Stdout io.Writer
	Stderr io.Writer
}

// CommandTimeout returns o.Timeout, or DefaultCommandTimeout when unset.
func (o RunCommandOptions) CommandTimeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultCommandTimeout
}

// CreateSandboxOptions tunes a new sandbox. The zero value is a sandbox with
// no network, the adapter's default image or template and its default
// lifetime.
type CreateSandboxOptions struct {
	// Network is what the sandbox may reach. The zero value is no network.
	Network Network
	// Envs are environment variables set for every command.
	Envs map[string]string
	// Template names an E2B template (or the adapter's equivalent).
	Template string
	// Image names a container image (Docker) or WASI image set (wasm).
	Image string
	// Resources caps CPU, memory, disk and processes where the adapter can.
	Resources Resources
	// Metadata is kept with the sandbox and returned by GetInfo.
	Metadata map[string]string
	// Timeout is how long the sandbox lives unless SetTimeout moves its end.
	// Zero means the adapter's default.
	Timeout time.Duration
	// RestoreFrom names an ended sandbox whose work folder the new one
	// starts with. Only providers whose RestoresWorkdir reports true take it;
	// others return ErrUnsupported. The runtime sets it when it replaces an
	// ended sandbox.
	RestoreFrom string
	// Ports lists ports inside the sandbox that GetURL must be able to
	// reach (Docker publishes them on 127.0.0.1 at creation).
	Ports []int
	// Extra carries adapter-specific settings, documented by each adapter.
	// Keys an adapter does not know are an error, never ignored.
	Extra map[string]any
}

// Resources caps what one sandbox may use. Zero fields mean the adapter's
// default.
type Resources struct {
	CPUs     float64
	MemoryMB int
	DiskMB   int
	// MaxFiles caps the number of files and folders (wasm, memory).
	MaxFiles int
	// Pids caps the number of processes (Docker).
	Pids int
}

// NetworkMode says how much network a sandbox has.
type NetworkMode string

const (
	// NetworkNone: no network at all. The default.
	NetworkNone NetworkMode = ""
	// NetworkAll: unrestricted outbound network.
	NetworkAll NetworkMode = "all"
	// NetworkAllowList: outbound network only to the listed domains.
	NetworkAllowList NetworkMode = "allow"
)

// Network is the network policy of a sandbox. The zero value is no network.
type Network struct {
	Mode NetworkMode
	// Allow lists the domains reachable with NetworkAllowList.
	Allow []string
}

// AllowDomains returns a policy that reaches only the given domains.
func AllowDomains(domains ...string) Network {
	return Network{Mode: NetworkAllowList, Allow: domains}
}

// String names the policy: "none", "all" or "allow:a.com,b.org".
func (n Network) String() string {
	switch n.Mode {
	case NetworkNone:
		return "none"
	case NetworkAll:
		return "all"
	case NetworkAllowList:
		s := "allow:"
		for i, d := range n.Allow {
			if i > 0 {
				s += ","
			}
			s += d
		}
		return s
	}
	return string(n.Mode)
}
