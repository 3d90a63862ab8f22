// Package localsandbox is the local adapter: a sandbox is a folder on the
// host, and commands run in it with bash (sh where there is none).
//
// It is for development only. It does not isolate: commands run as the app's
// user and can read any host file the user can. What it does keep:
//
//   - The environment: a command gets PATH, HOME (the sandbox folder), LANG,
//     the sandbox's Envs and the call's Env — nothing else of the app's.
//   - The file API is confined to the folder (os.Root): "..", absolute host
//     paths and links pointing out are ErrOutsideRoot.
//   - The processes: where the host allows it (unshare --pid, in a user
//     namespace when the app is not root) each command runs in a PID
//     namespace of its own with its own /proc, so it sees none of the
//     app's processes nor their environment, and every process it started
//     ends with it (background jobs too, as on the wasm and memory
//     adapters). Elsewhere Create logs a warning, once, that a command can
//     read the app's environment through /proc.
//   - The time limit, the end of ctx and Destroy kill every process the
//     command started: the namespace, or else its process group and every
//     process whose environment holds its marker (AGENTENKIT_COMMAND_ID),
//     setsid ones included.
//   - A file with more than one link (a hard link a command made, maybe to
//     a host file) is replaced by WriteFile, never written through; FIFOs
//     and devices are refused.
//   - Network none is enforced with a network namespace (unshare -n) where
//     the host allows it; elsewhere Create logs a warning that it is not.
//     Allow lists are ErrUnsupported.
//
// State lives on disk under Options.Root (one folder and one state file per
// sandbox), so another process with the same Root connects by id. The end
// time is in the state file: any later Connect or use after it finds the
// sandbox gone and removes its folder.
//
// Used with AGENTENKIT_ENV=production, or Options.Production, New logs a
// warning through log/slog.
package localsandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Name is the adapter's name.
const Name = "local"

// DefaultLifetime is how long a sandbox lives without SetTimeout.
const DefaultLifetime = time.Hour

// Options tunes the local adapter. The zero value is usable.
type Options struct {
	// Root holds the sandboxes' folders and state. Default:
	// $TMPDIR/agentenkit-local.
	Root string
	// Production marks a production deployment: New warns that this adapter
	// does not isolate. AGENTENKIT_ENV=production does the same.
	Production bool
	// Logger receives warnings. Default: slog.Default().
	Logger *slog.Logger
	// Shell runs commands as Shell -c COMMAND. Default: bash, else sh.
	Shell string
}

// Provider makes local sandboxes. It is safe for concurrent use.
type Provider struct {
	err     error // from New: returned by every Create and Connect
	root    string
	shell   string
	log     *slog.Logger
	netns   bool     // unshare -n works here
	pidns   []string // the unshare command of a PID namespace with its own /proc, when it works here
	netWarn sync.Once
	pidWarn sync.Once
}

var _ sandbox.Provider = (*Provider)(nil)

// New returns a local provider and makes Root if missing. A Root that cannot
// be made is returned by Err and by every Create and Connect.
func New(opts Options) *Provider {
	if opts.Root == "" {
		opts.Root = filepath.Join(os.TempDir(), "agentenkit-local")
	}
	p := &Provider{shell: opts.Shell, log: opts.Logger}
	root, err := filepath.Abs(opts.Root)
	if err == nil {
		err = os.MkdirAll(filepath.Join(root, stateDir), 0o755)
	}
	if err != nil {
		p.err = fmt.Errorf("local: root %q: %w", opts.Root, err)
	}
	p.root = root
	if p.log == nil {
		p.log = slog.Default()
	}
	if p.shell == "" {
		p.shell = findShell()
	}
	if opts.Production || os.Getenv("AGENTENKIT_ENV") == "production" {
		p.log.Warn("the local sandbox adapter does not isolate: commands run on this host as this user; use wasm, docker or e2b in production")
	}
	p.netns = exec.Command("unshare", "-n", "true").Run() == nil
	p.pidns = pidNamespace()
	return p
}

// pidNamespace returns the unshare command that runs a program in a PID
// namespace of its own with its own /proc (in a user namespace mapping the
// app's user to itself when the app is not root), or nil when the host
// does not allow it.
func pidNamespace() []string {
	args := []string{"unshare", "--pid", "--fork", "--mount-proc", "--kill-child"}
	if os.Geteuid() != 0 {
		args = append(args, "--user", "--map-current-user")
	}
	if exec.Command(args[0], append(args[1:], "true")...).Run() != nil {
		return nil
	}
	return args
}

// Err returns the configuration error of New, if any.
func (p *Provider) Err() error { return p.err }

func findShell() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "/bin/sh"
}

// Name returns "local".
func (p *Provider) Name() string { return Name }

// idPattern is what Create makes; Connect refuses anything else, so an id can
// never name a path outside Root.
var idPattern = regexp.MustCompile(`^local-[0-9a-f]{32}$`)

// Create makes a new sandbox folder.
func (p *Provider) Create(ctx context.Context, opts sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	if p.err != nil {
		return nil, p.err
	}
	if err := p.check(opts); err != nil {
		return nil, err
	}
	p.sweep()
	now := time.Now()
	lifetime := opts.Timeout
	if lifetime <= 0 {
		lifetime = DefaultLifetime
	}
	st := state{
		ID:        "local-" + strings.ReplaceAll(uuid.NewString(), "-", ""),
		CreatedAt: now,
		EndAt:     now.Add(lifetime),
		Envs:      opts.Envs,
		Metadata:  opts.Metadata,
		Network:   opts.Network.Mode,
	}
	dir := p.dir(st.ID)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("local: make sandbox folder: %w", err)
	}
	if err := p.writeState(st); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return p.open(st)
}

