package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/agentenkit/agentenkit"
	"github.com/agentenkit/agentenkit/providers/docker"
	"github.com/agentenkit/agentenkit/providers/e2b"
	localsandbox "github.com/agentenkit/agentenkit/providers/local"
	"github.com/agentenkit/agentenkit/providers/memory"
	"github.com/agentenkit/agentenkit/providers/wasm"
	"github.com/agentenkit/agentenkit/runtime/kv"
	"github.com/agentenkit/agentenkit/runtime/kv/sqlitekv"
	"github.com/agentenkit/agentenkit/runtime/storage/memstorage"
	"github.com/agentenkit/agentenkit/sandbox"
)

// providerNames lists what --provider takes.
var providerNames = []string{"wasm", "local", "docker", "e2b", "memory"}

// defaultProvider is the embedded default: in-process, isolated, no daemon.
const defaultProvider = "wasm"

// The environment the CLI reads at start.
const (
	// envProvider names the provider when --provider is not given.
	envProvider = "AGENTENKIT_PROVIDER"
	// envDockerImage is the docker provider's image.
	envDockerImage = "AGENTENKIT_DOCKER_IMAGE"
	// E2B: the API key, the domain, and (for self-hosted or test servers)
	// the control plane's and envd's base URLs.
	envE2BKey        = "E2B_API_KEY"
	envE2BDomain     = "E2B_DOMAIN"
	envE2BAPIURL     = "AGENTENKIT_E2B_API_URL"
	envE2BSandboxURL = "AGENTENKIT_E2B_SANDBOX_URL"
)

// defaultDockerImage is the docker provider's image when
// $AGENTENKIT_DOCKER_IMAGE names none: it has bash and python3, for the
// bash and code_execution tools. It is not pulled by the CLI: when the
// engine does not have it, the error says how to get it or another.
const defaultDockerImage = "python:3.12-slim"

// The image the docker adapter's tests build from Debian packages, with no
// registry: the way out where docker pull cannot reach one.
const (
	buildImagesScript = "providers/docker/testdata/build-images.sh"
	builtPythonImage  = "agentenkit-test-python:1"
)

// providerFlag adds --provider to fs.
func providerFlag(fs *flag.FlagSet) *string {
	def := os.Getenv(envProvider)
	if def == "" {
		def = defaultProvider
	}
	return fs.String("provider", def, "sandbox adapter: "+strings.Join(providerNames, ", ")+"; $"+envProvider+" sets the default")
}

// newProvider returns the provider named by --provider, configured from the
// environment where it needs settings. store, when not nil, is the kv a wasm
// provider keeps its sandboxes in (so that the next process finds them);
// nil keeps them in this process's memory.
func newProvider(ctx context.Context, e *env, name string, store kv.Store) (sandbox.Provider, error) {
	switch name {
	case "wasm":
		paths, err := ensureWasmImages(ctx, e.stderr)
		if err != nil {
			return nil, err
		}
		return wasm.New(wasm.Options{Kv: store, ImagesDir: paths.Dir}), nil
	case "local":
		p := localsandbox.New(localsandbox.Options{Root: filepath.Join(agentenkit.StateDir(), "local")})
		if err := p.Err(); err != nil {
			return nil, withHint(err, "set $AGENTENKIT_STATE_DIR to a folder you can write")
		}
		return p, nil
	case "docker":
		img := cmp.Or(os.Getenv(envDockerImage), defaultDockerImage)
		p := docker.New(docker.Options{Image: img})
		if err := p.Ping(ctx); err != nil {
			return nil, withHint(err, "start the Docker engine (or set DOCKER_HOST), or use --provider wasm, which needs no daemon")
		}
		return dockerProvider{p, img}, nil
	case "e2b":
		key := os.Getenv(envE2BKey)
		if key == "" {
			return nil, withHint(errors.New("the e2b provider needs an API key in $"+envE2BKey),
				"get one at https://e2b.dev/dashboard and `export %s=e2b_...`; $%s and $%s point at another E2B deployment", envE2BKey, envE2BDomain, envE2BAPIURL)
		}
		p, err := e2b.New(key, e2b.Options{
			Domain:     os.Getenv(envE2BDomain),
			APIURL:     os.Getenv(envE2BAPIURL),
			SandboxURL: os.Getenv(envE2BSandboxURL),
		})
		if err != nil {
			return nil, withHint(err, "check $%s, $%s and $%s", envE2BDomain, envE2BAPIURL, envE2BSandboxURL)
		}
		return p, nil
	case "memory":
		return memory.New(memory.Options{}), nil
	}
	return nil, withHint(fmt.Errorf("unknown provider %q", name), "use one of: %s", strings.Join(providerNames, ", "))
}

