// Package docker is the Docker adapter: a container per sandbox, through the
// Engine API (github.com/docker/docker/client), that ends itself when idle.
//
// A sandbox container runs a small watchdog (a POSIX sh loop, under tini as
// init, as root, its state in a folder only root can enter) as its main
// process. Each use pushes its deadline back; once idle past the deadline,
// or past the hard end fixed at creation, the watchdog exits and the daemon
// removes the container (auto-remove) — with no app process running. As a
// backstop, every Provider removes the engine's sandbox containers past
// their hard end or idle end when it is made and every ReapInterval (Reap).
// Any image with /bin/sh and the basic utilities works; the project's tests
// build a busybox image and a python image from Debian packages with
// `docker import` (see testdata/build-images.sh).
//
// Commands run as uid 1000 ("user", home the work folder; root when
// Options.User or the extra option "user" says "root") through a wrapper
// (bash where the image has it, else sh). At the time limit every process
// the command started is killed inside the container: its process group and
// every process still carrying its token in its environment. Files travel
// as tar streams.
//
// # Defaults
//
// Every capability is dropped but CHOWN, DAC_OVERRIDE, FOWNER, FSETID,
// KILL, SETGID, SETUID and NET_BIND_SERVICE; no-new-privileges is set; a
// sandbox gets DefaultPids processes, DefaultMemoryMB of memory (no swap)
// and DefaultCPUs unless Resources says otherwise; network none unless asked
// for, and network all is a bridge network of its own (Options.NetworkName)
// with inter-container traffic off.
//
// # Limits
//
//   - Network is none (the default) or all; an allow list by domain is
//     ErrUnsupported (the e2b adapter offers it). On the bridge the host's
//     gateway is reachable.
//   - GetURL works for ports declared in CreateSandboxOptions.Ports, published
//     on 127.0.0.1; with network none it is ErrUnsupported.
//   - Resources: CPUs, MemoryMB (no swap) and Pids are enforced; DiskMB is
//     ErrUnsupported (overlay2 on ext4 has no quota).
//   - A command run as root can stop the watchdog or move its idle end; the
//     reaper still ends the container at its hard end (a label).
//   - Where the image's /bin/sh lacks "read -t" (dash), a fork bomb that
//     holds every pid can end the watchdog, and with it the sandbox.
//   - A process that leaves a timed-out command and clears its environment
//     escapes the kill.
//   - A background job that keeps the command's output open delays the
//     result by about 2 s (the daemon's own wait); redirect its output.
//   - Traffic to a published port does not count as use.
package docker

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"
	"github.com/docker/go-connections/nat"

	"github.com/agentenkit/agentenkit/sandbox"
)

// Name is the adapter's name.
const Name = "docker"

const (
	// DefaultWorkdir is the work folder inside the container.
	DefaultWorkdir = "/home/user"
	// DefaultLifetime is how long an unused sandbox lives without SetTimeout.
	DefaultLifetime = time.Hour
	// DefaultMaxLifetime is the hard end, fixed at creation.
	DefaultMaxLifetime = 24 * time.Hour
)

// ErrImageMissing is the error (errors.Is) of a Create whose image is not on
// the engine while Options.Pull is off.
var ErrImageMissing = errors.New("image is not on this engine")

// Labels every sandbox container carries (reverse-DNS keys, as Docker asks).
const (
	labelManaged = "io.agentenkit.managed"
	labelVersion = "io.agentenkit.version"
	labelCreated = "io.agentenkit.created"
	labelHardEnd = "io.agentenkit.hard-end"
	labelIdle    = "io.agentenkit.idle"
	labelNetwork = "io.agentenkit.network"
	labelPorts   = "io.agentenkit.ports"
	labelUser    = "io.agentenkit.user"
	labelMeta    = "io.agentenkit.meta."
	adapterVer   = "2"
)

// The exec users of commands: the sandbox's user (uid 1000, "user", home
// the work folder) unless root is asked for.
const (
	defaultUser = "1000:1000"
	rootUser    = "0:0"
)

// Defaults of the limits a sandbox gets when Resources leaves them zero.
const (
	DefaultMemoryMB = 2048
	DefaultCPUs     = 1.0
	DefaultPids     = 512
)

// DefaultNetworkName is the bridge network of sandboxes with network all.
const DefaultNetworkName = "agentenkit-sandboxes"