func (p *Provider) check(opts sandbox.CreateSandboxOptions) error {
	if p.pidns == nil {
		p.pidWarn.Do(func() {
			p.log.Warn("local sandbox: commands do not get a PID namespace on this host (unshare --pid failed): a command can see the app's processes and read their environment, secrets included, through /proc; background processes are killed by a sweep of their marker")
		})
	}
	switch opts.Network.Mode {
	case sandbox.NetworkNone:
		if !p.netns {
			p.netWarn.Do(func() {
				p.log.Warn("local sandbox: network none is not enforced on this host (unshare -n failed); commands share the host's network")
			})
		}
	case sandbox.NetworkAll:
	case sandbox.NetworkAllowList:
		return sandbox.Unsupported(Name, "network allow list", "the e2b and wasm adapters offer allow lists")
	default:
		return fmt.Errorf("local: unknown network mode %q", opts.Network.Mode)
	}
	if opts.Resources != (sandbox.Resources{}) {
		return sandbox.Unsupported(Name, "resource limits", "the docker adapter caps CPU, memory and processes")
	}
	if opts.Image != "" || opts.Template != "" {
		return sandbox.Unsupported(Name, "images and templates", "the docker and e2b adapters take them")
	}
	if opts.RestoreFrom != "" {
		return sandbox.Unsupported(Name, "restoring a work folder", "the wasm adapter restores work folders")
	}
	for k := range opts.Extra {
		return fmt.Errorf("local: unknown Extra option %q (the local adapter takes none)", k)
	}
	return nil
}

// Connect finds a sandbox made by any provider with the same Root.
func (p *Provider) Connect(ctx context.Context, id string) (sandbox.Sandbox, error) {
	if p.err != nil {
		return nil, p.err
	}
	if !idPattern.MatchString(id) {
		return nil, sandbox.Gone(Name, id)
	}
	st, err := p.readState(id)
	if err != nil {
		return nil, err
	}
	return p.open(st)
}

func (p *Provider) open(st state) (*Sandbox, error) {
	root, err := os.OpenRoot(p.dir(st.ID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, sandbox.Gone(Name, st.ID)
	}
	if err != nil {
		return nil, fmt.Errorf("local: open sandbox folder: %w", err)
	}
	sb := &Sandbox{p: p, id: st.ID, dir: p.dir(st.ID), root: root, running: map[running]struct{}{}}
	sb.files = &files{sb: sb}
	return sb, nil
}

// sweep removes sandboxes whose end has passed, so expired folders do not pile
// up when nobody connects to them again.
func (p *Provider) sweep() {
	entries, err := os.ReadDir(filepath.Join(p.root, stateDir))
	if err != nil {
		return
	}
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".json")
		if idPattern.MatchString(id) {
			_, _ = p.readState(id) // removes it when expired
		}
	}
}

func (p *Provider) dir(id string) string { return filepath.Join(p.root, id) }

// state is what a sandbox keeps on disk, in Root/.state/ID.json.
type state struct {
	ID        string              `json:"id"`
	CreatedAt time.Time           `json:"createdAt"`
	EndAt     time.Time           `json:"endAt"`
	Envs      map[string]string   `json:"envs,omitempty"`
	Metadata  map[string]string   `json:"metadata,omitempty"`
	Network   sandbox.NetworkMode `json:"network,omitempty"`
}

const stateDir = ".state"

func (p *Provider) statePath(id string) string {
	return filepath.Join(p.root, stateDir, id+".json")
}

// readState returns the state of a live sandbox. A missing or expired one is
// ErrGone; an expired one is removed.
func (p *Provider) readState(id string) (state, error) {
	var st state
	b, err := os.ReadFile(p.statePath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return st, sandbox.Gone(Name, id)
	}
	if err != nil {
		return st, fmt.Errorf("local: read state of %s: %w", id, err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("local: state of %s is damaged: %w", id, err)
	}
	if !time.Now().Before(st.EndAt) {
		p.remove(id)
		return st, fmt.Errorf("local sandbox %q ended at %s: %w", id, st.EndAt.Format(time.RFC3339), sandbox.ErrGone)
	}
	return st, nil
}

// writeState replaces the state file atomically.
func (p *Provider) writeState(st state) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp := p.statePath(st.ID) + ".tmp-" + uuid.NewString()
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("local: write state: %w", err)
	}
	if err := os.Rename(tmp, p.statePath(st.ID)); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("local: write state: %w", err)
	}
	return nil
}

// MetadataStateDir is the metadata key (CreateSandboxOptions.Metadata) of
// an absolute host folder under which the sandbox's tools keep files of
// their own, in a folder named by the sandbox's id: the runtime sets it
// when its SandboxStateDir is absolute. That folder <value>/<id> ends with
// the sandbox (Destroy, or found past its end).
const MetadataStateDir = "agentenkit.stateDir"

// remove deletes a sandbox's state first (so it is gone at once for
// everybody), then its folder and its tools' state folder.
func (p *Provider) remove(id string) {
	var st state
	if b, err := os.ReadFile(p.statePath(id)); err == nil {
		_ = json.Unmarshal(b, &st)
	}
	_ = os.Remove(p.statePath(id))
	_ = os.RemoveAll(p.dir(id))
	if dir := st.Metadata[MetadataStateDir]; filepath.IsAbs(dir) && idPattern.MatchString(id) {
		_ = os.RemoveAll(filepath.Join(filepath.Clean(dir), id))
	}
}