// dockerProvider says what to do when a create fails, the image being the
// usual trouble.
type dockerProvider struct {
	*docker.Provider
	image string
}

// Create makes a sandbox, and says what to do when that fails.
func (d dockerProvider) Create(ctx context.Context, opts sandbox.CreateSandboxOptions) (sandbox.Sandbox, error) {
	sb, err := d.Provider.Create(ctx, opts)
	if err != nil {
		return nil, dockerCreateError(err, cmp.Or(opts.Image, d.image))
	}
	return sb, nil
}

// dockerCreateError is err, from creating a sandbox of image img, with a
// hint on what to do. An image missing on the engine (docker.ErrImageMissing)
// gets its own message and three ways out: set $AGENTENKIT_DOCKER_IMAGE to
// an image the engine has, docker pull (or build) img, or build the project's
// python image from Debian packages with build-images.sh where no registry
// is reachable.
func dockerCreateError(err error, img string) error {
	requirement := "it needs bash or sh, and python3 for code_execution"
	if !errors.Is(err, docker.ErrImageMissing) {
		return withHint(err, "check $%s (now %s): the engine must have it (`docker images`); %s", envDockerImage, img, requirement)
	}
	get := fmt.Sprintf("pull it: `docker pull %s`", img)
	if img != defaultDockerImage {
		get = fmt.Sprintf("pull or build it (`docker pull %s`)", img)
	}
	return withHint(fmt.Errorf("docker: %s: %w, and the CLI pulls none by itself", img, docker.ErrImageMissing),
		"set $%s to an image the engine has (`docker images`; %s), or %s; with no registry in reach, build one from Debian packages with %s python (in the agentenkit source) and `export %s=%s`",
		envDockerImage, requirement, get, buildImagesScript, envDockerImage, builtPythonImage)
}

// openKv opens the kv the runtime keeps threads' sandboxes in: the SQLite
// file kv.sqlite in agentenkit.StateDir(), shared by every process.
func openKv() (kv.Store, error) {
	file := filepath.Join(agentenkit.StateDir(), "kv.sqlite")
	store, err := sqlitekv.Open(file)
	if err != nil {
		return nil, kvOpenError(err, file)
	}
	return store, nil
}

// kvOpenError says what to do about a kv file that does not open: a
// damaged file (SQLite's CORRUPT or NOTADB) is not a folder problem.
func kvOpenError(err error, file string) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return withHint(err, "the state file %s is damaged: move it away (`mv %s %s.damaged`) and the next command starts afresh, with no threads or sandboxes; or point $AGENTENKIT_STATE_DIR at another folder", file, file, file)
		}
	}
	return withHint(err, "set $AGENTENKIT_STATE_DIR to a folder you can write")
}

// state is what a command that keeps sandboxes per thread works with.
type state struct {
	kv       kv.Store
	provider sandbox.Provider
	rt       *agentenkit.Runtime
}

// openState opens the kv, the provider (its sandboxes in the same kv) and a
// runtime over both.
func openState(ctx context.Context, e *env, providerName string) (*state, error) {
	store, err := openKv()
	if err != nil {
		return nil, err
	}
	p, err := newProvider(ctx, e, providerName, store)
	if err != nil {
		store.Close()
		return nil, err
	}
	rt, err := agentenkit.SetupAgentCore(ctx, agentenkit.RuntimeOptions{
		Kv:      store,
		Storage: memstorage.New(memstorage.Options{}),
		Tools:   agentenkit.BuiltinToolPorts{Sandbox: p},
	})
	if err != nil {
		store.Close()
		return nil, err
	}
	return &state{kv: store, provider: p, rt: rt}, nil
}

// Close closes the kv.
func (s *state) Close() error { return s.kv.Close() }