// capabilities are the only ones a sandbox's root keeps (all others are
// dropped): enough for a shell to own, chmod and signal files and processes
// of its users and switch to them.
var capabilities = []string{"CHOWN", "DAC_OVERRIDE", "FOWNER", "FSETID", "KILL", "SETGID", "SETUID", "NET_BIND_SERVICE"}

// Options tunes the Docker adapter.
type Options struct {
	// Image is the default image of new sandboxes (CreateSandboxOptions.Image
	// overrides it). Required one way or the other.
	Image string
	// Pull lets Create pull a missing image. Off by default: a missing image
	// is an error naming it.
	Pull bool
	// Network is the default network of new sandboxes when the create
	// options leave it at none.
	Network sandbox.Network
	// Resources are the default limits of new sandboxes.
	Resources sandbox.Resources
	// Workdir is the work folder inside the container; default
	// DefaultWorkdir.
	Workdir string
	// MaxLifetime is the hard end of a sandbox after its creation; default
	// DefaultMaxLifetime. SetTimeout never moves past it.
	MaxLifetime time.Duration
	// User is who commands and file operations run as: "" or "user" (uid
	// 1000, home the work folder, the default), or "root". The extra
	// option "user" of CreateSandboxOptions overrides it per sandbox.
	User string
	// NetworkName is the bridge network sandboxes with network all join,
	// made on first use with traffic between its containers off; default
	// DefaultNetworkName.
	NetworkName string
	// ReapInterval is how often the provider removes the engine's sandbox
	// containers past their hard end or idle end (a backstop to each
	// container's own watchdog); it also does so once at New. Default one
	// minute; negative turns the reaper off.
	ReapInterval time.Duration
	// ReapGrace is how long past its idle end a running sandbox is left to
	// its watchdog before the reaper removes it; default 30 s.
	ReapGrace time.Duration
	// Client talks to the engine. Default: from the environment (DOCKER_HOST
	// and friends) with API version negotiation.
	Client *client.Client
}

// Provider makes Docker sandboxes. It is safe for concurrent use.
type Provider struct {
	opts Options
	api  engine
	err  error // from New: returned by every Create and Connect

	netMu sync.Mutex // making the bridge network
	stop  chan struct{}
	once  sync.Once
}

var _ sandbox.Provider = (*Provider)(nil)

// New returns a Docker provider. It does not contact the engine; Ping does.
// A client that cannot be made is returned by Ping and by every Create and
// Connect.
func New(opts Options) *Provider {
	if opts.Workdir == "" {
		opts.Workdir = DefaultWorkdir
	}
	if opts.MaxLifetime <= 0 {
		opts.MaxLifetime = DefaultMaxLifetime
	}
	if opts.NetworkName == "" {
		opts.NetworkName = DefaultNetworkName
	}
	if opts.ReapInterval == 0 {
		opts.ReapInterval = time.Minute
	}
	if opts.ReapGrace <= 0 {
		opts.ReapGrace = 30 * time.Second
	}
	p := &Provider{opts: opts, stop: make(chan struct{})}
	if _, err := userOf(opts.User); err != nil {
		p.err = err
		return p
	}
	if opts.Client != nil {
		p.api = opts.Client
	} else {
		cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
		if err != nil {
			p.err = fmt.Errorf("docker: client: %w", err)
			return p
		}
		p.api = cli
	}
	if opts.ReapInterval > 0 {
		go p.reapLoop()
	}
	return p
}

// Close stops the provider's reaper. Sandboxes live on.
func (p *Provider) Close() error {
	p.once.Do(func() { close(p.stop) })
	return nil
}

// userOf maps a user name of the options to an exec user.
func userOf(name string) (string, error) {
	switch name {
	case "", "user":
		return defaultUser, nil
	case "root":
		return rootUser, nil
	}
	return "", fmt.Errorf("docker: unknown user %q: the sandbox's users are \"user\" (the default) and \"root\"", name)
}

// Ping checks that the engine answers, settling the API version.
func (p *Provider) Ping(ctx context.Context) error {
	if p.err != nil {
		return p.err
	}
	if _, err := p.api.Ping(ctx); err != nil {
		return fmt.Errorf("docker: the engine does not answer (is dockerd running? DOCKER_HOST=%q): %w", dockerHost(), err)
	}
	return nil
}

// Name returns "docker".
func (p *Provider) Name() string { return Name }

// Create checks the image, then creates and starts a container.
func (p *Provider) Create(ctx context.Context, opts sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	if p.err != nil {
		return nil, p.err
	}
	cfg, host, err := p.containerConfig(ctx, opts)
	if err != nil {
		return nil, err
	}
	created, err := p.api.ContainerCreate(ctx, cfg, host, &network.NetworkingConfig{}, nil, "")
	if err != nil {
		return nil, fmt.Errorf("docker: create container from %s: %w", cfg.Image, err)
	}
	if err := p.api.ContainerStart(ctx, created.ID, container.StartOptions{}); err != nil {
		_ = p.api.ContainerRemove(context.Background(), created.ID, container.RemoveOptions{Force: true})
		return nil, fmt.Errorf("docker: start container: %w", err)
	}
	sb, err := p.Connect(ctx, created.ID)
	if err != nil {
		return nil, err
	}
	s := sb.(*Sandbox)
	uid, _, _ := strings.Cut(s.user, ":")
	if _, err := s.script(ctx, rootUser, setupScript, s.workdir, uid); err != nil {
		_ = s.Destroy(context.Background())
		return nil, fmt.Errorf("docker: set up the sandbox's user in %s: %w", cfg.Image, err)
	}
	return s, nil
}

func (p *Provider) containerConfig(ctx context.Context, opts sandbox.CreateSandboxOptions) (*container.Config, *container.HostConfig, error) {
	if opts.RestoreFrom != "" {
		return nil, nil, sandbox.Unsupported(Name, "restoring a work folder", "the wasm adapter restores work folders")
	}
	userName := p.opts.User
	for k, v := range opts.Extra {
		name, ok := v.(string)
		if k != "user" || !ok {
			return nil, nil, fmt.Errorf("docker: unknown Extra option %q=%v (the docker adapter takes only \"user\": \"user\" or \"root\")", k, v)
		}
		userName = name
	}
	user, err := userOf(userName)
	if err != nil {
		return nil, nil, err
	}
	img := opts.Image
	if img == "" {
		img = p.opts.Image
	}
	if img == "" {
		return nil, nil, fmt.Errorf("docker: no image: set docker.Options.Image or CreateSandboxOptions.Image")
	}
	if opts.Template != "" {
		return nil, nil, sandbox.Unsupported(Name, "templates", "the docker adapter takes an Image; templates are e2b's")
	}
	if err := p.ensureImage(ctx, img); err != nil {
		return nil, nil, err
	}
	netw := opts.Network
	if netw.Mode == sandbox.NetworkNone {
		netw = p.opts.Network
	}
	var mode container.NetworkMode
	switch netw.Mode {
	case sandbox.NetworkNone:
		mode = "none"
	case sandbox.NetworkAll:
		id, err := p.ensureNetwork(ctx)
		if err != nil {
			return nil, nil, err
		}
		mode = container.NetworkMode(id)
	case sandbox.NetworkAllowList:
		return nil, nil, sandbox.Unsupported(Name, "network allow list", "the e2b and wasm adapters offer allow lists; docker offers none or all")
	default:
		return nil, nil, fmt.Errorf("docker: unknown network mode %q", netw.Mode)
	}
	if len(opts.Ports) > 0 && mode == "none" {
		return nil, nil, sandbox.Unsupported(Name, "ports with network none", "create the sandbox with Network all to publish ports")
	}
	res := opts.Resources
	if res == (sandbox.Resources{}) {
		res = p.opts.Resources
	}
	if res.DiskMB != 0 || res.MaxFiles != 0 {
		return nil, nil, sandbox.Unsupported(Name, "disk and file-count quotas", "overlay2 on ext4 has no quota; the wasm and memory adapters cap disk and files")
	}
	if res.MemoryMB <= 0 {
		res.MemoryMB = DefaultMemoryMB
	}
	if res.CPUs <= 0 {
		res.CPUs = DefaultCPUs
	}
	if res.Pids <= 0 {
		res.Pids = DefaultPids
	}
	life := opts.Timeout
	if life <= 0 {
		life = DefaultLifetime
	}
	now := time.Now()
	hardEnd := now.Add(p.opts.MaxLifetime)
	labels := map[string]string{
		labelManaged: "1",
		labelVersion: adapterVer,
		labelCreated: strconv.FormatInt(now.UnixMilli(), 10),
		labelHardEnd: strconv.FormatInt(hardEnd.Unix(), 10),
		labelIdle:    strconv.Itoa(seconds(life)),
		labelNetwork: string(mode),
		labelUser:    user,
	}
	for k, v := range opts.Metadata {
		labels[labelMeta+k] = v
	}
	exposed, bindings := nat.PortSet{}, nat.PortMap{}
	var ports []string
	for _, port := range opts.Ports {
		if port <= 0 || port > 65535 {
			return nil, nil, fmt.Errorf("docker: port %d out of range", port)
		}
		np := nat.Port(fmt.Sprintf("%d/tcp", port))
		exposed[np] = struct{}{}
		bindings[np] = []nat.PortBinding{{HostIP: "127.0.0.1"}}
		ports = append(ports, strconv.Itoa(port))
	}
	labels[labelPorts] = strings.Join(ports, ",")
	env := make([]string, 0, len(opts.Envs))
	for k, v := range opts.Envs {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	stop := 2
	cfg := &container.Config{
		Image:        img,
		Cmd:          []string{"/bin/sh", "-c", watchdogScript, "agentenkit-watchdog", stateDir, strconv.Itoa(seconds(life)), strconv.FormatInt(hardEnd.Unix(), 10)},
		Entrypoint:   []string{},
		User:         rootUser,
		Env:          env,
		Labels:       labels,
		WorkingDir:   p.opts.Workdir,
		StopTimeout:  &stop,
		ExposedPorts: exposed,
	}
	init := true
	pids := int64(res.Pids)
	host := &container.HostConfig{
		Init:         &init,
		AutoRemove:   true,
		NetworkMode:  mode,
		PortBindings: bindings,
		CapDrop:      []string{"ALL"},
		CapAdd:       capabilities,
		SecurityOpt:  []string{"no-new-privileges:true"},
		Resources: container.Resources{
			Memory:     int64(res.MemoryMB) << 20,
			MemorySwap: int64(res.MemoryMB) << 20,
			NanoCPUs:   int64(res.CPUs * 1e9),
			PidsLimit:  &pids,
		},
	}
	return cfg, host, nil
}

// seconds rounds d up to whole seconds, at least 1.
func seconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

func (p *Provider) ensureImage(ctx context.Context, img string) error {
	_, err := p.api.ImageInspect(ctx, img)
	if err == nil {
		return nil
	}
	if !isNotFound(err) {
		return fmt.Errorf("docker: inspect image %s: %w", img, err)
	}
	if !p.opts.Pull {
		return fmt.Errorf("docker: %s: %w: build or load it first (the project's test images: providers/docker/testdata/build-images.sh), or set docker.Options.Pull", img, ErrImageMissing)
	}
	return p.pull(ctx, img)
}

// idPattern is a full container id; Connect takes nothing else.
var idPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

// Connect finds a running sandbox container by its full id. A container that
// is missing, not managed by this adapter, exited or being removed is
// ErrGone.
func (p *Provider) Connect(ctx context.Context, id string) (sandbox.Sandbox, error) {
	if p.err != nil {
		return nil, p.err
	}
	if !idPattern.MatchString(id) {
		return nil, sandbox.Gone(Name, id)
	}
	info, err := p.inspect(ctx, id)
	if err != nil {
		return nil, err
	}
	return newSandbox(p, info), nil
}

// inspect returns a live managed container, or ErrGone.
func (p *Provider) inspect(ctx context.Context, id string) (container.InspectResponse, error) {
	info, err := p.api.ContainerInspect(ctx, id)
	if isNotFound(err) {
		return info, sandbox.Gone(Name, id)
	}
	if err != nil {
		return info, fmt.Errorf("docker: inspect %s: %w", short(id), err)
	}
	if info.Config == nil || info.Config.Labels[labelManaged] != "1" {
		return info, fmt.Errorf("docker: container %s is not an agentenkit sandbox: %w", short(id), sandbox.ErrGone)
	}
	if info.State == nil || !info.State.Running || info.State.Status == "removing" || info.State.Status == "exited" || info.State.Status == "dead" {
		return info, fmt.Errorf("docker: sandbox %s has ended: %w", short(id), sandbox.ErrGone)
	}
	return info, nil
}

func short(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
